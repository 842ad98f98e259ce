"""Counts said in words (issue #36, item 8): never "1 passengers", "+1 complaints" or "the 1
VIP card ... become", on the panel or the page, at any pace.

Whole Now Boarding games are played by a seeded table that files complaints, serves VIPs,
buys and leaves passengers undelivered, at every pace; every screen's text (the panel's lines
and the page's sentences, buttons and coach) is read for a count of one followed by a plural
noun. The three sentences the issue found are checked by name too.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import RuleError
from companion.games.now_boarding import NowBoarding
from companion.ui.views import now_boarding_words as words
from companion.ui.views import screen_for
from companion.ui.views.now_boarding import now_boarding_screen

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN

#: A count of one, then (a capitalised word or "+") a plural noun: "1 passengers",
#: "+1 complaints", "1 VIP cards". Words that end in "s" and are not plurals are let through.
ONE_MANY = re.compile(r"(?<![\d.:/$])\+?\b1 (?:[A-Z][A-Za-z]* )?([a-z]+s)\b")
NOT_PLURAL = {"is", "was", "has", "this", "plus", "its", "less", "across"}


def one_many(text: str) -> list[str]:
    return [found.group(0) for found in ONE_MANY.finditer(text)
            if found.group(1) not in NOT_PLURAL]


def screen_texts(app: App, state: AppState, now: float) -> list[str]:
    screen = screen_for(app, state, now)
    full = screen.full_text()
    keys = full["keys"]
    assert isinstance(keys, dict)
    return [*screen.text_lines(), str(full["heading"] or ""), str(full["say"] or ""),
            str(full["then"] or ""), str(full["done"] or ""), *map(str, full["choices"]),
            *map(str, full["coach"]), *map(str, keys.values())]


def play(pace: str, players: int, seed: int) -> list[str]:
    """A whole game by a seeded table; every text every screen showed."""
    rng = random.Random(seed)
    app = App([NowBoarding()])
    now = 0.0
    state, _ = app.new_game(AppState(), "now-boarding",
                            {"players": str(players), "vip": "on", "timer": "off",
                             "pace": pace}, seed, now)
    said: list[str] = []
    for _ in range(3000):
        said += screen_texts(app, state, now)
        body: dict[str, Any] = app.to_json(state, now)
        if body["phase"] == "over":
            return said
        choice = rng.random()
        button, kind = NEXT, "press"
        filing = {"anger": 0.15, "turnaround": 0.15, "exit": 0.6}.get(body["step"], 0.0)
        if choice < filing:
            button = UP
        elif body["step"] == "upgrades" and choice < 0.3:
            button, kind = (NEXT, "hold") if choice < 0.15 else (DOWN, "press")
        elif body["step"] == "vip" and body["ask"] == "serve?" and choice < 0.4:
            button = DOWN
        elif body["ask"] == "which" and body["vip_offer"] is None:  # none chosen yet
            button = DOWN if choice < 0.5 else UP  # the table chooses a card, first or last
        now += 1.0
        try:
            state, _ = app.gesture(state, Gesture(kind, button, now), now)
        except RuleError:
            state, _ = app.gesture(state, Gesture("press", NEXT, now), now)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("pace", ["teach", "steps", "brisk"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_no_screen_says_one_with_a_plural(pace: str, players: int) -> None:
    found: set[str] = set()
    for seed in range(6):
        for text in play(pace, players, seed):
            found.update(f"{hit!r} in {text!r}" for hit in one_many(text))
    assert not found, sorted(found)[:10]


@pytest.mark.parametrize(("text", "hits"), [
    ("+1 complaints = 3/3", ["+1 complaints"]),
    ("0 from the 1 passengers left undelivered", ["1 passengers"]),
    ("The 1 VIP card never served by it become 1 complaint", []),
    ("1 complaint, 2 passengers, $1 seats", []),
])
def test_the_check_finds_what_the_issue_found(text: str, hits: list[str]) -> None:
    assert one_many(text) == hits


def deck_found_empty(vips: int) -> Any:
    state = NowBoarding().new({"players": "3", "vip": "on", "pace": "steps"}, 1)
    return replace(state, phase="maintenance", step="passengers", decks=(0, 15, 32),
                   vip_waiting=(vips, 1, 2))


@pytest.mark.parametrize(("vips", "said"), [
    (1, "The VIP card never served by it becomes a complaint: 1 of 3."),
    (2, "The 2 VIP cards never served by them become 2 complaints: 2 of 3."),
])
def test_unserved_vips_are_said_as_one_or_many(vips: int, said: str) -> None:
    assert words.passengers(deck_found_empty(vips))["say"].endswith(said)


@pytest.mark.parametrize(("vips", "line"), [(1, "1 VIP card never served"),
                                            (2, "2 VIP cards never served")])
def test_the_panel_says_unserved_vips_as_one_or_many(vips: int, line: str) -> None:
    assert line in now_boarding_screen(deck_found_empty(vips), 0.0).text_lines()
