"""Flight Plan's win check and the ``flight-plan`` scorer (CONTRACT.md section 4).

Rules enforced (rulebook "How to Win", as read by rules/CLARIFICATIONS.md):

- Nothing may be deactivated: a player with any deactivated route, hub or fleet meets no
  condition (``missing`` then says what to reactivate).
- ``six-regions``: the player's own routes, cargo routes included, contain ONE connected network
  (routes joined through shared cities) touching all six regions. A route touches the regions of
  both its cities (it belongs to its departure city's region; a route between two regions counts
  for both), so regions may be joined through a single city. Routes outside that network do not
  spoil it, but two separate networks never add up.
- ``three-hubs``: the player's hubs stand in at least three different regions (a hub's region is
  its city's region in the guide).
- ``short-haul``: the player owns every short-haul route (1-30) of at least two regions. The
  short-haul routes of a region are those of the guide with that region at either end; a region
  without short-haul routes in the guide cannot count. The check is as complete as the guide.

Score input checks (each a ScoreInputError naming the player and field): every player gives
``routes``, ``hubs``, ``fleets`` and ``deactivated`` (a list, empty if need be: a missing
``deactivated`` read as none could turn a loss into a win); unknown keys are refused, naming
the nearest known key; route numbers must be
in the guide and owned by one player only; hubs must be cities of the guide, hub cities when the
guide marks any, and held by one player only; fleets are short, medium, long, ultra-long, cargo,
each once; ``deactivated`` names route numbers, hub cities or fleet names the player owns.

Output per player: ``total`` = conditions met, ``breakdown`` 0/1 per condition, ``conditions``
true/false, ``missing`` (unmet conditions only) in words. ``ranking`` by conditions met;
``winners`` are every player meeting at least one condition (input order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from companion.games.flight_plan.data import FLEETS, REGIONS, RouteGuide
from companion.games.flight_plan.guide import guide_from_routes, parse_guide
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
)

GAME: Final = "flight-plan"
INPUT_KEYS: Final = ("routes", "players")
PLAYER_KEYS: Final = ("name", "routes", "hubs", "fleets", "deactivated")
CONDITIONS: Final = ("six-regions", "three-hubs", "short-haul")
HUB_REGIONS_NEEDED: Final = 3
SHORT_HAUL_REGIONS_NEEDED: Final = 2


@dataclass(frozen=True)
class WinCheck:
    """Which conditions a player meets, and for the unmet ones what is still needed."""

    conditions: Mapping[str, bool]
    missing: Mapping[str, str]

    @property
    def won(self) -> bool:
        return any(self.conditions.values())

    @property
    def met(self) -> int:
        return sum(self.conditions.values())


Network = tuple[frozenset[int], frozenset[str]]


def networks(guide: RouteGuide, routes: Iterable[int]) -> list[Network]:
    """The player's separate networks: (route numbers, regions touched), largest reach first."""
    parent: dict[str, str] = {}

    def find(city: str) -> str:
        parent.setdefault(city, city)
        while parent[city] != city:
            parent[city] = parent[parent[city]]
            city = parent[city]
        return city

    owned = [guide.by_number[number] for number in sorted(set(routes))]
    for route in owned:
        parent[find(route.origin)] = find(route.destination)
    groups: dict[str, tuple[set[int], set[str]]] = {}
    for route in owned:
        numbers, regions = groups.setdefault(find(route.origin), (set(), set()))
        numbers.add(route.number)
        regions.update(route.regions)
    result = [(frozenset(numbers), frozenset(regions)) for numbers, regions in groups.values()]
    result.sort(key=lambda group: (-len(group[1]), -len(group[0]), min(group[0])))
    return result


def _region_list(regions: Iterable[str]) -> str:
    chosen = set(regions)
    return ", ".join(region for region in REGIONS if region in chosen)


def _six_regions(guide: RouteGuide, routes: frozenset[int]) -> str | None:
    """None when met, else what is missing."""
    found = networks(guide, routes)
    if not found:
        return f"no routes yet; needs {_region_list(REGIONS)}"
    best = found[0][1]
    if len(best) == len(REGIONS):
        return None
    text = f"needs {_region_list(set(REGIONS) - best)}"
    if len(found) > 1:
        text += (
            f" (best of {len(found)} separate networks touches {len(best)} of 6 regions; "
            "separate networks do not add up)"
        )
    return text


def _three_hubs(guide: RouteGuide, hubs: frozenset[str]) -> str | None:
    regions = {guide.city_regions[city] for city in hubs}
    if len(regions) >= HUB_REGIONS_NEEDED:
        return None
    return f"hubs in {len(regions)} of {HUB_REGIONS_NEEDED} regions"


def _short_haul(guide: RouteGuide, routes: frozenset[int]) -> str | None:
    per_region = {
        region: numbers for region, numbers in guide.short_haul_by_region().items() if numbers
    }
    if len(per_region) < SHORT_HAUL_REGIONS_NEEDED:
        return f"the guide has short-haul routes in only {len(per_region)} region(s)"
    progress = sorted(
        (len(numbers - routes), -len(numbers), REGIONS.index(region), region, numbers)
        for region, numbers in per_region.items()
    )
    if sum(1 for entry in progress if entry[0] == 0) >= SHORT_HAUL_REGIONS_NEEDED:
        return None
    parts = []
    for lacking, _total, _order, region, numbers in progress[:SHORT_HAUL_REGIONS_NEEDED]:
        part = f"{region} {len(numbers) - lacking} of {len(numbers)}"
        if lacking:
            part += f" (needs {', '.join(str(n) for n in sorted(numbers - routes))})"
        parts.append(part)
    return "short haul " + ", ".join(parts)


def check_win(
    guide: RouteGuide,
    routes: Iterable[int],
    hubs: Iterable[str],
    deactivated: Iterable[str] = (),
) -> WinCheck:
    """The three win conditions for one player.

    ``routes`` must be numbers of the guide and ``hubs`` cities of the guide; ``deactivated``
    holds labels of deactivated assets (e.g. ``"route 12"``), any of which blocks every win.
    """
    owned = frozenset(routes)
    hub_set = frozenset(hubs)
    blocked = list(deactivated)
    raw = {
        "six-regions": _six_regions(guide, owned),
        "three-hubs": _three_hubs(guide, hub_set),
        "short-haul": _short_haul(guide, owned),
    }
    conditions: dict[str, bool] = {}
    missing: dict[str, str] = {}
    for name in CONDITIONS:
        need = raw[name]
        conditions[name] = need is None and not blocked
        if blocked:
            reactivate = f"nothing may be deactivated: reactivate {', '.join(blocked)}"
            missing[name] = reactivate if need is None else f"{need}; and {reactivate}"
        elif need is not None:
            missing[name] = need
    return WinCheck(conditions=conditions, missing=missing)


# --- the scorer ---------------------------------------------------------------------------------


def load_guide(routes: object, read_guide: Callable[[str], str] | None) -> RouteGuide:
    """The guide of a score input: an inline list of routes, or a path read by ``read_guide``."""
    if isinstance(routes, str):
        if read_guide is None:
            raise ScoreInputError(
                f"routes: a guide path ({routes!r}) is not accepted here; give the routes inline"
            )
        return parse_guide(read_guide(routes), routes)
    if isinstance(routes, list):
        return guide_from_routes(routes, "routes")
    raise ScoreInputError(
        f"routes: expected a route guide path or a list of routes, got {type(routes).__name__}"
    )


def _unique(values: list[Any], where: str) -> None:
    seen: list[Any] = []
    for value in values:
        if value in seen:
            raise ScoreInputError(f"{where}: {value!r} appears twice")
        seen.append(value)


def score(
    data: Mapping[str, Any], read_guide: Callable[[str], str] | None = None
) -> dict[str, Any]:
    """Score a Flight Plan position: who meets which win condition (CONTRACT.md section 4)."""
    if not isinstance(data, Mapping):
        raise ScoreInputError(f"input: expected a JSON object, got {type(data).__name__}")
    refuse_unknown_keys(data, INPUT_KEYS, "input")
    if "routes" not in data:
        raise ScoreInputError("input: missing field 'routes' (a route guide path or list)")
    guide = load_guide(data["routes"], read_guide)
    players = players_of(data, keys=PLAYER_KEYS)
    route_owner: dict[int, str] = {}
    hub_owner: dict[str, str] = {}
    results: list[JsonObject] = []
    for index, player in enumerate(players):
        label = player_label(player, index)
        routes = [
            require_int(value, f"{label}: routes[{i}]", minimum=1)
            for i, value in enumerate(
                require_list(require_field(player, "routes", label), f"{label}: routes"))
        ]
        _unique(routes, f"{label}: routes")
        for number in routes:
            if guide.route(number) is None:
                raise ScoreInputError(f"{label}: routes: route {number} is not in the guide")
            if number in route_owner:
                raise ScoreInputError(
                    f"{label}: routes: route {number} is also owned by {route_owner[number]!r}"
                )
            route_owner[number] = str(player["name"])
        hubs = require_list(require_field(player, "hubs", label), f"{label}: hubs")
        _unique(hubs, f"{label}: hubs")
        for i, city in enumerate(hubs):
            if not isinstance(city, str) or city not in guide.city_regions:
                raise ScoreInputError(f"{label}: hubs[{i}]: {city!r} is not a city of the guide")
            if guide.hub_cities and city not in guide.hub_cities:
                raise ScoreInputError(f"{label}: hubs[{i}]: {city!r} is not a hub city")
            if city in hub_owner:
                raise ScoreInputError(
                    f"{label}: hubs[{i}]: {city!r} is also a hub of {hub_owner[city]!r}"
                )
            hub_owner[city] = str(player["name"])
        fleets = require_list(require_field(player, "fleets", label), f"{label}: fleets")
        for i, fleet in enumerate(fleets):
            if fleet not in FLEETS:
                raise ScoreInputError(
                    f"{label}: fleets[{i}]: unknown fleet {fleet!r} (expected one of "
                    f"{', '.join(FLEETS)})"
                )
        _unique(fleets, f"{label}: fleets")
        deactivated = require_list(require_field(player, "deactivated", label),
                                   f"{label}: deactivated")
        labels: list[str] = []
        for i, asset in enumerate(deactivated):
            if isinstance(asset, int) and not isinstance(asset, bool) and asset in routes:
                labels.append(f"route {asset}")
            elif isinstance(asset, str) and asset in hubs:
                labels.append(f"hub {asset}")
            elif isinstance(asset, str) and asset in fleets:
                labels.append(f"fleet {asset}")
            else:
                raise ScoreInputError(
                    f"{label}: deactivated[{i}]: {asset!r} is none of the player's routes, "
                    "hubs or fleets"
                )
        _unique(labels, f"{label}: deactivated")
        check = check_win(guide, routes, hubs, labels)
        results.append(
            {
                "name": player["name"],
                "total": check.met,
                "breakdown": {name: int(met) for name, met in check.conditions.items()},
                "conditions": dict(check.conditions),
                "missing": dict(check.missing),
            }
        )
    return {
        "game": GAME,
        "players": results,
        "ranking": rank(results, lambda p: str(p["name"]), lambda p: p["total"]),
        "winners": [p["name"] for p in results if p["total"] > 0],
    }
