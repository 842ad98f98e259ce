"""The table page's security rules, without a socket: companion/web/policy.py's ``decide``
called with plain request facts (docs/web.md). tests/web/test_security.py keeps the end-to-end
cases over loopback HTTP; tests/web/test_netns.py the one from a real LAN address. Admission
(who gets a place) is tests/web/test_admission.py."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.web.answers import STATUS, error_answer
from companion.web.policy import (
    DISCARD_LIMIT_BYTES,
    MAX_BODY_BYTES,
    Allowed,
    Facts,
    Refusal,
    Rules,
    cookie_token,
    decide,
    is_loopback,
    same_origin,
)
from companion.web.routes import ROUTES

HOST = "127.0.0.1:8080"
OWN = Rules(own_names=frozenset({"localhost", "tablebox", "tablebox.local"}))
PAIR_LOOPBACK = Rules(pair_loopback=True, own_names=OWN.own_names)
PUBLIC = Rules(pair_loopback=True, public_mirror=True, own_names=OWN.own_names)


def verdict(method, path, rules=OWN, **facts):
    facts.setdefault("host", HOST)
    if method == "POST":  # as a browser's POST does
        facts.setdefault("origin", f"http://{HOST}")
    return decide(Facts(method=method, path=path, **facts), rules, ROUTES)


def refused(answer):
    assert isinstance(answer, Refusal), answer
    return answer.code


def allowed(answer):
    assert isinstance(answer, Allowed), answer
    return answer.route.path


# -- trust ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("loopback", "paired", "rules", "trusted"), [
    (True, False, OWN, True),              # loopback is trusted by default
    (True, False, PAIR_LOOPBACK, False),   # ... unless pair_loopback
    (True, True, PAIR_LOOPBACK, True),
    (False, False, OWN, False),            # the LAN pairs first
    (False, True, OWN, True),
])
def test_policy_trust_is_loopback_or_a_pairing(loopback, paired, rules, trusted):
    answer = verdict("POST", "/api/line", rules, loopback=loopback, paired=paired,
                     content_length="5")
    if trusted:
        assert allowed(answer) == "/api/line" and answer.trusted
    else:
        assert refused(answer) == "unpaired"
        assert answer.close  # its body stays unread


@pytest.mark.parametrize("path", ["/api/state", "/api/screen", "/api/frame.png", "/api/events",
                                  "/api/tunes", "/api/history", "/api/history/1.json",
                                  "/api/nothing"])
def test_policy_an_unpaired_client_reads_nothing_but_the_open_pages(path):
    assert refused(verdict("GET", path, loopback=False)) == "unpaired"
    assert refused(verdict("HEAD", path, loopback=False)) == "unpaired"


@pytest.mark.parametrize("path", ["/", "/index.html", "/static/app.js", "/static/../x",
                                  "/api/whoami"])
def test_policy_the_open_pages_need_no_pairing(path):
    assert allowed(verdict("GET", path, PAIR_LOOPBACK))


@pytest.mark.parametrize(("path", "open_with_public_mirror"), [
    ("/api/state", True), ("/api/screen", True), ("/api/frame.png", True),
    ("/api/events", True), ("/api/games", True), ("/api/tunes", False),
    ("/api/history", False),
])
def test_policy_public_mirror_opens_the_mirror_only(path, open_with_public_mirror):
    answer = verdict("GET", path, PUBLIC)
    if open_with_public_mirror:
        assert allowed(answer) == path
    else:
        assert refused(answer) == "unpaired"
    assert refused(verdict("POST", "/api/line", PUBLIC, content_length="4")) == "unpaired"


@pytest.mark.parametrize("path", ["/api/pair/start", "/api/pair"])
def test_policy_pairing_is_open_to_everyone(path):
    answer = verdict("POST", path, PAIR_LOOPBACK, loopback=False, content_length="0")
    assert allowed(answer) == path and not answer.trusted


def test_policy_an_unknown_path_is_unpaired_before_it_is_missing():
    assert refused(verdict("GET", "/api/nothing", PAIR_LOOPBACK)) == "unpaired"
    assert refused(verdict("GET", "/api/nothing")) == "not-found"
    missing = verdict("POST", "/api/nothing", content_length="3")
    assert refused(missing) == "not-found"
    assert (missing.close, missing.discard) == (False, 3)  # its body read, the line kept


# -- Host (DNS rebinding) -------------------------------------------------------------------------

@pytest.mark.parametrize(("host", "ok"), [
    ("127.0.0.1:8080", True), ("localhost:8080", True), ("LOCALHOST", True),
    ("tablebox.local:8080", True), ("[::1]:8080", True), ("192.168.1.20", True),
    ("", True),                         # HTTP/1.0: no name to rebind
    ("tablebox.lan", True), ("TableBox.home.arpa.", True),   # a home router's names for it
    ("evil.example:8080", False), ("localhost.evil.example", False), ("otherbox.lan", False),
    ("tablebox.evil.example", False), ("localhost.lan", False),
    ("[", False),                       # does not parse: names nothing
])
@pytest.mark.parametrize("loopback", [True, False])
def test_policy_every_request_must_name_this_box(host, ok, loopback):
    """The Host check holds for every client (issue #19, 3): a rebinding page in a LAN phone's
    browser may neither read nor start or guess a pairing."""
    for method, path in (("GET", "/api/whoami"), ("POST", "/api/pair/start"),
                         ("POST", "/api/pair")):
        answer = verdict(method, path, PAIR_LOOPBACK, host=host, loopback=loopback,
                         content_length="0", paired=not host,
                         origin=f"http://{host}" if host else None)
        if ok:
            assert allowed(answer) == path
        else:
            assert refused(answer) == "foreign-host"


def test_policy_the_host_check_comes_first():
    assert refused(verdict("DELETE", "/api/state", host="evil.example")) == "foreign-host"


# -- Origin (CSRF) --------------------------------------------------------------------------------

@pytest.mark.parametrize(("origin", "ok"), [
    (None, True),                       # not a browser's cross-site request
    ("http://127.0.0.1:8080", True),
    ("http://127.0.0.1:1", False), ("https://127.0.0.1", False), ("null", False),
    ("http://localhost.evil.example", False), ("http://evil.example:8080", False),
    ("http://127.0.0.1:bad", False), ("http://[", False),
])
def test_policy_a_post_from_a_foreign_origin_is_refused(origin, ok):
    answer = verdict("POST", "/api/pair/start", origin=origin, content_length="0")
    if ok:
        assert allowed(answer) == "/api/pair/start"
    else:
        assert refused(answer) == "foreign-origin"
        assert answer.close


def test_policy_origin_is_checked_before_trust():
    answer = verdict("POST", "/api/line", PAIR_LOOPBACK, origin="http://evil.example")
    assert refused(answer) == "foreign-origin"


def test_policy_a_get_carries_no_origin_rule():
    assert allowed(verdict("GET", "/api/state", origin="http://evil.example"))


@pytest.mark.parametrize(("origin", "host", "same"), [
    ("http://box:80", "box", True), ("http://box", "box:80", True),
    ("https://box", "box:443", True), ("http://box:8080", "box:8081", False),
    ("http://box:8080", "", False),
])
def test_policy_same_origin_fills_in_default_ports(origin, host, same):
    assert same_origin(origin, host) is same


# -- bodies ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("length", "chunked", "code", "discard"), [
    ("x", False, "bad-length", 0),
    ("-1", False, "bad-length", 0),
    (str(MAX_BODY_BYTES + 1), False, "too-large", MAX_BODY_BYTES + 1),
    (str(DISCARD_LIMIT_BYTES), False, "too-large", DISCARD_LIMIT_BYTES),
    (str(DISCARD_LIMIT_BYTES + 1), False, "too-large", 0),   # too big to read: just close
    ("5", True, "length-required", 0),
])
def test_policy_bodies_are_bounded_and_framed(length, chunked, code, discard):
    answer = verdict("POST", "/api/line", content_length=length, chunked=chunked)
    assert refused(answer) == code
    assert answer.close and answer.discard == discard


@pytest.mark.parametrize("length", [None, "0", "1", str(MAX_BODY_BYTES)])
def test_policy_a_body_within_the_limit_is_read_whole(length):
    answer = verdict("POST", "/api/line", content_length=length)
    assert allowed(answer) == "/api/line"
    assert answer.body_bytes == (0 if length is None else int(length))


# -- methods and routes ---------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS"])
def test_policy_unused_methods_are_refused(method):
    assert refused(verdict(method, "/api/state")) == "method-not-allowed"


def test_policy_head_follows_get():
    assert allowed(verdict("HEAD", "/api/events")) == "/api/events"


def test_policy_a_post_to_a_get_route_is_not_found():
    assert refused(verdict("POST", "/api/state", content_length="0")) == "not-found"


def test_policy_every_refusal_has_a_status():
    codes = {"foreign-host", "foreign-origin", "unpaired", "not-found", "method-not-allowed",
             "bad-length", "too-large", "length-required"}
    assert codes <= set(STATUS)
    assert error_answer("unpaired", "x").status == 403
    assert error_answer("locked", "x", retry_after=60).headers == (("Retry-After", "60"),)


def test_policy_the_route_table_names_each_route_once():
    keys = [(route.method, route.path) for route in ROUTES]
    assert len(keys) == len(set(keys))


ANY_FACTS = st.builds(
    Facts, method=st.sampled_from(["GET", "HEAD", "POST", "PUT"]),
    path=st.text(max_size=40).map(lambda text: "/" + text), loopback=st.booleans(),
    paired=st.booleans(), host=st.text(max_size=30), origin=st.none() | st.text(max_size=30),
    content_length=st.none() | st.text(max_size=8), chunked=st.booleans())
ANY_RULES = st.builds(Rules, pair_loopback=st.booleans(), public_mirror=st.booleans())


@given(facts=ANY_FACTS, rules=ANY_RULES)
def test_policy_nothing_but_an_allowed_request_reaches_a_handler(facts, rules):
    answer = decide(facts, rules, ROUTES)
    if isinstance(answer, Refusal):
        assert answer.code in STATUS
        return
    trusted = (facts.loopback and not rules.pair_loopback) or facts.paired
    assert answer.trusted is trusted
    if answer.route.need == "trusted":
        assert trusted
    if answer.route.need == "mirror":
        assert trusted or rules.public_mirror
    if facts.method == "POST":
        assert facts.origin is None or same_origin(facts.origin, facts.host)
        assert not facts.chunked
        assert 0 <= answer.body_bytes <= MAX_BODY_BYTES


# -- who is asking --------------------------------------------------------------------------------

@pytest.mark.parametrize(("address", "loopback"), [
    ("127.0.0.1", True), ("127.8.9.1", True), ("::1", True), ("::ffff:127.0.0.1", True),
    ("192.168.1.5", False), ("::ffff:10.0.0.1", False), ("not-an-address", False),
])
def test_policy_loopback_addresses(address, loopback):
    assert is_loopback(address) is loopback


@pytest.mark.parametrize(("header", "token"), [
    (None, None), ("", None), ("companion_token=abc", "abc"),
    ("a=1; companion_token=xyz; b=2", "xyz"), ("other=1", None), ('bad="', None),
])
def test_policy_the_token_is_read_from_the_cookie(header, token):
    assert cookie_token(header) == token


# -- issue #19: CSRF without Origin, Sec-Fetch-Site, strict lengths, connection admission ------

@pytest.mark.parametrize(("loopback", "paired", "rules", "ok"), [
    (False, False, PAIR_LOOPBACK, False),   # a stranger's POST must say where it comes from
    (True, False, PAIR_LOOPBACK, False),    # ... 127.0.0.2 standing in for a phone, too
    (False, True, PAIR_LOOPBACK, True),     # it carries the token: a browser's cookie
    (True, False, OWN, True),               # a tool on the box itself (curl), loopback trusted
])
def test_policy_a_post_without_origin_needs_the_token(loopback, paired, rules, ok):
    """Issue #19: a POST with no Origin (a Referer does not stand in) was accepted."""
    for path in ("/api/pair/start", "/api/pair", "/api/line"):
        answer = verdict("POST", path, rules, loopback=loopback, paired=paired, origin=None,
                         content_length="0")
        if ok:
            assert allowed(answer) == path
        else:
            assert refused(answer) == "no-origin" and answer.close


@pytest.mark.parametrize(("site", "ok"), [
    (None, True), ("same-origin", True), ("none", True), ("cross-site", False),
    ("same-site", False), ("CROSS-SITE", False),
])
def test_policy_sec_fetch_site_is_checked_where_sent(site, ok):
    for paired in (False, True):
        answer = verdict("POST", "/api/pair/start", PAIR_LOOPBACK, loopback=False,
                         paired=paired, sec_fetch_site=site, content_length="0")
        if ok:
            assert allowed(answer) == "/api/pair/start"
        else:
            assert refused(answer) == "foreign-origin" and answer.close


@pytest.mark.parametrize("length", ["+5", " 5", "5 ", "5, 5", "0x5", "5.0", "٥", "²",
                                    "", "1" * 16])
def test_policy_content_length_is_one_number_of_ascii_digits(length):
    """Issue #19: ``Content-Length: +5`` was read as 5; two headers are joined with ``, ``."""
    assert refused(verdict("POST", "/api/line", content_length=length)) == "bad-length"
