"""Score a finished Overbooked game: CONTRACT.md section 4 in, the result object out.

Input: ``{"variant": "base"|"advanced", "events": [ids], "players": [{"name", "seats",
"overbooked", "vouchers", "bonus_cards"}], "solo": {"scenario", "difficulty"}}``.

Rules enforced here (the categories both variants share, CLARIFICATIONS.md "Base scoring"):
- ``vouchers``: +1 per 2 vouchers left (rounded down).
- ``empty-seats``: -1 per empty seat.
- ``overbooked``: -2 per overbooked passenger; ``most-overbooked``: -2 to each player with the
  most overbooked passengers (above 0, 2 or more players).
- The variant's own categories come from :mod:`.base` or :mod:`.advanced`, each event card in play
  adds its own entry (:mod:`.events`), and a solo game adds the ``solo`` object (:mod:`.solo`).
- Every point of a total is one breakdown entry: total == sum of the breakdown.
- Ranking by total, best first; equal totals share a place. Winners are the first place, except
  in a solo game, where the winner is the player when the scenario is won and nobody otherwise.

Our readings of the input where the contract is silent:
- ``variant`` defaults to ``"base"`` and ``events`` to none (the defaults of ``new
  overbooked``); each event may appear once.
- ``overbooked`` and ``vouchers`` are required for every player (a count left out and read
  as 0 could turn a loss into a win), and so is ``bonus_cards`` in the advanced variant.
  Counts are whole numbers, never negative.
- ``bonus_cards`` (the "1 extra point" suit) is an advanced rule: the base rules ignore it,
  and a non-zero count under them adds a line to the output's ``warnings`` list.
- Unknown keys are refused (top level, player, solo), naming the nearest known key.
- More than 4 players (the box has 4 player boards) is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.overbooked.advanced import advanced_breakdowns
from companion.games.overbooked.analysis import PlaneFacts, analyse
from companion.games.overbooked.base import base_breakdowns
from companion.games.overbooked.events import EVENT_CARDS
from companion.games.overbooked.majorities import leaders
from companion.games.overbooked.seatmap import COLOUR_NAMES, FRIENDS, SeatMap, parse_seat_map
from companion.games.overbooked.solo import parse_solo, solo_result
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

GAME = "overbooked"
INPUT_KEYS: tuple[str, ...] = ("variant", "events", "players", "solo")
PLAYER_KEYS: tuple[str, ...] = ("name", "seats", "overbooked", "vouchers", "bonus_cards")
#: Four player boards in the box.
MAX_PLAYERS = 4
VARIANTS: tuple[str, ...] = ("base", "advanced")
VOUCHERS_PER_POINT = 2
POINTS_PER_EMPTY_SEAT = -1
POINTS_PER_OVERBOOKED_PASSENGER = -2
POINTS_FOR_MOST_OVERBOOKED = -2


@dataclass(frozen=True)
class PlayerSheet:
    """One player's checked input."""

    name: str
    seat_map: SeatMap
    overbooked: int
    vouchers: int
    bonus_cards: int


def score(data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a finished game of Overbooked (CONTRACT.md section 4, ``overbooked``).

    Raises :class:`~companion.games.scoring.ScoreInputError` for input that does not fit,
    naming the player, row and column or the field.
    """
    game = require_object(data, "input")
    refuse_unknown_keys(game, INPUT_KEYS, "input")
    variant = _variant_of(game)
    event_ids = _events_of(game)
    entries = players_of(game, maximum=MAX_PLAYERS, keys=PLAYER_KEYS)
    sheets = [_sheet_of(player, index, variant) for index, player in enumerate(entries)]
    solo = parse_solo(game["solo"], len(sheets)) if game.get("solo") is not None else None
    warnings = [f"{player_label(player, index)}: bonus_cards {sheet.bonus_cards} ignored: "
                "bonus cards score only under the advanced rules"
                for index, (player, sheet) in enumerate(zip(entries, sheets, strict=True))
                if variant == "base" and sheet.bonus_cards]

    advanced = variant == "advanced"
    planes = [analyse(sheet.seat_map, across_aisles=advanced) for sheet in sheets]
    if advanced:
        breakdowns = advanced_breakdowns(planes, [sheet.bonus_cards for sheet in sheets])
    else:
        breakdowns = base_breakdowns(planes)
    _add_shared_categories(breakdowns, sheets, planes)
    for event_id in event_ids:
        for breakdown, points in zip(
            breakdowns, EVENT_CARDS[event_id].points(planes), strict=True
        ):
            breakdown[event_id] = points

    players: list[JsonObject] = [
        {
            "name": sheet.name,
            "total": sum(breakdown.values()),
            "breakdown": breakdown,
            "counts": _counts(sheet, plane),
        }
        for sheet, plane, breakdown in zip(sheets, planes, breakdowns, strict=True)
    ]
    ranking = rank(players, name=lambda player: str(player["name"]), key=lambda p: p["total"])
    result: JsonObject = {
        "game": GAME,
        "variant": variant,
        "events": list(event_ids),
        "players": players,
        "ranking": ranking,
        "winners": list(ranking[0]),
    }
    if solo is not None:
        result["solo"] = solo_result(solo, planes[0], sheets[0].vouchers)
        result["winners"] = [sheets[0].name] if result["solo"]["won"] else []
    if warnings:
        result["warnings"] = warnings
    return result


# -- input ----------------------------------------------------------------------------------------


def _variant_of(game: Mapping[str, Any]) -> str:
    variant = game.get("variant", "base")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ScoreInputError(
            f"variant: unknown variant {variant!r} (expected {' or '.join(VARIANTS)})"
        )
    return variant


def _events_of(game: Mapping[str, Any]) -> tuple[str, ...]:
    events = require_list(game.get("events", []), "events")
    seen: list[str] = []
    for index, event_id in enumerate(events):
        if not isinstance(event_id, str) or event_id not in EVENT_CARDS:
            raise ScoreInputError(
                f"events[{index}]: unknown event {event_id!r} (expected one of "
                f"{', '.join(EVENT_CARDS)})"
            )
        if event_id in seen:
            raise ScoreInputError(f"events[{index}]: event {event_id!r} appears twice")
        seen.append(event_id)
    return tuple(seen)


def _sheet_of(player: Mapping[str, Any], index: int, variant: str) -> PlayerSheet:
    label = player_label(player, index)

    def count(field: str) -> int:
        if field == "bonus_cards" and variant == "base" and field not in player:
            return 0  # an advanced rule: base games need not mention it
        return require_int(require_field(player, field, label), f"{label}: {field}", minimum=0)

    seats = require_field(player, "seats", label)
    return PlayerSheet(
        name=str(player["name"]),
        seat_map=parse_seat_map(seats, f"{label}: seats"),
        overbooked=count("overbooked"),
        vouchers=count("vouchers"),
        bonus_cards=count("bonus_cards"),
    )


# -- scoring --------------------------------------------------------------------------------------


def _add_shared_categories(
    breakdowns: Sequence[dict[str, int]],
    sheets: Sequence[PlayerSheet],
    planes: Sequence[PlaneFacts],
) -> None:
    most_overbooked = leaders([sheet.overbooked for sheet in sheets])
    for index, (breakdown, sheet, plane) in enumerate(zip(breakdowns, sheets, planes, strict=True)):
        breakdown["vouchers"] = sheet.vouchers // VOUCHERS_PER_POINT
        breakdown["empty-seats"] = POINTS_PER_EMPTY_SEAT * plane.empty_seats
        breakdown["overbooked"] = POINTS_PER_OVERBOOKED_PASSENGER * sheet.overbooked
        breakdown["most-overbooked"] = POINTS_FOR_MOST_OVERBOOKED if index in most_overbooked else 0


def _counts(sheet: PlayerSheet, plane: PlaneFacts) -> dict[str, int]:
    """What was counted on the plane, so a screen can explain the points."""
    counts = {
        "seats": sheet.seat_map.seat_count,
        "empty-seats": plane.empty_seats,
        "couples": len(plane.couples),
        "horizontal-couples": len(plane.horizontal_couples),
        "children": len(plane.children),
        "protected-children": len(plane.protected_children),
    }
    for colour in FRIENDS:
        counts[f"largest-{COLOUR_NAMES[colour]}-group"] = plane.largest_group(colour)
    counts["friend-groups-of-3-or-more"] = plane.friend_groups_of_three_or_more
    counts["overbooked"] = sheet.overbooked
    counts["vouchers"] = sheet.vouchers
    return counts
