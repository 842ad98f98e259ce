"""An in-process table-page server over the fake backend and the real event loop.

The box is built as ``companion run --backend fake --web`` builds it (gpiozero mock pins,
luma's dummy display, bootstrap.build_box), but on the fake clock. The loop runs on a thread
of its own (signals belong to the main thread: ``Box.run_without_signals``); the server
listens on 127.0.0.1, port 0; requests are real HTTP over loopback (http.client)."""

import http.client
import io
import json
import random
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion import config as config_module
from companion.bootstrap import Box, WebAddress, build_box
from companion.protocol.lines import Line
from companion.runtime import EventLoop
from companion.testing.clock import FakeClock
from companion.web.service import WebService
from tests.web.page_support import PORTRAIT, RECORDERS, WAIT_MS


@dataclass
class Answer:
    status: int
    headers: dict
    body: bytes

    @property
    def json(self):
        return json.loads(self.body)


def http_request(port, method, path, body=None, headers=None, *, host="127.0.0.1",
                 timeout=10, source=None):
    """One HTTP request on a connection of its own; the answer, read whole. A POST says its
    ``Origin`` as a browser's does (the page's own), unless ``headers`` name one (``None``:
    send none). ``source``: the local address to send from (with ``pair_loopback``, each
    127.0.0.x is a client of its own: a phone or a guest)."""
    headers = dict(headers or {})
    if method == "POST" and "Origin" not in headers:
        named = f"[{host}]" if ":" in host else host
        headers["Origin"] = f"http://{named}:{port}"
    headers = {name: value for name, value in headers.items() if value is not None}
    connection = http.client.HTTPConnection(
        host, port, timeout=timeout, source_address=None if source is None else (source, 0))
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                      response.read())
    finally:
        connection.close()


@dataclass
class WebBox:
    controller: object
    loop: EventLoop
    service: WebService
    clock: FakeClock
    hardware: object
    config: dict
    box: Box
    thread: threading.Thread = field(default=None)

    @property
    def port(self):
        return self.service.server.server_address[1]

    def request(self, method, path, body=None, headers=None, *, host="127.0.0.1", timeout=10,
                source=None):
        return http_request(self.port, method, path, body, headers, host=host, timeout=timeout,
                            source=source)

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, body=b"", **kwargs):
        return self.request("POST", path, body=body, **kwargs)

    def line(self, text, **kwargs):
        return self.post("/api/line", text.encode(), **kwargs)

    def state(self):
        """The state as the loop holds it, read on the loop's own thread (through the
        channel, past the HTTP rules)."""
        return json.loads(self.service.channel.line(Line("state"))[3:])

    def open_pairing(self):
        """Someone at the box opens pairing (``pair open``, as on the serial line)."""
        assert self.service.channel.line(Line("pair open")) == "ok"

    def pair_code(self):
        """The pairing code the box's display shows now (its title bar, or the Table page's
        column), or None."""
        lines = self.display_text()
        for number, line in enumerate(lines):
            found = PAIR_TITLE.fullmatch(line)
            if found:
                return found.group(1)
            if line == "Code:" and number + 1 < len(lines):
                return lines[number + 1]
        return None

    def close(self):
        self.loop.stop("test over")
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()
        self.box.close()  # the loop closed the channel as it stopped

    def display_text(self):
        """The text the box's own display shows now, as the loop last drew it."""
        self.state()  # a round trip through the loop: everything before it is drawn
        return self.controller.last_screen.text_lines()


PAIR_TITLE = re.compile(r"Pair ([0-9]+) [0-9]+:[0-9]{2}")


def start_web_box(state_dir, host="127.0.0.1", **settings):
    config = config_module.defaults()
    config["web"].update(settings)
    clock = FakeClock()
    built = build_box(config, backend="fake", clock=clock, state_dir=state_dir,
                      rng=random.Random(1), out=io.StringIO(), web=WebAddress(host, 0))
    box = WebBox(built.controller, built.loop, built.web, clock, built.hardware, config, built)
    box.thread = threading.Thread(target=built.run_without_signals, name="test-loop",
                                  daemon=True)
    box.thread.start()
    assert built.loop.ready.wait(10), "the loop did not get ready"
    return box


@pytest.fixture
def web_box(tmp_path):
    box = start_web_box(tmp_path)
    yield box
    box.close()


@pytest.fixture
def make_web_box(tmp_path):
    """Start a box with given [web] settings (pair_loopback, public_mirror) and ``host``."""
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


# -- the browser tests (tests/web/test_page_*.py) -----------------------------------------------
#
# A real `companion run --backend fake --web HOST:0` process (the port the kernel picks is read
# back from its `web=` line) with a state dir of its own, and the distribution's Chromium driven
# by Playwright. Playwright's own browser download cannot work here: it must drive
# /usr/bin/chromium, which tools/test installs. Without it these tests fail; never skip them.
# The fixtures that open pages are here; what the tests do on a page (tap, settle, fits, axe)
# is in page_support.py, one copy, imported by each test module that needs it.

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 412, "height": 915}


@dataclass
class RunningBox:
    """A `companion run --web` process: its URL (as printed), port, state dir and output."""

    process: object
    url: str
    state_dir: object

    @property
    def port(self):
        from urllib.parse import urlsplit

        return urlsplit(self.url).port

    def request(self, method, path, body=None, headers=None, host="127.0.0.1"):
        return http_request(self.port, method, path, body, headers, host=host)

    def line(self, text):
        """A protocol line from this (loopback, trusted) test: the reply line."""
        answer = self.request("POST", "/api/line", text.encode())
        assert answer.status == 200, answer.body
        return answer.json["reply"]

    def state(self):
        return json.loads(self.line("state").removeprefix("ok "))

    def stop(self):
        self.process.terminate()
        try:
            self.process.communicate(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.communicate()


def run_box(state_dir, listen="127.0.0.1:0", config=None):
    """Start `companion run --backend fake --web LISTEN` and wait for its `ready`."""
    import subprocess
    import sys

    arguments = [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial",
                 "none", "--state-dir", str(state_dir), "--web", listen]
    if config is not None:
        config_file = state_dir / "companion.toml"
        config_file.write_text(config, encoding="utf-8")
        arguments += ["--config", str(config_file)]
    process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    first = process.stdout.readline().strip()
    if not first.startswith("web="):
        process.kill()
        _, errors = process.communicate()
        raise AssertionError(f"companion run printed {first!r}: {errors}")
    ready = process.stdout.readline().strip()
    assert ready == "ready", ready
    return RunningBox(process, first.removeprefix("web="), state_dir)


@pytest.fixture
def start_box(tmp_path):
    """``start_box(listen=..., config=...)``: `companion run --web` processes, each with a
    state dir of its own, stopped after the test."""
    boxes = []

    def start(listen="127.0.0.1:0", config=None):
        state_dir = tmp_path / f"box-{len(boxes)}"
        state_dir.mkdir()
        boxes.append(run_box(state_dir, listen, config))
        return boxes[-1]

    yield start
    for box in boxes:
        box.stop()


@pytest.fixture
def running_box(start_box):
    """A box started with `companion run --web 127.0.0.1:0`."""
    return start_box()


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium from the distribution (one for the whole session: it starts once)."""
    from pathlib import Path

    from playwright.sync_api import expect, sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: the table page's browser tests need Debian's "
                    "chromium (tools/test installs it as root: apt-get install chromium)")
    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              headless=True)
        yield launched
        launched.close()


@pytest.fixture
def open_page(browser):
    """``open_page(url, viewport=PHONE, *, touch=False, recorders=(), bypass_csp=False)``:
    ``url`` in a browser of its own (fresh cookies; a touch phone's with ``touch``), closed
    after the test. On the page: ``page.errors``, the console's errors and uncaught
    exceptions; ``page.refused``, (status, url) of every answer of 400 or more;
    ``page.fetched``, the url of every request it made, in order. ``recorders`` names
    page_support.RECORDERS to install before the page loads ("cues": vibration and speech in
    ``window.__cues``); ``bypass_csp`` lets a test inject axe-core."""
    contexts = []

    def open_one(url, viewport=PHONE, *, touch=False, recorders=(), bypass_csp=False):
        context = browser.new_context(viewport=viewport, device_scale_factor=1,
                                      is_mobile=touch, has_touch=touch, bypass_csp=bypass_csp)
        context.set_default_timeout(WAIT_MS)
        for name in recorders:
            context.add_init_script(RECORDERS[name])
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.refused = []
        page.fetched = []
        page.on("console", lambda message: message.type == "error"
                and page.errors.append(message.text))
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("response", lambda response: response.status >= 400
                and page.refused.append((response.status, response.url)))
        page.on("request", lambda request: page.fetched.append(request.url))
        page.goto(url)
        return page

    yield open_one
    for context in contexts:
        context.close()


@pytest.fixture
def open_phone(open_page):
    """``open_phone(url, viewport=PORTRAIT, **options)``: :func:`open_page` on a touch phone
    (``is_mobile``, ``has_touch``), 360 x 740 unless told."""

    def open_one(url, viewport=PORTRAIT, **options):
        return open_page(url, viewport, touch=True, **options)

    return open_one


@pytest.fixture
def phone(running_box, open_phone):
    """``phone(viewport=PORTRAIT, view="timer", **options)``: ``running_box``'s table page on
    a touch phone (:func:`open_phone`, whose ``options`` it takes), opened on ``view`` (None:
    the page's own choice) and live (its event stream connected)."""
    from playwright.sync_api import expect

    def open_view(viewport=PORTRAIT, view="timer", **options):
        url = running_box.url if view is None else f"{running_box.url}?view={view}"
        page = open_phone(url, viewport, **options)
        expect(page.locator("#link-status")).to_have_text("Live")
        return page

    return open_view


@pytest.fixture
def page(running_box, open_page):
    """The table page of ``running_box``, live (its event stream connected)."""
    from playwright.sync_api import expect

    opened = open_page(running_box.url)
    expect(opened.locator("#link-status")).to_have_text("Live")
    return opened


SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
"""The README's pictures of the page (regenerated only with ``pytest --regen-golden``)."""


@pytest.fixture
def shoot(request, tmp_path):
    """``shoot(page, name, full_page=False)``: a screenshot (``web-NAME.png``), into
    docs/screens only with ``pytest --regen-golden`` (look at it), else a temporary folder, so
    a test run leaves the checkout as it was (the pictures hold times and ports that differ on
    every run). ``full_page``: the whole page from its top (the sticky header where it
    belongs), not only the viewport."""
    folder = SCREENS if request.config.getoption("--regen-golden") else tmp_path / "screens"

    def take(page, name, full_page=False):
        folder.mkdir(parents=True, exist_ok=True)
        if full_page:
            page.evaluate("window.scrollTo(0, 0)")
        path = folder / f"web-{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        assert path.stat().st_size > 0

    return take
