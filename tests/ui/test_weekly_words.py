"""Words a weekly table tripped on (issue #36, items 5, 7 and 9), on the screen model.

The free-tile page offers only the other tile; at ``pace=brisk`` the VIP's answer says it
starts the flight (it does, at once); the game's end says its complaints by source; every
page the menu reaches has words of its own, never the panel's key hints.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.games.now_boarding import NowBoarding
from companion.games.now_boarding.rules import Complaint, setup_pages
from companion.ui.views import now_boarding_words as words
from companion.ui.views.menu import menu_screen

NEXT, UP, DOWN, BACK = Button.NEXT, Button.UP, Button.DOWN, Button.BACK
KEY_HINTS = re.compile(r"NEXT|BACK|UP/D")


def setup_at(page: str, **options: str):
    state = NowBoarding().new({"players": "3", "pace": "steps", **options}, 1)
    return replace(state, page=setup_pages(state).index(page))


@pytest.mark.parametrize(("tile", "offered", "not_offered"),
                         [("seat", "down", "up"), ("speed", "up", "down")])
def test_the_free_tile_page_offers_only_the_other_tile(tile, offered, not_offered):
    state = setup_at("free-0")
    state = replace(state, free_tiles=(tile, "seat", "seat"))
    keys = dict(words.setup(state)["keys"])
    assert offered in keys and not_offered not in keys


def test_at_brisk_the_vip_answer_says_it_starts_the_flight():
    state = NowBoarding().new({"players": "3", "pace": "brisk", "vip": "on"}, 1)
    state = replace(state, phase="maintenance", step="vip", page=1, serve_vip=True, round=2)
    said = words.vip(state)
    assert dict(said["keys"])["next"].endswith(": start the flight")
    assert said["then"] == "Next: the flight of round 3"
    assert "the answer starts the flight" in said["say"]
    asked = words.vip(replace(state, page=0))
    assert dict(asked["keys"])["down"] == "No VIP: start the flight"
    steps = replace(state, pace="steps")
    assert not dict(words.vip(steps)["keys"])["next"].endswith("flight")


def test_the_game_end_says_its_complaints_by_source():
    state = NowBoarding().new({"players": "3"}, 1)
    state = replace(state, phase="over", step="over", result="lose", complaints=3,
                    reason="angry passengers",
                    complaint_log=(Complaint(2, "anger", 2), Complaint(4, "vip", 1)))
    assert words.over(state)["say"].endswith(
        "Complaints 3: waiting passengers 2, unserved VIPs 1, undelivered at the end 0.")


def menu_at(*gestures: tuple[Button, str]):
    """The menu over a Now Boarding game in play, after ``gestures``."""
    app = App([NowBoarding()])
    state, _ = app.new_game(AppState(), "now-boarding", {}, 1, 0.0)
    state, _ = app.gesture(state, Gesture("press", BACK, 1.0), 1.0)
    for at, (button, kind) in enumerate(gestures, start=2):
        state, _ = app.gesture(state, Gesture(kind, button, float(at)), float(at))
    return app, state


def test_the_replace_and_power_off_questions_say_no_key_hints():
    app, state = menu_at((DOWN, "press"), (NEXT, "press"))  # Now Boarding, over a game
    assert state.menu is not None and state.menu.page == "replace"
    screen = menu_screen(app, state)
    assert screen.say == "Replace the Now Boarding game? It stays in Resume a game."
    app, state = menu_at((UP, "press"), (UP, "press"), (UP, "press"), (NEXT, "press"))
    assert state.menu is not None and state.menu.page == "power-off"
    screen = menu_screen(app, state)
    assert screen.say and not KEY_HINTS.search(screen.say)
