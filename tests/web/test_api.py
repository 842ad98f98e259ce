"""The table page's read and write API over real HTTP (docs/web.md)."""

import io
import json

import pytest
from PIL import Image


def test_state_and_screen_answer_as_the_protocol_does(web_box):
    state = web_box.get("/api/state")
    assert state.status == 200
    assert state.headers["content-type"] == "application/json"
    assert state.json == web_box.state()
    screen = web_box.get("/api/screen").json
    reply = web_box.line("screen").json["reply"]
    assert screen["lines"] == json.loads(reply[3:])["lines"]
    assert screen["title"] == screen["lines"][0]


def test_a_posted_line_acts_and_answers_with_the_protocol_reply(web_box):
    answer = web_box.line("new now-boarding players=2")
    assert answer.status == 200
    assert answer.json == {"reply": "ok"}
    assert web_box.get("/api/state").json["game"] == "now-boarding"
    refused = web_box.line("new no-such-game")
    assert refused.status == 200
    assert refused.json["reply"].startswith("err bad-argument")


@pytest.mark.parametrize(("body", "code"), [
    (b"\xff\xfe", "bad-encoding"),
    (b"press next\npress next", "one-line"),
])
def test_a_bad_line_is_a_json_error_and_changes_nothing(web_box, body, code):
    before = web_box.state()
    answer = web_box.post("/api/line", body)
    assert answer.status == 400
    assert answer.json["error"] == code
    assert web_box.state() == before


def test_the_frame_is_the_panels_1_bit_picture(web_box):
    answer = web_box.get("/api/frame.png")
    assert answer.status == 200
    assert answer.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(answer.body))
    assert (image.size, image.mode) == ((128, 64), "1")
    assert image.getbbox() is not None  # the menu is drawn: not a blank picture


def test_the_event_stream_opens_with_a_full_update_and_follows_the_box(web_box, open_stream):
    stream = open_stream(web_box.port)
    assert stream.response.getheader("Content-Type") == "text/event-stream"
    name, first = stream.next_event()
    assert name == "update"
    assert first["state"] == web_box.get("/api/state").json
    assert first["screen"]["lines"] == web_box.get("/api/screen").json["lines"]
    web_box.line("new now-boarding players=2")
    seen = {}
    stream.until(lambda name, data: seen.setdefault(name, []).append(data) or (
        "tune" in seen and any(update["state"]["game"] == "now-boarding"
                               for update in seen.get("update", []))))
    changed = seen["update"][-1]
    assert changed["frame"] > first["frame"]
    tune = seen["tune"][0]
    assert tune["name"] and all(len(note) == 2 for note in tune["notes"])


def test_tunes_lists_every_tune_of_the_box(web_box):
    from companion.core.tunes import TUNES

    tunes = web_box.get("/api/tunes").json
    assert set(tunes) == set(TUNES)
    assert tunes["alarm"] == [[hz, seconds] for hz, seconds in TUNES["alarm"]]


def test_whoami_says_a_loopback_client_is_trusted(web_box):
    assert web_box.get("/api/whoami").json == {"trusted": True, "paired": False,
                                               "loopback": True}


@pytest.mark.parametrize("path", ["/api/nothing", "/static/../server.py", "/static/.hidden",
                                  "/static/missing.js"])
def test_unknown_paths_are_json_404s(web_box, path):
    answer = web_box.get(path)
    assert answer.status == 404
    assert answer.headers["content-type"] == "application/json"
    assert answer.json["error"] == "not-found"


def test_the_page_is_served_and_the_server_hides_its_python(web_box):
    answer = web_box.get("/")
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["server"] == "companion"


def test_an_unused_method_is_a_json_405(web_box):
    answer = web_box.request("DELETE", "/api/state")
    assert answer.status == 405
    assert answer.json["error"] == "method-not-allowed"


@pytest.mark.parametrize("line", ["", "   ", "# a comment", "\n"])
def test_a_line_that_gets_no_reply_answers_null_at_once(web_box, line):
    answer = web_box.post("/api/line", line.encode(), timeout=2)
    assert answer.status == 200
    assert answer.json == {"reply": None}


def test_games_serves_each_games_facts_for_the_page(web_box):
    from companion.games.registry import page_facts

    answer = web_box.get("/api/games")
    assert answer.status == 200
    assert answer.json == page_facts()
    overbooked = next(game for game in answer.json["games"] if game["name"] == "overbooked")
    assert ["full-flight", "Full Flight"] in overbooked["lists"]["events"]


def test_a_client_that_waits_for_100_continue_gets_it_and_its_answer(web_box):
    """curl sends ``Expect: 100-continue`` with a larger body and waits for the go-ahead
    (a second, else) before sending it."""
    import socket

    body = b"state"
    with socket.create_connection(("127.0.0.1", web_box.port), timeout=10) as sock:
        sock.sendall(b"POST /api/line HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n"
                     b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
        sock.settimeout(0.5)  # well under curl's one-second wait
        assert sock.recv(64).startswith(b"HTTP/1.1 100 ")
        sock.settimeout(10)
        sock.sendall(body)
        answer = b""
        while b'"reply"' not in answer:
            answer += sock.recv(65536)
    assert answer.split(b"\r\n", 1)[0] == b"HTTP/1.1 200 OK"
