"""The journal's keyed lines (issue #28, 3): the SQL that keeps and finds them.

A line sent on the table page with an ``Idempotency-Key`` is kept in the ``line_keys`` table
(adapters/journal_schema.py, schema 2) with the line and its reply, written by
adapters/journal.py's ``keep_line`` inside ``Journal.together``, the same transaction as the
rows the line wrote, so after a kill -9 either both are there or neither. What it promises:

- A key belongs to its holder (``token:<SHA-256 of a pairing token>``, or ``box``): the same
  key of another holder is another row, and the pruning below never touches another holder.
- Per holder the newest :data:`KEYS_PER_HOLDER` are kept, none older than :data:`KEY_HOURS`
  hours (as Stripe keeps its keys a day), pruned in the same transaction as each new one.
- :class:`KeyedLines` gives the journal ``together`` (writes in one transaction: inside it a
  write neither commits nor calls the commit seam, ``_before_commit``, which runs once for
  the group), ``keep_line`` and ``kept_line``.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Protocol, TypeVar

_Result = TypeVar("_Result")

KEYS_PER_HOLDER: Final = 1000
"""Keyed lines kept per holder (a paired phone's token, or the box): its newest."""
KEY_HOURS: Final = 24
"""Keyed lines older than this go."""
LOOKUP: Final = "SELECT line, reply FROM line_keys WHERE holder = ? AND key = ?"


def keep(holder: str, key: str, line: str, reply: str | None,
         wall: str) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements that keep one key and prune its holder's old ones."""
    statements: list[tuple[str, tuple[Any, ...]]] = [
        ("INSERT OR REPLACE INTO line_keys (holder, key, line, reply, wall)"
         " VALUES (?, ?, ?, ?, ?)", (holder, key, line, reply, wall)),
        ("DELETE FROM line_keys WHERE holder = ? AND rowid NOT IN (SELECT rowid FROM"
         " line_keys WHERE holder = ? ORDER BY rowid DESC LIMIT ?)",
         (holder, holder, KEYS_PER_HOLDER))]
    cutoff = hours_before(wall, KEY_HOURS)
    if cutoff is not None:
        statements.append(("DELETE FROM line_keys WHERE holder = ? AND wall < ?",
                           (holder, cutoff)))
    return statements


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

    def keep_line(self: _Journal, holder: str, key: str, line: str, reply: str | None,
                  wall: str) -> None:
        """Keep a keyed line's key with its line and reply (inside :meth:`together`, with the
        line's own writes)."""
        self._transaction(*keep(holder, key, line, reply, wall))

    def kept_line(self: _Journal, holder: str, key: str) -> tuple[str, str | None] | None:
        """The line and reply kept for ``holder``'s ``key``, or None."""
        row = self._one(LOOKUP, (holder, key))
        return None if row is None else (row[0], row[1])

    def _in_transaction(self: _Journal) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext() if self._grouped else self._db  # together's, if any

    def _commit_point(self: _Journal) -> None:
        if not self._grouped:  # inside together(), its own commit is the one
            self._before_commit()
