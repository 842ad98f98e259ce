"""An in-process table-page server over a simulated controller and the real event loop.

The loop runs on a thread of its own (signals belong to the main thread, so the test drives
``_loop`` as the watchdog tests do); the server listens on 127.0.0.1, port 0; requests are real
HTTP over loopback (http.client)."""

import http.client
import io
import json
import threading
from dataclasses import dataclass, field

import pytest

from companion.runtime import EventLoop
from companion.testing.clock import FakeClock
from companion.testing.simulated import simulated_controller
from companion.web.server import WebService, WebSettings


@dataclass
class Answer:
    status: int
    headers: dict
    body: bytes

    @property
    def json(self):
        return json.loads(self.body)


@dataclass
class WebBox:
    controller: object
    loop: EventLoop
    service: WebService
    clock: FakeClock
    thread: threading.Thread = field(default=None)

    @property
    def port(self):
        return self.service.server.server_address[1]

    def request(self, method, path, body=None, headers=None, *, host="127.0.0.1", timeout=10):
        connection = http.client.HTTPConnection(host, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                          response.read())
        finally:
            connection.close()

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, body=b"", **kwargs):
        return self.request("POST", path, body=body, **kwargs)

    def line(self, text, **kwargs):
        return self.post("/api/line", text.encode(), **kwargs)

    def state(self):
        """The state as the loop holds it, read on the loop's own thread."""
        return json.loads(self.line("state").json["reply"][3:])

    def close(self):
        self.loop.stop("test over")
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()
        self.service.channel.close()
        self.controller.journal.close()


def start_web_box(state_dir, **settings):
    clock = FakeClock()
    controller = simulated_controller(state_dir, clock=clock)
    service = WebService(WebSettings(host="127.0.0.1", port=0, **settings),
                         state_dir=state_dir, clock=clock.monotonic)
    controller.tunes.listeners.append(service.channel.tune)
    loop = EventLoop(controller, out=io.StringIO(), channels=[service.channel])
    box = WebBox(controller, loop, service, clock)
    service.channel.start(loop.post)
    controller.refresh()
    loop._publish()
    box.thread = threading.Thread(target=loop._loop, name="test-loop", daemon=True)
    box.thread.start()
    return box


@pytest.fixture
def web_box(tmp_path):
    box = start_web_box(tmp_path)
    yield box
    box.close()


@pytest.fixture
def make_web_box(tmp_path):
    """Start a box with given [web] settings (pair_loopback, public_mirror)."""
    boxes = []

    def make(**settings):
        box = start_web_box(tmp_path, **settings)
        boxes.append(box)
        return box

    yield make
    for box in boxes:
        box.close()


class EventStream:
    """A Server-Sent Events client over a raw socket; read events with timeouts."""

    def __init__(self, port, headers=None, host="127.0.0.1"):
        self.connection = http.client.HTTPConnection(host, port, timeout=10)
        self.connection.request("GET", "/api/events", headers=headers or {})
        self.response = self.connection.getresponse()

    def next_event(self):
        """(event name, data) of the next event, skipping comments and retry lines."""
        name, data = None, None
        while True:
            raw = self.response.fp.readline()
            if not raw:
                raise EOFError("the stream ended")
            text = raw.decode().rstrip("\n")
            if text.startswith("event: "):
                name = text[len("event: "):]
            elif text.startswith("data: "):
                data = json.loads(text[len("data: "):])
            elif text == "" and name is not None:
                return name, data

    def until(self, predicate, limit=200):
        """Events until one satisfies ``predicate``; that one."""
        for _ in range(limit):
            event = self.next_event()
            if predicate(*event):
                return event
        raise AssertionError("no such event came")

    def close(self):
        self.connection.close()


@pytest.fixture
def open_stream():
    """Open event streams (``open_stream(port, headers=...)``), closed after the test."""
    streams = []

    def open_one(port, **kwargs):
        stream = EventStream(port, **kwargs)
        streams.append(stream)
        return stream

    yield open_one
    for stream in streams:
        stream.close()
