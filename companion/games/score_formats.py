"""What ``companion score`` reads, per game, in words and as a valid example (CONTRACT.md 4).

``companion score --help`` (and ``companion score GAME --help``) shows :data:`FORMATS` and,
from :data:`OPTIONAL`, what each input may leave out; ``companion score GAME --example`` prints
:data:`EXAMPLES`. Every example scores cleanly
(tests/e2e/test_cli_score.py feeds each one through ``companion score``), so the help can
never teach a format the scorers refuse.

Pure: data only.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any, Final

FORMATS: Final[dict[str, str]] = {
    "now-boarding": (
        "players (2-5), complaints (filed during play), undelivered (passengers not delivered "
        "at the end), unserved_vips (at most the VIP cards dealt)."),
    "now-boarding-v3": (
        "players: 3-6 of {name, passengers: [values]} or {name, total}; lost (the Lost pile, "
        "in both variants); variant (basic or advanced)."),
    "overbooked": (
        "players: 1-4 of {name, seats: [rows like 'RR.|BBG'], overbooked, vouchers, "
        "bonus_cards}; variant (base or advanced), events: [ids], solo: {scenario, "
        "difficulty} with one player. Seats: R couple, W child, B G Y friends, . empty, "
        "| aisle; every row the same width."),
    "planes": "players: 2-4 of {name, goals: [VP of each scored goal card], boarded (0-5)}.",
    "flight-plan": (
        "routes: a route guide file (path relative to the score file) or the routes inline "
        "[{number, from, to, regions: [2 of NA SA EU AF AP ME], cargo, hubs, price, revenue, "
        "use_fee}]; players: {name, routes: [numbers], hubs: [cities], fleets: [short medium "
        "long ultra-long cargo], deactivated: [routes, hubs or fleets]}."),
}

OPTIONAL: Final[dict[str, dict[str, str]]] = {
    "now-boarding": {},
    "now-boarding-v3": {"variant": "basic"},
    "overbooked": {"variant": "base", "events": "none", "solo": "not a solo game",
                   "players[].bonus_cards": "0; required in the advanced variant"},
    "planes": {},
    "flight-plan": {"routes[].cargo": "false", "routes[].hubs": "none",
                    "routes[].price": "not given", "routes[].revenue": "not given",
                    "routes[].use_fee": "not given"},
}
"""The fields a game's input may leave out, by path (``players[].x``: every player's ``x``),
each with what leaving it out means. Every other field of :data:`FORMATS` is required: a
missing one is refused (tests/games/test_score_formats.py removes each field of each example
and checks the scorer agrees with this table)."""


EXAMPLES: Final[dict[str, dict[str, Any]]] = {
    "now-boarding": {"players": 3, "complaints": 1, "undelivered": 3, "unserved_vips": 0},
    "now-boarding-v3": {
        "variant": "advanced", "lost": 4,
        "players": [{"name": "Ann", "passengers": [3, 2, 4, 1]},
                    {"name": "Bo", "total": 8},
                    {"name": "Cy", "passengers": [5, 2]}],
    },
    "overbooked": {
        "variant": "base", "events": [],
        "players": [
            {"name": "Ann", "seats": ["RRB|BYY", "WGB|BY.", "GGB|RRW", "GGG|Y.G"],
             "overbooked": 1, "vouchers": 3, "bonus_cards": 0},
            {"name": "Bo", "seats": ["RR.|BBG", "W.B|GGY", "YYB|.RR", "BBB|GGG"],
             "overbooked": 0, "vouchers": 5, "bonus_cards": 0},
        ],
    },
    "planes": {
        "players": [{"name": "Ann", "goals": [4, 2], "boarded": 3},
                    {"name": "Bo", "goals": [5, 3, 1], "boarded": 2}],
    },
    "flight-plan": {
        "routes": [
            {"number": 3, "from": "London", "to": "Paris", "regions": ["EU", "EU"],
             "cargo": False, "hubs": ["London"]},
            {"number": 41, "from": "London", "to": "New York", "regions": ["EU", "NA"],
             "cargo": False, "hubs": ["London", "New York"]},
            {"number": 77, "from": "New York", "to": "Sao Paulo", "regions": ["NA", "SA"],
             "cargo": True, "hubs": ["New York", "Sao Paulo"]},
        ],
        "players": [
            {"name": "Ann", "routes": [3, 41], "hubs": ["London", "New York", "Sao Paulo"],
             "fleets": ["short", "medium"], "deactivated": []},
            {"name": "Bo", "routes": [77], "hubs": [], "fleets": ["long", "cargo"],
             "deactivated": ["cargo"]},
        ],
    },
}


#: The option that marks a game kept from its final count (the ``score`` line, the table
#: page's Score tab) rather than played on the box: history reads its result, not a replay.
KEPT_FROM_SCORE: Final = ("entered", "score")


def kept_options(game: str, data: Any, result: Any) -> dict[str, str]:
    """The options history shows for a game scored from its final count: the marker, how
    many played and, where the input names one, the variant."""
    options = dict([KEPT_FROM_SCORE])
    count = result.get("player_count") if isinstance(result, dict) else None
    if count is None and isinstance(result, dict) and isinstance(result.get("players"), list):
        count = len(result["players"])
    if isinstance(count, int):
        options["players"] = str(count)
    variant = data.get("variant") if isinstance(data, dict) else None
    if isinstance(variant, str):
        options["variant"] = variant
    return options


def is_kept_from_score(options: Any) -> bool:
    """Whether a stored game's ``options`` mark it as scored, not played (see above)."""
    key, value = KEPT_FROM_SCORE
    return isinstance(options, dict) and options.get(key) == value


def example_text(game: str) -> str:
    """A game's example as JSON laid out for people: one key per line, one player (or route)
    per line, so it reads well in ``--help`` and copies into a file as it is."""
    example = EXAMPLES[game]
    lines = ["{"]
    for position, (key, value) in enumerate(example.items()):
        comma = "," if position < len(example) - 1 else ""
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            items = [f"    {json.dumps(item, ensure_ascii=False)}" for item in value]
            lines.append(f"  {json.dumps(key)}: [")
            lines.append(",\n".join(items))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines)


def _field_words(path: str) -> str:
    """``players[].bonus_cards`` as "a player's bonus_cards"; a top-level key as itself."""
    container, marker, field = path.partition("[].")
    return f"a {container.removesuffix('s')}'s {field}" if marker else path


def optional_text(game: str) -> str:
    """The line of ``--help`` that names what ``game``'s input may leave out."""
    fields = OPTIONAL[game]
    if not fields:
        return "every field is required."
    named = [f"{_field_words(path)} ({meaning})" for path, meaning in fields.items()]
    return f"optional, every other field required: {', '.join(named)}."


def help_text(game: str | None = None) -> str:
    """The input format of one game (or of every game) with its example, for ``--help``."""
    games = [game] if game in FORMATS else list(FORMATS)
    parts = [textwrap.fill("input: one JSON object (or a .toml file of the same shape). Unknown "
                           "keys are refused; every field is required unless listed as "
                           "optional.", 78)]
    for name in games:
        description = textwrap.fill(f"{name}: {FORMATS[name]}", 78, subsequent_indent="  ")
        optional = textwrap.fill(optional_text(name), 78, initial_indent="  ",
                                 subsequent_indent="  ")
        example = textwrap.indent(example_text(name), "  ")
        parts.append(f"{description}\n{optional}\n  example:\n{example}")
    parts.append("'companion score GAME --example' prints a valid file to start from.")
    return "\n\n".join(parts)
