"""Whatever a client sends, the answer is JSON and the box keeps going (hypothesis)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.appstate import AppState, PendingPair
from companion.core.table_page import judge_pair_code
from companion.testing.clock import FakeClock
from companion.web.pairing import (
    CODE_SECONDS,
    LOCK_SECONDS,
    MAX_WRONG_CODES,
    Pairing,
    PairingRefused,
    new_code,
)

ANY_PATH = st.sampled_from(["/api/line", "/api/pair", "/api/pair/start", "/api/state",
                            "/api/nothing", "/static/x"])


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=60)
@given(path=ANY_PATH, body=st.binary(max_size=300),
       content_type=st.sampled_from(["text/plain", "application/json", "x/y"]))
def test_any_post_gets_a_json_answer_and_never_a_500(web_box, path, body, content_type):
    answer = web_box.post(path, body, headers={"Content-Type": content_type})
    assert answer.status != 500
    assert answer.headers["content-type"] == "application/json"
    assert isinstance(json.loads(answer.body), dict)
    assert web_box.get("/api/whoami").status == 200  # still serving


PHONE = "192.168.1.20"


def showing(code, clock):
    """The box's state while ``code`` is on its display (the core owns the code)."""
    return AppState(pairings=(PendingPair(PHONE, code, clock.monotonic() + CODE_SECONDS),))


def attempt(pairing, state, code, clock):
    """One typed code as POST /api/pair handles it: the lockout, the display's judgement,
    then the pairing's verdict (a token, or PairingRefused)."""
    pairing.admit(PHONE)
    return pairing.settle(judge_pair_code(state, PHONE, code, clock.monotonic()), PHONE)


@given(wrong_before=st.integers(min_value=0, max_value=MAX_WRONG_CODES - 1))
def test_fewer_than_five_wrong_codes_never_stop_the_right_one(wrong_before):
    clock = FakeClock()
    pairing = Pairing(None, clock.monotonic)
    code = new_code()
    state = showing(code, clock)
    wrong = f"{(int(code) + 1) % 10**8:08d}"
    for _ in range(wrong_before):
        with pytest.raises(PairingRefused) as refused:
            attempt(pairing, state, wrong, clock)
        assert refused.value.code == "bad-code"
    token = attempt(pairing, state, code, clock)
    assert pairing.knows(token)
    assert not pairing.knows(token + "x")


@given(waited=st.floats(min_value=0.0, max_value=LOCK_SECONDS * 2, allow_nan=False))
def test_the_lock_holds_exactly_a_minute(waited):
    clock = FakeClock()
    pairing = Pairing(None, clock.monotonic)
    state = showing(new_code(), clock)
    for number in range(MAX_WRONG_CODES):
        with pytest.raises(PairingRefused) as refused:
            attempt(pairing, state, "xxxxxx", clock)
        # every wrong code is refused; the last one locks
        assert refused.value.code == ("locked" if number == MAX_WRONG_CODES - 1 else "bad-code")
    clock.advance(waited)
    code = new_code()
    state = showing(code, clock)
    if waited < LOCK_SECONDS:
        try:
            attempt(pairing, state, code, clock)
        except PairingRefused as refused:
            assert refused.code == "locked"
            assert 1 <= refused.retry_after <= LOCK_SECONDS
        else:
            raise AssertionError("a locked pairing accepted a code")
    else:
        assert pairing.knows(attempt(pairing, state, code, clock))
