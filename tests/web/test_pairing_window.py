"""Issue #28, 1: pairing opens at the box, and no guest can take it from the table.

The core's rules are tested without a socket in tests/core/test_app_phones.py (the window,
its one code, its budgets). Here: what the web adds (the refusals' sentences, who a client
is), then the audit's jams over loopback, from 127.0.0.x standing in for phones and guests
(``pair_loopback = true``): two addresses asking for codes and four spending wrong codes do
not stop the table's phone pairing in a window opened at the box; past the window's 19
typed codes a typed code is refused and the window stays open (issue #38, 6: the QR code's
secret, tests/web/test_pairing_secret.py).
"""

import json

import pytest

from companion.core.table_page import CLIENT_WRONG_CODES, WINDOW_TYPED_CODES
from companion.web.pairing import (
    CLOSED_MESSAGE,
    CODE_DIGITS,
    SECRET_MESSAGE,
    SPENT_MESSAGE,
    Pairing,
    PairingRefused,
    new_code,
)
from companion.web.policy import client_key


@pytest.mark.parametrize(("outcome", "code", "message"), [
    ("closed", "pairing-closed", CLOSED_MESSAGE),
    ("spent", "codes-spent", SPENT_MESSAGE),
    ("locked", "locked", None),
    ("wrong-secret", "bad-secret", SECRET_MESSAGE),
    ("no-code", "bad-code", None),
    ("wrong-code", "bad-code", "wrong code"),
])
def test_every_refusal_is_a_sentence_the_page_shows(outcome, code, message):
    with pytest.raises(PairingRefused) as refused:
        Pairing(None).settle(outcome)
    assert refused.value.code == code
    if message is not None:
        assert refused.value.message == message


def test_the_closed_sentence_says_how_to_open_pairing():
    assert CLOSED_MESSAGE == ("Ask someone at the box to open pairing: Menu, Table page, "
                              "Pair a phone")


@pytest.mark.parametrize("outcome", ["spent", "locked", "wrong-secret"])
def test_a_phone_out_of_typed_codes_is_told_to_scan_the_qr_code(outcome):
    with pytest.raises(PairingRefused) as refused:
        Pairing(None).settle(outcome)
    assert "scan the QR code on the box" in refused.value.message


def test_a_right_code_gives_a_token_the_pairing_knows():
    pairing = Pairing(None)
    token = pairing.settle("paired")
    assert pairing.knows(token) and not pairing.knows(token + "x")
    assert pairing.holder(token) is not None and pairing.holder("nope") is None


def test_the_typed_codes_odds_per_window_are_as_docs_web_says():
    """The arithmetic in docs/web.md: every judged guess is one of 10^6 codes (the contract's
    6 digits), at most 19 judged in one window: at most 19 / 10^6, below 1 in 50,000.
    (The secret's odds: tests/web/test_pairing_secret.py.)"""
    assert len(new_code()) == CODE_DIGITS == 6
    assert WINDOW_TYPED_CODES / 10**CODE_DIGITS < 1 / 50_000
    assert 4 * CLIENT_WRONG_CODES < WINDOW_TYPED_CODES  # four guests leave the table a turn


@pytest.mark.parametrize(("address", "key"), [
    ("192.168.1.20", "192.168.1.20"),
    ("::ffff:192.168.1.20", "192.168.1.20"),
    ("2001:db8:1:2:a:b:c:d", "2001:db8:1:2::/64"),     # one household's /64: one client
    ("2001:db8:1:2::99", "2001:db8:1:2::/64"),
    ("fe80::1234", "fe80::1234"),     # link-local: each address itself (issue #38, 5)
    ("fe80::99", "fe80::99"),         # ... so one guest's lockout is not the table's phone's
    ("fe80::1234%eth0", "fe80::1234"),  # a scoped address: the same client on any interface
    ("fd12:3456:789a:1::5", "fd12:3456:789a:1::/64"),  # unique local: its /64, as global
    ("::1", "::1"), ("127.0.0.2", "127.0.0.2"),
])
def test_a_client_is_its_address_or_its_global_ipv6_slash_64(address, key):
    assert client_key(address) == key


# -- over loopback: the audit's jams --------------------------------------------------------

def post_from(box, source, path, body=b""):
    answer = box.post(path, body, source=source)
    return answer.status, answer.json, answer.headers.get("set-cookie")


def guess(box, source, code="000000"):
    return post_from(box, source, "/api/pair", json.dumps({"code": code}).encode())


def test_a_phone_asking_while_pairing_is_closed_is_told_how_to_open_it(make_web_box):
    box = make_web_box(pair_loopback=True)
    status, body, _ = post_from(box, "127.0.0.3", "/api/pair/start")
    assert (status, body["error"], body["message"]) == (403, "pairing-closed", CLOSED_MESSAGE)
    assert box.pair_code() is None


def test_guests_asking_and_guessing_do_not_stop_the_tables_phone(make_web_box):
    """The audit: two addresses asking for codes held the display; four spending wrong
    codes closed pairing in 61 ms, and again right after someone at the box reopened it."""
    box = make_web_box(pair_loopback=True)
    box.open_pairing()
    for _ in range(3):
        for asker in ("127.0.0.20", "127.0.0.21"):
            assert post_from(box, asker, "/api/pair/start")[0] == 200
    answers = [guess(box, f"127.0.0.{30 + n % 4}")[:2] for n in range(40)]
    assert {status for status, _ in answers} == {403, 429}
    assert all(body["error"] in ("bad-code", "locked") for _, body in answers)
    assert post_from(box, "127.0.0.3", "/api/pair/start")[0] == 200
    status, body, cookie = guess(box, "127.0.0.3", box.pair_code())
    assert (status, body) == (200, {"paired": True}) and cookie
    assert box.pair_code() is None  # the window closed with the pairing


def test_past_nineteen_typed_codes_the_window_stays_open_and_says_scan_the_qr_code(
        make_web_box):
    """Issue #38, 6: the 19th wrong code closed the window, so 7 guest addresses closed every
    window within 141 ms. Now the window judges 19 typed codes and then refuses typed codes,
    the right one too, with a sentence that points at the QR code; it stays open."""
    box = make_web_box(pair_loopback=True)
    box.open_pairing()
    assert post_from(box, "127.0.0.3", "/api/pair/start")[0] == 200
    code = box.pair_code()
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    answers = [guess(box, f"127.0.0.{40 + n // CLIENT_WRONG_CODES}", wrong)[:2]
               for n in range(WINDOW_TYPED_CODES)]
    assert {body["error"] for _, body in answers} == {"bad-code", "locked"}
    for source, typed in (("127.0.0.3", code), ("127.0.0.90", wrong)):
        status, body, cookie = guess(box, source, typed)
        assert (status, body["error"], body["message"], cookie) == (
            403, "codes-spent", SPENT_MESSAGE, None)
    assert box.service.channel.pairing_open
    assert sum(count for _, count in box.controller.state.pairing.wrong) == WINDOW_TYPED_CODES
    assert box.pair_code() is None  # a code no one may type is not shown
    assert box.display_text()[0].startswith("Pairing open")
    # Asking for the code again says the same: no code to type, scan the QR code.
    status, body, _ = post_from(box, "127.0.0.3", "/api/pair/start")
    assert (status, body["error"], body["message"]) == (403, "codes-spent", SPENT_MESSAGE)
    assert box.service.channel.pairing_open
