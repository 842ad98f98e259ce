"""Issue #27: the VIP card the box names is the card the table holds, and none is named sooner.

A model table deals its own VIP cards as the rulebook says (the nine shuffled, players + 2
face down, each by the deck its back names), tells the box the counts from the backs on the
setup pages, and when it serves a VIP turns over one of its own face-down cards of that stage
and says which it is. Over every player count and several seeds, through the line protocol
(the serial line's and simulate's replies; the web's own answers, ``/api/state`` and
``/api/screen``, in tests/web/test_vip_secrecy.py), it checks:

- every card the box records as served is one the table turned over, from that stage;
- no state JSON, screen line or page sentence names a card the table has not yet said it
  turned over; at the question "which card?" only the stage's cards not yet served are
  offered, the same list whatever the table dealt (so the list tells nothing);
- an unserved card still becomes a complaint: the box's complaints from VIPs equal the cards
  the table never served.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.games.now_boarding.data import STAGES, VIP_CARDS, vip_count
from companion.testing.simulated import simulated_controller

NAMES = sorted({card.name for card in VIP_CARDS})
Send = Callable[[str], str]


class ModelTable:
    """The table: its own VIP deal, its choices (seeded), and what it has turned over."""

    def __init__(self, players: int, seed: int) -> None:
        self.rng = random.Random(f"table:{players}:{seed}")
        cards = list(VIP_CARDS)
        self.rng.shuffle(cards)
        dealt = cards[:vip_count(players)]
        self.face_down = {stage: [card.name for card in dealt if card.stage == stage]
                          for stage in STAGES}
        self.dealt = {stage: list(names) for stage, names in self.face_down.items()}
        self.turned: list[tuple[str, str]] = []  # (stage, card) in the order served

    def said(self) -> set[str]:
        return {card for _, card in self.turned}


def state_of(send: Send) -> dict[str, Any]:
    return dict(json.loads(send("state").removeprefix("ok ")))


def screen_of(send: Send) -> dict[str, Any]:
    return dict(json.loads(send("screen").removeprefix("ok ")))


def named_in(text: str) -> set[str]:
    return {name for name in NAMES if name in text}


def check_secrecy(state: dict[str, Any], screen: dict[str, Any], table: ModelTable) -> None:
    """Outside the question "which card?", only cards the table said are named anywhere."""
    asking = state["step"] == "vip" and state["ask"] in ("which", "named")
    allowed = table.said() | (set(state["vip_choices"]) if asking else set())
    assert named_in(json.dumps(state)) <= allowed, state
    assert named_in(json.dumps(screen)) <= allowed, screen
    if asking:  # the list is the stage's cards not served yet: it says nothing of the deal
        stage = state["stage"]
        left = [card.name for card in VIP_CARDS if card.stage == stage]
        for served_stage, card in table.turned:
            if served_stage == stage:
                left.remove(card)
        assert state["vip_choices"] == left


def set_counts(send: Send, table: ModelTable) -> None:
    """On a setup VIP page, UP / DOWN until the box has the table's count for the stage."""
    state = state_of(send)
    stage = state["setup_page"]["key"].removeprefix("vip-")
    want = len(table.dealt[stage])
    if stage == STAGES[-1]:
        assert state["vips_dealt"][stage] == want  # the rest: derived by the box
        return
    while (have := state_of(send)["vips_dealt"][stage]) != want:
        assert send("press up" if want > have else "press down") == "ok"


def serve(send: Send, table: ModelTable) -> None:
    """Yes to "Serve a VIP?", turn over one of the stage's cards, tell the box which."""
    stage = state_of(send)["stage"]
    card = table.rng.choice(table.face_down[stage])
    assert send("press next") == "ok"  # yes
    for _ in range(3):
        check_secrecy(state_of(send), screen_of(send), table)
        if state_of(send)["vip_offer"] == card:
            break
        assert send("press down") == "ok"
    assert state_of(send)["vip_offer"] == card, "the box never offered the card turned over"
    table.face_down[stage].remove(card)
    table.turned.append((stage, card))
    assert send("press next") == "ok"


def play(send: Send, players: int, seed: int) -> tuple[ModelTable, dict[str, Any]]:
    """A whole ``vip=on`` game, no timer, no anger complaints; the table serves at random."""
    table = ModelTable(players, seed)
    assert send(f"new now-boarding players={players} vip=on timer=off seed={seed}") == "ok"
    for _ in range(2000):
        state = state_of(send)
        check_secrecy(state, screen_of(send), table)
        if state["phase"] == "over":
            return table, state
        if state["step"] == "setup" and state["setup_page"]["key"].startswith("vip-"):
            set_counts(send, table)
        if state["step"] == "vip" and state["ask"] == "serve?":
            if table.rng.random() < 0.6:
                serve(send, table)
            else:
                assert send("press down") == "ok"
            continue
        assert send("press next") == "ok", state
    raise AssertionError("the game did not end")


def check_books(table: ModelTable, end: dict[str, Any]) -> None:
    served = [(row["stage"], row["card"]) for row in end["vips_served"]]
    assert served == table.turned  # every card the box named is one the table turned over
    for stage, card in served:
        assert card in table.dealt[stage]
    unserved = sum(len(cards) for cards in table.face_down.values())
    from_vips = sum(row["vip"] for row in end["complaints_by_round"])
    if end["result"] == "win":
        assert from_vips == unserved
    else:  # lost to unserved VIPs: the game stops at the third complaint
        assert end["reason"].endswith(("an unserved VIP", "unserved VIPs"))
        assert from_vips <= unserved
    assert end["vips_dealt"] == {stage: len(cards) for stage, cards in table.dealt.items()}


@pytest.mark.parametrize("seed", [1, 7, 23])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_vip_the_box_names_is_one_the_table_holds(players, seed, tmp_path):
    model = simulated_controller(tmp_path)

    def send(line: str) -> str:
        return str(model.command_line(line))

    table, end = play(send, players, seed)
    check_books(table, end)
    model.journal.close()
