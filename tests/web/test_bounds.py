"""The server's bounds: connections, slow event-stream clients, and a loop that never waits."""

import http.client
import io
import json
import socket

import pytest

from companion.runtime.channels import Snapshot
from companion.web.channel import MAX_QUEUED_EVENTS, Subscriber, WebChannel, sse
from companion.web.policy import WebSettings
from companion.web.service import WebService


def test_connections_past_the_bound_get_a_json_503(open_stream):
    """Places are bounded (here the trusted room, 2 places): past them a JSON 503 with
    Retry-After, and the places come back when connections end."""
    from companion.testing.clock import FakeClock
    from companion.web.admission import ConnectionLimits

    service = WebService(WebSettings(host="127.0.0.1", port=0), clock=FakeClock().monotonic,
                         limits=ConnectionLimits(trusted=2))
    service.channel.start(lambda event: None)
    service.channel.observe(Snapshot(state={"game": None}, lines=["menu"]))
    port = service.server.server_address[1]
    try:
        streams = [open_stream(port) for _ in range(2)]
        for stream in streams:
            assert stream.next_event()[0] == "update"
        refused = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        refused.request("GET", "/api/whoami")
        answer = refused.getresponse()
        assert answer.status == 503
        assert answer.getheader("Retry-After") == "1"
        assert json.load(answer)["error"] == "busy"
        refused.close()
        # Slots come back when connections end: end the streams from the server's side.
        service.channel.drop_streams()
        statuses = []
        while 200 not in statuses and len(statuses) < 500:  # until their streams ended
            again = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            again.request("GET", "/api/whoami")
            statuses.append(again.getresponse().status)
            again.close()
        assert statuses[-1] == 200 and set(statuses) <= {200, 503}
    finally:
        service.channel.close()


def test_a_client_that_never_reads_keeps_only_the_newest_update():
    channel = WebChannel()
    subscriber = channel.subscribe()
    for number in range(1000):
        channel.observe(Snapshot(state={"n": number}, lines=[str(number)]))
        channel.tune("click", False)
    waiting = subscriber.take(timeout=0)
    updates = [event for event in waiting if event.startswith(b"event: update")]
    assert len(updates) == 1
    assert json.loads(updates[0].split(b"data: ")[1])["state"] == {"n": 999}
    assert len(waiting) - 1 == MAX_QUEUED_EVENTS


def test_an_unchanged_snapshot_sends_nothing_new():
    channel = WebChannel()
    snapshot = Snapshot(state={"game": None}, lines=["menu"])
    channel.observe(snapshot)
    subscriber = channel.subscribe()
    assert len(subscriber.take(timeout=0)) == 1  # the full update on connect
    channel.observe(Snapshot(state={"game": None}, lines=["menu"]))
    assert subscriber.take(timeout=0) == []


def test_a_closed_subscriber_says_so():
    subscriber = Subscriber()
    subscriber.put(sse("pair", {"pending": True}))
    subscriber.close()
    assert subscriber.take(timeout=0) is None


def test_the_frame_is_rendered_once_per_picture():
    from companion.ui.screen import Screen

    channel = WebChannel()
    channel.observe(Snapshot(state={}, lines=["a"], screen=Screen("a")))
    first = channel.frame_png()
    assert channel.frame_png() is first
    channel.observe(Snapshot(state={"x": 1}, lines=["a"], screen=Screen("a")))
    assert channel.frame_png() is first  # the state changed, the picture did not
    channel.observe(Snapshot(state={}, lines=["b"], screen=Screen("b")))
    second = channel.frame_png()
    assert second[0] == first[0] + 1 and second[1] != first[1]
    assert io.BytesIO(second[1]).read(8) == b"\x89PNG\r\n\x1a\n"


def test_pair_events_follow_the_snapshots_once_per_change():
    channel = WebChannel()
    channel.observe(Snapshot(state={}, lines=["menu"]))
    subscriber = channel.subscribe()
    assert len(subscriber.take(timeout=0)) == 1  # the full update
    shown = Snapshot(state={}, lines=["menu"], pairing=True)
    channel.observe(shown)
    assert subscriber.take(timeout=0) == [sse("pair", {"pending": True})]
    channel.observe(shown)
    assert subscriber.take(timeout=0) == []
    late = channel.subscribe()
    assert sse("pair", {"pending": True}) in late.take(timeout=0)  # with the full update
    channel.observe(Snapshot(state={}, lines=["menu"]))
    assert subscriber.take(timeout=0) == [sse("pair", {"pending": False})]


def test_web_threads_stop_asking_for_a_lower_priority_once_a_filter_denies_it(monkeypatch,
                                                                               caplog):
    """Issue #28, 4: under a system-call filter that denies setpriority the threads' lower
    priority did nothing, silently. Now the first refusal says why, and none asks again."""
    from companion.web import server

    calls = []

    def denied(*args):
        calls.append(args)
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(server.os, "setpriority", denied)
    monkeypatch.setitem(server._PRIORITY, "denied", False)
    server.lower_priority()
    server.lower_priority()
    assert len(calls) == 1
    assert "setpriority was refused" in caplog.text


@pytest.mark.parametrize(("sends_token", "status"), [(True, b"200"), (False, b"503")])
def test_a_token_in_a_head_that_came_late_is_known_all_the_same(sends_token, status):
    """Issue #38, 2: a phone whose request head came after the handshake was judged as any
    newcomer, and refused when guests had made every unpaired place busy. Places are now
    given when the head has come: with no room for unpaired clients at all, a paired phone's
    late head is served; the same head without the token is refused (503 a second later)."""
    from companion.testing.clock import FakeClock
    from companion.web.admission import ConnectionLimits

    service = WebService(WebSettings(host="127.0.0.1", port=0, pair_loopback=True),
                         clock=FakeClock().monotonic, limits=ConnectionLimits(unpaired=0))
    service.channel.start(lambda event: None)
    service.channel.observe(Snapshot(state={"game": None}, lines=["menu"]))
    token = service.pairing.settle("paired")
    port = service.server.server_address[1]
    phone = socket.create_connection(("127.0.0.1", port), timeout=10,
                                     source_address=("127.0.0.9", 0))
    try:
        phone.settimeout(0.3)  # the head comes late: the server has had the handshake
        with pytest.raises(TimeoutError):
            phone.recv(1)
        phone.settimeout(10)
        cookie = f"Cookie: companion_token={token}\r\n".encode() if sends_token else b""
        phone.sendall(b"GET /api/whoami HTTP/1.1\r\nHost: 127.0.0.1\r\n" + cookie + b"\r\n")
        assert phone.recv(64).split(b" ")[1] == status
    finally:
        phone.close()
        service.channel.close()
