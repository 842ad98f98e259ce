"""The Flight Plan bank's step cards (issue #20, item 3): whole sentences for the table page,
from the same model as the panel.

Over every screen of the view's scenes (setup, purchases, amounts, a refusal, revenue,
deactivation, the win check, a debt, a win) and of random walks through whole games: each step
has a name and a whole instruction; every gesture a screen labels is one the game accepts at
that state (NEXT on a menu item, a purchase or a debt excepted: the bank may still refuse
it, and says why), and NEXT is never labelled once the game is over; the turn menu, payees and
debts are lists with the selection; purchases and payments are confirmed in words; the
full-text fields never change a pixel and the panel is the view's own.
"""

from __future__ import annotations

import random
import re

import pytest

from companion.core.app import App
from companion.games.flight_plan.game import FlightPlanBanker
from companion.testing.played import (
    GAME_GESTURES,
    PlayedGame,
    check_plain_words,
    check_words_not_drawn,
)
from companion.ui.screen import Screen
from companion.ui.views import screen_for
from companion.ui.views.flight_plan import SCENES, flight_plan_screen


class Played(PlayedGame):
    """A Flight Plan game whose every screen's words are checked after every input."""

    def __init__(self, line: str) -> None:
        words = line.split()
        assert words[:2] == ["new", "flight-plan"]
        options = dict(word.split("=", 1) for word in words[2:])
        super().__init__(App([FlightPlanBanker()]), "flight-plan", options)
        self.steps: set[str] = set()
        self.done: list[str] = []
        self.look()

    def look(self) -> Screen:
        screen = screen_for(self.app, self.state, self.t)
        check_words(self, screen)
        self.steps.add(str(self.json["step"]))
        if screen.done:
            self.done.append(screen.done)
        return screen


def check_words(played: Played, screen: Screen) -> None:
    state = played.json
    keys = dict(screen.keys)
    check_plain_words(screen)
    for gesture in GAME_GESTURES:
        # NEXT on a menu item, a purchase or a debt may still meet the bank's refusal (cash,
        # region limit, no hub city): the alert says why. Everywhere else a label is a promise.
        bank_decides = gesture == "next" and state["step"] in (
            "menu", "route", "fleet", "hub", "deactivate", "debt")
        if gesture in keys and not bank_decides:
            assert played.accepts(gesture), (state["step"], gesture, keys, screen.say)
    if state["step"] == "over":
        assert "next" not in keys and keys["back"] == "Menu"
        assert screen.heading.startswith("Game over: P")
    if state["step"] in ("menu", "payee", "debt") and screen.choices:
        assert screen.chosen is not None
    if state["step"] == "menu":
        assert len(screen.choices) == 10 and keys["next"] == screen.choices[screen.chosen]
    session = played.state.session
    assert session is not None
    panel = flight_plan_screen(session.state, played.t)
    check_words_not_drawn(screen, panel, box_alert=True)


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_every_screen_of_the_scenes_says_its_step_in_words(scene: str) -> None:
    first, *lines = SCENES[scene]
    played = Played(first)
    for line in lines:
        played.line(line)
    if scene == "flight-plan-win":
        assert played.json["step"] == "over"
        assert any(re.fullmatch(r"P\d bought route \d+ for \$\d+M: \$\d+M left\.", done)
                   for done in played.done), played.done


@pytest.mark.parametrize("seed", range(6))
def test_random_walks_through_whole_games_keep_to_their_words(seed: int) -> None:
    rng = random.Random(seed)
    played = Played(f"new flight-plan players={3 + seed % 4} seed={seed} guide=example")
    lines = ["press next"] * 5 + ["press up", "press down", "hold up", "hold down",
                                   "hold next"] * 1
    for _ in range(500):
        if played.json["step"] == "over":
            break
        played.line(rng.choice([*lines, "press next", "press next"]))
    assert {"deal", "menu"} <= played.steps
    assert len(played.steps) >= 6, played.steps


def test_a_purchase_and_a_payment_are_confirmed_in_words() -> None:
    played = Played("new flight-plan players=3 seed=7 guide=example")
    for line in SCENES["flight-plan-revenue"][1:]:
        played.line(line)
    assert any(re.fullmatch(r"P1 bought route \d+ for \$\d+M: \$\d+M left\.", done)
               for done in played.done), played.done
    assert any(re.fullmatch(r"P\d bought the \w+ fleet for \$\d+M: \$\d+M left\.", done)
               for done in played.done), played.done
