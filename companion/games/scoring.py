"""What every game scorer promises, and the helpers they share.

A scorer is a pure function ``score(data) -> dict`` taking the decoded JSON object of
CONTRACT.md section 4 and returning the result object of the same section:

    {"game": ..., "players": [{"name", "total", "breakdown": {...}}, ...],
     "ranking": [["Ann"], ["Bo", "Cy"]], "winners": ["Ann"], ...game-specific fields}

Rules enforced here:
- Input that does not fit the format raises :class:`ScoreInputError` whose message names the
  player (by name or index), the field and, for seat maps, the row and column. The command
  line turns it into exit status 2; the line protocol into ``err bad-argument``.
- ``ranking`` lists places best first; players whose sort keys are equal share a place.
- ``winners`` is the first place of the ranking (every player in it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

JsonObject = dict[str, Any]

T = TypeVar("T")


class ScoreInputError(ValueError):
    """The score input does not fit the format; the message says where and why."""


def rank(items: Sequence[T], name: Callable[[T], str], key: Callable[[T], Any]) -> list[list[str]]:
    """Places best first: sorted by ``key`` descending; equal keys share a place.

    The order inside a shared place, and between players, is the input order where keys tie,
    so moving a player in the list never changes anyone's score or place.
    """
    ordered = sorted(items, key=key, reverse=True)
    places: list[list[str]] = []
    previous: Any = object()
    for item in ordered:
        item_key = key(item)
        if places and item_key == previous:
            places[-1].append(name(item))
        else:
            places.append([name(item)])
        previous = item_key
    return places


def require_object(data: object, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ScoreInputError(f"{where}: expected a JSON object, got {type(data).__name__}")
    return data


def require_field(data: Mapping[str, Any], field: str, where: str) -> Any:
    if field not in data:
        raise ScoreInputError(f"{where}: missing field {field!r}")
    return data[field]


def require_int(value: object, where: str, *, minimum: int | None = 0) -> int:
    """An integer (not a bool), at least ``minimum`` when one is given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreInputError(f"{where}: expected a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise ScoreInputError(f"{where}: must be at least {minimum}, got {value}")
    return value


def require_list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ScoreInputError(f"{where}: expected a list, got {type(value).__name__}")
    return value


def players_of(data: Mapping[str, Any], *, minimum: int = 1) -> list[Mapping[str, Any]]:
    """The ``players`` list: objects with a non-empty, unique ``name``."""
    players = require_list(require_field(data, "players", "input"), "players")
    if len(players) < minimum:
        raise ScoreInputError(f"players: need at least {minimum}, got {len(players)}")
    seen: set[str] = set()
    checked: list[Mapping[str, Any]] = []
    for index, raw in enumerate(players):
        player = require_object(raw, f"players[{index}]")
        name = require_field(player, "name", f"players[{index}]")
        if not isinstance(name, str) or not name.strip():
            raise ScoreInputError(f"players[{index}].name: expected a non-empty string")
        if name in seen:
            raise ScoreInputError(f"players[{index}].name: {name!r} appears twice")
        seen.add(name)
        checked.append(player)
    return checked


def player_label(player: Mapping[str, Any], index: int) -> str:
    """How error messages name a player: by name when it has one, else by position."""
    name = player.get("name")
    return f"player {name!r}" if isinstance(name, str) and name else f"players[{index}]"


def format_table(result: Mapping[str, Any]) -> str:
    """A plain-text table of a score result: place, name, total, then each breakdown entry;
    then the winners and the game's own outcome (a cooperative game's result, the v3 score
    and rating, a solo scenario), which the table's rows cannot show."""
    players: list[Mapping[str, Any]] = list(result.get("players", []))
    if not players and isinstance(result.get("breakdown"), Mapping):
        parts = ", ".join(f"{key} {value}" for key, value in result["breakdown"].items())
        return "\n".join([f"breakdown: {parts}", *outcome_lines(result)])
    place_of: dict[str, int] = {}
    for place, names in enumerate(result.get("ranking", []), start=1):
        for player_name in names:
            place_of[player_name] = place
    categories: list[str] = []
    for player in players:
        for category in player.get("breakdown", {}):
            if category not in categories:
                categories.append(category)
    header = ["#", "player", "total", *categories]
    rows = [header]
    for player in sorted(players, key=lambda p: place_of.get(str(p["name"]), len(players) + 1)):
        breakdown = player.get("breakdown", {})
        rows.append(
            [
                str(place_of.get(str(player["name"]), "")),
                str(player["name"]),
                str(player.get("total", "")),
                *(str(breakdown.get(category, "")) for category in categories),
            ]
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    winners = result.get("winners")
    if winners:
        lines.append(f"winners: {', '.join(map(str, winners))}")
    return "\n".join([*lines, *outcome_lines(result)])


def outcome_lines(result: Mapping[str, Any]) -> list[str]:
    """The game-specific outcome of a score result, one line each, for the table."""
    lines: list[str] = []
    if "complaints_total" in result:
        lines.append(f"complaints in all: {result['complaints_total']}")
    if "score" in result:
        rating = f" ({result['rating']})" if result.get("rating") else ""
        lines.append(f"score: {result['score']}{rating}")
    if result.get("lost_game") is True:
        lines.append("the game is lost: too many passengers in the Lost pile")
    solo = result.get("solo")
    if isinstance(solo, Mapping):
        conditions = ", ".join(f"{name} {'yes' if met else 'no'}"
                               for name, met in dict(solo.get("conditions", {})).items())
        lines.append(f"solo {solo.get('scenario')} ({solo.get('difficulty')}): "
                     f"{'won' if solo.get('won') else 'lost'}; {conditions}")
    if isinstance(result.get("result"), str):
        lines.append(f"result: {result['result']}")
    return lines
