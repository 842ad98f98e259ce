"""The Now Boarding v3 prototype's step cards (issue #20, item 3): whole sentences for the
table page, from the same model as the panel.

Over every screen of whole v3 games (every player count, basic and advanced, timed and
untimed, a Departure that runs out, the "too few tiles" ending, the advanced game lost): each
step has a name and a whole instruction; every gesture a screen labels is one the game
accepts at that state, and every game gesture it does not label is one the game refuses; the
purchase list is whole; how a Departure ended and each score pile entered are confirmed in
words; "TIME UP" and "0:00" are never said; the full-text fields never change a pixel and the
panel's lines are the view's own.
"""

from __future__ import annotations

import re
from typing import Literal

import pytest

from companion.core.app import App
from companion.core.buttons import Button, Gesture
from companion.games import now_boarding_v3 as v3
from companion.games.now_boarding_v3 import NowBoardingV3Game
from companion.testing.played import (
    GAME_GESTURES,
    PlayedGame,
    check_no_time_up,
    check_plain_words,
    check_words_not_drawn,
)
from companion.ui.screen import Screen
from companion.ui.views import screen_for
from companion.ui.views.now_boarding_v3 import now_boarding_v3_screen
from companion.ui.views.now_boarding_v3_words import PURCHASES

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN


class Played(PlayedGame):
    """A v3 game whose every screen's words are checked after every input."""

    def __init__(self, **options: str) -> None:
        super().__init__(App([NowBoardingV3Game()]), "now-boarding-v3", options)
        self.seen: dict[str, Screen] = {}
        self.done: list[str] = []
        self.look()

    @property
    def step(self) -> str:
        return str(self.json["step"])

    def look(self) -> Screen:
        screen = screen_for(self.app, self.state, self.t)
        check_words(self, screen)
        self.seen.setdefault(self.step, screen)
        if screen.done:
            self.done.append(screen.done)
        return screen

    def gesture(self, button: Button, kind: Literal["press", "hold"] = "press") -> None:
        self.t += 0.3
        self.state, _ = self.app.gesture(self.state, Gesture(kind, button, self.t), self.t)
        self.look()

    def tick(self, seconds: float) -> None:
        self.t += seconds
        self.state, _ = self.app.tick(self.state, self.t)
        self.look()


def check_words(played: Played, screen: Screen) -> None:
    state = played.json
    keys = dict(screen.keys)
    check_plain_words(screen)
    check_no_time_up(screen)
    # A label for every gesture the game takes now, and none for one it refuses.
    for gesture in GAME_GESTURES:
        assert (gesture in keys) == played.accepts(gesture), (state["step"], gesture, keys)
    if state["phase"] == "over":
        assert keys.get("back") == "Menu" and "next" not in keys
        assert screen.heading.startswith("Game over")
    if state["step"] in ("purchase", "final-purchase"):
        assert screen.choices == PURCHASES and screen.chosen is None
    # The words are for the page: the panel is the view's own, pixel for pixel.
    session = played.state.session
    assert session is not None
    panel = now_boarding_v3_screen(session.state, played.t)
    check_words_not_drawn(screen, panel)


def play(played: Played, totals: int = 3, run_out: bool = True) -> None:
    """NEXT through a whole game: every timed Departure started, one paused and resumed, the
    odd ones run out; at each Arrival of day 1 a passenger lost and taken back, one kept lost at
    round 1; each
    player enters ``totals``."""
    departures = 0
    for _ in range(2000):
        step = played.step
        if played.json["phase"] == "over":
            return
        if step == "departure" and played.json["timer"]["state"] == "idle" \
                and played.json["timed"]:
            departures += 1
            played.gesture(NEXT)  # start the timer
            played.gesture(NEXT, "hold")
            played.tick(2.0)
            played.gesture(NEXT, "hold")
            if run_out and departures % 2:
                while played.step == "departure":
                    played.tick(5.0)
                continue
        elif step == "arrival" and played.json["day"] == 1:
            played.gesture(UP)
            played.gesture(DOWN)
            if played.json["round"] == 1:
                played.gesture(UP)
        elif step == "entry":
            while played.json["entry"]["draft"] < totals:
                played.gesture(UP)
        played.gesture(NEXT)
    raise AssertionError("the game does not end")


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("options", [{}, {"variant": "advanced"}, {"timer": "30"},
                                     {"variant": "advanced", "timer": "off"}])
def test_every_screen_of_a_whole_v3_game_says_its_step_in_words(
        players: int, options: dict[str, str]) -> None:
    played = Played(players=str(players), **options)
    play(played)
    state = played.json
    assert state["phase"] == "over" and state["result"]["score"] == 3
    assert set(played.seen) >= {"setup", "departure", "arrival", "purchase", "redeye-lost",
                                "final-purchase", "shuffle-score-piles", "new-city",
                                "game-over", "entry", "over"}
    assert played.seen["over"].heading == "Game over: final score 3"
    assert "P1's score pile: 3." in played.done
    if state["timed"]:
        assert "The Departure's time ran out." in played.done
        assert any(re.fullmatch(r"The Departure ended with \d:\d\d left\.", done)
                   for done in played.done), set(played.done)


def test_the_big_button_follows_a_timed_departure() -> None:
    played = Played(players="3", variant="advanced")
    assert dict(played.look().keys)["next"] == "Start day 1"
    played.gesture(NEXT)
    keys = dict(played.look().keys)
    assert (keys["next"], keys["down"]) == ("Start the timer", "Too few tiles left")
    assert "hold_next" not in keys
    played.gesture(NEXT)
    keys = dict(played.look().keys)
    assert (keys["next"], keys["hold_next"]) == ("End Departure", "Pause")
    assert "down" not in keys
    played.gesture(NEXT, "hold")
    assert dict(played.look().keys)["hold_next"] == "Resume"
    played.gesture(NEXT)
    screen = played.look()
    assert screen.heading == "Day 1, round 1: Arrival"
    assert dict(screen.keys) == {"next": "Arrival done", "up": "One more lost passenger",
                                 "hold_back": "Undo"}
    assert screen.done == "The Departure ended with 1:00 left."


def test_the_lost_pile_says_when_one_more_loses_the_advanced_game() -> None:
    played = Played(players="3", variant="advanced", timer="off")
    played.gesture(NEXT)
    played.gesture(NEXT)
    for _ in range(6):
        played.gesture(UP)
    screen = played.look()
    assert "the most it may hold" in screen.say
    assert dict(screen.keys)["up"] == "One more lost: the game is lost"
    played.gesture(UP)
    screen = played.look()
    assert screen.heading == "Game over: LOSS"
    assert "more than 2 x 3 = 6" in screen.say


def test_too_few_tiles_is_a_choice_in_words_and_ends_the_game() -> None:
    played = Played(players="4")
    played.gesture(NEXT)
    played.gesture(DOWN)
    screen = played.look()
    assert screen.heading == "Departure: too few tiles?"
    assert dict(screen.keys) == {"next": "End the game and score it",
                                 "up": "Back to the Departure", "hold_back": "Undo"}
    played.gesture(NEXT)
    assert played.look().say.startswith("Too few passenger tiles were left to draw")


def test_the_redeye_draws_nothing_and_offers_no_short_ending() -> None:
    played = Played(players="3")
    for _ in range(1 + 5 * 3):
        played.gesture(NEXT)
    screen = played.look()
    assert screen.heading == "Day 1, the Redeye: Departure"
    assert "draw no passengers" in screen.say
    assert "down" not in dict(screen.keys)


@pytest.mark.parametrize("day", [1, 2, 3])
def test_a_departure_says_how_many_to_draw(day: int) -> None:
    played = Played(players="5")
    played.gesture(NEXT)
    while played.json["day"] < day:
        played.gesture(NEXT)
    screen = played.look()
    airports = v3.airports_per_player(day)
    assert f"draws {airports} passenger tiles" in screen.say
    assert f"({airports * 5} in all)" in screen.say
