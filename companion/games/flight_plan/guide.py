"""Flight Plan's route guide: the data format the owner types in, its parser and its validator.

The printed route guide and route cards are not public (rules/FACTS.md), so the companion ships
this format, a validator and a small made-up example (``example_guide.toml``), never the
publisher's data. :func:`parse_guide` takes the file's TEXT (this package never opens files);
``source`` names the file in error messages and picks the format by its suffix: a name ending in
``.csv`` (any case) is read as CSV, anything else as TOML.

TOML format (every key shown; only ``routes`` is required)::

    title = "My copy of Flight Plan"    # optional, free text

    [bank]                       # optional; the defaults are the rulebook's
    start_cash_2_players = 1000  # $M each with 2 players (rulebook: $1 billion)
    start_cash_3_to_6_players = 750   # $M each with 3 to 6 players (rulebook: $750 million)
    hub_price = 250              # $M to develop a hub (rulebook: $250M)
    cargo_revenue = 20           # $M per owned cargo route per turn with a cargo fleet (rulebook)
    hub_use_fee = 10             # $M per route per hub; NOT in the rulebook: omit if unknown

    [fleets]                     # optional; prices from the player card, each may be omitted
    short = 100                  # flies routes 1-30
    medium = 150                 # flies routes 31-62
    long = 200                   # flies routes 63-89
    ultra-long = 250             # flies routes 90-100
    cargo = 120                  # earns cargo revenue on cargo routes

    [[routes]]                   # one table per route card
    number = 12                  # 1..100, each number at most once
    from = "London"              # departure city (the first city on the card)
    to = "Paris"                 # arrival city
    regions = ["EU", "EU"]       # region of `from`, region of `to`: NA SA EU AF AP ME
    hubs = ["London"]            # optional: the hub cities, marked (H) on the card, among the ends
    cargo = false                # optional (default false): the card shows (C)
    price = 40                   # optional: purchase price in $M
    revenue = 10                 # optional: revenue per turn in $M with the matching fleet
    use_fee = 5                  # optional: route use fee in $M paid by other players flying it

The inline guide of the score input (CONTRACT.md section 4) is the same list of route objects,
parsed by :func:`guide_from_routes`.

CSV format (routes only; bank values take the rulebook defaults and fleet prices are then given
to the banker as arguments): one header row naming the columns, then one row per route. Required
columns ``number, from, from_region, to, to_region``; optional ``from_hub, to_hub, cargo, price,
revenue, use_fee``. An empty cell means "not given" (false for flags). Flags accept yes/no,
true/false, y/n, 1/0, x, and ``H`` (hub columns) or ``C`` (cargo). Lines starting with ``#`` and
blank lines are skipped. Example::

    number,from,from_region,to,to_region,from_hub,to_hub,cargo,price,revenue
    12,London,EU,Paris,EU,H,,no,40,10

Rules enforced (each error is a :class:`~companion.games.scoring.ScoreInputError` whose message
names the source, the line (TOML ``[[routes]]`` header or CSV row) or list index, the route
number and the field):

- ``number`` is a whole number 1..100 and no number appears twice; at least one route.
- ``from`` and ``to`` are non-empty text and differ.
- ``regions`` is a list of exactly two of NA SA EU AF AP ME.
- One city, one region: a city given two different regions on two routes is refused.
- ``hubs`` lists only the route's own two ends, each once. A city is a hub city when any route
  marks it; two routes that both state ``hubs`` may not disagree about a city they share (a route
  that omits ``hubs`` says nothing either way).
- ``cargo`` is true/false; ``price``, ``revenue``, ``use_fee`` and every bank and fleet value
  are whole numbers >= 0 ($M).
- Unknown keys or columns are refused (typos would otherwise be silently ignored).
- TOML is decoded within the bounds of companion/bounded.py (nesting depth, number
  size, text size), CSV within its text size; a CSV cell of more digits than any number the
  guide needs is refused as not a number; csv's own errors name the line.

Route classes by number (rules/FACTS.md): 1-30 short haul, 31-62 medium, 63-89 long, 90-100
ultra long; each class is flown by the fleet of the same name.

Pure: standard library only. The records this builds (:class:`Route`, :class:`RouteGuide`, ...)
and the shipped example are :mod:`.data`'s.
"""

from __future__ import annotations

import csv
import difflib
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from companion.bounded import MAX_DIGITS, BoundedInputError, check_size, loads_toml
from companion.games.flight_plan.data import (
    EXAMPLE_GUIDE,
    FIRST_ROUTE,
    FLEETS,
    HAUL_RANGES,
    HAULS,
    LAST_ROUTE,
    REGION_NAMES,
    REGIONS,
    BankRules,
    FleetPrices,
    Route,
    RouteGuide,
    example_guide_text,
    haul_of,
)
from companion.games.scoring import ScoreInputError, require_int, shown

# The records and tables moved to data.py; the names this module always offered stay importable
# from here, since the guide's readers hand those records out.
__all__ = [
    "EXAMPLE_GUIDE",
    "FIRST_ROUTE",
    "FLEETS",
    "HAULS",
    "HAUL_RANGES",
    "LAST_ROUTE",
    "REGIONS",
    "REGION_NAMES",
    "BankRules",
    "FleetPrices",
    "Route",
    "RouteGuide",
    "example_guide_text",
    "guide_from_routes",
    "haul_of",
    "parse_guide",
]

_ROUTE_KEYS: Final = (
    "number", "from", "to", "regions", "hubs", "cargo", "price", "revenue", "use_fee",
)
_TOP_KEYS: Final = ("title", "bank", "fleets", "routes")
_CSV_REQUIRED: Final = ("number", "from", "from_region", "to", "to_region")
_CSV_OPTIONAL: Final = ("from_hub", "to_hub", "cargo", "price", "revenue", "use_fee")
_TRUE: Final = frozenset({"yes", "y", "true", "1", "x", "h", "c"})
_FALSE: Final = frozenset({"", "no", "n", "false", "0"})
_ROUTES_HEADER: Final = re.compile(r"^\s*\[\[\s*routes\s*\]\]")


def parse_guide(text: str, source: str) -> RouteGuide:
    """Parse and validate a route guide; CSV when ``source`` ends in ``.csv``, else TOML."""
    try:
        if source.lower().endswith(".csv"):
            check_size(text, source)
            return _parse_csv(text, source)
        return _parse_toml(text, source)
    except BoundedInputError as error:
        raise ScoreInputError(str(error)) from None


def guide_from_routes(routes: Sequence[Any], source: str = "routes") -> RouteGuide:
    """A guide from an inline list of route objects (the score input's ``routes`` list)."""
    if not isinstance(routes, list):
        raise ScoreInputError(f"{source}: expected a list of routes, got {type(routes).__name__}")
    located = [(raw, f"{source}[{index}]") for index, raw in enumerate(routes)]
    return RouteGuide(source=source, routes=_validate_routes(located, source))


# --- TOML ---------------------------------------------------------------------------------------


def _parse_toml(text: str, source: str) -> RouteGuide:
    document = loads_toml(text, source)
    _refuse_unknown(document, _TOP_KEYS, source)
    title = document.get("title", "")
    if not isinstance(title, str):
        raise ScoreInputError(f"{source}: title: expected text, got {title!r}")
    if "routes" not in document:
        raise ScoreInputError(f"{source}: no routes: add one [[routes]] table per route card")
    raw_routes = document["routes"]
    if not isinstance(raw_routes, list):
        raise ScoreInputError(
            f"{source}: routes: expected [[routes]] tables, got {type(raw_routes).__name__}"
        )
    lines = [n for n, line in enumerate(text.splitlines(), start=1) if _ROUTES_HEADER.match(line)]
    if len(lines) == len(raw_routes):
        located = [
            (raw, f"{source}, line {line}")
            for raw, line in zip(raw_routes, lines, strict=True)
        ]
    else:  # an inline array of tables: name the list index instead of a line
        located = [(raw, f"{source}, routes[{index}]") for index, raw in enumerate(raw_routes)]
    return RouteGuide(
        source=source,
        routes=_validate_routes(located, source),
        fleets=_fleets(document.get("fleets", {}), source),
        bank=_bank(document.get("bank", {}), source),
        title=title,
    )


def _fleets(raw: object, source: str) -> FleetPrices:
    table = _table(raw, f"{source}: [fleets]")
    _refuse_unknown(table, FLEETS, f"{source}: [fleets]")
    prices = {
        name.replace("-", "_"): require_int(value, f"{source}: [fleets] {name}")
        for name, value in table.items()
    }
    return FleetPrices(**prices)


def _bank(raw: object, source: str) -> BankRules:
    table = _table(raw, f"{source}: [bank]")
    keys = ("start_cash_2_players", "start_cash_3_to_6_players", "hub_price", "cargo_revenue",
            "hub_use_fee")
    _refuse_unknown(table, keys, f"{source}: [bank]")
    values = {name: require_int(value, f"{source}: [bank] {name}") for name, value in table.items()}
    return BankRules(**values)


def _table(raw: object, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise ScoreInputError(f"{where}: expected a table, got {raw!r}")
    return raw


def _refuse_unknown(table: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(str(key)[:64], allowed, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ScoreInputError(
                f"{where}: unknown key {shown(key)}{hint}; expected {', '.join(allowed)}"
            )


# --- CSV ----------------------------------------------------------------------------------------


def _parse_csv(text: str, source: str) -> RouteGuide:
    # Comment lines become blank lines so csv's line numbers still match the file's.
    lines = ["\n" if line.lstrip().startswith("#") else line for line in text.splitlines(True)]
    reader = csv.reader(lines)
    header: list[str] | None = None
    located: list[tuple[object, str]] = []
    for row in _csv_rows(reader, source):
        if not any(cell.strip() for cell in row):
            continue
        where = f"{source}, line {reader.line_num}"
        cells = [cell.strip() for cell in row]
        if header is None:
            header = [cell.lower() for cell in cells]
            _check_csv_header(header, where)
            continue
        if len(cells) != len(header):
            raise ScoreInputError(
                f"{where}: expected {len(header)} cells like the header, got {len(cells)}"
            )
        located.append((_csv_route(dict(zip(header, cells, strict=True)), where), where))
    if header is None:
        raise ScoreInputError(f"{source}: empty: expected a header row and one row per route")
    return RouteGuide(source=source, routes=_validate_routes(located, source))


def _check_csv_header(header: list[str], where: str) -> None:
    allowed = (*_CSV_REQUIRED, *_CSV_OPTIONAL)
    for column in header:
        if column not in allowed:
            raise ScoreInputError(
                f"{where}: unknown column {column!r}; expected {', '.join(allowed)}"
            )
        if header.count(column) > 1:
            raise ScoreInputError(f"{where}: column {column!r} appears twice")
    for column in _CSV_REQUIRED:
        if column not in header:
            raise ScoreInputError(f"{where}: missing column {column!r}")


def _csv_route(cells: dict[str, str], where: str) -> dict[str, Any]:
    """A CSV row as the route object the shared validator checks (cells converted first)."""
    route: dict[str, Any] = {
        "number": _csv_int(cells["number"]),
        "from": cells["from"],
        "to": cells["to"],
        "regions": [cells["from_region"], cells["to_region"]],
    }
    if "from_hub" in cells or "to_hub" in cells:
        route["hubs"] = [
            cells[end]
            for end, column in (("from", "from_hub"), ("to", "to_hub"))
            if _csv_flag(cells.get(column, ""), where, column)
        ]
    if "cargo" in cells:
        route["cargo"] = _csv_flag(cells["cargo"], where, "cargo")
    for column in ("price", "revenue", "use_fee"):
        if cells.get(column, ""):
            route[column] = _csv_int(cells[column])
    return route


def _csv_rows(reader: Any, source: str) -> Iterator[list[str]]:
    """The reader's rows; csv's own errors (a field past its size limit...) name the line."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise ScoreInputError(f"{source}, line {reader.line_num}: not valid CSV: "
                                  f"{error}") from None
        yield row


def _csv_int(cell: str) -> object:
    # More digits than any count or price has: leave it text for the validator to refuse,
    # before int() spends time on it (or refuses past 4300 digits with a bare ValueError).
    if sum(char.isdigit() for char in cell) > MAX_DIGITS:
        return cell
    try:
        return int(cell)
    except ValueError:
        return cell  # the shared validator names the bad value


def _csv_flag(cell: str, where: str, column: str) -> bool:
    value = cell.lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ScoreInputError(f"{where}: {column}: expected yes or no, got {cell!r}")


# --- shared route validation --------------------------------------------------------------------


def _validate_routes(located: Sequence[tuple[object, str]], source: str) -> tuple[Route, ...]:
    if not located:
        raise ScoreInputError(f"{source}: no routes: a guide needs at least one route")
    routes: list[Route] = []
    first_number: dict[int, str] = {}
    city_region: dict[str, tuple[str, str]] = {}
    hub_stated: dict[str, tuple[bool, str]] = {}
    for raw, place in located:
        route, where, stated = _route(raw, place)
        if route.number in first_number:
            raise ScoreInputError(
                f"{where}: number: route {route.number} appears twice "
                f"(first at {first_number[route.number]})"
            )
        first_number[route.number] = where
        for city, region in zip(route.cities, route.regions, strict=True):
            known = city_region.setdefault(city, (region, where))
            if known[0] != region:
                raise ScoreInputError(
                    f"{where}: regions: city {city!r} is in {region} here but in {known[0]} "
                    f"at {known[1]}"
                )
            if stated:
                is_hub = city in route.hubs
                seen = hub_stated.setdefault(city, (is_hub, where))
                if seen[0] != is_hub:
                    here, there = ("a hub", "not a hub") if is_hub else ("not a hub", "a hub")
                    raise ScoreInputError(
                        f"{where}: hubs: city {city!r} is {here} here but {there} at {seen[1]}"
                    )
        routes.append(route)
    return tuple(sorted(routes, key=lambda route: route.number))


def _route(raw: object, place: str) -> tuple[Route, str, bool]:
    """One route object checked; returns the route, its location text and whether it states hubs."""
    if not isinstance(raw, Mapping):
        raise ScoreInputError(f"{place}: expected a route object, got {type(raw).__name__}")
    _refuse_unknown(raw, _ROUTE_KEYS, place)
    if "number" not in raw:
        raise ScoreInputError(f"{place}: number: missing")
    number = require_int(raw["number"], f"{place}: number", minimum=FIRST_ROUTE)
    if number > LAST_ROUTE:
        raise ScoreInputError(f"{place}: number: must be at most {LAST_ROUTE}, got {number}")
    where = f"{place}, route {number}"
    origin = _city(raw, "from", where)
    destination = _city(raw, "to", where)
    if origin == destination:
        raise ScoreInputError(f"{where}: to: the route must end elsewhere than {origin!r}")
    regions = _regions(raw, where)
    stated = "hubs" in raw
    hubs = _hubs(raw.get("hubs", []), (origin, destination), where)
    cargo = raw.get("cargo", False)
    if not isinstance(cargo, bool):
        raise ScoreInputError(f"{where}: cargo: expected true or false, got {cargo!r}")
    money = {
        key: require_int(raw[key], f"{where}: {key}") if key in raw else None
        for key in ("price", "revenue", "use_fee")
    }
    route = Route(
        number=number,
        origin=origin,
        destination=destination,
        regions=regions,
        hubs=hubs,
        cargo=cargo,
        price=money["price"],
        revenue=money["revenue"],
        use_fee=money["use_fee"],
    )
    return route, where, stated


def _city(raw: Mapping[str, Any], key: str, where: str) -> str:
    if key not in raw:
        raise ScoreInputError(f"{where}: {key}: missing")
    value = raw[key]
    if not isinstance(value, str) or not value.strip():
        raise ScoreInputError(f"{where}: {key}: expected a city name, got {value!r}")
    return value.strip()


def _regions(raw: Mapping[str, Any], where: str) -> tuple[str, str]:
    if "regions" not in raw:
        raise ScoreInputError(f"{where}: regions: missing (the regions of from and to)")
    value = raw["regions"]
    if not isinstance(value, list) or len(value) != 2:
        raise ScoreInputError(
            f"{where}: regions: expected two regions (of from and to), got {value!r}"
        )
    for region in value:
        if region not in REGIONS:
            raise ScoreInputError(
                f"{where}: regions: unknown region {region!r} (expected one of "
                f"{', '.join(REGIONS)})"
            )
    return (value[0], value[1])


def _hubs(value: object, ends: tuple[str, str], where: str) -> frozenset[str]:
    if not isinstance(value, list):
        raise ScoreInputError(f"{where}: hubs: expected a list of cities, got {value!r}")
    hubs: set[str] = set()
    for city in value:
        if not isinstance(city, str) or city.strip() not in ends:
            raise ScoreInputError(
                f"{where}: hubs: {city!r} is not one of the route's ends "
                f"{ends[0]!r}, {ends[1]!r}"
            )
        if city.strip() in hubs:
            raise ScoreInputError(f"{where}: hubs: {city!r} appears twice")
        hubs.add(city.strip())
    return frozenset(hubs)
