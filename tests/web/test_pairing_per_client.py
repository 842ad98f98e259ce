"""Issue #19, 3: pairing no stranger can jam.

The rules without a socket first (the core's per-client codes in companion/core/table_page.py,
the web's per-client lockout and global ceiling in companion/web/pairing.py, with a fake
clock), then the two jams the audit found, over loopback from 127.0.0.2 and 127.0.0.3 standing
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
    GLOBAL_WINDOW_SECONDS,
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
    assert locks[:3] == [LOCK_SECONDS, 2 * LOCK_SECONDS, 4 * LOCK_SECONDS]
    assert max(locks) == locks[-1] == MAX_LOCK_SECONDS


def fastest_guesser(pairing, clock, clients, seconds):
    """Wrong codes from ``clients`` as fast as the lockouts allow, for ``seconds`` of the
    fake clock: how many were judged."""
    judged = 0
    end = clock.monotonic() + seconds
    while clock.monotonic() < end:
        waits = []
        for client in clients:
            try:
                pairing.admit(client)
            except PairingRefused as refused:
                waits.append(refused.retry_after)
                continue
            judged += 1
            with contextlib.suppress(PairingRefused):
                pairing.settle("wrong-code", client)
        if len(waits) == len(clients):
            clock.advance(min(waits))
    return judged


def test_one_client_alone_never_reaches_the_global_ceiling():
    clock = FakeClock()
    pairing = Pairing(None, clock.monotonic)
    judged = fastest_guesser(pairing, clock, [MALLORY], GLOBAL_WINDOW_SECONDS)
    assert 0 < judged < GLOBAL_WRONG_CODES
    assert pairing.knows(guess(pairing, ALICE, "paired"))  # nobody else was locked


def test_the_global_ceiling_stops_a_guesser_spread_over_many_addresses():
    clock = FakeClock()
    pairing = Pairing(None, clock.monotonic)
    spread = [f"10.0.{n // 250}.{n % 250}" for n in range(1000)]
    judged = fastest_guesser(pairing, clock, spread, 2 * GLOBAL_WINDOW_SECONDS)
    # Two windows: at most the ceiling in each, whatever the number of addresses.
    assert GLOBAL_WRONG_CODES < judged <= 2 * GLOBAL_WRONG_CODES


def test_while_the_ceiling_holds_nobody_pairs_and_it_says_for_how_long():
    """The price of the ceiling, said plainly: a spread-out guesser turns pairing off."""
    clock = FakeClock()
    pairing = Pairing(None, clock.monotonic)
    for n in range(GLOBAL_WRONG_CODES):
        with contextlib.suppress(PairingRefused):
            guess(pairing, f"10.0.0.{n}")
    with pytest.raises(PairingRefused) as refused:
        pairing.admit(ALICE)
    assert refused.value.code == "locked"
    assert refused.value.retry_after == GLOBAL_WINDOW_SECONDS
    clock.advance(GLOBAL_WINDOW_SECONDS)
    assert pairing.knows(guess(pairing, ALICE, "paired"))


def test_a_year_of_the_global_ceiling_bounds_a_guesser_as_docs_web_says():
    """The arithmetic in docs/web.md: every judged guess is one of 10^6 codes (the contract's
    6 digits), at most 100 judged a day: under 3.7% a year, by the union bound."""
    guesses_a_year = GLOBAL_WRONG_CODES * (365 * 24 * 3600 / GLOBAL_WINDOW_SECONDS)
    assert guesses_a_year == 36_500
    assert guesses_a_year / 10**CODE_DIGITS < 0.037
    assert len(new_code()) == CODE_DIGITS == 6


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
