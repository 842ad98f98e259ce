"""The Now Boarding v3.0 prototype's numbers, as data (rules/now-boarding-v3-prototype.txt).

Player counts, variants, the schedule (days, rounds, the Redeye, a round's steps), airports per
day, the cities added, equipment, purchase prices and the rating bands. Nothing here changes
during a game.

:data:`Step` is the one owner of the box's step names (the ``step`` strings of the state JSON):
a closed ``Literal`` that the round's steps (:data:`STEPS`), the day's end
(``score.end_of_day_steps``) and the state (``state.V3State``) choose from, so no step name is
written anywhere as a free string and a ``match`` that misses one is a mypy error. It lives
here, the lowest module of the package, because the schedule's tables name steps too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

GAME: Final = "now-boarding-v3"

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 6

VARIANTS: Final = ("basic", "advanced")
DEFAULT_VARIANT: Final = "basic"

DAYS: Final = 3
ROUNDS_PER_DAY: Final = 6
#: The last round of each day: no passengers are drawn at its Departure.
REDEYE_ROUND: Final = 6

#: The Departure step's time limit in the advanced variant ("use 1:00 timer").
ADVANCED_DEPARTURE_SECONDS: Final = 60

#: Airports each player runs on each day: Hub A + City B, then City C, then City D.
AIRPORTS_BY_DAY: Final[Mapping[int, int]] = {1: 2, 2: 3, 3: 4}
#: The city board (and its passenger tiles) each player adds before the given day.
CITY_ADDED_BEFORE_DAY: Final[Mapping[int, str]] = {2: "C", 3: "D"}

PASSENGERS_PER_PLAYER_COLOUR: Final = 22
#: The Lost pile may hold this many passengers per player before the advanced game is lost.
LOST_PER_PLAYER: Final = 2

#: Starting equipment per player, and its capacities (passengers) and ranges (seats away).
STARTING_JETS: Final = 1
STARTING_COMMUTERS: Final = 1
JET_CAPACITY: Final = 2
JET_RANGE: Final = 1
UPGRADED_JET_RANGE: Final = 2
COMMUTER_CAPACITY: Final = 1

#: Purchase step prices in dollars (the prototype's "additional ideas" are not rules, so absent).
PURCHASES: Final[Mapping[str, int]] = {
    "voucher": 1,        # rotate 1 passenger 90 degrees counterclockwise
    "concession": 3,     # at an airport: each round 1 passenger there does not age
    "commuter": 4,       # one more Commuter
    "gate": 5,           # one more Gate at an airport
    "upgrade-jet": 6,    # flip a Jet: more range and capacity
    "new-jet": 7,        # a Jet on the Tarmac of one of your cities
    "city-to-hub": 8,    # a Gate and Runway at a city: Jets may now fly there
}

#: Rating bands of the final score: (lowest score, label), best last.
RATINGS: Final[tuple[tuple[int, str], ...]] = (
    (0, "Keep trying!"),
    (11, "Notable"),
    (19, "Great"),
    (25, "Epic"),
    (30, "Legendary"),
    (33, "Mythic"),
    (42, "PERFECT"),
)


#: Every step of a game on the box, in the order a game meets them: the setup checklist, a
#: round's steps, the Redeye's day's end (``score.end_of_day_steps``: ``game-over`` after day 3,
#: or when a Departure finds too few tiles), the score entry, the end.
Step = Literal["setup", "departure", "arrival", "purchase", "redeye-lost", "final-purchase",
               "shuffle-score-piles", "new-city", "game-over", "entry", "over"]


@dataclass(frozen=True)
class RoundStep:
    """One step of a round: ``timed`` says whether the advanced variant runs the timer."""

    key: Step
    title: str
    timed: bool
    tasks: tuple[str, ...]


#: The steps of every round, in order; all players move to the next step together.
STEPS: Final[tuple[RoundStep, ...]] = (
    RoundStep("departure", "Departure", True,
              ("Draw new passengers (none in the Redeye)", "Load and depart planes")),
    RoundStep("arrival", "Arrival", False,
              ("Receive and de-board planes", "Score or age passengers")),
    RoundStep("purchase", "Purchase", False,
              ("Spend scored passengers on infrastructure",)),
)
