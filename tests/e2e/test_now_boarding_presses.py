"""Presses a table makes, counted through `companion simulate` (issue #35, "Fewer taps").

One ``companion simulate`` process on standard input plays whole games, a line at a time,
deciding each press from the ``state`` it answers, as a table accepting every default would
(NEXT everywhere: a VIP served whenever one is offered; every flight ended by NEXT). "Which
VIP?" has no default (issue #36: no card is preselected), so there the table chooses the first
card (DOWN) before NEXT: that choice is counted apart. Counted: the setup, from ``new`` to the
first flight's ``ready`` (at most 8 presses, VIP cards on, 2 to 5 players, plus the one that
chooses the first VIP served), and every ordinary round (no VIP offered, no
stage change, not the final round), from one ``ready`` to the next: at most 5 at
``pace=steps`` (start, end, the anger page, the draw, the upgrades page) and exactly 2 at
``pace=brisk`` (start and end: the brisk card's NEXT starts the next flight).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


class Simulated:
    """A ``companion simulate`` process on standard input: a line, its one reply."""

    def __init__(self, tmp_path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "simulate", "--state-dir", str(tmp_path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.presses = 0

    def line(self, text: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline().strip()
        assert reply.startswith("ok"), (text, reply)
        if text.startswith(("press", "hold")):
            self.presses += 1
        return reply

    def state(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(self.line("state").removeprefix("ok "))
        return body

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=60) == 0


def _special(body: dict[str, Any]) -> bool:
    """Whether ``body`` is a step an ordinary round does not have: a VIP offered, a deck
    found empty (a stage change, unserved VIPs, the final round next), new weather."""
    card = body["turnaround"] or {}
    return (body["step"] in ("vip", "weather", "exit")
            or (body["step"] == "passengers" and body["draw"]["empty"])
            or bool(card.get("vip_offer") or card.get("new_stage") or card.get("final_next")))


def whole_game(box: Simulated, options: str) -> tuple[int, int, list[int]]:
    """A whole game with every default: the setup's presses (``new`` to the first ``ready``),
    those of them that chose which VIP card it is, and each ordinary round's (from one
    flight's start to the next's)."""
    box.presses = 0
    box.line(f"new now-boarding {options}")
    setup: int | None = None
    chose = 0  # presses that chose a VIP card before the first flight
    ordinary: list[int] = []
    started: int | None = None  # presses when the current flight started
    plain, before = True, ""
    for _ in range(3000):
        body = box.state()
        if body["phase"] == "over":
            return setup or 0, chose, ordinary
        if body["step"] == "ready" and setup is None:
            setup = box.presses
        if body["step"] == "flight" and before != "flight":
            if started is not None and plain and not body["final_round"]:
                ordinary.append(box.presses - started)
            started, plain = box.presses, True
        plain, before = plain and not _special(body), body["step"]
        if body["ask"] == "which" and body["vip_offer"] is None:  # no card chosen yet
            chose += setup is None
            box.line("press down")
            continue
        box.line("press up" if body["step"] == "exit" and body["pending"] == 0 else
                 "press next")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_takes_at_most_8_presses_and_an_ordinary_round_at_most_5(tmp_path, players):
    box = Simulated(tmp_path)
    try:
        setup, chose, rounds = whole_game(box, f"players={players} vip=on timer=off seed=7")
        assert chose == 1, chose  # the first draw's VIP, served: the table said which card
        assert setup - chose <= 8, setup
        assert rounds and max(rounds) <= 5, rounds
        plain, chose, plain_rounds = whole_game(box, f"players={players} timer=off seed=7")
        assert chose == 0
        assert plain <= 5, plain  # no VIP cards: the table, the planes, the draw, the weather
        assert plain_rounds and set(plain_rounds) == {5}, plain_rounds
    finally:
        box.close()


@pytest.mark.parametrize("players", [2, 5])
def test_brisk_stays_at_2_presses_a_round_with_the_short_setup(tmp_path, players):
    box = Simulated(tmp_path)
    try:
        setup, chose, rounds = whole_game(box, f"players={players} vip=on pace=brisk timer=off "
                                                "seed=7")
        assert chose == 1, chose
        assert setup - chose <= 8, setup
        assert rounds and set(rounds) == {2}, rounds
    finally:
        box.close()
