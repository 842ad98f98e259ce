"""The web channel: the HTTP server's bridge to the event loop.

The server's threads never touch the controller. They reach the loop only through this
channel, which is a :class:`~companion.runtime.channels.Channel` like the serial line:

- **A line in, its reply out.** ``POST /api/line`` posts a
  :class:`~companion.runtime.channels.LineEvent` whose channel is a one-use
  :class:`ReplySlot`; the loop answers into that slot and the request thread waits for it
  (with a timeout). At most :data:`MAX_PENDING_LINES` lines from the web wait for the loop at
  once; past that a request waits for room, then gives up with "busy".
- **The box out.** The loop calls :meth:`WebChannel.observe` with a snapshot after each change;
  the tune player calls :meth:`WebChannel.tune`. Both only store and notify: they never block
  the loop. Each event-stream client has its own bounded :class:`Subscriber`: the newest
  ``update`` replaces an older unsent one, and other events beyond :data:`MAX_QUEUED_EVENTS`
  drop the oldest. A slow phone loses old news, never the box's time.
- **The picture** is rendered from the latest screen model on a server thread when a client
  asks for it, once per frame, and cached.
- **The pairing code stays on the box.** The mirror (lines, picture, events) never shows the
  "Pair code" alert: whoever can read the mirror must not be able to pair with it.
"""

from __future__ import annotations

import io
import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from companion.protocol.lines import Line
from companion.runtime.channels import LineEvent, Snapshot

log = logging.getLogger(__name__)

MAX_PENDING_LINES = 64
"""Lines from web requests waiting for the loop, at most."""

MAX_QUEUED_EVENTS = 64
"""Tune and pairing events waiting for one slow event-stream client, at most."""

PAIR_ALERT = "Pair code "
"""How the box's alert box shows a pairing code (core/app.py); never mirrored."""

REPLY_TIMEOUT_SECONDS = 10.0
"""How long a request waits for the loop's reply to its line."""


class Busy(Exception):
    """The loop did not take or answer the line in time."""


class ReplySlot:
    """The one-use channel of a single ``POST /api/line``: the loop sends its reply here."""

    name = "web"

    def __init__(self, room: threading.Semaphore) -> None:
        self._room = room
        self._done = threading.Event()
        self.reply: str | None = None

    def start(self, post: Callable[[LineEvent], None]) -> None:  # pragma: no cover - unused
        """A slot is never started: it exists for one line."""

    def taken(self) -> None:
        self._room.release()

    def send(self, reply: str) -> None:
        self.reply = reply
        self._done.set()

    def close(self) -> None:
        self._done.set()

    def wait(self, timeout: float) -> str | None:
        self._done.wait(timeout)
        return self.reply


@dataclass(eq=False)
class Subscriber:
    """One event-stream client's queue: at most one pending ``update`` (the newest) and a
    bounded run of other events."""

    update: bytes | None = None
    closed: bool = False

    def __post_init__(self) -> None:
        self.events: deque[bytes] = deque(maxlen=MAX_QUEUED_EVENTS)
        self.ready = threading.Condition()

    def put_update(self, data: bytes) -> None:
        with self.ready:
            self.update = data
            self.ready.notify()

    def put(self, data: bytes) -> None:
        with self.ready:
            self.events.append(data)
            self.ready.notify()

    def take(self, timeout: float) -> list[bytes] | None:
        """What is waiting (events in order, then the newest update); ``[]`` after
        ``timeout`` with nothing new; None once closed."""
        with self.ready:
            if not self.events and self.update is None and not self.closed:
                self.ready.wait(timeout)
            if self.closed:
                return None
            out = list(self.events)
            self.events.clear()
            if self.update is not None:
                out.append(self.update)
                self.update = None
            return out

    def close(self) -> None:
        with self.ready:
            self.closed = True
            self.ready.notify_all()


def sse(event: str, data: Any) -> bytes:
    """One Server-Sent Event, its data as one line of JSON."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class WebChannel:
    """The loop's side of the web server; see the module docstring."""

    name = "web"

    def __init__(self, *, pending_lines: int = MAX_PENDING_LINES,
                 reply_timeout: float = REPLY_TIMEOUT_SECONDS) -> None:
        self.reply_timeout = reply_timeout
        self._post: Callable[[Any], None] | None = None
        self._room = threading.BoundedSemaphore(pending_lines)
        self._lock = threading.Condition()
        self._snapshot: Snapshot | None = None
        self._update: bytes | None = None
        self.frame = 0
        self._png: tuple[int, bytes] | None = None
        self._subscribers: set[Subscriber] = set()
        self._pair_pending = False
        self.pair_pending: Callable[[], bool] = lambda: False
        self.on_start: list[Callable[[], None]] = []
        self.on_close: list[Callable[[], None]] = []

    # -- the loop's side ---------------------------------------------------------------------

    def start(self, post: Callable[[Any], None]) -> None:
        self._post = post
        for hook in self.on_start:
            hook()

    def taken(self) -> None:
        """Lines are taken through their :class:`ReplySlot`, never through the channel."""

    def send(self, reply: str) -> None:
        """Replies go to each line's :class:`ReplySlot`; nothing reaches here."""

    def close(self) -> None:
        for hook in self.on_close:
            hook()
        with self._lock:
            subscribers = list(self._subscribers)
            self._subscribers.clear()
            self._lock.notify_all()
        for subscriber in subscribers:
            subscriber.close()

    def observe(self, snapshot: Snapshot) -> None:
        """The loop's news (loop thread): keep it, and tell the event-stream clients."""
        snapshot = without_pair_code(snapshot)
        pending = self.pair_pending()
        if pending != self._pair_pending:
            self.pairing_changed(pending)  # the code timed out
        with self._lock:
            previous = self._snapshot
            if previous is None or snapshot.screen != previous.screen:
                self.frame += 1
            self._snapshot = snapshot
            update = sse("update", self._update_body(snapshot))
            if update == self._update:
                return
            self._update = update
            subscribers = list(self._subscribers)
            self._lock.notify_all()
        for subscriber in subscribers:
            subscriber.put_update(update)

    def tune(self, name: str, muted: bool) -> None:
        """The tune player's listener (loop thread): the page plays the same notes."""
        from companion.core.tunes import TUNES

        notes = [[frequency, seconds] for frequency, seconds in TUNES.get(name, ())]
        self.broadcast(sse("tune", {"name": name, "notes": notes, "muted": muted}))

    def pairing_changed(self, pending: bool) -> None:
        """Tell the event streams a pairing began or ended (once per change)."""
        with self._lock:
            if pending == self._pair_pending:
                return
            self._pair_pending = pending
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            subscriber.put(sse("pair", {"pending": pending}))

    def post(self, event: Any) -> bool:
        """Hand any loop event to the loop (the server's pairing display); False before
        the loop started."""
        if self._post is None:
            return False
        self._post(event)
        return True

    # -- the server's side -------------------------------------------------------------------

    def broadcast(self, data: bytes) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            subscriber.put(data)

    def snapshot(self, timeout: float = 5.0) -> Snapshot | None:
        """The latest snapshot, waiting up to ``timeout`` for the first one."""
        with self._lock:
            self._lock.wait_for(lambda: self._snapshot is not None, timeout)
            return self._snapshot

    def frame_png(self) -> tuple[int, bytes] | None:
        """The panel's current picture as a 1-bit PNG, with its frame number."""
        with self._lock:
            snapshot, frame, cached = self._snapshot, self.frame, self._png
        if snapshot is None or snapshot.screen is None:
            return None
        if cached is not None and cached[0] == frame:
            return cached
        from companion.ui.render import render

        buffer = io.BytesIO()
        render(snapshot.screen).save(buffer, format="PNG", optimize=False)
        png = (frame, buffer.getvalue())
        with self._lock:
            if self.frame == frame:
                self._png = png
        return png

    def subscribe(self) -> Subscriber:
        """A new event-stream client; its first event is a full ``update``."""
        subscriber = Subscriber()
        with self._lock:
            self._subscribers.add(subscriber)
            first = self._update
            pending = self._pair_pending
        if first is not None:
            subscriber.put_update(first)
        if pending:
            subscriber.put(sse("pair", {"pending": True}))
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            self._subscribers.discard(subscriber)
        subscriber.close()

    def drop_streams(self) -> None:
        """End every event stream (after "Forget phones": each must be let in again)."""
        with self._lock:
            subscribers = list(self._subscribers)
            self._subscribers.clear()
        for subscriber in subscribers:
            subscriber.close()

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def line(self, text: str) -> str:
        """Send one protocol line to the loop and wait for its reply; :class:`Busy` if the
        loop does not take or answer it in time."""
        if self._post is None:
            raise Busy("the box is not running yet")
        if not self._room.acquire(timeout=self.reply_timeout):
            raise Busy("too many lines are waiting for the box")
        slot = ReplySlot(self._room)
        self._post(LineEvent(Line(text), slot))
        reply = slot.wait(self.reply_timeout)
        if reply is None:
            raise Busy("the box did not answer in time")
        return reply

    def _update_body(self, snapshot: Snapshot) -> dict[str, Any]:
        return {"state": snapshot.state, "screen": screen_body(snapshot), "frame": self.frame}


def without_pair_code(snapshot: Snapshot) -> Snapshot:
    """``snapshot`` with the pairing code's alert taken out of its screen."""
    screen = snapshot.screen
    if screen is None or not any(line.startswith(PAIR_ALERT) for line in screen.alert):
        return snapshot
    screen = replace(screen, alert=())
    return Snapshot(state=snapshot.state, lines=screen.text_lines(), screen=screen)


def screen_body(snapshot: Snapshot) -> dict[str, Any]:
    """The ``screen`` answer: the lines, plus the title and big text when there are any."""
    body: dict[str, Any] = {"lines": snapshot.lines}
    screen = snapshot.screen
    if screen is not None:
        body["title"] = screen.title
        if screen.big is not None:
            body["main"] = screen.big
    return body
