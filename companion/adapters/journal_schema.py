"""The journal's file: its schema, how it is opened, migrated and moved aside, and which
SQLite errors blame the disk rather than the file (pure helpers of adapters/journal.py).

What it promises:
- :func:`open_database` returns a connection only to a journal of this schema (made on a
  fresh file, migrated forward in one transaction from an older one), in WAL mode with
  ``synchronous=FULL``, that passed SQLite's quick check and whose every row this program
  could have written (adapters/journal_rows.py); anything else raises, and the caller moves
  the files aside.
- :func:`move_aside` renames the database and its ``-wal`` and ``-shm`` together to one dated
  name that no earlier damaged journal holds.
- :func:`is_circumstance` tells a disk or system error (full, read-only, locked, unplugged:
  the file may be fine once the disk is back) from damage; :func:`is_disk_full` tells a full
  disk, which the reserve answers.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import sqlite3
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path

from companion.adapters.journal_keys import LINE_KEYS_TABLE, digest_kept_lines
from companion.adapters.journal_rows import JournalDamage, JournalError, check_rows

log = logging.getLogger(__name__)

SCHEMA_VERSION = 3
FILE_NAME = "journal.sqlite3"

LINE_KEYS_SCHEMA_2 = (
    """CREATE TABLE IF NOT EXISTS line_keys (
    holder TEXT NOT NULL,
    key TEXT NOT NULL,
    line TEXT NOT NULL,
    reply TEXT,
    wall TEXT NOT NULL,
    PRIMARY KEY (holder, key)
)""",
)
"""Schema 2 (issue #28, 3): the keys kept each line whole. Schema 3 (issue #38, 4) keeps its
digest instead (adapters/journal_keys.py ``LINE_KEYS_TABLE``, and the migration
``digest_kept_lines``)."""

Migration = str | Callable[[sqlite3.Connection], None]
"""One step of a migration: an SQL statement, or a function of the connection (for what SQL
alone cannot compute, such as a digest)."""

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
""" + f"{LINE_KEYS_TABLE};"

MIGRATIONS: Mapping[int, tuple[Migration, ...]] = {1: LINE_KEYS_SCHEMA_2,
                                                   2: (digest_kept_lines,)}
"""``MIGRATIONS[n]`` turns a journal of schema n into n + 1 (in one transaction)."""


WAL_AUTOCHECKPOINT_PAGES = 128
"""The write-ahead log is folded into the database every this many pages (SQLite's default
is 1000): a log of at most about half a megabyte, reused in place, keeps a full disk's
reserve for new rows rather than for a growing log, and bounds the log read at start."""

PAGE_CACHE_KIB = 256
"""SQLite's page cache for the box's connection, in KiB (SQLite's default is 2000 KiB). The
cache keeps every page it has read, so with the default each finished game's rows (about
2.6 KiB of journal a game) stayed in memory until the journal passed 2 MB: a box's RSS grew
with its history. The box writes at the end of the file and reads a whole game only to
replay or resume it, so a quarter of a megabyte holds the pages it touches."""

def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` means no space is left (SQLite's SQLITE_FULL, or ENOSPC/EDQUOT)."""
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        return code == sqlite3.SQLITE_FULL or "disk is full" in str(error)
    return isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)


CIRCUMSTANCE_CODES = frozenset({
    sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_NOMEM,
    sqlite3.SQLITE_AUTH})
"""SQLite's primary result codes that blame the disk or the system, not the file's content:
such a journal is not moved aside (it may be fine once the disk is back)."""


def is_circumstance(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:  # raised by the sqlite3 module itself, not by SQLite
        return isinstance(error, sqlite3.OperationalError)
    return code & 0xFF in CIRCUMSTANCE_CODES


DAMAGE_ERRORS = (JournalError, sqlite3.DatabaseError, ValueError, KeyError, TypeError,
                 RecursionError)
"""What reading a damaged file raises (a missing table, a malformed page, a bad row)."""


def open_database(path: Path, schema_version: int,
                  migrations: Mapping[int, tuple[Migration, ...]]) -> sqlite3.Connection:
    """A connection to the journal at ``path``: WAL, synchronous=FULL, the schema made or
    migrated forward, the integrity check passed and every row checked (raises otherwise)."""
    if str(path) != ":memory:" and path.is_dir():
        raise JournalError(f"{path} is a directory, not a journal")
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        db.isolation_level = "DEFERRED"
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
        db.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")
        with db:
            db.executescript(SCHEMA)
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                db.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)",
                           (str(schema_version),))
            else:
                migrate(db, int(row[0]), schema_version, migrations)
        if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise JournalDamage("the SQLite integrity check failed")
        # Read every stored row once, so damage shows now and not mid-game.
        check_rows(db)
    except BaseException:
        db.close()
        raise
    return db


def migrate(db: sqlite3.Connection, version: int, schema_version: int,
            migrations: Mapping[int, tuple[Migration, ...]]) -> None:
    """Bring a journal of ``version`` up to this program's schema (in the caller's
    transaction), or refuse it."""
    if version > schema_version:
        raise JournalError(f"schema version {version} is newer than this program's "
                           f"{schema_version}")
    for step in range(version, schema_version):
        if step not in migrations:
            raise JournalError(f"schema version {version}: no migration from {step}")
        for statement in migrations[step]:
            if isinstance(statement, str):
                db.execute(statement)
            else:
                statement(db)
        log.warning("journal migrated from schema %d to %d", step, step + 1)
    db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(schema_version),))


def move_aside(path: Path) -> Path:
    """Rename the database and its ``-wal`` and ``-shm`` files to one dated name."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    counter = 1
    while any(aside.with_name(aside.name + suffix).exists() for suffix in ("", "-wal")):
        aside = path.with_name(f"{path.stem}.damaged-{stamp}-{counter}{path.suffix}")
        counter += 1
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):  # a log without a database, say
            path.with_name(path.name + suffix).rename(aside.with_name(aside.name + suffix))
    return aside
