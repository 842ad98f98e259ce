"""Now Boarding's printed numbers, as data (rules/now-boarding.txt and rules/FACTS.md).

Everything the state machine needs to know about the box lives here: the Preflight chart
columns, the timer presets, the two board sides and their routes, the nine VIP cards, the
upgrade prices and the tile supply. Nothing here changes during a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

GAME: Final = "now-boarding"
TITLE: Final = "Now Boarding"

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5

#: The three stages, in play order.
STAGES: Final = ("morning", "afternoon", "evening")
STAGE_TITLES: Final[Mapping[str, str]] = MappingProxyType(
    {"morning": "Morning", "afternoon": "Afternoon", "evening": "Evening"})

#: Complaints that put the airline out of business.
COMPLAINT_LIMIT: Final = 3


@dataclass(frozen=True)
class Preflight:
    """One player-count column of the Preflight chart: (morning, afternoon, evening)."""

    in_pile: tuple[int, int, int]
    weather: tuple[int, int, int]
    draw: tuple[int, int, int]


PREFLIGHT: Final[Mapping[int, Preflight]] = MappingProxyType({
    2: Preflight(in_pile=(3, 10, 27), weather=(2, 2, 2), draw=(1, 2, 3)),
    3: Preflight(in_pile=(6, 15, 32), weather=(4, 4, 4), draw=(2, 3, 4)),
    4: Preflight(in_pile=(12, 20, 35), weather=(6, 6, 6), draw=(3, 4, 5)),
    5: Preflight(in_pile=(12, 30, 24), weather=(6, 6, 6), draw=(4, 5, 6)),
})

#: Airports whose passenger cards leave the game (to or from), by player count.
REMOVED_AIRPORTS: Final[Mapping[int, tuple[str, ...]]] = MappingProxyType(
    {2: ("JFK", "SEA"), 3: ("SEA",), 4: (), 5: ()})

ALL_AIRPORTS: Final = ("ATL", "DEN", "DFW", "JFK", "LAX", "MIA", "ORD", "SEA", "SFO")
SMALL_SIDE_AIRPORTS: Final = ("ATL", "DEN", "DFW", "JFK", "LAX", "MIA", "ORD", "SFO")


def passenger_cards(players: int) -> int:
    """Regular passenger cards in play: every ordered pair of the airports kept."""
    kept = len(ALL_AIRPORTS) - len(REMOVED_AIRPORTS[players])
    return kept * (kept - 1)


def cards_back_in_box(players: int) -> int:
    """Cards left over after the starting passengers and the three stage decks are dealt."""
    return passenger_cards(players) - players - sum(PREFLIGHT[players].in_pile)


def stage_rounds(players: int) -> tuple[int, int, int]:
    """Rounds each stage lasts: a deck empties after in_pile / draw draws (CLARIFICATIONS.md)."""
    chart = PREFLIGHT[players]
    morning, afternoon, evening = (-(-pile // draw) for pile, draw
                                   in zip(chart.in_pile, chart.draw, strict=True))
    return morning, afternoon, evening


def total_flights(players: int) -> int:
    """Flight phases in a whole game: every stage's rounds plus the final round."""
    return sum(stage_rounds(players)) + 1


# -- timer ------------------------------------------------------------------------------------

TIMER_PRESETS: Final = ("official", "relaxed", "doubled", "off")
MIN_TIMER_SECONDS: Final = 5
MAX_TIMER_SECONDS: Final = 600


def timer_seconds(preset: str, players: int) -> int | None:
    """The flight timer's duration for a preset (or a number of seconds); ``None`` for off.

    official: the retail sand timers, 15 s with 2-3 players and 30 s with 4-5;
    relaxed: 5 x players + 20; doubled: 2 x relaxed; off: no limit.
    """
    if preset == "off":
        return None
    if preset == "official":
        return 15 if players <= 3 else 30
    relaxed = 5 * players + 20
    if preset == "relaxed":
        return relaxed
    if preset == "doubled":
        return 2 * relaxed
    seconds = int(preset)
    if not MIN_TIMER_SECONDS <= seconds <= MAX_TIMER_SECONDS:
        raise ValueError(f"timer: {MIN_TIMER_SECONDS}..{MAX_TIMER_SECONDS} seconds, got {seconds}")
    return seconds


# -- the board ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """A route between two airports: ``spaces`` dots, ``owner`` the colour (None = white)."""

    a: str
    b: str
    spaces: int
    owner: str | None = None

    @property
    def name(self) -> str:
        return f"{self.a}-{self.b}"


BOTH_SIDES_ROUTES: Final = (
    Route("ATL", "DEN", 3), Route("ATL", "DFW", 2, "ATL"), Route("ATL", "JFK", 2),
    Route("MIA", "ATL", 1), Route("ATL", "ORD", 2, "ATL"), Route("DEN", "DFW", 2, "DFW"),
    Route("DEN", "LAX", 2, "LAX"), Route("ORD", "DEN", 2, "ORD"), Route("SFO", "DEN", 2),
    Route("DFW", "LAX", 3), Route("DFW", "MIA", 2, "DFW"), Route("JFK", "ORD", 2),
    Route("LAX", "MIA", 4, "LAX"), Route("LAX", "SFO", 1),
)
LARGE_SIDE_ONLY_ROUTES: Final = (
    Route("DEN", "SEA", 2, "SEA"), Route("JFK", "SEA", 4, "SEA"), Route("SEA", "ORD", 3, "ORD"),
    Route("SEA", "SFO", 2),
)
SMALL_SIDE_ONLY_ROUTES: Final = (Route("SFO", "ORD", 3, "ORD"),)


def board_side(players: int) -> str:
    """The board side in play: "2-3" or "4-5"."""
    return "2-3" if players <= 3 else "4-5"


def routes(players: int) -> tuple[Route, ...]:
    """The routes of the board side in play."""
    if players <= 3:
        return BOTH_SIDES_ROUTES + SMALL_SIDE_ONLY_ROUTES
    return BOTH_SIDES_ROUTES + LARGE_SIDE_ONLY_ROUTES


WEATHER_TOKENS: Final = ("storm", "tailwind")


def weather_token(index: int) -> str:
    """The token for the ``index``-th (0-based) weather card of a stage: storm first."""
    return WEATHER_TOKENS[index % 2]


# -- VIP cards ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class VipCard:
    """A VIP card: its name, what it does (short, for the screen) and its stage."""

    name: str
    effect: str
    stage: str


VIP_CARDS: Final = (
    VipCard("Crying Baby", "others there gain 2 anger", "morning"),
    VipCard("Crying Baby", "others there gain 2 anger", "afternoon"),
    VipCard("Impatient", "its anger never resets", "morning"),
    VipCard("Nervous", "no storms or tailwinds", "morning"),
    VipCard("Captured Fugitive", "takes 2 seats", "afternoon"),
    VipCard("First In Line", "boards first at airport", "afternoon"),
    VipCard("Celebrity", "must fly alone", "evening"),
    VipCard("Direct Flight", "off only at destination", "evening"),
    VipCard("Grumpy", "starts with 1 anger", "evening"),
)
VIP_BY_NAME: Final[Mapping[str, VipCard]] = MappingProxyType(
    {card.name: card for card in VIP_CARDS})


def vip_count(players: int) -> int:
    """VIP cards a game uses: players + 2 (4, 5, 6, 7)."""
    return players + 2


# -- planes and upgrades -----------------------------------------------------------------------

START_SEATS: Final = 1
START_SPEED: Final = 3
MAX_SEATS: Final = 5
MAX_SPEED: Final = 9

#: Price of the n-th seat / speed (the plane's count after buying).
SEAT_PRICES: Final[Mapping[int, int]] = MappingProxyType({2: 5, 3: 9, 4: 13, 5: 17})
SPEED_PRICES: Final[Mapping[int, int]] = MappingProxyType(
    {4: 5, 5: 7, 6: 9, 7: 11, 8: 13, 9: 15})
ROUTE_PRICE: Final = 7
TEMP_PRICES: Final[Mapping[str, int]] = MappingProxyType({"temp-seat": 2, "temp-speed": 1})

#: The tiles in the box: permanent upgrades, and the temporary tokens (one of each).
SUPPLY: Final[Mapping[str, int]] = MappingProxyType({"seat": 18, "speed": 15, "route": 10})

#: The items of the upgrade step, in the order the screen lists them for each player.
UPGRADE_ITEMS: Final = ("seat", "speed", "route", "temp-seat", "temp-speed")


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
