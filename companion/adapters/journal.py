"""The event journal, in SQLite: every accepted action, written before its effects.

What it promises (DESIGN.md rule 6):
- One row per accepted game action, in order, with the game-clock instant it happened at
  (a duration on the box's game clock, never a wall-clock or monotonic instant) and the
  wall-clock date for people. State is the replay of these rows.
- Undo deletes the last rows of the current game; ``new`` starts a new current game and
  leaves the old one in history.
- A checkpoint of the game clock is kept per game, so that after a power cut the clock
  resumes at most one checkpoint interval behind where it was.
- Writes are durable before they return (WAL journal, ``synchronous=FULL``): a power cut
  loses at most the action being written, never one already acknowledged.
- A file that is not a journal of this schema (damaged, truncated, another program's, a
  newer schema) is moved aside under a dated name and a fresh journal starts; the reason is
  kept in :attr:`Journal.recovered_from` for the log and the display.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.core.app import PastGame, Recorded
from companion.core.game import action_from_json, action_to_json

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
FILE_NAME = "journal.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    started_at REAL NOT NULL,
    started_wall TEXT NOT NULL,
    clock REAL NOT NULL,
    result TEXT,
    current INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    action TEXT NOT NULL,
    at REAL NOT NULL,
    wall TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS actions_by_game ON actions(game_id, id);
"""


class JournalError(Exception):
    """The journal cannot be used (and could not be recovered)."""


@dataclass(frozen=True)
class StoredGame:
    """A game as the journal holds it: enough to replay it."""

    id: int
    game: str
    options: Mapping[str, str]
    seed: int
    started_wall: str
    history: tuple[Recorded, ...]
    clock: float
    result: Any
    last_wall: str


@dataclass(frozen=True)
class GameSummary:
    id: int
    game: str
    options: Mapping[str, str]
    started_wall: str
    last_wall: str
    actions: int
    result: Any


class Journal:
    """The SQLite journal in ``state_dir``; see the module docstring.

    Schema versions migrate forward: a journal of an older version is brought up to
    :attr:`schema_version` by the SQL steps in :attr:`migrations` (``migrations[n]`` turns
    version n into n + 1), in one transaction, before it is used. A newer version, or an
    older one with no path forward, is moved aside like a damaged file.
    """

    schema_version = SCHEMA_VERSION
    migrations: Mapping[int, tuple[str, ...]] = MappingProxyType({})

    def __init__(self, path: Path) -> None:
        self.path = path
        self.recovered_from: str | None = None
        # False for the in-memory stand-in used when the state directory is unusable.
        self.durable = True
        self._db = self._open_or_recover(path)

    @classmethod
    def in_directory(cls, state_dir: Path) -> Journal:
        state_dir.mkdir(parents=True, exist_ok=True)
        return cls(state_dir / FILE_NAME)

    @classmethod
    def open_or_in_memory(cls, state_dir: Path) -> Journal:
        """The journal in ``state_dir``; if that cannot be used at all (a read-only or missing
        disk, a file where the folder should be), an in-memory journal so that the box still
        plays, with ``durable`` false so the screen can say that nothing is being saved."""
        try:
            return cls.in_directory(state_dir)
        except (OSError, sqlite3.Error) as error:
            log.error("cannot keep a journal in %s (%s); games are not saved", state_dir, error)
            journal = cls(Path(":memory:"))
            journal.durable = False
            journal.recovered_from = f"cannot save in {state_dir}: {error}"
            return journal

    # -- writing ---------------------------------------------------------------------------

    def begin_game(self, game: str, options: Mapping[str, str], seed: int, at: float,
                   wall: str) -> int:
        with self._db:
            self._db.execute("UPDATE games SET current = 0 WHERE current = 1")
            cursor = self._db.execute(
                "INSERT INTO games (game, options, seed, started_at, started_wall, clock, current)"
                " VALUES (?, ?, ?, ?, ?, ?, 1)",
                (game, json.dumps(dict(options), sort_keys=True), seed, at, wall, at))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, recorded: Recorded, wall: str) -> None:
        with self._db:
            self._db.execute("INSERT INTO actions (game_id, action, at, wall) VALUES (?, ?, ?, ?)",
                             (game_id, json.dumps(action_to_json(recorded.action)),
                              recorded.at, wall))
            self._db.execute("UPDATE games SET clock = MAX(clock, ?) WHERE id = ?",
                             (recorded.at, game_id))

    def drop_last(self, game_id: int, count: int) -> None:
        with self._db:
            self._db.execute(
                "DELETE FROM actions WHERE id IN (SELECT id FROM actions WHERE game_id = ?"
                " ORDER BY id DESC LIMIT ?)", (game_id, count))

    def set_result(self, game_id: int, result: Any) -> None:
        with self._db:
            self._db.execute("UPDATE games SET result = ? WHERE id = ?",
                             (None if result is None else json.dumps(result), game_id))

    def set_aside(self, game_id: int) -> None:
        """Leave the game in history: no game is current until the next ``begin_game``."""
        with self._db:
            self._db.execute("UPDATE games SET current = 0 WHERE id = ?", (game_id,))

    def make_current(self, game_id: int) -> None:
        """Make a past game the game in play again (resumed from the menu)."""
        with self._db:
            self._db.execute("UPDATE games SET current = 0 WHERE current = 1")
            self._db.execute("UPDATE games SET current = 1 WHERE id = ?", (game_id,))

    def checkpoint(self, game_id: int, at: float) -> None:
        """Remember that the game clock reached ``at`` (bounded-rate, see runtime/gameclock.py)."""
        with self._db:
            self._db.execute("UPDATE games SET clock = MAX(clock, ?) WHERE id = ?", (at, game_id))

    # -- reading ---------------------------------------------------------------------------

    def current(self) -> StoredGame | None:
        """The game in play, with every action, or ``None`` on a fresh box."""
        row = self._db.execute(
            "SELECT id, game, options, seed, started_wall, clock, result FROM games"
            " WHERE current = 1 ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        return self._stored(row)

    def game(self, game_id: int) -> StoredGame:
        row = self._db.execute(
            "SELECT id, game, options, seed, started_wall, clock, result FROM games"
            " WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in {self.path}")
        return self._stored(row)

    def games(self) -> list[GameSummary]:
        """Every game, newest first."""
        rows = self._db.execute(
            "SELECT g.id, g.game, g.options, g.started_wall, g.result,"
            " COUNT(a.id), COALESCE(MAX(a.wall), g.started_wall)"
            " FROM games g LEFT JOIN actions a ON a.game_id = g.id"
            " GROUP BY g.id ORDER BY g.id DESC").fetchall()
        return [GameSummary(id=row[0], game=row[1], options=json.loads(row[2]),
                            started_wall=row[3],
                            result=None if row[4] is None else json.loads(row[4]),
                            actions=row[5], last_wall=row[6]) for row in rows]

    def unfinished(self, limit: int = 5) -> list[PastGame]:
        """Games that did not end and are not current (replaced or set aside), newest
        first: the ones the menu offers to resume."""
        rows = self._db.execute(
            "SELECT g.id, g.game, COALESCE(MAX(a.wall), g.started_wall)"
            " FROM games g LEFT JOIN actions a ON a.game_id = g.id"
            " WHERE g.current = 0 AND g.result IS NULL"
            " GROUP BY g.id ORDER BY g.id DESC LIMIT ?", (limit,)).fetchall()
        return [PastGame(id=row[0], game=row[1], last_wall=row[2]) for row in rows]

    def last_clock(self) -> float:
        """The furthest the game clock is known to have reached, over every game."""
        row = self._db.execute(
            "SELECT MAX(m) FROM (SELECT MAX(clock) AS m FROM games"
            " UNION ALL SELECT MAX(at) FROM actions)").fetchone()
        return float(row[0]) if row and row[0] is not None else 0.0

    def close(self) -> None:
        self._db.close()

    # -- internals -------------------------------------------------------------------------

    def _stored(self, row: tuple[Any, ...]) -> StoredGame:
        game_id, game, options, seed, started_wall, clock, result = row
        rows = self._db.execute(
            "SELECT action, at, wall FROM actions WHERE game_id = ? ORDER BY id",
            (game_id,)).fetchall()
        history = tuple(Recorded(action_from_json(json.loads(action)), at)
                        for action, at, _ in rows)
        return StoredGame(id=game_id, game=game, options=json.loads(options), seed=seed,
                          started_wall=started_wall, history=history, clock=clock,
                          result=None if result is None else json.loads(result),
                          last_wall=rows[-1][2] if rows else started_wall)

    def _open_or_recover(self, path: Path) -> sqlite3.Connection:
        try:
            return self._open(path)
        except sqlite3.OperationalError as error:
            if path.exists() and not path.is_dir():
                raise  # the file is fine but cannot be opened (permissions, locks): not damage
            raise OSError(f"cannot open {path}: {error}") from error
        except (sqlite3.DatabaseError, JournalError, ValueError, KeyError, TypeError) as error:
            aside = self._move_aside(path)
            self.recovered_from = f"{error}; the old journal is kept as {aside.name}"
            log.error("journal %s unusable (%s); moved aside to %s, starting fresh",
                      path, error, aside)
            return self._open(path)

    def _open(self, path: Path) -> sqlite3.Connection:
        if str(path) != ":memory:" and path.is_dir():
            raise JournalError(f"{path} is a directory, not a journal")
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            db.isolation_level = "DEFERRED"
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            with db:
                db.executescript(SCHEMA)
                row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                if row is None:
                    db.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)",
                               (str(self.schema_version),))
                else:
                    self._migrate(db, int(row[0]))
            # Read every stored action once, so damage shows now and not mid-game.
            for (action,) in db.execute("SELECT action FROM actions"):
                action_from_json(json.loads(action))
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise JournalError("the SQLite integrity check failed")
        except BaseException:
            db.close()
            raise
        return db

    def _migrate(self, db: sqlite3.Connection, version: int) -> None:
        """Bring a journal of ``version`` up to this program's schema (in the caller's
        transaction), or refuse it."""
        if version > self.schema_version:
            raise JournalError(f"schema version {version} is newer than this program's "
                               f"{self.schema_version}")
        for step in range(version, self.schema_version):
            if step not in self.migrations:
                raise JournalError(f"schema version {version}: no migration from {step}")
            for statement in self.migrations[step]:
                db.execute(statement)
            log.warning("journal migrated from schema %d to %d", step, step + 1)
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(self.schema_version),))

    @staticmethod
    def _move_aside(path: Path) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        aside = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
        counter = 1
        while aside.exists():
            aside = path.with_name(f"{path.stem}.damaged-{stamp}-{counter}{path.suffix}")
            counter += 1
        path.rename(aside)
        for suffix in ("-wal", "-shm"):
            companion_file = path.with_name(path.name + suffix)
            if companion_file.exists():
                companion_file.rename(aside.with_name(aside.name + suffix))
        return aside
