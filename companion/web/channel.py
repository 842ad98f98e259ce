"""The web channel: the HTTP server's bridge to the event loop.

The server never touches the controller. They reach the loop only through this
channel, a :class:`~companion.runtime.channels.LineSource` like the serial line:

- **A line in, its answer out.** ``POST /api/line`` posts a
  :class:`~companion.runtime.channels.LineEvent` whose reply target is a one-use
  :class:`ReplySlot`; the loop answers every line into its slot (``None`` for a blank line or
  a comment) and the request thread waits for it (with a timeout). A typed pairing code goes
  the same way (:class:`~companion.runtime.channels.PairCodeEntered`). At most
  :data:`MAX_PENDING_LINES` requests wait for the loop at once; past that a request waits
  for room, then gives up with "busy".
- **The box out.** The loop calls :meth:`WebChannel.observe` with a snapshot after each change;
  the tune player calls :meth:`WebChannel.tune`. Both only store and notify: they never block
  the loop. Each event-stream client has its own bounded :class:`Subscriber`: the newest
  ``update`` replaces an older unsent one, and other events beyond :data:`MAX_QUEUED_EVENTS`
  drop the oldest. A slow phone loses old news, never the box's time.
- **The picture** is rendered from the latest screen model on a server worker thread when a client
  asks for it, once per frame, and cached.
- **The pairing code and secret stay on the box.** The snapshots the loop hands over are
  drawn without them (companion/ui/views ``mirror_screen``: the plain address's QR code) and
  say only whether a code is shown, which the streams hear as a ``pair`` event when it
  changes.
"""

from __future__ import annotations

import io
import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.core.table_page import PairOutcome, ShowOutcome
from companion.errors import CompanionError
from companion.protocol.lines import Item
from companion.runtime.channels import LineEvent, PairCodeEntered, PairCodeEvent, Snapshot

log = logging.getLogger(__name__)

MAX_PENDING_LINES = 64
"""Lines from web requests waiting for the loop, at most."""

MAX_QUEUED_EVENTS = 64
"""Tune and pairing events waiting for one slow event-stream client, at most."""

REPLY_TIMEOUT_SECONDS = 10.0
"""How long a request waits for the loop's reply to its line."""


class Busy(CompanionError):
    """The loop did not take or answer a request in time."""

    def __init__(self, message: str) -> None:
        super().__init__("busy", message)


T = TypeVar("T")


class ReplySlot(Generic[T]):
    """Where the loop answers one request (a line, a typed code), and the one place that
    decides whether it runs at all (issue #19, 4: a refusal means never done).

    It goes queued -> started (the loop claims it, then answers it) or queued -> withdrawn
    (the waiting request gave up first: :meth:`withdraw`). The two are decided under one
    lock, so a line is either withdrawn and never carried out, or started and carried out
    once; the request's room is given back either way."""

    def __init__(self, room: threading.Semaphore) -> None:
        self._room = room
        self._lock = threading.Lock()
        self._done = threading.Event()
        self.started = False
        self.withdrawn = False
        self.reply: T | None = None

    def claim(self) -> bool:
        """The loop is about to carry it out (loop thread): False if it was withdrawn (then
        the loop skips it and never answers)."""
        with self._lock:
            if self.withdrawn:
                return False
            self.started = True
            return True

    def withdraw(self) -> bool:
        """The request gives up (its thread): True if the loop had not started it, which now
        never will; False if it is being carried out (its answer will come)."""
        with self._lock:
            if self.started:
                return False
            self.withdrawn = True
        self._room.release()
        self._done.set()
        return True

    def answer(self, reply: T) -> None:
        self.reply = reply
        self._room.release()
        self._done.set()

    @property
    def answered(self) -> bool:
        return self._done.is_set() and not self.withdrawn

    def wait(self, timeout: float | None) -> bool:
        """Whether the loop answered (or it was withdrawn) within ``timeout``."""
        return self._done.wait(timeout)


@dataclass(eq=False)
class Subscriber:
    """One event-stream client's queue: at most one pending ``update`` (the newest) and a
    bounded run of other events."""

    update: bytes | None = None
    closed: bool = False
    wake: Callable[[], None] | None = None
    """Called (from any thread) when it closes: the server's event loop waits for that, and
    for the channel's :attr:`WebChannel.on_news`, instead of a thread waiting on
    :meth:`take`."""

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
        if self.wake is not None:
            self.wake()


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
        self.on_start: list[Callable[[], None]] = []
        self.on_close: list[Callable[[], None]] = []
        self.on_news: list[Callable[[], None]] = []
        """Called once (on the loop's thread) after news reached every subscriber: the
        server wakes its streams with one call, not one per stream (each a hand-over of the
        GIL on the loop's thread)."""

    # -- the loop's side ---------------------------------------------------------------------

    def start(self, post: Callable[[Any], None]) -> None:
        self._post = post
        for hook in self.on_start:
            hook()

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
        """The loop's news (loop thread): keep it, and tell the event-stream clients (a
        ``pair`` event when a pairing code came or went, an ``update`` when anything shown
        changed)."""
        with self._lock:
            previous = self._snapshot
            if previous is None or snapshot.screen != previous.screen:
                self.frame += 1
            self._snapshot = snapshot
            pairing = (previous is not None and previous.pairing) != snapshot.pairing
            update = sse("update", self._update_body(snapshot))
            if update == self._update and not pairing:
                return
            fresh = update != self._update
            self._update = update
            subscribers = list(self._subscribers)
            self._lock.notify_all()
        for subscriber in subscribers:
            if pairing:
                subscriber.put(sse("pair", {"pending": snapshot.pairing}))
            if fresh:
                subscriber.put_update(update)
        self._news(subscribers)

    def tune(self, name: str, muted: bool) -> None:
        """The tune player's listener (loop thread): the page plays the same notes."""
        from companion.core.tunes import TUNES

        notes = [[frequency, seconds] for frequency, seconds in TUNES.get(name, ())]
        self.broadcast(sse("tune", {"name": name, "notes": notes, "muted": muted}))

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
        self._news(subscribers)

    def _news(self, subscribers: list[Subscriber]) -> None:
        if subscribers:
            for hook in self.on_news:
                hook()

    def snapshot(self, timeout: float = 5.0) -> Snapshot | None:
        """The latest snapshot, waiting up to ``timeout`` for the first one."""
        with self._lock:
            self._lock.wait_for(lambda: self._snapshot is not None, timeout)
            return self._snapshot

    @property
    def drawn(self) -> bool:
        """Whether the loop has handed over its first snapshot (then :meth:`snapshot` never
        waits)."""
        with self._lock:
            return self._snapshot is not None

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

    def subscribe(self, subscriber: Subscriber | None = None) -> Subscriber:
        """A new event-stream client (``subscriber``, or a fresh one); its first event is a
        full ``update``. One already closed stays closed."""
        subscriber = subscriber or Subscriber()
        with self._lock:
            self._subscribers.add(subscriber)
            first = self._update
            pending = self._snapshot is not None and self._snapshot.pairing
        if first is not None:
            subscriber.put_update(first)
        if pending:
            subscriber.put(sse("pair", {"pending": True}))
        self._news([subscriber])
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

    def line(self, item: Item) -> str | None:
        """Hand one protocol line to the loop and wait for its reply (None: the line gets
        none); :class:`Busy` if the loop does not take it in time, and then it never runs.
        A line the loop started is waited for to its end (the table page's route, which can
        answer "pending" instead, uses :meth:`submit`)."""
        slot = self.submit(item)
        if not slot.wait(self.reply_timeout) and slot.withdraw():
            raise Busy("the box did not take the line in time; it was not carried out")
        slot.wait(None)
        return slot.reply

    def submit(self, item: Item, key: tuple[str, str] | None = None) -> ReplySlot[str | None]:
        """Post one protocol line to the loop without waiting for it: its slot (wait on it,
        or withdraw it); :class:`Busy` when no room frees within the reply timeout. ``key``
        (holder, Idempotency-Key) makes the loop run it once per key, even across restarts."""
        slot: ReplySlot[str | None] = self._post_with_room(
            lambda slot: LineEvent(item, slot, claim=slot.claim, key=key))
        return slot

    def enter_pair_code(self, client: str, code: str) -> PairOutcome:
        """Ask the loop to judge ``code`` typed by ``client`` against the pairing window's
        code (a right one ends the window); :class:`Busy` as for :meth:`line`."""
        slot: ReplySlot[PairOutcome] = self._ask(
            lambda slot: PairCodeEntered(code, slot.answer, client, claim=slot.claim))
        assert slot.reply is not None  # answered: wait() said so
        return slot.reply

    def enter_pair_secret(self, client: str, secret: str) -> PairOutcome:
        """Ask the loop to judge ``secret`` (read off the box's QR code by ``client``)
        against the pairing window's (a right one ends the window); :class:`Busy` as for
        :meth:`line`."""
        slot: ReplySlot[PairOutcome] = self._ask(
            lambda slot: PairCodeEntered(secret, slot.answer, client, claim=slot.claim,
                                         secret=True))
        assert slot.reply is not None  # answered: wait() said so
        return slot.reply

    def show_pair_code(self, client: str, code: str) -> ShowOutcome:
        """Ask the loop to show the pairing window's code (``code`` if none is shown yet):
        whether one is shown, or why not; :class:`Busy` as for :meth:`line`."""
        slot: ReplySlot[ShowOutcome] = self._ask(
            lambda slot: PairCodeEvent(code, client, slot.answer, claim=slot.claim))
        assert slot.reply is not None  # answered: wait() said so
        return slot.reply

    @property
    def pairing_open(self) -> bool:
        """Whether the box said pairing is open in its latest snapshot."""
        with self._lock:
            return self._snapshot is not None and self._snapshot.pairing_open

    def _ask(self, event: Callable[[Any], Any]) -> Any:
        """Post and wait: not taken in time is withdrawn (never run) and :class:`Busy`; once
        the loop started it, its answer is waited for (judging a code is quick)."""
        slot = self._post_with_room(event)
        if not slot.wait(self.reply_timeout) and slot.withdraw():
            raise Busy("the box did not answer in time; nothing was done")
        slot.wait(None)
        return slot

    def _post_with_room(self, event: Callable[[Any], Any]) -> Any:
        if self._post is None:
            raise Busy("the box is not running yet")
        if not self._room.acquire(timeout=self.reply_timeout):
            raise Busy("too many lines are waiting for the box")
        slot: ReplySlot[Any] = ReplySlot(self._room)
        self._post(event(slot))
        return slot

    def _update_body(self, snapshot: Snapshot) -> dict[str, Any]:
        return {"state": snapshot.state, "screen": screen_body(snapshot), "frame": self.frame}


def screen_body(snapshot: Snapshot) -> dict[str, Any]:
    """The ``screen`` answer: the lines, plus the title and big text when there are any, and
    the model's full-text fields for the page (``heading``, ``say``, ``then``, ``choices``,
    ``chosen``, ``keys``, ``done``, ``notice``: companion/ui/screen.py) and
    ``selected_line``, the index in ``lines`` of the panel's selected row (or null)."""
    body: dict[str, Any] = {"lines": snapshot.lines}
    screen = snapshot.screen
    if screen is not None:
        body["title"] = screen.title
        if screen.big is not None:
            body["main"] = screen.big
        body.update(screen.full_text())
        body["selected_line"] = screen.selected_text_line()
    return body
