"""The games the box offers in its menu, and the scorers ``companion score`` knows.

One line per game here; the menu lists games in this order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from companion.core.game import Game
from companion.games.flight_plan import FlightPlanBanker, RouteGuide
from companion.games.now_boarding import NowBoarding
from companion.games.now_boarding_v3_game import NowBoardingV3Game
from companion.games.overbooked import OverbookedEntry
from companion.games.planes_game import PlanesGame
from companion.games.timer import RoundTimer

Scorer = Callable[[Mapping[str, Any]], dict[str, Any]]


def playable_games(flight_plan_guide: RouteGuide | None = None) -> list[Game[Any]]:
    """Every game the box can run, in menu order. ``flight_plan_guide`` is the owner's
    route guide (read from the file named in the config), offered beside the example."""
    return [
        NowBoarding(),
        NowBoardingV3Game(),
        PlanesGame(),
        OverbookedEntry(),
        FlightPlanBanker(flight_plan_guide),
        RoundTimer(),
    ]


def scorers(read_guide: Callable[[str], str] | None = None) -> dict[str, Scorer]:
    """``companion score`` and the protocol's ``score``: game name -> scorer.

    ``read_guide`` reads a Flight Plan route guide named by path in the score input; the
    command line passes one (paths relative to the score file), the line protocol does not,
    so over the serial line a guide must be given inline.
    """
    from companion.games import flight_plan, now_boarding, now_boarding_v3, overbooked, planes

    return {
        "flight-plan": partial(flight_plan.score, read_guide=read_guide),
        "now-boarding": now_boarding.score,
        "now-boarding-v3": now_boarding_v3.score,
        "overbooked": overbooked.score,
        "planes": planes.score,
    }
