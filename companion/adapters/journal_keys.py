"""The journal's keyed lines (issues #28, 3 and #38, 4): the SQL that keeps and finds them.

A line sent on the table page with an ``Idempotency-Key`` is kept in the ``line_keys`` table
(adapters/journal_schema.py, schema 3) with what a retry needs, written by
adapters/journal.py's ``keep_line`` inside ``Journal.together``, the same transaction as the
rows the line wrote, so after a kill -9 either both are there or neither. What it promises:

- **What a retry needs, never the line.** A row keeps the SHA-256 digest of the line (a retry
  with another line is told ``key-reused``) and its reply; a 60 KB line costs its key row
  about a hundred bytes.
- A key belongs to its holder (``token:<SHA-256 of a pairing token>``, or ``box``): the same
  key of another holder is another row, and the per-holder pruning never touches another.
- Per holder the newest :data:`KEYS_PER_HOLDER` are kept, none older than :data:`KEY_HOURS`
  hours (as Stripe keeps its keys a day), pruned in the same transaction as each new one.
- **Bounded in bytes**: all holders' keys together take at most :data:`KEY_BYTES` (counted
  as their columns' bytes plus :data:`ROW_OVERHEAD_BYTES` a row), the oldest dropped first,
  so keys can never fill the card; checked at open too (:func:`prune_all`).
- "Forget phones" drops every token's keys (:data:`DROP_PHONE_KEYS`); the box's stay.
- A full disk: the keys give way before an acknowledged action does (adapters/journal.py's
  ``_with_reserve`` drops them in the room the reserve frees, and writes again). The bound
  is a quarter of the reserve, so dropping them all fits in it.
- :class:`KeyedLines` gives the journal ``together`` (writes in one transaction: inside it a
  write neither commits nor calls the commit seam, ``_before_commit``, which runs once for
  the group), ``keep_line``, ``kept_line`` and ``forget_token_keys``.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

from companion.adapters.journal_rows import JournalError
from companion.protocol.lines import line_digest

_Result = TypeVar("_Result")
log = logging.getLogger(__name__)

KEYS_PER_HOLDER: Final = 1000
"""Keyed lines kept per holder (a paired phone's token, or the box): its newest."""
KEY_HOURS: Final = 24
"""Keyed lines older than this go."""
KEY_BYTES: Final = 256 * 1024
"""All holders' kept keys together, in bytes: a few thousand ordinary replies (``ok`` is two
bytes; a ``state`` reply a few KB), far more than any retry needs, and a quarter of the
disk reserve (adapters/disk_reserve.py)."""
ROW_OVERHEAD_BYTES: Final = 40
"""What a row costs SQLite beyond its columns' bytes (record header, rowid, index entry),
counted with them so that many tiny rows are bounded too."""
LOOKUP: Final = "SELECT digest, reply FROM line_keys WHERE holder = ? AND key = ?"
DROP_PHONE_KEYS: Final = "DELETE FROM line_keys WHERE holder != 'box'"
""""Forget phones": every pairing token's keys go (the box's own loopback keeps its)."""
FORGET_ALL_KEYS: Final = "DELETE FROM line_keys"
"""A full disk: every key gives way, so that the action being written fits."""
BYTE_BOUND: Final = (
    "DELETE FROM line_keys WHERE rowid IN (SELECT rowid FROM (SELECT rowid, SUM("
    "length(CAST(holder AS BLOB)) + length(CAST(key AS BLOB)) + length(CAST(digest AS BLOB))"
    " + IFNULL(length(CAST(reply AS BLOB)), 0) + length(CAST(wall AS BLOB)) + ?)"
    " OVER (ORDER BY rowid DESC) AS newer FROM line_keys) WHERE newer > ?)")
"""Drops the oldest keys until all of them together fit in the bound (two parameters: the
row overhead and the bound)."""


def keep(holder: str, key: str, digest: str, reply: str | None,
         wall: str) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements that keep one key and prune the old ones (its holder's by count and
    age, everyone's by bytes)."""
    statements: list[tuple[str, tuple[Any, ...]]] = [
        ("INSERT OR REPLACE INTO line_keys (holder, key, digest, reply, wall)"
         " VALUES (?, ?, ?, ?, ?)", (holder, key, digest, reply, wall)),
        ("DELETE FROM line_keys WHERE holder = ? AND rowid NOT IN (SELECT rowid FROM"
         " line_keys WHERE holder = ? ORDER BY rowid DESC LIMIT ?)",
         (holder, holder, KEYS_PER_HOLDER))]
    cutoff = hours_before(wall, KEY_HOURS)
    if cutoff is not None:
        statements.append(("DELETE FROM line_keys WHERE holder = ? AND wall < ?",
                           (holder, cutoff)))
    statements.append((BYTE_BOUND, (ROW_OVERHEAD_BYTES, KEY_BYTES)))
    return statements


def prune_all() -> list[tuple[str, tuple[Any, ...]]]:
    """The statement that prunes all holders' keys by bytes, at open (a journal of an older
    program). Age is judged at each new key, by the wall clock the box was given."""
    return [(BYTE_BOUND, (ROW_OVERHEAD_BYTES, KEY_BYTES))]


def kept_bytes(db: sqlite3.Connection) -> int:
    """What the kept keys count against :data:`KEY_BYTES`."""
    row = db.execute(
        "SELECT IFNULL(SUM(length(CAST(holder AS BLOB)) + length(CAST(key AS BLOB))"
        " + length(CAST(digest AS BLOB)) + IFNULL(length(CAST(reply AS BLOB)), 0)"
        " + length(CAST(wall AS BLOB)) + ?), 0) FROM line_keys",
        (ROW_OVERHEAD_BYTES,)).fetchone()
    return int(row[0])


LINE_KEYS_TABLE: Final = """CREATE TABLE IF NOT EXISTS line_keys (
    holder TEXT NOT NULL,
    key TEXT NOT NULL,
    digest TEXT NOT NULL,
    reply TEXT,
    wall TEXT NOT NULL,
    PRIMARY KEY (holder, key)
)"""
"""Schema 3 (issue #38, 4): the idempotency keys of the table page's keyed lines, each with
the digest of the line it ran (:func:`line_digest`) and its reply (NULL: none), written in the
same transaction as the line's own rows; ``holder`` is whose they are (``box``, or
``token:<sha256 of the pairing token>``), ``wall`` when it ran (ISO 8601, UTC)."""


def digest_kept_lines(db: sqlite3.Connection) -> None:
    """Schema 2 -> 3: the kept lines become their digests (a journal that came through
    schema 1 already has the new table, made by the schema script: nothing to do)."""
    columns = [row[1] for row in db.execute("PRAGMA table_info(line_keys)")]
    if "line" not in columns:
        return
    db.execute("ALTER TABLE line_keys RENAME TO line_keys_2")
    db.execute(LINE_KEYS_TABLE)
    rows = db.execute("SELECT holder, key, line, reply, wall FROM line_keys_2 ORDER BY rowid")
    db.executemany(
        "INSERT INTO line_keys (holder, key, digest, reply, wall) VALUES (?, ?, ?, ?, ?)",
        [(holder, key, line_digest(line) if isinstance(line, str) else line, reply, wall)
         for holder, key, line, reply, wall in rows.fetchall()])
    db.execute("DROP TABLE line_keys_2")


def hours_before(wall: str, hours: int) -> str | None:
    """The ISO 8601 UTC text ``hours`` before ``wall`` (as the clock writes it), or None when
    ``wall`` is not such a date."""
    try:
        instant = datetime.fromisoformat(wall)
    except ValueError:
        return None
    if instant.tzinfo is None:
        return None
    return (instant.astimezone(UTC) - timedelta(hours=hours)).isoformat(timespec="seconds")


class _Journal(Protocol):
    """What :class:`KeyedLines` uses of adapters/journal.py's ``Journal``."""

    path: Path
    _db: sqlite3.Connection
    _grouped: bool

    def _transaction(self, *statements: tuple[str, tuple[Any, ...]]) -> None: ...

    def _one(self, sql: str, parameters: tuple[Any, ...] = ()) -> Any: ...

    def _with_reserve(self, write: Callable[[], _Result], *,
                      restore: bool = True) -> _Result: ...

    def _before_commit(self) -> None: ...


class KeyedLines:
    """The journal's keyed lines and its one-transaction group (mixed into ``Journal``)."""

    def together(self: _Journal, writes: Callable[[], _Result]) -> _Result:
        """Run ``writes`` (this journal's write methods) as one transaction: all, or none."""
        def write() -> _Result:
            self._grouped = True
            try:
                with self._db:
                    result = writes()
                    self._before_commit()  # once, for the whole group
                    return result
            finally:
                self._grouped = False
        return self._with_reserve(write)

    def keep_line(self: _Journal, holder: str, key: str, digest: str, reply: str | None,
                  wall: str) -> None:
        """Keep a keyed line's key with its line's digest (:func:`line_digest`) and reply
        (inside :meth:`together`, with the line's own writes)."""
        self._transaction(*keep(holder, key, digest, reply, wall))

    def kept_line(self: _Journal, holder: str, key: str) -> tuple[str, str | None] | None:
        """The line's digest and the reply kept for ``holder``'s ``key``, or None."""
        row = self._one(LOOKUP, (holder, key))
        return None if row is None else (row[0], row[1])

    def forget_phone_keys(self: _Journal) -> None:
        """"Forget phones": drop every pairing token's keys (the box's stay)."""
        self._transaction((DROP_PHONE_KEYS, ()))

    def prune_keys_at_open(self: _Journal) -> None:
        """Keys past the byte bound (a journal of an older program) go at open; a disk that
        refuses even that leaves them for later."""
        try:
            self._transaction(*prune_all())
        except JournalError as error:
            log.warning("could not prune the kept keys in %s: %s", self.path, error)

    def drop_every_key(self: _Journal) -> bool:
        """A full disk: every kept key gives way (issue #38, 4), in the room the reserve just
        freed (its rows' pages then hold actions), so an acknowledged action is never lost to
        keys; a retry of a dropped key is answered from the page server's memory, or runs as
        new. True if any went (never while the journal is still opening: no keys yet)."""
        if getattr(self, "_db", None) is None:
            return False
        try:
            with self._db:
                dropped = self._db.execute(FORGET_ALL_KEYS).rowcount
        except sqlite3.Error as error:
            log.error("disk full in %s: could not drop the kept keys either (%s)",
                      self.path.parent, error)
            return False
        if dropped:
            log.error("disk full in %s: dropped %d kept keys to save the action",
                      self.path.parent, dropped)
        return dropped > 0

    def _in_transaction(self: _Journal) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext() if self._grouped else self._db  # together's, if any

    def _commit_point(self: _Journal) -> None:
        if not self._grouped:  # inside together(), its own commit is the one
            self._before_commit()
