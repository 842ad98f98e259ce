"""The table page's marks on the box (core/app.py, issues #15 and #28): the pairing window
opened at the box, its code and countdown in the title bar, its budgets of wrong codes, and
"Forget phones" as the menu's last row."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.app import FORGET_PHONES, App, AppState, ForgetPhones
from companion.core.buttons import Button, Gesture
from companion.core.table_page import (
    CLIENT_WRONG_CODES,
    CLOSED_NOTICE,
    WINDOW_WRONG_CODES,
    open_pairing,
)
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


def showing(app, state, code, now=0.0):
    """``state`` with pairing opened at ``now`` and ``code`` on the display."""
    state, shown = app.show_pair_code(open_pairing(state, now), code, now)
    assert shown
    return state


def code_of(state):
    return None if state.pairing is None else state.pairing.code


def test_the_window_counts_down_on_the_title_bar_and_is_a_wake_up_each_second():
    app = App([RoundTimer()])
    state = showing(app, AppState(), "123456")
    assert screen_for(app, state, 0.0).title == "Pair 123456 2:00"
    assert screen_for(app, state, 0.5).title == "Pair 123456 2:00"
    assert screen_for(app, state, 61.0).title == "Pair 123456 0:59"
    assert app.next_wake(state, 0.0) == 1.0
    assert app.next_wake(state, 0.25) == 1.0
    state, _ = app.tick(state, 119.9)
    assert code_of(state) == "123456"
    state, _ = app.tick(state, 120.0)
    assert state.pairing is None
    assert "Pair" not in screen_for(app, state, 120.0).title
    assert app.next_wake(state, 120.0) is None


def test_before_any_phone_asks_the_title_says_pairing_is_open():
    app = App([RoundTimer()])
    state = open_pairing(AppState(), 0.0)
    assert screen_for(app, state, 0.0).title == "Pairing open 2:00"


def test_the_code_takes_the_title_keeps_the_alert_and_stays_out_of_the_state_json():
    """Issue #19: the code covered the game's bottom lines; it now takes the title bar, so
    the body, the main line and an alert box all stay in view."""
    app = App([RoundTimer()])
    plain = replace(AppState(), notice="refused")
    state = replace(showing(app, AppState(), "65432100"), notice="refused")
    shown = screen_for(app, state, 0.0)
    assert shown.title == "Pair 65432100 2:00"
    assert shown.alert == screen_for(app, plain, 0.0).alert == ("refused",)
    assert shown.lines == screen_for(app, plain, 0.0).lines
    assert "65432100" not in str(app.to_json(state, 0.0))


def test_a_game_started_while_pairing_keeps_the_window():
    app = App([RoundTimer()])
    state = showing(app, AppState(), "11122233")
    state, _ = app.new_game(state, "timer", {}, 1, 5.0)
    assert code_of(state) == "11122233"
    assert app.next_wake(state, 5.0) == 6.0


def test_no_code_is_shown_or_judged_while_pairing_is_closed():
    app = App([RoundTimer()])
    state, shown = app.show_pair_code(AppState(), "123456", 0.0)
    assert (state, shown) == (AppState(), False)
    assert app.judge_pair_code(AppState(), PHONE, "123456", 0.0) == (AppState(), "closed")


def test_a_second_ask_keeps_the_code_shown():
    """Issue #28: asking again (any phone) never takes the display from the table's phone."""
    app = App([RoundTimer()])
    state = showing(app, AppState(), "123456")
    again, shown = app.show_pair_code(state, "999999", 1.0)
    assert shown and code_of(again) == "123456"


def test_a_right_code_pairs_once_and_ends_the_window():
    app = App([RoundTimer()])
    state = showing(app, AppState(), "123456")
    state, outcome = app.judge_pair_code(state, PHONE, "123456", 1.0)
    assert outcome == "paired" and state.pairing is None
    assert app.judge_pair_code(state, PHONE, "123456", 1.0)[1] == "closed"


def test_guests_spending_wrong_codes_cannot_stop_the_tables_phone():
    """Two guests ask for codes, four spend every wrong code they may: the table's phone
    still pairs with the code on the box."""
    app = App([RoundTimer()])
    state = open_pairing(AppState(), 0.0)
    for guest in ("10.0.0.1", "10.0.0.2"):
        state, shown = app.show_pair_code(state, f"00000{guest[-1]}", 1.0)
        assert shown
    code = code_of(state)
    outcomes = []
    for guest in ("10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6"):
        for _ in range(CLIENT_WRONG_CODES + 2):
            state, outcome = app.judge_pair_code(state, guest, "999999", 2.0)
            outcomes.append(outcome)
    assert outcomes.count("wrong-code") + outcomes.count("locked") == len(outcomes)
    assert sum(count for _, count in state.pairing.wrong) == 4 * CLIENT_WRONG_CODES
    state, outcome = app.judge_pair_code(state, PHONE, code, 3.0)
    assert outcome == "paired"


def test_the_windows_budget_closes_it_says_why_and_the_next_press_starts_afresh():
    app = App([RoundTimer()])
    state = showing(app, AppState(), "123456")
    outcomes = []
    for number in range(WINDOW_WRONG_CODES):
        guest = f"10.0.{number // CLIENT_WRONG_CODES}.1"
        state, outcome = app.judge_pair_code(state, guest, "000000", 1.0)
        outcomes.append(outcome)
    assert outcomes[-1] == "spent" and "spent" not in outcomes[:-1]
    assert state.pairing is None and state.pairing_closed
    assert state.notice == CLOSED_NOTICE
    assert app.judge_pair_code(state, PHONE, "123456", 1.0)[1] == "closed"
    state = showing(app, state, "654321", 5.0)
    assert not state.pairing_closed and state.pairing.wrong == ()
    assert app.judge_pair_code(state, PHONE, "654321", 6.0)[1] == "paired"


@given(st.lists(st.integers(0, 30), max_size=80))
def test_a_window_judges_at_most_its_budget_of_wrong_codes(clients):
    """Whatever the guests do in one window, at most 19 wrong codes are counted in all, at
    most 3 from one client, and once it closed on them nothing more is judged."""
    app = App([RoundTimer()])
    state = showing(app, AppState(), "123456")
    for number in clients:
        before = state
        state, outcome = app.judge_pair_code(state, f"10.1.0.{number}", "000001", 1.0)
        if before.pairing is None:
            assert outcome == "closed" and state == before
        elif state.pairing is not None:
            counts = dict(state.pairing.wrong)
            assert sum(counts.values()) < WINDOW_WRONG_CODES
            assert max(counts.values()) <= CLIENT_WRONG_CODES
        else:
            assert outcome == "spent" and state.pairing_closed


@given(st.text(alphabet="0123456789", max_size=8), st.text(alphabet="0123456789", max_size=8))
def test_pair_code_comparison_is_plain_equality(typed: str, code: str) -> None:
    """The core compares codes without hmac (which would load OpenSSL into every box)."""
    from companion.core.table_page import _same_code

    assert _same_code(typed, code) == (typed == code)
    assert _same_code(code, code)
