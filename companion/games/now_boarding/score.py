"""Scoring a finished Now Boarding game (``companion score now-boarding``, CONTRACT.md 4).

Input: ``{"players": 3, "complaints": 2, "undelivered": 3, "unserved_vips": 0}``. Every
field is required (the contract gives none a default: a missing count read as 0 could turn a
loss into a win) and no other key is accepted. ``players`` is 2 to 5; ``complaints`` (filed
during play), ``undelivered`` (passengers not delivered at the end) and ``unserved_vips``
(VIP cards moved to the complaint pile) are whole numbers >= 0.

Impossible counts are refused: more undelivered passengers than the game deals (the starting
passengers plus the three stage decks of the Preflight chart), more unserved VIPs than the
VIP cards dealt (players + 2).

Rules (rules/now-boarding.txt, "Exit the aircraft" and "Out of business"):
- complaints_total = complaints + floor(undelivered / 2) + unserved_vips;
- the table wins with fewer than 3, and loses with 3 or more.

The game is cooperative and has no per-player scores, so the common fields are empty:
``"players": []``, ``"ranking": []``, ``"winners": []``. The table's outcome is in
``result`` ("win" | "lose"), ``complaints_total`` and ``breakdown`` (``complaints``,
``undelivered`` (the complaints it adds), ``unserved-vips``); ``player_count`` echoes the
input's number of players.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from companion.games.now_boarding.data import (
    COMPLAINT_LIMIT,
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PREFLIGHT,
    vip_count,
)
from companion.games.scoring import (
    ScoreInputError,
    refuse_unknown_keys,
    require_field,
    require_int,
    require_object,
)

INPUT_KEYS: Final = ("players", "complaints", "undelivered", "unserved_vips")


def passengers_dealt(players: int) -> int:
    """Passenger cards in a game: one starting passenger per player plus the stage decks."""
    return players + sum(PREFLIGHT[players].in_pile)


def complaints_total(complaints: int, undelivered: int, unserved_vips: int) -> int:
    """Every complaint at the end: filed, one per 2 undelivered passengers, unserved VIPs."""
    return complaints + undelivered // 2 + unserved_vips


def score(data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a finished game; raises :class:`ScoreInputError` naming the bad field."""
    data = require_object(data, "input")
    refuse_unknown_keys(data, INPUT_KEYS, "input")
    players = require_int(require_field(data, "players", "input"), "players",
                          minimum=MIN_PLAYERS)
    if players > MAX_PLAYERS:
        raise ScoreInputError(f"players: at most {MAX_PLAYERS}, got {players}")
    complaints = require_int(require_field(data, "complaints", "input"), "complaints")
    undelivered = require_int(require_field(data, "undelivered", "input"), "undelivered")
    if undelivered > passengers_dealt(players):
        raise ScoreInputError(f"undelivered: at most {passengers_dealt(players)} (the "
                              f"passengers a {players}-player game deals), got {undelivered}")
    unserved_vips = require_int(require_field(data, "unserved_vips", "input"), "unserved_vips")
    if unserved_vips > vip_count(players):
        raise ScoreInputError(f"unserved_vips: at most {vip_count(players)} (the VIP cards "
                              f"dealt with {players} players), got {unserved_vips}")
    total = complaints_total(complaints, undelivered, unserved_vips)
    return {
        "game": GAME,
        "players": [],
        "ranking": [],
        "winners": [],
        "player_count": players,
        "complaints": complaints,
        "undelivered": undelivered,
        "unserved_vips": unserved_vips,
        "breakdown": {"complaints": complaints, "undelivered": undelivered // 2,
                      "unserved-vips": unserved_vips},
        "complaints_total": total,
        "result": "win" if total < COMPLAINT_LIMIT else "lose",
    }
