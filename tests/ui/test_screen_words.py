"""The screen model's full-text fields (issue #20, item 3): whole sentences for the table
page, from the same model as the panel.

Over every screen of whole Now Boarding games (every player count, VIPs on and off, strict,
untimed): each step has a name and a whole instruction; every gesture it labels is one the
box has and says what it does now (NEXT until the game is over, never after; no pause where
the rules refuse it); the upgrades list all five rows with the selected one; a purchase and
complaints filed are confirmed in words; no VIP card is named before the table says yes;
"TIME UP" and "0:00" are never said; and the full-text fields never change a pixel.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

import pytest

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import RuleError
from companion.games.now_boarding import NowBoarding, data
from companion.testing.played import (
    BLANK,
    check_no_time_up,
    check_plain_words,
    wording_problems,
    words_of,
)
from companion.ui.render import render
from companion.ui.screen import Screen
from companion.ui.views import screen_for

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN


class Played:
    """A game whose every screen's words are checked after every input."""

    def __init__(self, **options: str) -> None:
        self.app = App([NowBoarding()])
        self.t = 0.0
        self.options = options
        self.state, _ = self.app.new_game(AppState(), "now-boarding", options, 3, 0.0)
        self.seen: dict[str, Screen] = {}
        self.done: list[str] = []
        self.wording: list[str] = []
        self.look()

    @property
    def json(self) -> dict[str, object]:
        return self.app.to_json(self.state, self.t)

    @property
    def step(self) -> str:
        return str(self.json["step"])

    def look(self) -> Screen:
        screen = screen_for(self.app, self.state, self.t)
        check_words(screen, self.json, self.options)
        self.wording += [problem for problem in wording_problems(screen)
                         if problem not in self.wording]
        self.seen.setdefault(self.step, screen)
        if screen.done:
            self.done.append(screen.done)
        return screen

    def gesture(self, button: Button, kind: Literal["press", "hold"] = "press") -> None:
        self.t += 0.3
        try:
            self.state, _ = self.app.gesture(
                self.state, Gesture(kind, button, self.t), self.t)
        except RuleError as error:
            self.state = self.app.refuse(self.state, error)
        self.look()

    def tick(self, seconds: float) -> None:
        self.t += seconds
        self.state, _ = self.app.tick(self.state, self.t)
        self.look()


def check_words(screen: Screen, state: dict[str, object], options: dict[str, str]) -> None:
    keys = dict(screen.keys)
    check_plain_words(screen)
    check_no_time_up(screen)
    words = words_of(screen)
    step = state["step"]
    if step == "vip" and state["ask"] == "serve?":  # face-down: no card named yet
        assert not any(name in words for name in data.VIP_BY_NAME), words
    if state["ask"] == "which" and state["vip_offer"] is None:  # said yes, no card chosen yet
        assert screen.chosen is None, screen.chosen  # (the list names every card possible)
        said = " ".join((screen.heading, screen.say, *keys.values()))
        assert not any(name in said for name in data.VIP_BY_NAME), said
    # The words are for the page: the panel's pixels are the same without them.
    assert render(screen).tobytes() == render(replace(screen, **BLANK)).tobytes()
    if state["lesson"] is not None:  # pace=teach: a lesson's card stands before the step's
        assert keys.get("next") == "Got it", keys
        return
    if step == "over":
        assert "next" not in keys and keys.get("back") == "Menu"
        assert screen.heading in ("Game over: WIN", "Game over: LOSS")
    else:
        assert "next" in keys, (step, keys)
    timer = state["timer"]
    assert isinstance(timer, dict)
    if step == "flight" and (options.get("strict") == "on" or options.get("timer") == "off"):
        assert keys.get("hold_next") != "Pause", keys
    if step == "flight" and timer["state"] == "paused":
        assert keys["hold_next"] == "Resume"
    if step == "upgrades":
        assert len(screen.choices) == len(data.UPGRADE_ITEMS)
        upgrade = state["upgrade"]
        assert isinstance(upgrade, dict)
        assert screen.chosen == data.UPGRADE_ITEMS.index(str(upgrade["item"]))
        if "hold_next" in keys:
            assert keys["hold_next"].startswith(("Buy ", "Mark it used")), keys


def play(played: Played, players: int) -> None:
    flights = 0
    for _ in range(3000):
        step = played.step
        if step == "over":
            return
        if step == "vip":
            played.gesture(NEXT)  # serve every VIP: the card is named after the yes
            if played.json["ask"] == "which" and played.json["vip_offer"] is None:
                played.gesture(DOWN)  # none is chosen as it opens: the table chooses the first
        elif step == "flight":
            flights += 1
            if played.options.get("timer") == "off":
                played.tick(5.0)
            else:
                played.gesture(NEXT, "hold")
                played.tick(2.0)
                played.gesture(NEXT, "hold")
                if flights % 2:
                    for _ in range(100):
                        played.tick(1.0)
                        if played.step != "flight":
                            break
                    continue
        elif step == "anger" and flights == 2:
            played.gesture(UP)
        elif step == "turnaround" and flights == 2 and not played.json["pending"]:
            played.gesture(UP)  # pace=brisk: a complaint on the card, then the upgrades
            played.gesture(NEXT, "hold")
            continue
        elif step == "upgrades":
            for _ in range(2):
                played.gesture(NEXT, "hold")
                played.gesture(DOWN)
        played.gesture(NEXT)
    raise AssertionError("the game does not end")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", [{"vip": "on"}, {"strict": "on"}, {"timer": "off"},
                                     {"weather": "digital"},
                                     {"pace": "brisk", "vip": "on", "weather": "digital"}])
def test_every_screen_of_a_whole_game_says_its_step_in_words(players: int,
                                                             options: dict[str, str]) -> None:
    played = Played(players=str(players), **options)
    play(played, players)
    assert played.step == "over"
    assert set(played.seen) >= {"setup", "passengers", "weather", "ready", "flight", "anger",
                                "upgrades", "exit", "over"}
    assert any(re.fullmatch(r"P\d bought .+", done) for done in played.done), played.done
    if options.get("pace") == "brisk":  # the card says the complaints, no step of their own
        assert "turnaround" in played.seen
    else:
        assert any(done.endswith(" of 3.") and "filed" in done for done in played.done)


def _choices(key: str) -> tuple[str | None, ...]:
    """The menu's choices of Now Boarding's option ``key`` (``(None,)`` if it has none): the
    test plays each, so a pace or a player count the game adds joins it by itself."""
    return next((spec.choices for spec in NowBoarding().options if spec.key == key), (None,))


@pytest.mark.parametrize("players", _choices("players"))
@pytest.mark.parametrize("pace", _choices("pace"))
def test_every_step_card_of_a_whole_game_reads_as_written_english(players: str,
                                                                  pace: str | None) -> None:
    """Issue #27, item 5: plurals, capitals and labels in words on every step card of a whole
    game (VIPs on, so their cards are read too), for every player count and pace."""
    options = {"players": players, "vip": "on", **({"pace": pace} if pace else {})}
    played = Played(**options)
    play(played, int(players))
    assert played.step == "over"
    assert played.wording == []


def test_the_big_button_says_start_then_end_flight() -> None:
    played = Played(players="3")
    while played.step != "ready":
        played.gesture(NEXT)
    assert dict(played.look().keys)["next"] == "Start flight"
    played.gesture(NEXT)
    assert dict(played.look().keys)["next"] == "End flight"
    assert dict(played.look().keys)["hold_next"] == "Pause"


def test_a_menu_lists_its_rows_with_the_selection() -> None:
    app = App([NowBoarding()])
    screen = screen_for(app, AppState(), 0.0)  # the box starts on its menu
    assert screen.selected is not None
    # Every row of the menu, not the panel's window of three (issue #27).
    assert screen.choices == tuple(app.menu_items(AppState()))
    assert set(screen.lines) <= set(screen.choices)
    assert screen.choices[screen.chosen] == screen.lines[screen.selected]
    assert screen.heading == screen.title
    assert screen.selected_text_line() == screen.text_lines().index(screen.lines[screen.selected])
