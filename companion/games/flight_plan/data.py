"""Flight Plan's data: regions, route classes, fleets, and the route guide's records.

What a route guide holds once read: :class:`Route` (one route card), :class:`FleetPrices`,
:class:`BankRules` (the banker's numbers, the rulebook's by default) and :class:`RouteGuide`
(the validated whole). The guide's format, parser and validator are :mod:`.guide`, which builds
these records; the shipped made-up example is :func:`example_guide_text`.

Rules enforced here: route numbers run 1-100, in classes 1-30 short haul, 31-62 medium, 63-89
long, 90-100 ultra long (rules/FACTS.md), each flown by the fleet of the same name; the cargo
fleet is the fifth fleet type; start-up cash is for 2 to 6 players.

Pure: standard library only; the example file is package data read with importlib.resources.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from types import MappingProxyType
from typing import Final

#: The six regions, in the order the companion lists them.
REGIONS: Final = ("NA", "SA", "EU", "AF", "AP", "ME")
REGION_NAMES: Final = MappingProxyType(
    {
        "NA": "North America",
        "SA": "South America",
        "EU": "Europe",
        "AF": "Africa",
        "AP": "Asia-Pacific",
        "ME": "Middle East",
    }
)

#: Route classes ("hauls") and the route numbers of each (rules/FACTS.md).
HAULS: Final = ("short", "medium", "long", "ultra-long")
HAUL_RANGES: Final = MappingProxyType(
    {"short": (1, 30), "medium": (31, 62), "long": (63, 89), "ultra-long": (90, 100)}
)
#: Fleet types: one per haul plus the cargo fleet. A player owns at most one of each.
FLEETS: Final = (*HAULS, "cargo")

FIRST_ROUTE: Final = 1
LAST_ROUTE: Final = 100

EXAMPLE_GUIDE: Final = "example_guide.toml"


def haul_of(number: int) -> str:
    """The route class of a route number: ``short``, ``medium``, ``long`` or ``ultra-long``."""
    for haul, (low, high) in HAUL_RANGES.items():
        if low <= number <= high:
            return haul
    raise ValueError(f"route number must be {FIRST_ROUTE}..{LAST_ROUTE}, got {number}")


@dataclass(frozen=True)
class Route:
    """One route card. ``origin`` is the card's ``from`` (departure) city."""

    number: int
    origin: str
    destination: str
    regions: tuple[str, str]
    hubs: frozenset[str] = frozenset()
    cargo: bool = False
    price: int | None = None
    revenue: int | None = None
    use_fee: int | None = None

    @property
    def haul(self) -> str:
        return haul_of(self.number)

    @property
    def cities(self) -> tuple[str, str]:
        return (self.origin, self.destination)

    @property
    def region(self) -> str:
        """The route's own region: its departure city's."""
        return self.regions[0]

    def touches(self, city: str) -> bool:
        return city in (self.origin, self.destination)


@dataclass(frozen=True)
class FleetPrices:
    """Fleet prices in $M from the player card; ``None`` where the guide does not say."""

    short: int | None = None
    medium: int | None = None
    long: int | None = None
    ultra_long: int | None = None
    cargo: int | None = None

    def price(self, fleet: str) -> int | None:
        if fleet not in FLEETS:
            raise ValueError(f"unknown fleet {fleet!r} (expected one of {', '.join(FLEETS)})")
        value: int | None = getattr(self, fleet.replace("-", "_"))
        return value


@dataclass(frozen=True)
class BankRules:
    """The banker's numbers. Defaults are the rulebook's; ``hub_use_fee`` is not in it."""

    start_cash_2_players: int = 1000
    start_cash_3_to_6_players: int = 750
    hub_price: int = 250
    cargo_revenue: int = 20
    hub_use_fee: int | None = None

    def start_cash(self, players: int) -> int:
        if not 2 <= players <= 6:
            raise ValueError(f"Flight Plan is for 2 to 6 players, got {players}")
        return self.start_cash_2_players if players == 2 else self.start_cash_3_to_6_players


@dataclass(frozen=True)
class RouteGuide:
    """A validated route guide: routes sorted by number, fleet prices and the bank's numbers."""

    source: str
    routes: tuple[Route, ...]
    fleets: FleetPrices = field(default_factory=FleetPrices)
    bank: BankRules = field(default_factory=BankRules)
    title: str = ""

    @cached_property
    def by_number(self) -> Mapping[int, Route]:
        return MappingProxyType({route.number: route for route in self.routes})

    @cached_property
    def city_regions(self) -> Mapping[str, str]:
        """Every city of the guide and its region."""
        regions: dict[str, str] = {}
        for route in self.routes:
            for city, region in zip(route.cities, route.regions, strict=True):
                regions.setdefault(city, region)
        return MappingProxyType(regions)

    @cached_property
    def hub_cities(self) -> frozenset[str]:
        return frozenset(city for route in self.routes for city in route.hubs)

    def route(self, number: int) -> Route | None:
        return self.by_number.get(number)

    def short_haul_by_region(self) -> dict[str, frozenset[int]]:
        """Per region, the short-haul routes (1-30) that count for it (both ends' regions)."""
        result: dict[str, set[int]] = {region: set() for region in REGIONS}
        for route in self.routes:
            if route.haul == "short":
                for region in set(route.regions):
                    result[region].add(route.number)
        return {region: frozenset(numbers) for region, numbers in result.items()}


def example_guide_text() -> str:
    """The shipped example guide (made-up data, not the publisher's), as text."""
    return resources.files(__package__).joinpath(EXAMPLE_GUIDE).read_text(encoding="utf-8")
