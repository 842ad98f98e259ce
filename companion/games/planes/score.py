"""Planes (AEG, 2014, 2-4 players): end-of-game scoring and the end triggers a live helper needs.

Rules enforced (rules/planes.txt as read by rules/CLARIFICATIONS.md and rules/FACTS.md):

- Score = the VP of every goal card the player scored + 5 VP per own party cube boarded on the
  player's own plane ("boarded-cubes").
- Ranking: higher score first; a tie is broken by more own cubes boarded, then by more goal cards
  scored (the number of cards, not their value); players still tied share the place (the
  rulebook says "play again", which the companion leaves to the table).
- Input: 2 to 4 players (one per colour); ``goals`` a list of whole numbers >= 0 (the VP printed
  on each scored goal card); ``boarded`` 0 to 5 (each player owns 5 party cubes and each plane
  has 5 slots). Every field is required; no other key is accepted (a misspelt key is refused,
  naming the nearest known one).
- The game ends after the round in which a colour's plane (5 slots) is full or the boarding
  token reaches 12 on the boarding track (or the shorter mark agreed at setup), so every player
  has had the same number of turns. :func:`end_triggered` says whether and why.

The numbers are data.py's. Pure: standard library only, no clock, no files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from companion.games.planes.data import (
    CUBES_PER_PLAYER,
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLANE_SLOTS,
    TRACK_END,
    TRACK_START,
    TRIGGER_BOARDING_TRACK,
    TRIGGER_PLANE_FULL,
    VP_PER_BOARDED_CUBE,
)
from companion.games.scoring import (
    JsonObject,
    ScoreInputError,
    player_label,
    players_of,
    rank,
    refuse_unknown_keys,
    require_field,
    require_int,
    require_list,
    require_object,
)


def full_planes(plane_fill: Mapping[str, int],
                plane_slots: Mapping[str, int] | None = None) -> list[str]:
    """The colours whose planes are full, in the order of ``plane_fill``.

    ``plane_fill`` maps a colour to the cubes boarded on its plane(s). ``plane_slots`` gives a
    colour's capacity where it is not :data:`PLANE_SLOTS` (a colour with several planes, such as
    grey at more than one neutral gate, is full only when all of them are).
    """
    full: list[str] = []
    for colour, cubes in plane_fill.items():
        slots = PLANE_SLOTS if plane_slots is None else plane_slots.get(colour, PLANE_SLOTS)
        if isinstance(cubes, bool) or not isinstance(cubes, int) or cubes < 0:
            raise ValueError(f"plane_fill[{colour!r}]: expected a whole number >= 0, got {cubes!r}")
        if cubes > slots:
            raise ValueError(
                f"plane_fill[{colour!r}]: {cubes} cubes, but the plane has {slots} slots")
        if cubes == slots:
            full.append(colour)
    return full


def end_mark(short_mark: int | None = None) -> int:
    """The boarding-track space that ends the game: 12, or the shorter mark agreed at setup."""
    if short_mark is None:
        return TRACK_END
    if isinstance(short_mark, bool) or not isinstance(short_mark, int):
        raise ValueError(f"short_mark: expected a whole number, got {short_mark!r}")
    # 0 would end the game before anyone boards; past 12 the token has nowhere to go.
    if not 1 <= short_mark <= TRACK_END:
        raise ValueError(f"short_mark: must be 1 to {TRACK_END}, got {short_mark}")
    return short_mark


def end_triggered(track: int, plane_fill: Mapping[str, int], short_mark: int | None = None, *,
                  plane_slots: Mapping[str, int] | None = None) -> str | None:
    """Which end-of-game trigger has fired, or ``None``.

    ``track`` is the boarding token's space (the number of cubes boarded so far; it may pass the
    mark, since cubes keep boarding until the round ends). ``short_mark`` is the agreed shorter
    end space, ``None`` for the standard 12. Answers :data:`TRIGGER_PLANE_FULL` when any colour's
    plane is full (checked first: it is the rulebook's first condition, and one boarding can fire
    both), else :data:`TRIGGER_BOARDING_TRACK` when the token is on or past the mark.

    A trigger ends the game only after the current round, so every player has had the same
    number of turns: see :func:`turns_left_in_round`.
    """
    if isinstance(track, bool) or not isinstance(track, int) or track < TRACK_START:
        raise ValueError(f"track: expected a whole number >= {TRACK_START}, got {track!r}")
    mark = end_mark(short_mark)
    if full_planes(plane_fill, plane_slots):
        return TRIGGER_PLANE_FULL
    if track >= mark:
        return TRIGGER_BOARDING_TRACK
    return None


def turns_left_in_round(players: int, seat: int) -> int:
    """Turns still to play after the turn of ``seat`` (0 = the starting player) in this round.

    When a trigger fires on that turn, this is how many turns remain before the game ends.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players: must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")
    if not 0 <= seat < players:
        raise ValueError(f"seat: must be 0 to {players - 1}, got {seat}")
    return players - 1 - seat


INPUT_KEYS: Final = ("players",)
PLAYER_KEYS: Final = ("name", "goals", "boarded")


def _score_player(player: Mapping[str, Any], index: int) -> JsonObject:
    label = player_label(player, index)
    goals_raw = require_list(require_field(player, "goals", label), f"{label}.goals")
    goals = [require_int(value, f"{label}.goals[{position}]")
             for position, value in enumerate(goals_raw)]
    boarded = require_int(require_field(player, "boarded", label), f"{label}.boarded")
    # A player owns 5 party cubes, and only their own plane's 5 slots score for them.
    if boarded > CUBES_PER_PLAYER:
        raise ScoreInputError(
            f"{label}.boarded: at most {CUBES_PER_PLAYER} (a player has {CUBES_PER_PLAYER} "
            f"party cubes), got {boarded}")
    goal_points = sum(goals)
    cube_points = VP_PER_BOARDED_CUBE * boarded
    return {
        "name": player["name"],
        "total": goal_points + cube_points,
        "breakdown": {"goals": goal_points, "boarded-cubes": cube_points},
        "goal_cards": len(goals),
        "boarded": boarded,
    }


def _tie_key(result: Mapping[str, Any]) -> tuple[int, int, int]:
    # Score, then own cubes boarded, then the number of goal cards: the rulebook's order.
    return (result["total"], result["boarded"], result["goal_cards"])


def score(data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a finished game of Planes (CONTRACT.md section 4).

    Input: ``{"players": [{"name", "goals": [VP of each scored goal card], "boarded": n}]}``.
    Output: ``{"game": "planes", "players": [{"name", "total", "breakdown": {"goals",
    "boarded-cubes"}, "goal_cards", "boarded"}], "ranking", "winners"}``; see the module
    docstring for the rules. Raises :class:`ScoreInputError` naming the player and field.
    """
    data = require_object(data, "input")
    refuse_unknown_keys(data, INPUT_KEYS, "input")
    players = players_of(data, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS, keys=PLAYER_KEYS)
    results = [_score_player(player, index) for index, player in enumerate(players)]
    ranking = rank(results, lambda result: str(result["name"]), _tie_key)
    return {
        "game": GAME,
        "players": results,
        "ranking": ranking,
        "winners": list(ranking[0]),
    }
