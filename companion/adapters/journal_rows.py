"""The journal's rows, checked: each is one this program could have written.

What it promises: :func:`check_rows` reads every row of the ``games``, ``actions`` and
``line_keys`` tables once, at open, and raises :class:`JournalDamage` naming the first table,
row and column that this program could not have written: a wrong type, text where a number
belongs, JSON that does not decode, an unknown action kind, an action of a game with no begin
row, a game-clock value that is not finite or beyond :data:`MAX_GAME_CLOCK`. The journal
(adapters/journal.py) then keeps the files aside and starts fresh, so damage shows at start and
never mid-game.
"""

from __future__ import annotations

import json
import math
import sqlite3
from typing import Any

from companion.core.game import action_from_json
from companion.errors import FixedCodeError

MAX_GAME_CLOCK = 1e12
"""Game-clock seconds a journal can plausibly hold (30,000 years of play); beyond it float
seconds stop advancing, so a larger value is damage."""


class JournalError(FixedCodeError):
    """The journal cannot be used (and could not be recovered)."""

    CODE = "journal"


class JournalDamage(JournalError):
    """The journal holds something this program could not have written; the message names
    the table, the row and the column."""

    CODE = "journal-damage"


class JournalUnavailable(JournalError):
    """The disk refused to open or write the journal (full past the reserve, read-only,
    unplugged, locked): SQLite's or the OS's error, translated at this adapter's boundary.
    The message is the library's own; the library error is the ``__cause__``."""

    CODE = "journal-unavailable"


def check_rows(db: sqlite3.Connection) -> None:
    """Every row is one this program could have written; else :class:`JournalDamage` naming
    the first row and column that is not."""
    game_ids: set[int] = set()
    for row in db.execute("SELECT id, game, options, seed, started_at, started_wall, clock,"
                          " result, current FROM games ORDER BY id"):
        game_id, game, options, seed, started_at, started_wall, clock, result, current = row
        where = f"games row {game_id!r}"
        _require(_is_integer(game_id), where, "id", game_id, "an integer")
        _require(isinstance(game, str) and game != "", where, "game", game, "a game name")
        decoded = _json(options, where, "options")
        _require(isinstance(decoded, dict) and all(
            isinstance(key, str) and isinstance(value, str) for key, value in decoded.items()),
            where, "options", options, "an object of text values")
        _require(_is_integer(seed), where, "seed", seed, "an integer")
        _require(_is_clock(started_at), where, "started_at", started_at, "game-clock seconds")
        _require(isinstance(started_wall, str), where, "started_wall", started_wall, "text")
        _require(_is_clock(clock), where, "clock", clock, "game-clock seconds")
        if result is not None:
            _json(result, where, "result")
        _require(current in (0, 1), where, "current", current, "0 or 1")
        game_ids.add(game_id)
    for row in db.execute("SELECT id, game_id, action, at, wall FROM actions ORDER BY id"):
        action_id, game_id, action, at, wall = row
        where = f"actions row {action_id!r}"
        _require(game_id in game_ids, where, "game_id", game_id, "a game with a begin row")
        try:
            action_from_json(_json(action, where, "action"))
        except ValueError as error:
            raise JournalDamage(f"{where}: action: {error}") from None
        _require(_is_clock(at), where, "at", at, "game-clock seconds")
        _require(isinstance(wall, str), where, "wall", wall, "text")
    for row in db.execute("SELECT rowid, holder, key, digest, reply, wall FROM line_keys"):
        rowid, holder, key, digest, reply, wall = row
        where = f"line_keys row {rowid!r}"
        for column, value in (("holder", holder), ("key", key), ("digest", digest),
                              ("wall", wall)):
            _require(isinstance(value, str), where, column, value, "text")
        _require(reply is None or isinstance(reply, str), where, "reply", reply, "text or NULL")


def _require(condition: bool, where: str, column: str, value: object, expected: str) -> None:
    if not condition:
        raise JournalDamage(f"{where}: {column} is {_short(value)}, not {expected}")


def _json(value: object, where: str, column: str) -> Any:
    if not isinstance(value, str):
        raise JournalDamage(f"{where}: {column} is {_short(value)}, not JSON text")
    try:
        return json.loads(value)
    except (ValueError, RecursionError) as error:
        raise JournalDamage(f"{where}: {column} is not JSON ({type(error).__name__})") from None


def _is_integer(value: object) -> bool:
    return type(value) is int


def _is_clock(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and abs(value) <= MAX_GAME_CLOCK


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "~"
