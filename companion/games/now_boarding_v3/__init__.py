"""The Now Boarding v3.0 prototype (2015, cooperative, 3-6 players): the schedule board and scoring.

The modules (every game package has the same shape):

- :mod:`.data`: the printed numbers (players, variants, the schedule's days, rounds and steps,
  airports per day, purchases, the rating bands).
- :mod:`.score`: the schedule's rules (the Redeye, the draw, the Lost pile limit, the end of a
  day) and the ``now-boarding-v3`` scorer (:func:`score`).
- :mod:`.game`: the box game (:class:`NowBoardingV3Game`): the schedule board's button flow.

Everything public of ``data`` and ``score`` is re-exported here, so ``v3.STEPS`` and
``v3.score`` read the same as before the package.
"""

from companion.games.now_boarding_v3.data import (
    ADVANCED_DEPARTURE_SECONDS,
    AIRPORTS_BY_DAY,
    CITY_ADDED_BEFORE_DAY,
    COMMUTER_CAPACITY,
    DAYS,
    DEFAULT_VARIANT,
    GAME,
    JET_CAPACITY,
    JET_RANGE,
    LOST_PER_PLAYER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PASSENGERS_PER_PLAYER_COLOUR,
    PURCHASES,
    RATINGS,
    REDEYE_ROUND,
    ROUNDS_PER_DAY,
    STARTING_COMMUTERS,
    STARTING_JETS,
    STEPS,
    UPGRADED_JET_RANGE,
    VARIANTS,
    RoundStep,
    Step,
)
from companion.games.now_boarding_v3.game import NowBoardingV3Game
from companion.games.now_boarding_v3.score import (
    DayEndStep,
    airports_per_player,
    departure_seconds,
    end_of_day_steps,
    final_score,
    is_lost,
    is_redeye,
    lost_limit,
    passengers_to_draw,
    rating,
    score,
    supply_runs_short,
)
from companion.games.now_boarding_v3.state import V3State

__all__ = [
    "ADVANCED_DEPARTURE_SECONDS",
    "AIRPORTS_BY_DAY",
    "CITY_ADDED_BEFORE_DAY",
    "COMMUTER_CAPACITY",
    "DAYS",
    "DEFAULT_VARIANT",
    "GAME",
    "JET_CAPACITY",
    "JET_RANGE",
    "LOST_PER_PLAYER",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PASSENGERS_PER_PLAYER_COLOUR",
    "PURCHASES",
    "RATINGS",
    "REDEYE_ROUND",
    "ROUNDS_PER_DAY",
    "STARTING_COMMUTERS",
    "STARTING_JETS",
    "STEPS",
    "UPGRADED_JET_RANGE",
    "VARIANTS",
    "DayEndStep",
    "NowBoardingV3Game",
    "RoundStep",
    "Step",
    "V3State",
    "airports_per_player",
    "departure_seconds",
    "end_of_day_steps",
    "final_score",
    "is_lost",
    "is_redeye",
    "lost_limit",
    "passengers_to_draw",
    "rating",
    "score",
    "supply_runs_short",
]
