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
- A key the format does not know is refused, naming it and the nearest known key
  (:func:`refuse_unknown_keys`): a misspelt ``"undelivred"`` would otherwise be ignored and
  its count read as missing.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Final, TypeVar

from companion.core.game import RuleError
from companion.errors import FixedCodeError

JsonObject = dict[str, Any]

T = TypeVar("T")


#: A refusal longer than this (a 5000-character key quoted in it) is cut in the middle.
MAX_MESSAGE: Final = 400


class ScoreInputError(FixedCodeError, ValueError):
    """The score input does not fit the format; the message says where and why.

    The message is kept short whatever the input held: its middle is cut past
    :data:`MAX_MESSAGE` characters, keeping where (the start) and what is allowed (the end).
    Its code is ``bad-argument`` (still a ``ValueError``, which the games' parsers catch)."""

    CODE = "bad-argument"

    def __init__(self, message: str) -> None:
        if len(message) > MAX_MESSAGE:
            message = f"{message[:MAX_MESSAGE * 2 // 3]} ... {message[-MAX_MESSAGE // 3:]}"
        super().__init__(message)


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


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut short, so a message about a 5000-digit cell stays one short line."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def require_object(data: object, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ScoreInputError(f"{where}: expected a JSON object, got {type(data).__name__}")
    return data


def refuse_unknown_keys(data: Mapping[str, Any], known: Collection[str], where: str) -> None:
    """Refuse the first key of ``data`` not in ``known``, naming the nearest known key."""
    for key in data:
        if key in known:
            continue
        nearest = difflib.get_close_matches(str(key)[:64], list(known), n=1, cutoff=0.5)
        hint = f" (did you mean {nearest[0]!r}?)" if nearest else ""
        raise ScoreInputError(f"{where}: unknown key {shown(key)}{hint}; known keys: "
                              f"{', '.join(known)}")


def require_field(data: Mapping[str, Any], field: str, where: str) -> Any:
    if field not in data:
        raise ScoreInputError(f"{where}: missing field {field!r}")
    return data[field]


def require_int(value: object, where: str, *, minimum: int | None = 0) -> int:
    """An integer (not a bool), at least ``minimum`` when one is given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreInputError(f"{where}: expected a whole number, got {shown(value)}")
    if minimum is not None and value < minimum:
        raise ScoreInputError(f"{where}: must be at least {minimum}, got {value}")
    return value


def require_list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ScoreInputError(f"{where}: expected a list, got {type(value).__name__}")
    return value


def players_of(data: Mapping[str, Any], *, minimum: int = 1, maximum: int | None = None,
               keys: Collection[str] | None = None) -> list[Mapping[str, Any]]:
    """The ``players`` list: ``minimum`` to ``maximum`` objects with a non-empty, unique
    ``name``, and (given ``keys``) no key outside ``keys``."""
    players = require_list(require_field(data, "players", "input"), "players")
    if len(players) < minimum:
        raise ScoreInputError(f"players: need at least {minimum}, got {len(players)}")
    if maximum is not None and len(players) > maximum:
        raise ScoreInputError(f"players: at most {maximum}, got {len(players)}")
    seen: set[str] = set()
    checked: list[Mapping[str, Any]] = []
    for index, raw in enumerate(players):
        player = require_object(raw, f"players[{index}]")
        name = require_field(player, "name", f"players[{index}]")
        if not isinstance(name, str) or not name.strip():
            raise ScoreInputError(f"players[{index}].name: expected a non-empty string")
        if name in seen:
            raise ScoreInputError(f"players[{index}].name: {shown(name)} appears twice")
        seen.add(name)
        if keys is not None:
            refuse_unknown_keys(player, keys, player_label(player, index))
        checked.append(player)
    return checked


def player_label(player: Mapping[str, Any], index: int) -> str:
    """How error messages name a player: by name when it has one, else by position."""
    name = player.get("name")
    return f"player {shown(name)}" if isinstance(name, str) and name else f"players[{index}]"


#: Result keys the table itself shows; every other key is printed as a fact below it.
_TABLE_KEYS: Final = ("game", "players", "ranking", "winners")
_PLAYER_TABLE_KEYS: Final = ("name", "total", "breakdown")
#: How a fact's key reads in the text (the key itself where not listed).
_LABELS: Final = {"score": "final score", "complaints_total": "complaints total",
                  "player_count": "players", "unserved_vips": "unserved VIPs",
                  "lost": "lost passengers", "lost_game": "game lost",
                  "goal_cards": "goal cards", "starting_vouchers": "starting vouchers"}


def format_table(result: Mapping[str, Any]) -> str:
    """The plain text of a score result: the table of players (place, name, total, each
    breakdown entry), the winners, then every other fact of the result, so the text says
    everything the ``--json`` object does (the outcome of a cooperative game, the rating, a
    solo scenario's conditions, each player's counts, warnings)."""
    players: list[Mapping[str, Any]] = list(result.get("players", []))
    lines = [f"{result.get('game', 'score')}"]
    if players:
        lines += _players_table(result, players)
        winners = result.get("winners") or []
        lines.append(f"winners: {', '.join(map(str, winners)) if winners else 'none'}")
    for key, value in result.items():
        if key not in _TABLE_KEYS:
            lines += _fact_lines(key, value, "")
    for player in players:
        for key, value in player.items():
            if key not in _PLAYER_TABLE_KEYS:
                lines += _fact_lines(f"{player['name']} {_LABELS.get(key, key)}", value, "")
    return "\n".join(lines)


def _players_table(result: Mapping[str, Any], players: list[Mapping[str, Any]]) -> list[str]:
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
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in rows]


def _fact_lines(key: str, value: Any, indent: str) -> list[str]:
    label = _LABELS.get(key, key)
    if key == "warnings":
        return [f"{indent}warning: {warning}" for warning in value]
    if key == "solo" and isinstance(value, Mapping):
        outcome = "WON" if value.get("won") else "LOST"
        head = f"{indent}solo: {value.get('scenario')} ({value.get('difficulty')}): {outcome}"
        rest = {k: v for k, v in value.items()
                if k not in ("scenario", "difficulty", "won", "conditions")}
        conditions = value.get("conditions") or {}
        return [head, *(f"{indent}  {name}: {_fact_text(name, met)}"
                        for name, met in conditions.items()),
                *(line for k, v in rest.items() for line in _fact_lines(k, v, indent + "  "))]
    if isinstance(value, Mapping):
        return [f"{indent}{label}:",
                *(line for k, v in value.items() for line in _fact_lines(k, v, indent + "  "))]
    return [f"{indent}{label}: {_fact_text(key, value)}"]


def _fact_text(key: str, value: Any) -> str:
    if key == "result" and isinstance(value, str):
        return value.upper()  # WIN or LOSE: the line a table looks for first
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value)) if value else "none"
    if value is None:
        return "none"
    return str(value)


SUMMARY_LIMIT = 120
"""Characters of a score summary: what the alert box shows whole."""


def score_summary(result: Mapping[str, Any]) -> str:
    """One sentence for the box's alert box when a game is scored (from the table page or the
    line protocol): who won and with what, or how a cooperative game ended. At most about 125
    characters, which the alert box shows whole."""
    game = str(result.get("game", "score"))
    if isinstance(result.get("result"), str):  # Now Boarding: the table wins or loses
        outcome = "WIN" if result["result"] == "win" else "LOSE"
        return (f"Scored {game}: {outcome}, {result.get('complaints_total', 0)} complaints "
                f"in all")
    if "score" in result:  # v3: one table score and its rating (none for a lost game)
        rating = result.get("rating")
        tail = f", {rating}" if rating else ", no rating: game lost"
        return f"Scored {game}: {result['score']}{tail}"
    solo = result.get("solo")
    if isinstance(solo, Mapping):
        return f"Scored {game} solo: {'WON' if solo.get('won') else 'LOST'}"
    # Points where the game has them; Flight Plan's winners meet conditions, not totals.
    totals = {str(player.get("name")): player.get("total") for player in result.get("players", [])
              if "conditions" not in player}
    winners = [str(name) for name in result.get("winners") or []]
    if not winners:
        return f"Scored {game}: no winner"
    named = ", ".join(f"{name} {totals[name]}" if totals.get(name) is not None else name
                      for name in winners)
    verb = "wins" if len(winners) == 1 else "win"
    text = f"Scored {game}: {named} {verb}"
    return text if len(text) <= SUMMARY_LIMIT else text[: SUMMARY_LIMIT - 1] + "~"


def score_input(scorers: Mapping[str, Callable[[Any], dict[str, Any]]], game: str,
                data: Any) -> dict[str, Any]:
    """``score GAME <json>`` on the line protocol: the scorer's result, or a refusal
    (``bad-argument``) naming the scorers, or saying what the input lacks."""
    scorer = scorers.get(game)
    if scorer is None:
        raise RuleError("bad-argument", f"no scorer for {game!r}; scorers: "
                                        f"{', '.join(sorted(scorers))}")
    try:
        return scorer(data)
    except ScoreInputError as error:
        raise RuleError("bad-argument", str(error)) from None
