"""The table page's security rules (docs/web.md, issue #15): trust, pairing, the lockout,
Origin and Host, bounds, and errors that are JSON. Loopback is made untrusted with
``pair_loopback = true``; tests/web/test_netns.py repeats the core case from a real
non-loopback address."""

import json
import os
import socket
import stat

import pytest

from companion.adapters.token_file import TOKENS_FILE
from companion.web.pairing import CLOSED_MESSAGE
from companion.web.policy import MAX_BODY_BYTES


def pair(box):
    """Pair like a phone: someone at the box opens pairing, the phone asks for the code, it
    is read off the box's display and entered; the cookie."""
    box.open_pairing()
    assert box.post("/api/pair/start").json == {"pending": True}
    code = pair_code_on_display(box)
    answer = box.post("/api/pair", json.dumps({"code": code}).encode())
    assert answer.status == 200, answer.body
    assert answer.json == {"paired": True}
    return answer.headers["set-cookie"].split(";")[0]


def pair_code_on_display(box):
    code = box.pair_code()
    assert code is not None, box.display_text()
    return code


def test_an_unpaired_post_is_refused_and_changes_nothing(make_web_box):
    box = make_web_box(pair_loopback=True)
    before = box.state()
    journal_before = box.controller.journal.games()
    answer = box.line("new now-boarding players=2")
    assert answer.status == 403
    assert answer.headers["content-type"] == "application/json"
    assert answer.json["error"] == "unpaired"
    assert box.state() == before
    assert box.controller.journal.games() == journal_before


@pytest.mark.parametrize("path", ["/api/state", "/api/screen", "/api/frame.png", "/api/events",
                                  "/api/tunes"])
def test_an_unpaired_client_sees_nothing_without_public_mirror(make_web_box, path):
    box = make_web_box(pair_loopback=True)
    answer = box.get(path)
    assert answer.status == 403
    assert answer.json["error"] == "unpaired"


@pytest.mark.parametrize("path", ["/api/state", "/api/screen", "/api/frame.png"])
def test_public_mirror_lets_unpaired_clients_watch_but_not_act(make_web_box, path):
    box = make_web_box(pair_loopback=True, public_mirror=True)
    assert box.get(path).status == 200
    assert box.line("press next").json["error"] == "unpaired"
    assert box.get("/api/tunes").status == 403


def test_open_pages_need_no_pairing(make_web_box):
    box = make_web_box(pair_loopback=True)
    assert box.get("/").status == 200
    assert box.get("/api/whoami").json == {"trusted": False, "paired": False,
                                           "loopback": True}


def test_pairing_with_the_code_on_the_display_gives_a_token_cookie(make_web_box):
    box = make_web_box(pair_loopback=True)
    box.open_pairing()
    box.post("/api/pair/start")
    code = pair_code_on_display(box)
    assert len(code) == 6 and code.isdigit()
    answer = box.post("/api/pair", json.dumps({"code": code}).encode())
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("companion_token=")
    for attribute in ("HttpOnly", "SameSite=Strict", "Path=/"):
        assert attribute in cookie
    token = cookie.split(";")[0]
    assert len(token.split("=", 1)[1]) >= 43  # 32 random bytes, URL-safe base64
    headers = {"Cookie": token}
    assert box.get("/api/whoami", headers=headers).json == {
        "trusted": True, "paired": True, "loopback": True}
    assert box.line("new now-boarding players=2", headers=headers).json == {"reply": "ok"}
    assert box.get("/api/state", headers=headers).json["game"] == "now-boarding"
    # The window ended with it: the code is gone from the display and cannot be used twice.
    assert box.pair_code() is None
    again = box.post("/api/pair", json.dumps({"code": code}).encode())
    assert (again.status, again.json["error"]) == (403, "pairing-closed")


def test_the_mirror_never_shows_the_pairing_code(make_web_box, open_stream):
    box = make_web_box(pair_loopback=True, public_mirror=True)
    stream = open_stream(box.port)
    stream.next_event()
    box.open_pairing()
    before = box.get("/api/frame.png").body
    box.post("/api/pair/start")
    code = pair_code_on_display(box)
    assert code not in json.dumps(box.get("/api/screen").json)
    _, pending = stream.until(lambda name, data: name == "pair")
    assert pending == {"pending": True}
    # The picture too: the screen without the code, the same as before the phone asked.
    assert box.get("/api/frame.png").body == before
    box.post("/api/pair", json.dumps({"code": code}).encode())
    _, ended = stream.until(lambda name, data: name == "pair")
    assert ended == {"pending": False}


def test_pairing_closed_is_a_plain_sentence_and_nothing_shows(make_web_box):
    """Issue #28: a phone can ask only while someone at the box opened pairing."""
    box = make_web_box(pair_loopback=True)
    refused = box.post("/api/pair/start")
    assert (refused.status, refused.json["error"]) == (403, "pairing-closed")
    assert refused.json["message"] == CLOSED_MESSAGE
    assert box.pair_code() is None
    guess = box.post("/api/pair", json.dumps({"code": "123456"}).encode())
    assert (guess.status, guess.json["error"]) == (403, "pairing-closed")


def test_a_phone_cannot_open_pairing_only_the_box_can(make_web_box):
    box = make_web_box(pair_loopback=True)
    headers = {"Cookie": pair(box)}
    refused = box.line("pair open", headers=headers)
    assert (refused.status, refused.json["error"]) == (403, "box-only")
    assert box.post("/api/pair/start").status == 403
    own = make_web_box()  # the box's own loopback page may
    assert own.line("pair open").json == {"reply": "ok"}
    assert own.post("/api/pair/start").json == {"pending": True}


def test_the_window_closes_after_two_minutes(make_web_box):
    box = make_web_box(pair_loopback=True)
    box.open_pairing()
    box.post("/api/pair/start")
    code = pair_code_on_display(box)
    box.clock.advance(119.0)
    assert pair_code_on_display(box) == code
    box.clock.advance(1.0)
    assert box.pair_code() is None
    late = box.post("/api/pair", json.dumps({"code": code}).encode())
    assert (late.status, late.json["error"]) == (403, "pairing-closed")


def test_three_wrong_codes_lock_a_phone_for_the_window_and_the_next_starts_afresh(
        make_web_box):
    box = make_web_box(pair_loopback=True)
    box.open_pairing()
    box.post("/api/pair/start")
    code = pair_code_on_display(box)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _ in range(2):
        answer = box.post("/api/pair", json.dumps({"code": wrong}).encode())
        assert (answer.status, answer.json["error"]) == (403, "bad-code")
    locked = box.post("/api/pair", json.dumps({"code": wrong}).encode())
    assert (locked.status, locked.json["error"]) == (429, "locked")
    assert locked.headers["retry-after"] == str(locked.json["retry_after"])
    # Locked for this window: even the right code is refused, and the code stays shown.
    right = box.post("/api/pair", json.dumps({"code": code}).encode())
    assert (right.status, right.json["error"]) == (429, "locked")
    assert box.pair_code() == code
    box.open_pairing()  # a fresh window: fresh budgets
    box.post("/api/pair/start")
    accepted = box.post("/api/pair",
                        json.dumps({"code": pair_code_on_display(box)}).encode())
    assert accepted.status == 200


def test_a_foreign_origin_is_refused_and_changes_nothing(web_box):
    before = web_box.state()
    answer = web_box.line("new now-boarding players=2",
                          headers={"Origin": "http://evil.example"})
    assert (answer.status, answer.json["error"]) == (403, "foreign-origin")
    assert web_box.state() == before
    same = web_box.line("new now-boarding players=2",
                        headers={"Origin": f"http://127.0.0.1:{web_box.port}"})
    assert same.json == {"reply": "ok"}


@pytest.mark.parametrize("origin", ["http://127.0.0.1:1", "https://127.0.0.1", "null",
                                    "http://localhost.evil.example"])
def test_an_origin_that_is_not_this_server_is_refused(web_box, origin):
    answer = web_box.post("/api/pair/start", headers={"Origin": origin})
    assert (answer.status, answer.json["error"]) == (403, "foreign-origin")


def test_a_rebound_host_name_is_refused_even_from_loopback(web_box):
    answer = web_box.get("/api/state", headers={"Host": f"evil.example:{web_box.port}"})
    assert (answer.status, answer.json["error"]) == (403, "foreign-host")
    assert web_box.get("/api/state", headers={"Host": f"localhost:{web_box.port}"}).status == 200


def test_a_body_over_64_kib_is_413_and_changes_nothing(web_box):
    before = web_box.state()
    answer = web_box.post("/api/line", b"x" * (MAX_BODY_BYTES + 1))
    assert (answer.status, answer.json["error"]) == (413, "too-large")
    assert web_box.state() == before
    assert web_box.post("/api/line", b"state" + b" " * (MAX_BODY_BYTES - 5)).status == 200


def raw_exchange(port, data):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(data)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    return received


@pytest.mark.parametrize("request_bytes", [
    b"GARBAGE\r\n\r\n",
    b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"y" * 70000 + b"\r\n\r\n",
    b"GET /api/state HTTP/9.9\r\n\r\n",
])
def test_malformed_requests_get_json_errors_not_tracebacks(web_box, request_bytes):
    received = raw_exchange(web_box.port, request_bytes)
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.split(b" ")[1].startswith(b"4") or head.split(b" ")[1].startswith(b"5")
    assert b"application/json" in head
    error = json.loads(body)
    assert set(error) == {"error", "message"}
    assert b"Traceback" not in received and b"Python" not in received


def test_tokens_survive_a_restart_and_are_stored_only_hashed(tmp_path, make_web_box):
    box = make_web_box(pair_loopback=True)
    cookie = pair(box)
    box.close()
    path = tmp_path / TOKENS_FILE
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert cookie.split("=", 1)[1] not in path.read_text()
    again = make_web_box(pair_loopback=True)
    assert again.line("state", headers={"Cookie": cookie}).status == 200


def test_forget_phones_in_the_menu_revokes_every_token(make_web_box):
    box = make_web_box(pair_loopback=True)
    cookie = pair(box)
    headers = {"Cookie": cookie}
    # The menu is open on a fresh box; UP from the first row wraps to the last.
    assert box.line("press up", headers=headers).json == {"reply": "ok"}
    assert "Forget phones" in box.get("/api/screen", headers=headers).json["lines"]
    assert box.line("press next", headers=headers).json == {"reply": "ok"}
    refused = box.line("state", headers=headers)
    assert (refused.status, refused.json["error"]) == (403, "unpaired")
    assert json.loads((box.controller.journal.path.parent / TOKENS_FILE).read_text()) == {
        "tokens": []}


def test_forget_phones_that_cannot_be_written_says_so_and_revokes_nothing(make_web_box,
                                                                          monkeypatch):
    """Issue #19, 5: with the token file unwritable (a read-only or full card) the screen
    said "Phones forgotten", and the revoked token was trusted again after a restart. Now the
    screen says it failed, and the tokens stay trusted, in memory as on the card."""
    from companion.adapters import token_file
    from companion.web.pairing import Pairing

    box = make_web_box(pair_loopback=True)
    headers = {"Cookie": pair(box)}
    token = headers["Cookie"].split("=", 1)[1]

    def read_only_card(*_args, **_kwargs):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(token_file, "write_atomically", read_only_card)
    assert box.line("press up", headers=headers).json == {"reply": "ok"}
    assert box.line("press next", headers=headers).json == {"reply": "ok"}
    shown = " ".join(box.display_text())
    assert "FAILED" in shown and "Phones forgotten" not in shown
    assert box.line("state", headers=headers).status == 200  # still trusted, as on the card
    restarted = Pairing(token_file.TokenFile(box.controller.journal.path.parent))
    assert restarted.knows(token)
