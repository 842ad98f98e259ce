"""The table page's two marks on the box (core/app.py, issue #15): the pairing code in the
alert box until its deadline, and "Forget phones" as the menu's last row."""

from dataclasses import replace

import pytest

from companion.core.app import FORGET_PHONES, App, AppState, ForgetPhones
from companion.core.buttons import Button, Gesture
from companion.games.timer import RoundTimer
from companion.ui.views import screen_for


def press(app, state, button, at=0.0):
    return app.gesture(state, Gesture("press", button, at), at)


@pytest.mark.parametrize(("phones", "last"), [(False, "Sound: on"), (True, FORGET_PHONES)])
def test_forget_phones_is_the_last_row_only_with_the_web_on(phones, last):
    assert App([RoundTimer()], phones=phones).menu_items(AppState())[-1] == last


def test_choosing_forget_phones_asks_the_runtime_to_revoke_and_says_so():
    app = App([RoundTimer()], phones=True)
    state, _ = press(app, AppState(), Button.UP)  # wraps to the last row
    state, effects = press(app, state, Button.NEXT)
    assert ForgetPhones() in effects
    assert "forgotten" in state.notice
    assert state.menu is not None  # the menu stays open


def test_the_pair_code_shows_until_its_deadline_and_is_a_wake_up():
    app = App([RoundTimer()])
    state = app.show_pair_code(AppState(), "123456", 120.0)
    assert "Pair code 123456" in screen_for(app, state, 0.0).alert
    assert app.next_wake(state, 0.0) == 120.0
    state, _ = app.tick(state, 119.9)
    assert state.pair_code == "123456"
    state, _ = app.tick(state, 120.0)
    assert state.pair_code is None
    assert not screen_for(app, state, 120.0).alert
    assert app.next_wake(state, 120.0) is None


def test_the_pair_code_wins_the_alert_box_and_stays_out_of_the_state_json():
    app = App([RoundTimer()])
    state = replace(app.show_pair_code(AppState(), "654321", 120.0), notice="refused")
    assert screen_for(app, state, 0.0).alert == ("Pair code 654321",)
    assert "654321" not in str(app.to_json(state, 0.0))


def test_a_game_started_while_pairing_keeps_the_code_on_screen():
    app = App([RoundTimer()])
    state = app.show_pair_code(AppState(), "111222", 120.0)
    state, _ = app.new_game(state, "timer", {}, 1, 5.0)
    assert state.pair_code == "111222"
    assert app.next_wake(state, 5.0) == 120.0
    assert app.show_pair_code(state, None, 0.0).pair_code is None
