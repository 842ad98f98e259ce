"""Queued journal writes: every accepted action reaches the journal, in order, or waits.

What it promises (DESIGN.md rule 6, "one event log"):
- A write is queued and the queue is written at once, in order, each write one SQLite
  transaction, so nothing already saved is touched by a later failure.
- When the disk refuses (full, read-only, unplugged), writes stay queued in memory, play goes
  on, :attr:`JournalWriter.saved` turns false (the screen shows a mark) and writing is retried
  with backoff (:class:`~companion.runtime.health.PartHealth`).
- Each queued write keeps a reference to the game it belongs to (:class:`GameRef`), so a game
  started while the disk refuses takes nothing from another: a game's id is known only once its
  ``begin_game`` write has landed, which may be after later writes were queued for it.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from companion.adapters.journal import Journal
from companion.runtime.health import PartHealth


class GameRef:
    """A game in the journal, as queued writes refer to it (see the module docstring)."""

    def __init__(self, game_id: int | None = None) -> None:
        self.id = game_id


class JournalWriter:
    """The queue of journal writes and the journal's health; see the module docstring."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.health = PartHealth("journal")
        self.unsaved: list[tuple[GameRef, str, tuple[Any, ...]]] = []
        # The game that writes are queued for now (None before any game).
        self.game: GameRef | None = None

    @property
    def game_id(self) -> int | None:
        """The current game's journal id, once its start is saved."""
        return self.game.id if self.game is not None else None

    @property
    def saved(self) -> bool:
        """Whether everything accepted so far is on disk (a durable journal, nothing queued)."""
        return not self.unsaved and self.journal.durable

    def resume(self, game_id: int) -> None:
        """Writes from now on go to a game already in the journal (after a restore)."""
        self.game = GameRef(game_id)

    def begin(self, now: float, *arguments: Any) -> None:
        """A new game: its writes, from this one on, belong to it."""
        self.game = GameRef()
        self.write(now, "begin_game", *arguments)

    def write(self, now: float, method: str, *arguments: Any) -> None:
        """Queue one journal write for the current game and write everything queued."""
        if self.game is None:
            return  # no game in play: nothing to save
        self.unsaved.append((self.game, method, arguments))
        if self.health.may_try(now):
            self.flush(now)

    def retry_at(self) -> float | None:
        """When queued writes are next tried, or None with nothing queued."""
        return self.health.retry_at if self.unsaved else None

    def retry_due(self, now: float) -> bool:
        return bool(self.unsaved) and self.health.may_try(now)

    def flush(self, now: float) -> None:
        while self.unsaved:
            game, method, arguments = self.unsaved[0]
            # begin_game creates the game; every other write names it first.
            prefix = () if method == "begin_game" else (game.id,)
            try:
                result = getattr(self.journal, method)(*prefix, *arguments)
            except (sqlite3.Error, OSError) as error:
                self.health.failed(now, error)
                return
            self.unsaved.pop(0)
            if method == "begin_game":
                game.id = result
        self.health.succeeded()
