"""Idempotent lines: nothing done twice, nothing refused but done (issues #19, 4 and #28, 3).

``POST /api/line`` carries an ``Idempotency-Key`` header (the page sends one with every line;
a request without one is given a key of the server's own), as Stripe's keys work. What it
promises:

- **A key is kept with its result, in the journal.** The loop runs a keyed line once per
  holder and key (companion/runtime/controller.py ``handle_keyed``): the key, the line's
  digest and its reply go into the journal in the same transaction as the line's own
  rows, so after a restart or a kill -9, and from any address, a retry answers with the
  first reply and runs nothing. The holder is the pairing token (its hash: another phone's
  keys are out of reach), or ``box`` for the box's own trusted loopback. The journal keeps
  each holder's last 1,000 keys, none older than 24 hours, all keys together at most
  256 KiB (companion/adapters/journal_keys.py); no holder's keys make another's go.
- **A refusal means never done.** A line the loop has not started when its request stops
  waiting (:data:`~companion.web.channel.REPLY_TIMEOUT_SECONDS`) is withdrawn from the loop's
  queue, atomically with the refusal (companion/web/channel.py's ``ReplySlot``): the answer is
  503 ``busy``, the loop skips it, and its key is forgotten, so a retry runs it afresh, once.
- **Otherwise the reply waits, or says "pending".** A line the loop has started (say its
  journal write is held up by a slow card) is being carried out and will finish: the request
  answers 202 ``{"pending": true, "id": KEY}``, and a retry with that key waits for the same
  line's result again (here, in memory, while this process runs; from the journal after).
- A key reused with a different line is 422 ``key-reused`` (nothing runs), whether the first
  line is in flight here or kept in the journal.
- **Bounded.** A key is 8 to 64 characters of ``A-Z a-z 0-9 _ -`` (else 400 ``bad-key``).
  In memory at most :data:`KEYS_PER_CLIENT` keys per holder are kept (the holder's oldest
  go first; there are at most as many holders as pairing tokens, plus the box), each for
  :data:`KEY_SECONDS` after its answer; past that the journal answers.
- Time comes from the injected clock; nothing here reads a socket or a file.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from companion.protocol.lines import Item, Line, line_digest
from companion.web.answers import HttpError
from companion.web.channel import Busy, ReplySlot, WebChannel

KEYS_PER_CLIENT: Final = 32
"""Keys kept in memory for one holder: more than a page has lines in flight (one at a time)
by far; older ones are answered from the journal."""
KEY_SECONDS: Final = 600.0
"""How long an answered key is kept in memory (the journal keeps it for a day)."""
REUSED_REPLY: Final = "err key-reused "
"""How the loop answers a kept key sent with another line (companion/runtime/controller.py)."""
KEY_PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{8,64}")
HEADER: Final = "Idempotency-Key"


@dataclass
class Entry:
    """One key's line: its digest (never the line: issue #38, 4), its slot once posted, when
    it was answered."""

    digest: str
    posted: threading.Event = field(default_factory=threading.Event)
    slot: ReplySlot[str | None] | None = None
    answered_at: float | None = None


@dataclass(frozen=True)
class Done:
    """The line's reply (None: it gets none)."""

    reply: str | None


@dataclass(frozen=True)
class Pending:
    """The line is being carried out; a retry with ``key`` gives its result."""

    key: str


def check_key(key: str | None) -> str:
    """The client's key, checked, or a fresh one of the server's own."""
    if key is None:
        return secrets.token_urlsafe(12)
    if not KEY_PATTERN.fullmatch(key):
        raise HttpError("bad-key", f"{HEADER} must be 8 to 64 letters, digits, '_' or '-'")
    return key


class LineLedger:
    """What became of each client's keyed lines; see the module docstring."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[str, str], Entry] = OrderedDict()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def run(self, channel: WebChannel, client: str, key: str, item: Item, *,
            durable: bool = True) -> Done | Pending:
        """Carry ``item`` out once for (``client``, ``key``), or give the first result:
        :class:`Done`, :class:`Pending`, or :class:`~companion.web.channel.Busy` (never run).
        ``client`` is the holder (a token's hash, or ``box``); ``durable`` False for a key of
        the server's own (no one can retry it: the journal need not keep it)."""
        text = item.text if isinstance(item, Line) else repr(item)
        entry, first = self._entry(client, key, line_digest(text))
        if first:
            try:
                entry.slot = channel.submit(item, (client, key) if durable else None)
            except Busy:
                self._forget(client, key, entry)
                raise
            finally:
                entry.posted.set()
        elif entry.digest != line_digest(text):
            raise HttpError("key-reused", f"{HEADER} {key} was sent with another line")
        timeout = channel.reply_timeout
        if not entry.posted.wait(timeout) or entry.slot is None:
            raise Busy("the box did not take the line in time; it was not carried out")
        slot = entry.slot
        if not slot.wait(timeout) and first and slot.withdraw():
            self._forget(client, key, entry)
        if slot.withdrawn:
            raise Busy("the box did not take the line in time; it was not carried out")
        if not slot.answered:
            return Pending(key)
        with self._lock:
            if entry.answered_at is None:
                entry.answered_at = self._clock()
        if slot.reply is not None and slot.reply.startswith(REUSED_REPLY):
            self._forget(client, key, entry)
            raise HttpError("key-reused", f"{HEADER} {key} was sent with another line")
        return Done(slot.reply)

    def _entry(self, client: str, key: str, digest: str) -> tuple[Entry, bool]:
        now = self._clock()
        with self._lock:
            self._expire(now)
            found = self._entries.get((client, key))
            if found is not None:
                return found, False
            entry = Entry(digest)
            self._entries[(client, key)] = entry
            mine = [name for name in self._entries if name[0] == client]
            for name in mine[:max(0, len(mine) - KEYS_PER_CLIENT)]:
                del self._entries[name]
            return entry, True

    def _expire(self, now: float) -> None:
        for entry in self._entries.values():  # answered with nobody back to hear it yet
            if entry.answered_at is None and entry.slot is not None and entry.slot.answered:
                entry.answered_at = now
        gone = [name for name, entry in self._entries.items()
                if entry.answered_at is not None and now - entry.answered_at > KEY_SECONDS]
        for name in gone:
            del self._entries[name]

    def _forget(self, client: str, key: str, entry: Entry) -> None:
        with self._lock:
            if self._entries.get((client, key)) is entry:
                del self._entries[(client, key)]
