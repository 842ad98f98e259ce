"""Whatever a client sends, the answer is JSON and the box keeps going (hypothesis)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.appstate import AppState
from companion.core.table_page import (
    CLIENT_WRONG_CODES,
    judge_pair_code,
    open_pairing,
    show_pair_code,
)
from companion.web.pairing import Pairing, PairingRefused, new_code

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


@given(wrong_before=st.integers(min_value=0, max_value=CLIENT_WRONG_CODES - 1),
       typed=st.text(alphabet="0123456789 x", max_size=10))
def test_fewer_than_three_wrong_codes_never_stop_the_right_one(wrong_before, typed):
    """A POST /api/pair as the route handles it: the box judges, the pairing settles."""
    pairing = Pairing(None)
    code = new_code()
    state, shown = show_pair_code(open_pairing(AppState(), 0.0), code, 0.0)
    assert shown
    wrong = typed if typed != code else "x"
    for _ in range(wrong_before):
        state, outcome = judge_pair_code(state, PHONE, wrong, 1.0)
        with pytest.raises(PairingRefused) as refused:
            pairing.settle(outcome)
        assert refused.value.code == "bad-code"
    state, outcome = judge_pair_code(state, PHONE, code, 1.0)
    assert pairing.knows(pairing.settle(outcome))
    assert state.pairing is None
