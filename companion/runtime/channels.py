"""Channels: the line-protocol peers of the loop (the serial line, the table page).

Two roles, kept apart:

- A :class:`LineSource` reads protocol lines on threads of its own and posts each to the loop
  as a :class:`LineEvent` that names where its answer goes.
- A :class:`ReplyTarget` is that place: the loop calls :meth:`ReplyTarget.answer` exactly once
  for **every** line event it takes, with the protocol's reply, or ``None`` for a line that
  gets none (a blank line, a comment). The serial line is its own reply target; each web
  request has a one-use target of its own (companion/web/channel.py).

The loop knows nothing else of a peer, so a new one plugs in without a special case.

What every channel promises:
- **Reading is bounded.** At most :data:`MAX_PENDING_LINES` of its lines wait for the loop; a
  flood blocks the channel's reader (and so the sender) instead of growing memory.
- **One reply per line for a client that reads** (issue #19, 7). A serial line's room is given
  back only when its reply has been written to the peer (or it got none), not when the loop
  answered it: the lines read and the replies waiting together never pass
  :data:`MAX_PENDING_LINES`, which is under the outbox's :data:`MAX_QUEUED_REPLIES`, so a
  flood from a client that keeps reading slows the client's own writes, never loses a reply.
- **Sending never blocks the loop.** Replies wait in an :class:`Outbox` of at most
  :data:`MAX_QUEUED_REPLIES`; a writer thread drains it. Replies are dropped only for a peer
  that stops reading: when a write makes no progress for :data:`STALLED_SECONDS`, that reply
  and every one queued behind it are dropped (their rooms given back), counted in
  ``Outbox.dropped`` and logged (``serial client is not reading; oldest replies dropped (N so
  far)``, the first and every 100th): the box keeps time whatever a client does.
- **A vanished device is reopened** with backoff, and replies meanwhile are dropped (logged).

:class:`SerialChannel` is the serial line's channel, over a link from
:mod:`companion.adapters.serial_link` (pyserial, or a pseudo-terminal).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from companion.adapters.serial_link import WRITE_WAIT_SECONDS, Link
from companion.core.table_page import PairOutcome, ShowOutcome
from companion.protocol.lines import Item, LineSplitter
from companion.runtime.health import RETRY_FIRST_SECONDS, RETRY_MAX_SECONDS

log = logging.getLogger(__name__)

MAX_PENDING_LINES = 256
"""Protocol lines read from one channel but not yet taken by the loop, at most."""

MAX_QUEUED_REPLIES = 512
"""Replies waiting for a peer to read them, at most; past this the oldest are dropped."""

STALLED_SECONDS = 5.0
"""A write that makes no progress this long means the peer stopped reading: its replies go."""


@dataclass(frozen=True)
class PairCodeEvent:
    """The table page's fresh code, to show while pairing is open if no code is shown yet
    (None: close the pairing window, as "Forget phones" does). ``answer``, if given, hears
    whether a code is shown, or why not (companion/core/table_page.py ``ShowOutcome``).
    ``client`` asked for it."""

    code: str | None
    client: str | None = None
    answer: Callable[[ShowOutcome], None] | None = None
    claim: Callable[[], bool] | None = None
    """Asked by the loop before it acts: False means the asker withdrew it (see LineEvent)."""


@dataclass(frozen=True)
class PairCodeEntered:
    """A code typed on the table page by ``client`` (with ``secret``: the pairing window's
    secret, read off the box's QR code): ``answer`` hears how the box judged it."""

    code: str
    answer: Callable[[PairOutcome], None]
    client: str = ""
    claim: Callable[[], bool] | None = None
    """Asked by the loop before it acts: False means the asker withdrew it (see LineEvent)."""
    secret: bool = False


class ReplyTarget(Protocol):
    """Where the loop's answer to one line goes."""

    def answer(self, reply: str | None) -> None:
        """The reply line (no newline), or None when the line gets none; must not block."""


@dataclass(frozen=True)
class LineEvent:
    """A protocol line (or a line-splitter fault) for the loop, and where its answer goes
    (None: nobody wants it, as for the bench's lines)."""

    item: Item
    reply_to: ReplyTarget | None = None
    claim: Callable[[], bool] | None = None
    """Asked by the loop just before it carries the line out: False means the asker withdrew
    it (a web request that gave up waiting, answered 503), so the loop skips it and answers
    nothing: a refused line never takes effect later (issue #19, 4). None: always run."""
    key: tuple[str, str] | None = None
    """Whose ``Idempotency-Key`` it carries (holder, key): run once per key, its first reply
    kept in the journal (issue #28, 3). None: an ordinary line."""


@dataclass(frozen=True)
class Snapshot:
    """What the box shows and holds after a refresh, for channels that mirror it.

    ``state`` is the protocol's ``state`` reply body, ``lines`` the ``screen`` reply's lines,
    ``screen`` the screen model a mirror shows (None until the first frame is drawn; a mirror
    renders its own picture from it, off the loop's thread): the panel's, but drawn without a
    pairing code, so whoever reads a mirror cannot pair with it."""

    state: dict[str, Any]
    lines: list[str]
    screen: Any = None
    pairing: bool = False
    """A table-page pairing code to type is on the box's display (the core's ``AppState``
    owns it; the code itself is never in a snapshot): asked for, and typed codes left."""
    pairing_open: bool = False
    """Pairing is open (opened at the box; ``AppState.pairing``): a phone may ask for the
    code."""


class Observer(Protocol):
    """A channel that mirrors the box: the loop calls :meth:`observe` after each refresh
    that changed the state or the screen. It must not block (the loop keeps time)."""

    def observe(self, snapshot: Snapshot) -> None: ...


class LineSource(Protocol):
    """A line-protocol peer of the loop; see the module docstring."""

    name: str

    def start(self, post: Callable[[Any], None]) -> None:
        """Begin reading on the source's own threads, posting each line (or other event)."""

    def close(self) -> None:
        """Stop reading and writing; wake any thread blocked on the peer."""


class Outbox:
    """A bounded queue of replies: :meth:`put` never blocks; when full, the oldest reply
    is dropped and counted (a peer that does not read loses old news, never the box's time)."""

    def __init__(self, name: str, limit: int = MAX_QUEUED_REPLIES,
                 on_gone: Callable[[], None] | None = None) -> None:
        self.name = name
        self.dropped = 0
        self.on_gone = on_gone
        """Called (outside the outbox's lock) for each owed reply that leaves it dropped."""
        self._replies: deque[tuple[bytes, bool]] = deque(maxlen=limit)
        self._ready = threading.Condition()
        self._closed = False
        self.owed = False
        """Whether the reply :meth:`take` gave last was owed (a line's room rides on it)."""

    def put(self, data: bytes, owed: bool = False) -> None:
        """Queue ``data``; ``owed``: it answers a line whose room is given back when it leaves
        (through ``on_gone`` if it is dropped here)."""
        evicted = False
        with self._ready:
            if len(self._replies) == self._replies.maxlen:
                self.drop(f"{self.name} is not reading; oldest replies dropped")
                evicted = self._replies[0][1]
            self._replies.append((data, owed))
            self._ready.notify()
        if evicted and self.on_gone is not None:
            self.on_gone()

    def drop_all(self, why: str) -> None:
        """Drop every queued reply (the peer stopped reading), each counted."""
        with self._ready:
            replies = list(self._replies)
            self._replies.clear()
        for _, owed in replies:
            self.drop(why)
            if owed and self.on_gone is not None:
                self.on_gone()

    def drop(self, why: str) -> None:
        """Count one dropped reply; log the first of a run and every 100th after it."""
        self.dropped += 1
        if self.dropped == 1 or self.dropped % 100 == 0:
            log.warning("%s (%d so far)", why, self.dropped)

    def take(self) -> bytes | None:
        """The oldest reply, waiting for one (no polling); None once closed."""
        with self._ready:
            while not self._replies and not self._closed:
                self._ready.wait()
            if self._closed:
                return None
            data, self.owed = self._replies.popleft()
            return data

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify_all()

    def __len__(self) -> int:
        return len(self._replies)


class SerialChannel:
    """The serial line as a channel: a reader thread, a writer thread, reopen with backoff.
    It is a :class:`LineSource` and the :class:`ReplyTarget` of its own lines."""

    name = "serial"

    def __init__(self, link: Link | None, *, reopen: Callable[[], Link] | None = None,
                 retry_first: float = RETRY_FIRST_SECONDS,
                 pending_lines: int = MAX_PENDING_LINES,
                 queued_replies: int = MAX_QUEUED_REPLIES) -> None:
        self.link = link
        self.reopen = reopen
        self.retry_first = retry_first
        self.stopping = threading.Event()
        self.slots = threading.BoundedSemaphore(min(pending_lines, queued_replies))
        self.outbox = Outbox("serial client", queued_replies, on_gone=self.slots.release)
        self.stalled_seconds = STALLED_SECONDS
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def start(self, post: Callable[[LineEvent], None]) -> None:
        self._threads = [
            threading.Thread(target=self.read_lines, args=(post,), name="serial-reader",
                             daemon=True),
            threading.Thread(target=self.write_replies, name="serial-writer", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def answer(self, reply: str | None) -> None:
        """The loop answered one of this channel's lines: the reply out, and the line's room
        back once it is written (at once when it gets none)."""
        if reply is None:
            self.slots.release()
        else:
            self.outbox.put(reply.encode() + b"\n", owed=True)

    def send(self, reply: str) -> None:
        """Queue one line (no newline) that answers no line of the peer's; never blocks."""
        self.outbox.put(reply.encode() + b"\n")

    def close(self) -> None:
        self.stopping.set()
        self.outbox.close()
        link = self.current()
        if link is not None:
            with contextlib.suppress(OSError):
                link.cancel()
        for thread in self._threads:
            thread.join(timeout=2)
        link = self.current()
        if link is not None:
            link.close()

    def current(self) -> Link | None:
        with self._lock:
            return self.link

    # -- the reader thread ------------------------------------------------------------------

    def read_lines(self, post: Callable[[LineEvent], None]) -> None:
        """Read lines until stopped; if the device goes away, reopen it with backoff."""
        splitter = LineSplitter()
        backoff = self.retry_first
        while not self.stopping.is_set():
            link = self.current()
            if link is None:
                if self._reopen(backoff):
                    backoff = self.retry_first
                    splitter = LineSplitter()
                elif self.reopen is None:
                    return
                else:
                    backoff = min(backoff * 2, RETRY_MAX_SECONDS)
                continue
            try:
                data = link.read(None)  # blocks until bytes come or close() cancels it
            except OSError as error:
                self._lost(link, error)
                continue
            for item in splitter.feed(data):
                while not self.slots.acquire(timeout=0.5):
                    if self.stopping.is_set():
                        return
                post(LineEvent(item, self))

    def _lost(self, link: Link, error: OSError) -> None:
        if self.stopping.is_set():
            return
        log.error("serial line %s failed (%s); reopening it with backoff",
                  getattr(link, "description", "?"), error)
        with self._lock:
            self.link = None
        with contextlib.suppress(OSError):
            link.close()

    def _reopen(self, wait: float) -> bool:
        if self.reopen is None or self.stopping.wait(wait):
            return False
        try:
            link = self.reopen()
        except OSError as error:
            log.debug("serial line still unavailable: %s", error)
            return False
        log.warning("serial line %s is back", getattr(link, "description", "?"))
        with self._lock:
            self.link = link
        return True

    # -- the writer thread ------------------------------------------------------------------

    def write_replies(self) -> None:
        """Write queued replies whole and in order; only this thread waits for the peer. An
        owed reply gives its line's room back once it is written or dropped."""
        while (data := self.outbox.take()) is not None:
            owed = self.outbox.owed
            try:
                self.write_one(data)
            finally:
                if owed:
                    self.slots.release()

    def write_one(self, data: bytes) -> None:
        view = memoryview(data)
        stalled = 0.0
        while view and not self.stopping.is_set():
            link = self.current()
            if link is None:
                self.outbox.drop("serial line is gone; replies dropped")
                return
            try:
                written = link.write(bytes(view))
            except OSError as error:
                self.outbox.drop(f"serial write failed ({error}); the reply is dropped")
                return
            view = view[written:]
            # A write waits at most WRITE_WAIT_SECONDS for room; no progress adds that up.
            stalled = 0.0 if written else stalled + WRITE_WAIT_SECONDS
            if view and stalled >= self.stalled_seconds:
                why = "serial client is not reading; oldest replies dropped"
                self.outbox.drop(why)
                self.outbox.drop_all(why)
                return
