"""Issue #19, 3: pairing no stranger can jam.

The rules without a socket first (the core's per-client codes in companion/core/table_page.py,
the web's per-client lockout and its budget of wrong codes in companion/web/pairing.py, with a
fake clock), then the two jams the audit found, over loopback from 127.0.0.2 and 127.0.0.3 standing
in for two phones (``pair_loopback = true``): wrong codes 50 times a second from one address,
and ``POST /api/pair/start`` every 2 s from one address, each stopped every real pairing.
"""

import contextlib
import http.client
import json

import pytest

from companion.core.appstate import AppState
from companion.core.table_page import MAX_PENDING_PAIRS, judge_pair_code, show_pair_code
from companion.testing.clock import FakeClock
from companion.web.pairing import (
    CODE_DIGITS,
    GLOBAL_WRONG_CODES,
    LOCK_SECONDS,
    MAX_LOCK_SECONDS,
    MAX_WRONG_CODES,
    Pairing,
    PairingRefused,
    new_code,
)
from companion.web.policy import client_key

ALICE, MALLORY, BOB = "192.168.1.20", "192.168.1.66", "192.168.1.30"


def shown(state, client, code, until=120.0):
    state, ok = show_pair_code(state, client, code, until)
    assert ok
    return state


# -- the core: one owner for every pending code -----------------------------------------------

def test_a_client_s_restart_replaces_only_its_own_code():
    state = shown(AppState(), ALICE, "11111111")
    for number in range(5):
        state = shown(state, MALLORY, f"2222222{number}")
    assert [(pair.client, pair.code) for pair in state.pairings] == [
        (ALICE, "11111111"), (MALLORY, "22222224")]
    assert judge_pair_code(state, ALICE, "11111111", 0.0) == "paired"


def test_a_code_is_judged_only_against_its_own_client_s():
    state = shown(shown(AppState(), ALICE, "11111111"), MALLORY, "22222222")
    assert judge_pair_code(state, MALLORY, "11111111", 0.0) == "wrong-code"
    assert judge_pair_code(state, BOB, "11111111", 0.0) == "no-code"
    assert judge_pair_code(state, ALICE, "11111111", 120.0) == "no-code"  # timed out


def test_a_full_display_refuses_a_new_client_and_replaces_nobody():
    state = AppState()
    for number in range(MAX_PENDING_PAIRS):
        state = shown(state, f"10.0.0.{number}", f"{number:08d}")
    after, ok = show_pair_code(state, BOB, "33333333", 120.0)
    assert not ok and after == state
    # A client already shown may still take a new code; taking one away frees a place.
    assert show_pair_code(state, "10.0.0.0", "44444444", 120.0)[1]
    freed, _ = show_pair_code(state, "10.0.0.0", None, 0.0)
    assert show_pair_code(freed, BOB, "33333333", 120.0)[1]
    assert show_pair_code(state, None, None, 0.0)[0].pairings == ()  # Forget phones: all go


# -- the web: lockout per client, a global ceiling ---------------------------------------------

def guess(pairing, client, outcome="wrong-code"):
    pairing.admit(client)
    return pairing.settle(outcome, client)


def test_one_client_s_wrong_codes_never_lock_another():
    clock = FakeClock()
    pairing = Pairing(None, clock.monotonic)
    for _ in range(MAX_WRONG_CODES):
        with pytest.raises(PairingRefused):
            guess(pairing, MALLORY)
    with pytest.raises(PairingRefused) as locked:
        pairing.admit(MALLORY)
    assert locked.value.code == "locked"
    assert pairing.knows(guess(pairing, ALICE, "paired"))


def test_each_further_lock_doubles_up_to_its_cap():
    clock = FakeClock()
    pairing = Pairing(None, clock.monotonic)
    locks = []
    for _ in range(12):
        for _ in range(MAX_WRONG_CODES):
            try:
                guess(pairing, MALLORY)
            except PairingRefused as refused:
                last = refused
        locks.append(last.retry_after)
        clock.advance(last.retry_after)
        pairing.reopen()  # the lock alone here: the budget (below) would close pairing
    assert locks[:3] == [LOCK_SECONDS, 2 * LOCK_SECONDS, 4 * LOCK_SECONDS]
    assert max(locks) == locks[-1] == MAX_LOCK_SECONDS


def fastest_guesser(pairing, clock, clients, seconds):
    """Wrong codes from ``clients`` as fast as the lockouts allow, for ``seconds`` of the
    fake clock or until pairing closes: how many were judged."""
    judged = 0
    end = clock.monotonic() + seconds
    while clock.monotonic() < end:
        waits = []
        for client in clients:
            try:
                pairing.admit(client)
            except PairingRefused as refused:
                if refused.code == "pairing-closed":
                    return judged
                waits.append(refused.retry_after)
                continue
            judged += 1
            with contextlib.suppress(PairingRefused):
                pairing.settle("wrong-code", client)
        if len(waits) == len(clients):
            clock.advance(min(waits))
    return judged


YEAR = 365 * 24 * 3600.0


@pytest.mark.parametrize("clients", [1, 4, 1000])
def test_a_year_of_guessing_from_any_number_of_addresses_is_judged_20_times(clients):
    """The budget: however patient or spread out the guesser, once 20 wrong codes are judged
    pairing is closed, and no time reopens it (the old 100-a-day ceiling let 36,500 a year)."""
    clock = FakeClock()
    pairing = Pairing(None, clock.monotonic)
    closed = []
    pairing.on_close.append(lambda: closed.append(clock.monotonic()))
    addresses = [f"10.0.{n // 250}.{n % 250}" for n in range(clients)]
    assert fastest_guesser(pairing, clock, addresses, YEAR) == GLOBAL_WRONG_CODES
    assert len(closed) == 1 and pairing.closed
    clock.advance(YEAR)
    with pytest.raises(PairingRefused) as refused:
        pairing.admit(ALICE)
    assert refused.value.code == "pairing-closed"
    assert "Table page, NEXT" in refused.value.message
    # Someone at the box reopens it: a fresh budget, and Alice pairs.
    pairing.reopen()
    assert pairing.knows(guess(pairing, ALICE, "paired"))


def test_one_stranger_alone_needs_four_locks_to_close_pairing():
    """One address's wrong codes count too, paced by its doubling lock: a fresh stranger's
    20 take 5 at once, then 5 after 1, 2 and 4 minutes (7 minutes). A right code read off the
    display is a fresh budget, but the stranger's doubling goes on: its next 20 take 8, 16 and
    32 minutes more (63 minutes from its first guess)."""
    clock = FakeClock()
    pairing = Pairing(None, clock.monotonic)
    started = clock.monotonic()
    for _ in range(3):
        for _ in range(MAX_WRONG_CODES):
            with contextlib.suppress(PairingRefused):
                guess(pairing, MALLORY)
        clock.advance(pairing_wait(pairing, MALLORY))
    assert pairing.knows(guess(pairing, ALICE, "paired"))  # a human at the box: reset
    judged = fastest_guesser(pairing, clock, [MALLORY], YEAR)
    assert judged == GLOBAL_WRONG_CODES
    assert clock.monotonic() - started == (1 + 2 + 4 + 8 + 16 + 32) * LOCK_SECONDS


def pairing_wait(pairing, client):
    try:
        pairing.admit(client)
    except PairingRefused as refused:
        return refused.retry_after
    return 0


def test_the_odds_per_reopening_are_as_docs_web_says():
    """The arithmetic in docs/web.md: every judged guess is one of 10^6 codes (the contract's
    6 digits), at most 20 judged between two human acts at the box: 20 / 10^6 = 0.002%."""
    assert len(new_code()) == CODE_DIGITS == 6
    assert GLOBAL_WRONG_CODES / 10**CODE_DIGITS == 2e-5
    assert MAX_WRONG_CODES == 5 and LOCK_SECONDS == 60  # the contract's lock, unchanged


def test_closing_takes_every_code_off_and_only_next_on_the_table_page_reopens():
    from dataclasses import replace

    from companion.core.appstate import Menu
    from companion.core.buttons import Button, Gesture
    from companion.core.menu import menu_input
    from companion.core.table_page import CLOSED_NOTICE, close_pairing

    state = close_pairing(shown(AppState(), ALICE, "11111111"))
    assert state.pairing_closed and state.pairings == () and state.notice == CLOSED_NOTICE
    assert show_pair_code(state, ALICE, "22222222", 120.0) == (state, False)
    on_page = replace(state, menu=Menu(page="table-page"), notice=None)
    back, _ = menu_input(None, on_page, Gesture("press", Button.BACK, 0.0), 0.0)
    assert back.pairing_closed and back.menu.page == "games"
    reopened, _ = menu_input(None, on_page, Gesture("press", Button.NEXT, 0.0), 0.0)
    assert not reopened.pairing_closed and reopened.notice == "Pairing reopened"


@pytest.mark.parametrize(("address", "key"), [
    ("192.168.1.20", "192.168.1.20"),
    ("::ffff:192.168.1.20", "192.168.1.20"),
    ("2001:db8:1:2:a:b:c:d", "2001:db8:1:2::/64"),     # one household's /64: one client
    ("2001:db8:1:2::99", "2001:db8:1:2::/64"),
    ("fe80::1234", "fe80::1234"),                       # link-local: each its own
    ("::1", "::1"), ("127.0.0.2", "127.0.0.2"),
])
def test_a_client_is_its_address_or_its_ipv6_slash_64(address, key):
    assert client_key(address) == key


# -- over loopback: the audit's two jams --------------------------------------------------------

def post_from(box, source, path, body=b""):
    connection = http.client.HTTPConnection("127.0.0.1", box.port, timeout=10,
                                            source_address=(source, 0))
    try:
        connection.request("POST", path, body=body,
                           headers={"Origin": f"http://127.0.0.1:{box.port}"})
        response = connection.getresponse()
        return response.status, json.loads(response.read()), response.getheader("Set-Cookie")
    finally:
        connection.close()


def code_for(box, client):
    box.display_text()  # a round trip through the loop
    return next(pair.code for pair in box.controller.state.pairings if pair.client == client)


def test_wrong_codes_from_one_address_do_not_stop_another_from_pairing(make_web_box):
    """The audit: wrong codes 50 times a second from one client meant 0 of 27 pairings."""
    box = make_web_box(pair_loopback=True)
    for _ in range(3 * MAX_WRONG_CODES):
        post_from(box, "127.0.0.2", "/api/pair", b'{"code": "00000000"}')
    assert post_from(box, "127.0.0.3", "/api/pair/start")[0] == 200
    status, body, cookie = post_from(box, "127.0.0.3", "/api/pair",
                                     json.dumps({"code": code_for(box, "127.0.0.3")}).encode())
    assert (status, body) == (200, {"paired": True}) and cookie


def test_restarts_from_one_address_do_not_replace_another_s_code(make_web_box):
    """The audit: ``POST /api/pair/start`` every 2 s replaced the user's code, so the user's
    right answers counted as wrong and locked them out."""
    box = make_web_box(pair_loopback=True)
    assert post_from(box, "127.0.0.3", "/api/pair/start")[0] == 200
    mine = code_for(box, "127.0.0.3")
    for _ in range(10):
        assert post_from(box, "127.0.0.2", "/api/pair/start")[0] == 200
        box.clock.advance(2.0)
    assert mine in " ".join(box.display_text())
    status, body, _ = post_from(box, "127.0.0.3", "/api/pair",
                                json.dumps({"code": mine}).encode())
    assert (status, body) == (200, {"paired": True})


def test_a_spread_guesser_closes_pairing_the_box_says_so_and_next_reopens_it(make_web_box):
    """20 wrong codes from four addresses close pairing for everyone, the box's display says
    so, and only NEXT on its "Table page" reopens it (then a phone pairs as before)."""
    from companion.core.menu import TABLE_PAGE_ITEM
    from companion.protocol.lines import Line

    box = make_web_box(pair_loopback=True)
    answers = [post_from(box, f"127.0.0.{10 + n % 4}", "/api/pair", b'{"code": "000000"}')[:2]
               for n in range(GLOBAL_WRONG_CODES)]
    assert answers[-1][0] == 403 and answers[-1][1]["error"] == "pairing-closed"
    assert " ".join(box.display_text()).count("Pairing closed") == 1
    status, body, _ = post_from(box, "127.0.0.3", "/api/pair/start")
    assert (status, body["error"]) == (403, "pairing-closed")
    # At the box (its buttons, through the loop): the menu's "Table page" says why and how.
    def press(button):
        assert box.service.channel.line(Line(f"press {button}")) == "ok"

    items = box.controller.app.menu_items(box.controller.state)
    for _ in range(items.index(TABLE_PAGE_ITEM)):
        press("down")
    press("next")
    assert "NEXT reopens" in box.display_text()
    press("next")
    assert "Pairing reopened" in " ".join(box.display_text())
    assert post_from(box, "127.0.0.3", "/api/pair/start")[0] == 200
    status, body, cookie = post_from(box, "127.0.0.3", "/api/pair",
                                     json.dumps({"code": code_for(box, "127.0.0.3")}).encode())
    assert (status, body) == (200, {"paired": True}) and cookie
