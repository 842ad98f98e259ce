"""The table page's marks on the box (core/app.py, issues #15, #28 and #38): the pairing
window opened at the box, its code and countdown in the title bar, its budgets of typed
codes, its secret (the QR code's), and "Forget phones" as the menu's last row."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.app import FORGET_PHONES, App, AppState, ForgetPhones
from companion.core.buttons import Button, Gesture
from companion.core.table_page import (
    CLIENT_WRONG_CODES,
    SECRET_ALPHABET,
    SECRET_LENGTH,
    WINDOW_TYPED_CODES,
    arm_pairing,
    open_pairing,
    pair_link,
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
    assert (state, shown) == (AppState(), "closed")
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


def spend_typed_codes(app, state, code="000000"):
    """Guests, three wrong codes each, until the window's typed codes are used up."""
    outcomes = []
    for number in range(WINDOW_TYPED_CODES):
        guest = f"10.0.{number // CLIENT_WRONG_CODES}.1"
        state, outcome = app.judge_pair_code(state, guest, code, 1.0)
        outcomes.append(outcome)
    return state, outcomes


def test_spent_typed_codes_leave_the_window_open_for_its_secret():
    """Issue #38, 6: the window's 19th wrong code closed it, so 7 guest addresses closed
    every window. Now nothing typed closes it: past its budget a typed code, even the right
    one, is not judged ("spent"), and the secret on the box's QR code still pairs."""
    app = App([RoundTimer()])
    state = arm_pairing(showing(app, AppState(), "123456"), SECRET, ())
    state, outcomes = spend_typed_codes(app, state)
    assert "spent" not in outcomes and set(outcomes) == {"wrong-code", "locked"}
    assert state.pairing is not None and state.notice is None
    for client in (PHONE, "10.9.9.9"):
        assert app.judge_pair_code(state, client, "123456", 2.0) == (state, "spent")
    assert screen_for(app, state, 2.0).title == "Pairing open 1:58"  # no code to type now
    assert app.show_pair_code(state, "999999", 2.0) == (state, "spent")
    state, outcome = app.judge_pair_secret(state, SECRET, 3.0)
    assert outcome == "paired" and state.pairing is None


@given(st.lists(st.integers(0, 60), max_size=120))
def test_a_window_judges_at_most_its_budget_of_typed_codes(clients):
    """Whatever the guests do in one window, at most 19 typed codes are judged in all, at
    most 3 wrong ones from one client, and the window stays open through all of them."""
    app = App([RoundTimer()])
    state = showing(app, AppState(), "123456")
    judged = 0
    for number in clients:
        before = state
        state, outcome = app.judge_pair_code(state, f"10.1.0.{number}", "000001", 1.0)
        judged += state != before
        assert state.pairing is not None
        counts = dict(state.pairing.wrong)
        assert sum(counts.values()) == judged <= WINDOW_TYPED_CODES
        assert max(counts.values(), default=0) <= CLIENT_WRONG_CODES
        if outcome == "spent":
            assert judged == WINDOW_TYPED_CODES and state == before


SECRET = "0123456789ABCDEF"  # noqa: S105 (a test window's secret)


def test_the_secret_pairs_once_only_in_its_window_and_a_wrong_one_spends_nothing():
    app = App([RoundTimer()])
    state = arm_pairing(showing(app, AppState(), "123456"), SECRET, ())
    for wrong in ("", "0123456789ABCDEE", SECRET[:-1], "123456", SECRET + "0"):
        assert app.judge_pair_secret(state, wrong, 1.0) == (state, "wrong-secret")
    assert app.judge_pair_secret(state, SECRET.lower(), 1.0)[1] == "paired"  # case is free
    paired, outcome = app.judge_pair_secret(state, SECRET, 1.0)
    assert outcome == "paired" and paired.pairing is None
    assert app.judge_pair_secret(paired, SECRET, 1.0)[1] == "closed"
    again = arm_pairing(open_pairing(paired, 2.0), "FEDCBA9876543210", ())
    assert app.judge_pair_secret(again, SECRET, 3.0)[1] == "wrong-secret"  # another window's
    expired, _ = app.tick(state, 120.0)
    assert app.judge_pair_secret(expired, SECRET, 120.0)[1] == "closed"


def test_a_window_not_armed_yet_pairs_by_no_secret():
    app = App([RoundTimer()])
    state = open_pairing(AppState(), 0.0)
    assert app.judge_pair_secret(state, SECRET, 1.0)[1] == "wrong-secret"


def test_a_window_is_armed_once_and_its_secret_is_not_in_the_state_json_or_repr():
    app = App([RoundTimer()])
    state = arm_pairing(showing(app, AppState(), "123456"), SECRET, ((True,),))
    assert state.pairing.secret == SECRET and state.pairing.qr == ((True,),)
    assert arm_pairing(state, "FEDCBA9876543210", ()) is state
    assert arm_pairing(AppState(), SECRET, ()) == AppState()
    for text in (str(app.to_json(state, 0.0)), repr(state)):
        assert SECRET not in text and "123456" not in text
    with pytest.raises(ValueError, match="secret"):
        arm_pairing(open_pairing(AppState(), 0.0), "short", ())


def test_the_pairing_link_is_the_address_then_p_then_the_secret():
    assert pair_link("http://raspberrypi.local:8080/", SECRET) == (
        "http://raspberrypi.local:8080/P/0123456789ABCDEF")
    assert len(SECRET) == SECRET_LENGTH and set(SECRET) <= set(SECRET_ALPHABET)


@given(st.text(alphabet="0123456789", max_size=8), st.text(alphabet="0123456789", max_size=8))
def test_pair_code_comparison_is_plain_equality(typed: str, code: str) -> None:
    """The core compares codes without hmac (which would load OpenSSL into every box)."""
    from companion.core.table_page import _same_code

    assert _same_code(typed, code) == (typed == code)
    assert _same_code(code, code)
