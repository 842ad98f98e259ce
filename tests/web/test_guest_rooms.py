"""Issue #38: nothing a guest or a stray device holds is what the table needs.

Over loopback with ``pair_loopback``, 127.0.0.x addresses standing in for phones and guests
(tests/web/test_guest_flood.py has the helpers and round 3's patterns). Each test is one of
the LAN audit's findings, reproduced: slow-reading guests with the pairing window open and
after it closed, late request heads among reconnecting guests, one token holding 48
connections and "Forget phones", and reconnecting guest event streams. In each the table's
paired phone is answered 200 on 10 of 10 requests. The rules themselves are tested without a
socket in tests/web/test_admission.py.
"""

import contextlib
import http.client
import socket
import threading
import time

from companion.protocol.lines import Line
from companion.web.admission import ConnectionLimits
from tests.web.conftest import http_request
from tests.web.test_guest_flood import PHONE, connect, first_answer, pair_phone, post_from_phone

NEW_PHONE = "127.0.0.4"
OWN = "127.0.0.1"
SLOW_GUESTS = [f"127.0.0.{50 + number}" for number in range(6)]


def slow_reader(port, source, requests=200, tries=20):
    """A guest asking for a static file ``requests`` times at once (pipelined), with a tiny
    receive buffer, reading its first status line and nothing more: the slowest reader
    there is. Refused (503), it comes back, as the audit's guests did."""
    for _ in range(tries):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.bind((source, 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * requests)
        if sock.recv(12) == b"HTTP/1.1 200":
            return sock
        sock.close()
    raise AssertionError(f"{source} was never served")


def phone_statuses(box, cookie, *, source=PHONE, count=10, path="/api/state", late=False):
    """``count`` requests of a phone, each on a fresh connection; with ``late`` its head
    comes after the handshake (the server has accepted it, and waits)."""
    headers = {} if cookie is None else {"Cookie": cookie}
    statuses = []
    for _ in range(count):
        if not late:
            statuses.append(http_request(box.port, "GET", path, headers=headers,
                                         source=source).status)
            continue
        connection = http.client.HTTPConnection("127.0.0.1", box.port, timeout=10,
                                                source_address=(source, 0))
        connection.connect()
        connection.sock.settimeout(0.05)  # the head comes late: wait on the socket first
        with contextlib.suppress(TimeoutError):
            connection.sock.recv(1)
        connection.sock.settimeout(10)
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        statuses.append(response.status)
        connection.close()
    return statuses


def until(predicate, seconds=10.0):
    """Wait (on an event, never a bare sleep) until ``predicate()``; whether it came."""
    waiting = threading.Event()
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        waiting.wait(0.02)
    return True


def test_slow_reading_guests_leave_the_table_served_with_the_window_open_and_after(
        make_web_box):
    """Finding 1: 6 guest addresses x 8 connections asking for a static file 200 times and
    reading slowly held more than the guests' share while pairing was open; the paired phone,
    the box's own page and a new phone were refused, and it outlasted the window."""
    box = make_web_box(pair_loopback=True)
    cookie = pair_phone(box)
    box.open_pairing()
    assert until(lambda: box.service.channel.pairing_open)
    guests = [slow_reader(box.port, source) for source in SLOW_GUESTS for _ in range(8)]
    try:
        assert phone_statuses(box, cookie) == [200] * 10
        assert phone_statuses(box, None, source=OWN, path="/") == [200] * 10
        post_from_phone(box, "/api/pair/start")  # a new phone pairs, window open
        new_phone = http_request(box.port, "POST", "/api/pair",
                                 body=f'{{"code": "{box.pair_code()}"}}'.encode(),
                                 source=NEW_PHONE)
        assert new_phone.status == 200
        assert not box.service.channel.pairing_open or until(
            lambda: not box.service.channel.pairing_open)  # it closed as the phone paired
        assert phone_statuses(box, cookie) == [200] * 10
        assert phone_statuses(box, new_phone.headers["set-cookie"].split(";")[0],
                              source=NEW_PHONE) == [200] * 10
        held = box.service.server.held()
        guests_held = [one for one in held if one.client in SLOW_GUESTS]
        assert len(guests_held) <= len(SLOW_GUESTS) * ConnectionLimits().per_client
    finally:
        for sock in guests:
            sock.close()


def test_a_guest_that_reads_nothing_is_cut_off_at_the_send_deadline(make_web_box):
    """Finding 1, the part that outlasted the window: a connection busy writing to a reader
    that takes nothing held its place (and a thread) as long as it liked. Every write now has
    a deadline; past it the connection is closed and its place given back."""
    box = make_web_box(pair_loopback=True)
    box.service.server.send_seconds = 0.5
    guest = slow_reader(box.port, SLOW_GUESTS[0])
    try:
        assert until(lambda: any(one.kind == "writing" for one in box.service.server.held()))
        assert until(lambda: not any(one.client == SLOW_GUESTS[0]
                                     for one in box.service.server.held()))
    finally:
        guest.close()


def test_a_phones_late_head_is_served_among_slow_and_reconnecting_guests(make_web_box):
    """Finding 2: 3 slow-reading guests x 8 and 10 guests opening one connection after
    another; a paired phone whose request head came after the handshake was refused 20 of
    40, a new phone 32 of 40. Places are given when the head has come."""
    box = make_web_box(pair_loopback=True)
    cookie = pair_phone(box)
    slow = [slow_reader(box.port, source) for source in SLOW_GUESTS[:3] for _ in range(8)]
    stop = threading.Event()

    def reconnect(source):  # one connection after another, each as soon as the last ends
        while not stop.is_set():
            with contextlib.suppress(OSError), connect(box.port, source) as sock:
                sock.sendall(b"GET /api/whoami HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Connection: close\r\n\r\n")
                while sock.recv(65536):
                    pass

    churners = [threading.Thread(target=reconnect, args=(f"127.0.0.{70 + number}",))
                for number in range(10)]
    for churner in churners:
        churner.start()
    try:
        assert phone_statuses(box, cookie, late=True) == [200] * 10
        assert phone_statuses(box, None, source=NEW_PHONE, path="/", late=True) == [200] * 10
    finally:
        stop.set()
        for churner in churners:
            churner.join(timeout=10)
        for sock in slow:
            sock.close()


def test_one_token_holding_48_connections_and_forget_phones(make_web_box):
    """Finding 3: one paired device kept 48 connections; the table's phone, the box's page
    and a new phone were refused 12 of 12, still after "Forget phones", and the table could
    not pair again. A token has a cap of its own, and revoking it closes what it holds."""
    box = make_web_box(pair_loopback=True)
    device = pair_phone(box)
    table = pair_phone(box)
    hoard = []
    for _ in range(48):
        sock = connect(box.port, "127.0.0.20")
        sock.sendall(b"GET /api/whoami HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: "
                     + device.encode() + b"\r\n\r\n")
        hoard.append(sock)
    try:
        assert phone_statuses(box, table) == [200] * 10
        assert phone_statuses(box, None, source=OWN, path="/") == [200] * 10
        limits = ConnectionLimits()
        assert until(lambda: sum(1 for one in box.service.server.held()
                                 if one.client == "127.0.0.20") <= limits.per_holder)
        # "Forget phones", at the box (the menu's last row on a fresh box).
        assert box.service.channel.line(Line("press up")) == "ok"
        assert box.service.channel.line(Line("press next")) == "ok"
        assert until(lambda: not any(one.client == "127.0.0.20"
                                     for one in box.service.server.held()))
        for sock in hoard:  # each was answered or closed; none is held open
            sock.settimeout(10)
            with contextlib.suppress(OSError):
                while sock.recv(65536):
                    pass
        statuses = []
        for _ in range(10):  # the table pairs again, each time asked
            box.open_pairing()
            statuses.append(box.post("/api/pair/start", source=PHONE).status)
        assert statuses == [200] * 10
        assert pair_phone(box)
    finally:
        for sock in hoard:
            sock.close()


def test_reconnecting_guest_streams_wait_like_other_refusals(make_web_box):
    """Finding 7: refused event streams were answered at once (others wait a second), so
    guests reopening them pushed a phone's new connection to p50 121 ms. A refused stream
    waits its second too, and the paired phone is served."""
    box = make_web_box(pair_loopback=True, public_mirror=True)
    cookie = pair_phone(box)
    guest = "127.0.0.60"
    held = []
    try:
        for _ in range(ConnectionLimits().streams_per_client):
            stream = connect(box.port, guest)
            stream.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert first_answer(stream) == b"HTTP/1.1 200 OK"
            held.append(stream)
        refused = connect(box.port, guest)
        held.append(refused)
        asked = time.monotonic()
        refused.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert first_answer(refused) == b"HTTP/1.1 503 Service Unavailable"
        assert time.monotonic() - asked >= 0.9
        stop = threading.Event()

        def reopen():
            while not stop.is_set():
                with contextlib.suppress(OSError):
                    again = connect(box.port, guest)
                    again.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    first_answer(again)
                    again.close()

        reopeners = [threading.Thread(target=reopen) for _ in range(8)]
        for reopener in reopeners:
            reopener.start()
        try:
            assert phone_statuses(box, cookie) == [200] * 10
        finally:
            stop.set()
            for reopener in reopeners:
                reopener.join(timeout=10)
    finally:
        for sock in held:
            sock.close()
