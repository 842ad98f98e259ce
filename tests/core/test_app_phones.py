"""The table page's two marks on the box (core/app.py, issue #15): the pairing code in the
alert box until its deadline, and "Forget phones" as the menu's last row."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


PHONE = "192.168.1.20"


def showing(app, state, code, until=120.0, client=PHONE):
    """``state`` with ``client``'s pairing code on the display until ``until``."""
    state, shown = app.show_pair_code(state, client, code, until)
    assert shown
    return state


def codes(state):
    return [pair.code for pair in state.pairings]


def test_the_pair_code_shows_until_its_deadline_and_is_a_wake_up():
    app = App([RoundTimer()])
    state = showing(app, AppState(), "123456")
    assert screen_for(app, state, 0.0).title == "Pair code 123456"
    assert app.next_wake(state, 0.0) == 120.0
    state, _ = app.tick(state, 119.9)
    assert codes(state) == ["123456"]
    state, _ = app.tick(state, 120.0)
    assert codes(state) == []
    assert "Pair" not in screen_for(app, state, 120.0).title
    assert app.next_wake(state, 120.0) is None


def test_the_pair_code_takes_the_title_keeps_the_alert_and_stays_out_of_the_state_json():
    """Issue #19: the code covered the game's bottom lines; it now takes the title bar, so
    the body, the main line and an alert box stay in view."""
    app = App([RoundTimer()])
    plain = replace(AppState(), notice="refused")
    state = replace(showing(app, AppState(), "65432100"), notice="refused")
    shown = screen_for(app, state, 0.0)
    assert shown.title == "Pair code 65432100"
    assert shown.alert == screen_for(app, plain, 0.0).alert == ("refused",)
    assert shown.lines == screen_for(app, plain, 0.0).lines
    assert "65432100" not in str(app.to_json(state, 0.0))


def test_a_game_started_while_pairing_keeps_the_code_on_screen():
    app = App([RoundTimer()])
    state = showing(app, AppState(), "11122233")
    state, _ = app.new_game(state, "timer", {}, 1, 5.0)
    assert codes(state) == ["11122233"]
    assert app.next_wake(state, 5.0) == 120.0
    assert codes(app.show_pair_code(state, PHONE, None, 0.0)[0]) == []


@given(st.text(alphabet="0123456789", max_size=8), st.text(alphabet="0123456789", max_size=8))
def test_pair_code_comparison_is_plain_equality(typed: str, code: str) -> None:
    """The core compares codes without hmac (which would load OpenSSL into every box)."""
    from companion.core.table_page import _same_code

    assert _same_code(typed, code) == (typed == code)
    assert _same_code(code, code)
