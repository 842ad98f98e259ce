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
  loses at most the action being written, never one already acknowledged. (The runtime
  makes a button's write right after the press's frame, and acknowledges a line to a
  machine only after its write returned: docs/journal.md, "What a power cut can lose".)
- A file that is not a journal of this schema (damaged, truncated, another program's, a
  newer schema), a row this program could not have written (a wrong type, an unknown action,
  an action of a game that has no begin row), or a write-ahead log that lost committed frames
  (adapters/sqlite_wal.py) is damage: the journal's files (the database, ``-wal``, ``-shm``)
  are moved aside under a dated name and a fresh journal starts; the reason is kept in
  :attr:`Journal.recovered_from` and the name in :attr:`Journal.kept_aside`, for the log and
  the display. The runtime does the same through :meth:`Journal.set_aside_damaged` when a
  stored game does not replay.
- :meth:`Journal.close` checkpoints the write-ahead log into the database and truncates it, so
  after a clean stop no game lives only in the ``-wal`` file.
- A full disk does not stop a write: a ballast file (adapters/disk_reserve.py) is released and
  the write made again at once; :attr:`Journal.on_reserve` is true until the ballast is back.
- A keyed line's key is kept with the rows it wrote, in one transaction (:meth:`Journal.together`;
  adapters/journal_keys.py has its rules, issue #28).
- SQLite's and the OS's errors stay inside: a disk that refuses to open or write the journal
  raises :class:`~companion.adapters.journal_rows.JournalUnavailable` (a ``JournalError``,
  of the one error family), the library's error as its cause.

The file itself (schema, opening, migrating, moving aside, which errors blame the disk) is in
adapters/journal_schema.py; the row checks in adapters/journal_rows.py.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from companion.adapters import journal_keys
from companion.adapters.disk_reserve import (
    RESERVE_BYTES,
    RESERVE_NAME,
    Reserve,
    write_on_a_full_disk,
)
from companion.adapters.journal_rows import (
    JournalDamage,
    JournalError,
    JournalUnavailable,
)
from companion.adapters.journal_schema import (
    DAMAGE_ERRORS,
    FILE_NAME,
    MIGRATIONS,
    SCHEMA_VERSION,
    Migration,
    is_circumstance,
    is_disk_full,
    move_aside,
    open_database,
)
from companion.adapters.sqlite_wal import wal_damage
from companion.core.app import PastGame, Recorded
from companion.core.game import action_from_json, action_to_json

# Re-exported: where the journal's users have always found them.
__all__ = ["DAMAGE_ERRORS", "FILE_NAME", "SCHEMA_VERSION", "GameSummary", "Journal",
           "JournalError", "StoredGame", "is_disk_full"]

log = logging.getLogger(__name__)

_Result = TypeVar("_Result")

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


class Journal(journal_keys.KeyedLines):
    """The SQLite journal in ``state_dir``; see the module docstring.

    Schema versions migrate forward: a journal of an older version is brought up to
    :attr:`schema_version` by the SQL steps in :attr:`migrations` (``migrations[n]`` turns
    version n into n + 1), in one transaction, before it is used. A newer version, or an
    older one with no path forward, is moved aside like a damaged file.
    """

    schema_version = SCHEMA_VERSION
    migrations: Mapping[int, tuple[Migration, ...]] = MappingProxyType(dict(MIGRATIONS))
    _read_only = False   # True for :meth:`reader`'s read-only view

    def __init__(self, path: Path, *, reserve_bytes: int = RESERVE_BYTES) -> None:
        self.path = path
        self.recovered_from: str | None = None
        # The dated name the damaged files were kept under, for the screen.
        self.kept_aside: str | None = None
        # False for the in-memory stand-in used when the state directory is unusable;
        # ``wanted_dir`` is then where the real journal should be, for retrying it.
        self.durable = True
        self.wanted_dir: Path | None = None
        self.reserve = (None if str(path) == ":memory:"
                        else Reserve(path.parent / RESERVE_NAME, reserve_bytes))
        self._closed = False
        self._grouped = False
        # A full disk at start may still open on the reserve left by an earlier run.
        self._db = self._with_reserve(lambda: self._open_or_recover(path), restore=False)
        if self.reserve is not None:
            self.reserve.ensure()
        self.prune_keys_at_open()

    @classmethod
    def in_directory(cls, state_dir: Path, *, reserve_bytes: int = RESERVE_BYTES) -> Journal:
        """The journal in ``state_dir`` (made if missing); JournalUnavailable when the disk
        refuses."""
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
            return cls(state_dir / FILE_NAME, reserve_bytes=reserve_bytes)
        except (OSError, sqlite3.Error) as error:
            raise JournalUnavailable(str(error)) from error

    @classmethod
    def reader(cls, state_dir: Path) -> Journal:
        """A read-only view of the journal in ``state_dir``, for another thread than the
        box's (the table page's history): its own SQLite connection, opened read-only, so it
        never writes, migrates, recovers or touches the reserve (the box's own journal does
        those) and never sees a write half done. Only the reading methods may be used.
        Raises JournalError when there is no journal in ``state_dir``."""
        path = state_dir / FILE_NAME
        if not path.is_file():
            raise JournalError(f"{path}: no journal here")
        journal = cls.__new__(cls)
        journal.path = path
        journal.recovered_from = journal.kept_aside = journal.wanted_dir = None
        journal.durable = True
        journal.reserve = None
        journal._closed = False
        journal._grouped = False
        journal._read_only = True
        try:
            journal._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                          check_same_thread=False)
        except sqlite3.Error as error:
            raise JournalError(f"{path}: cannot read the journal ({error})") from error
        return journal

    @classmethod
    def open_or_in_memory(cls, state_dir: Path) -> Journal:
        """The journal in ``state_dir``; if that cannot be used at all (a read-only, full or
        missing disk, a file where the folder should be), an in-memory journal so that the
        box still plays, with ``durable`` false so the screen can say that nothing is being
        saved, and ``wanted_dir`` set so the runtime can retry the real one."""
        try:
            return cls.in_directory(state_dir)
        except JournalUnavailable as error:
            log.error("cannot keep a journal in %s (%s); games are not saved", state_dir, error)
            journal = cls(Path(":memory:"))
            journal.durable = False
            journal.wanted_dir = state_dir
            journal.recovered_from = f"cannot save in {state_dir}: {error}"
            return journal

    @property
    def on_reserve(self) -> bool:
        """Whether the disk filled and the ballast is not back yet (writes use its space)."""
        return self.reserve is not None and not self.reserve.present

    # -- writing ---------------------------------------------------------------------------
    # Each write is one transaction (all or nothing), made through _with_reserve.

    def begin_game(self, game: str, options: Mapping[str, str], seed: int, at: float,
                   wall: str) -> int:
        def write() -> int:
            with self._in_transaction():
                self._db.execute("UPDATE games SET current = 0 WHERE current = 1")
                cursor = self._db.execute(
                    "INSERT INTO games (game, options, seed, started_at, started_wall, clock,"
                    " current) VALUES (?, ?, ?, ?, ?, ?, 1)",
                    (game, json.dumps(dict(options), sort_keys=True), seed, at, wall, at))
                self._commit_point()
            assert cursor.lastrowid is not None
            return cursor.lastrowid
        return self._with_reserve(write)

    def keep_finished(self, game: str, options: Mapping[str, str], at: float, wall: str,
                      result: Any) -> int:
        """A finished game with no actions (scored from its final count), kept in history;
        the current game stays current. Answers its id."""
        def write() -> int:
            with self._in_transaction():
                cursor = self._db.execute(
                    "INSERT INTO games (game, options, seed, started_at, started_wall, clock,"
                    " current, result) VALUES (?, ?, 0, ?, ?, ?, 0, ?)",
                    (game, json.dumps(dict(options), sort_keys=True), at, wall, at,
                     json.dumps(result)))
                self._commit_point()
            assert cursor.lastrowid is not None
            return cursor.lastrowid
        return self._with_reserve(write)

    def append(self, game_id: int, recorded: Recorded, wall: str) -> None:
        self._transaction(
            ("INSERT INTO actions (game_id, action, at, wall) VALUES (?, ?, ?, ?)",
             (game_id, json.dumps(action_to_json(recorded.action)), recorded.at, wall)),
            ("UPDATE games SET clock = MAX(clock, ?) WHERE id = ?", (recorded.at, game_id)))

    def drop_last(self, game_id: int, count: int) -> None:
        self._transaction(
            ("DELETE FROM actions WHERE id IN (SELECT id FROM actions WHERE game_id = ?"
             " ORDER BY id DESC LIMIT ?)", (game_id, count)))

    def set_result(self, game_id: int, result: Any) -> None:
        self._transaction(("UPDATE games SET result = ? WHERE id = ?",
                           (None if result is None else json.dumps(result), game_id)))

    def set_aside(self, game_id: int) -> None:
        """Leave the game in history: no game is current until the next ``begin_game``."""
        self._transaction(("UPDATE games SET current = 0 WHERE id = ?", (game_id,)))

    def make_current(self, game_id: int) -> None:
        """Make a past game the game in play again (resumed from the menu)."""
        self._transaction(("UPDATE games SET current = 0 WHERE current = 1", ()),
                          ("UPDATE games SET current = 1 WHERE id = ?", (game_id,)))

    def checkpoint(self, game_id: int, at: float) -> None:
        """Remember that the game clock reached ``at`` (bounded-rate, see runtime/gameclock.py)."""
        self._transaction(("UPDATE games SET clock = MAX(clock, ?) WHERE id = ?", (at, game_id)))

    # -- reading ---------------------------------------------------------------------------

    def current(self) -> StoredGame | None:
        """The game in play, with every action, or ``None`` on a fresh box."""
        row = self._one(
            "SELECT id, game, options, seed, started_wall, clock, result FROM games"
            " WHERE current = 1 ORDER BY id DESC LIMIT 1")
        if row is None:
            return None
        return self._stored(row)

    def game(self, game_id: int) -> StoredGame:
        row = self._one(
            "SELECT id, game, options, seed, started_wall, clock, result FROM games"
            " WHERE id = ?", (game_id,))
        if row is None:
            raise JournalError(f"no game {game_id} in {self.path}")
        return self._stored(row)

    def games(self) -> list[GameSummary]:
        """Every game, newest first."""
        rows = self._all(
            "SELECT g.id, g.game, g.options, g.started_wall, g.result,"
            " COUNT(a.id), COALESCE(MAX(a.wall), g.started_wall)"
            " FROM games g LEFT JOIN actions a ON a.game_id = g.id"
            " GROUP BY g.id ORDER BY g.id DESC")
        return [GameSummary(id=row[0], game=row[1], options=json.loads(row[2]),
                            started_wall=row[3],
                            result=None if row[4] is None else json.loads(row[4]),
                            actions=row[5], last_wall=row[6]) for row in rows]

    def unfinished(self, limit: int = 5) -> list[PastGame]:
        """Games that did not end and are not current (replaced or set aside), newest
        first: the ones the menu offers to resume."""
        rows = self._all(
            "SELECT g.id, g.game, COALESCE(MAX(a.wall), g.started_wall)"
            " FROM games g LEFT JOIN actions a ON a.game_id = g.id"
            " WHERE g.current = 0 AND g.result IS NULL"
            " GROUP BY g.id ORDER BY g.id DESC LIMIT ?", (limit,))
        return [PastGame(id=row[0], game=row[1], last_wall=row[2]) for row in rows]

    def last_clock(self) -> float:
        """Where the game clock resumes: the furthest the current game is known to have
        reached, or with no current game the furthest over every game.

        Instants mean something only within a game. The current game's own clock matters
        because a game begun while the journal could not be opened (on a game clock that
        started from zero) may be behind older games; resuming from theirs would make its
        countdown lose time."""
        row = self._one(
            "SELECT MAX(m) FROM (SELECT MAX(clock) AS m FROM games WHERE current = 1"
            " UNION ALL SELECT MAX(a.at) FROM actions a JOIN games g ON g.id = a.game_id"
            " WHERE g.current = 1)")
        if row is None or row[0] is None:
            row = self._one(
                "SELECT MAX(m) FROM (SELECT MAX(clock) AS m FROM games"
                " UNION ALL SELECT MAX(at) FROM actions)")
        return float(row[0]) if row and row[0] is not None else 0.0

    def close(self) -> None:
        """Fold the write-ahead log into the database, truncate it, and close (idempotent).

        SQLite would checkpoint on close anyway, but only if the process gets that far and
        no other connection is open; doing it here makes a clean stop leave nothing that
        lives only in the ``-wal`` file."""
        if self._closed:
            return
        self._closed = True
        if self._read_only:   # a reader folds nothing: the box's own journal does
            self._db.close()
            return
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as error:  # the log stays; SQLite replays it at the next start
            log.warning("could not checkpoint the journal %s: %s", self.path, error)
        self._db.close()

    def set_aside_damaged(self, reason: str) -> str:
        """Keep this journal's files aside as damaged and start a fresh journal in their
        place (a stored game that does not replay). Returns the name they were kept under
        (for the in-memory stand-in, which has no files, a description)."""
        self._closed = True
        self._db.close()
        if str(self.path) == ":memory:":
            aside_name = "nothing (it was in memory)"
            self._db = self._open_database(self.path)
        else:
            aside = move_aside(self.path)
            aside_name = aside.name
            self._db = self._with_reserve(lambda: self._open_database(self.path), restore=False)
        self._closed = False
        self.kept_aside = aside_name
        self.recovered_from = f"{reason}; the old journal is kept as {aside_name}"
        log.error("journal %s does not replay (%s); moved aside to %s, starting fresh",
                  self.path, reason, aside_name)
        return aside_name

    # -- internals -------------------------------------------------------------------------

    def _transaction(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        def write() -> None:
            with self._in_transaction():
                for sql, parameters in statements:
                    self._db.execute(sql, parameters)
                self._commit_point()
        self._with_reserve(write)

    def _before_commit(self) -> None:
        """Called inside every write's transaction, after its statements and before its
        commit (where SQLite syncs the log): nothing here. The seam for a journal on a
        modelled SD card (the bench's :mod:`companion.bench.sd_card`) and for a write held
        before its sync (the tests' :mod:`companion.testing.held_journal`)."""

    def _with_reserve(self, write: Callable[[], _Result], *, restore: bool = True) -> _Result:
        """Run ``write``; if the disk is full, release the reserve, let the kept keys give way
        in the room it frees (issue #38, 4: keys never cost an action), and run it again.
        After a write that worked, put the reserve back when the disk has room again.
        A write the disk still refuses raises JournalUnavailable. Inside :meth:`together`
        a write just runs (the group is what is run again)."""
        if self._grouped:
            return write()
        try:
            result = write()
        except (sqlite3.Error, OSError) as error:
            if not is_disk_full(error):
                raise JournalUnavailable(str(error)) from error
            result = write_on_a_full_disk(write, error, is_disk_full,
                                          (self._release_reserve, self.drop_every_key))
        if (restore and self.reserve is not None and not self.reserve.present
                and self.reserve.ensure()):
            log.warning("disk has room again: the reserve in %s is back", self.path.parent)
        return result

    def _release_reserve(self) -> bool:
        if self.reserve is None or not self.reserve.release():
            return False
        log.error("disk full in %s: released the %d-byte reserve, saving on it",
                  self.path.parent, self.reserve.size)
        return True

    def _one(self, sql: str, parameters: tuple[Any, ...] = ()) -> Any:
        """The first row ``sql`` reads, or None; SQLite's errors as JournalError."""
        rows = self._all(sql, parameters)
        return rows[0] if rows else None

    def _all(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        """Every row ``sql`` reads. A disk that refuses is JournalUnavailable; anything else
        SQLite says on reading (a malformed page) is JournalDamage."""
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            if is_circumstance(error):
                raise JournalUnavailable(str(error)) from error
            raise JournalDamage(str(error) or type(error).__name__) from error

    def _stored(self, row: tuple[Any, ...]) -> StoredGame:
        game_id, game, options, seed, started_wall, clock, result = row
        rows = self._all(
            "SELECT action, at, wall FROM actions WHERE game_id = ? ORDER BY id",
            (game_id,))
        history = tuple(Recorded(action_from_json(json.loads(action)), at)
                        for action, at, _ in rows)
        return StoredGame(id=game_id, game=game, options=json.loads(options), seed=seed,
                          started_wall=started_wall, history=history, clock=clock,
                          result=None if result is None else json.loads(result),
                          last_wall=rows[-1][2] if rows else started_wall)

    def _open_or_recover(self, path: Path) -> sqlite3.Connection:
        # The log is read before SQLite opens it: SQLite would silently drop damaged frames,
        # and closing would fold what is left into the database and delete the log.
        damage = None if str(path) == ":memory:" else wal_damage(path)
        if damage is None:
            try:
                return self._open_database(path)
            except sqlite3.Error as error:
                if is_circumstance(error):
                    raise  # the disk, not the file: full, read-only, locked, unplugged
                damage = str(error) or type(error).__name__
            except DAMAGE_ERRORS as error:
                damage = str(error) or type(error).__name__
        aside = move_aside(path)
        self.kept_aside = aside.name
        self.recovered_from = f"{damage}; the old journal is kept as {aside.name}"
        log.error("journal %s unusable (%s); moved aside to %s, starting fresh",
                  path, damage, aside)
        return self._open_database(path)

    def _open_database(self, path: Path) -> sqlite3.Connection:
        return open_database(path, self.schema_version, self.migrations)
