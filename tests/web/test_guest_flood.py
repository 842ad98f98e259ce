"""Issue #28, 2: paired phones are never refused for want of a slot.

Over loopback with ``pair_loopback`` and ``public_mirror`` on, so that 127.0.0.x addresses
stand in for phones and guests on the LAN: five guest addresses each hold 8 slow sockets and
8 event streams (40 of each), and the table's paired phone is answered 200 on every request,
on fresh connections and on a kept-alive one. The guests are answered 503 with Retry-After
when there is no room for them, never silence. When single-socket guests fill the unpaired
share (no fair swap to make), a phone's new connection waits on probation and is served once
its token (or pairing) shows. The admission rules themselves are tested without a socket in
tests/web/test_policy.py.
"""

import http.client
import json
import socket

from companion.web.admission import ConnectionLimits
from tests.web.conftest import http_request

GUESTS = [f"127.0.0.{50 + number}" for number in range(5)]
PHONE = "127.0.0.3"


def connect(port, source):
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def post_from_phone(box, path, body=b""):
    answer = box.post(path, body, source=PHONE)
    assert answer.status == 200, answer.body
    return answer.headers.get("set-cookie")


def pair_phone(box):
    """Someone at the box opens pairing; the phone asks and types the code shown."""
    box.open_pairing()
    post_from_phone(box, "/api/pair/start")
    cookie = post_from_phone(box, "/api/pair", json.dumps({"code": box.pair_code()}).encode())
    return cookie.split(";")[0]


def first_answer(sock):
    """The status line a guest's socket got (b"" if the server closed it without one)."""
    try:
        return sock.recv(64).split(b"\r\n")[0]
    except OSError as error:
        return repr(error).encode()


def test_guests_slow_sockets_and_streams_leave_a_paired_phone_served(make_web_box):
    box = make_web_box(pair_loopback=True, public_mirror=True)
    cookie = pair_phone(box)
    held = []
    try:
        for guest in GUESTS:
            for _ in range(8):
                sock = connect(box.port, guest)
                sock.sendall(b"GET /api/whoami HTTP/1.1\r\nX-Dribble: a")
                held.append(sock)
        streams = []
        for guest in GUESTS:
            for _ in range(8):
                sock = connect(box.port, guest)
                sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                streams.append(sock)
        held += streams

        statuses = []
        kept = http.client.HTTPConnection("127.0.0.1", box.port, timeout=10,
                                          source_address=(PHONE, 0))
        for number in range(20):
            fresh = http.client.HTTPConnection("127.0.0.1", box.port, timeout=10,
                                               source_address=(PHONE, 0))
            for connection in (fresh, kept):
                connection.request("GET", "/api/state" if number % 2 else "/",
                                   headers={"Cookie": cookie})
                response = connection.getresponse()
                response.read()
                statuses.append(response.status)
            fresh.close()
        kept.close()
        assert statuses == [200] * 40

        # The guests: every stream was answered (200, or 503 when there was no room), and
        # at most their cap of unpaired streams and their share of slots are open now.
        answers = [first_answer(sock) for sock in streams]
        assert all(answer in (b"HTTP/1.1 200 OK", b"HTTP/1.1 503 Service Unavailable")
                   for answer in answers), [answer for answer in answers if b"200" not in answer]
        limits = ConnectionLimits()
        now = box.service.server.held()
        unpaired = [one for one in now if not one.trusted and one.kind != "new"]
        assert len([one for one in unpaired if one.kind == "stream"]) <= limits.unpaired_streams
        assert len(unpaired) <= limits.unpaired and len(now) <= limits.total
    finally:
        for sock in held:
            sock.close()


def status_of(port, source, path="/api/whoami", headers=None):
    """One request on a fresh connection from ``source``: its status and Retry-After."""
    answer = http_request(port, "GET", path, headers=headers, source=source)
    return answer.status, answer.headers.get("retry-after")


def test_single_place_guests_filling_the_room_leave_a_phone_pairing_and_served(make_web_box):
    """Guest addresses holding one kept-alive place each fill the unpaired room with no fair
    swap (each holds 1, a newcomer 0): a new phone takes the place of one idle past its
    grace (here no grace), pairs, and is served from then on in the trusted room; a guest
    at its own cap is answered 503 with Retry-After."""
    box = make_web_box(pair_loopback=True, public_mirror=True)
    box.service.server.limits = ConnectionLimits(idle_grace=0.0)
    held = []
    try:
        for number in range(ConnectionLimits().unpaired):
            sock = connect(box.port, f"127.0.0.{100 + number}")
            sock.sendall(b"GET /api/whoami HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert first_answer(sock) == b"HTTP/1.1 200 OK"  # then kept alive, idle
            held.append(sock)
        cookie = pair_phone(box)
        statuses = [status_of(box.port, PHONE, "/api/state", {"Cookie": cookie})[0]
                    for _ in range(10)]
        assert statuses == [200] * 10
        guest = "127.0.0.99"
        for _ in range(ConnectionLimits().per_client):
            sock = connect(box.port, guest)
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            held.append(sock)
        assert status_of(box.port, guest) == (503, "1")
    finally:
        for sock in held:
            sock.close()


def test_a_reloaded_pages_hung_up_stream_makes_room_and_a_live_one_does_not(make_web_box,
                                                                           open_stream):
    """An unpaired client has two event streams; a third is 503 while both live (closing one
    for it let a guest spin the box), and served once the browser hung one up (a reload)."""
    box = make_web_box(pair_loopback=True, public_mirror=True)
    guest = "127.0.0.60"
    streams = []
    for _ in range(2):
        stream = socket.create_connection(("127.0.0.1", box.port), timeout=10,
                                          source_address=(guest, 0))
        stream.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert first_answer(stream) == b"HTTP/1.1 200 OK"
        streams.append(stream)
    try:
        assert status_of(box.port, guest, "/api/events")[0] == 503
        streams[0].close()  # the page reloads: its browser hangs up the old stream
        third = socket.create_connection(("127.0.0.1", box.port), timeout=10,
                                         source_address=(guest, 0))
        streams.append(third)
        third.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert first_answer(third) == b"HTTP/1.1 200 OK"
    finally:
        for stream in streams:
            stream.close()
