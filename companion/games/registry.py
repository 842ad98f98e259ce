"""The games the box offers in its menu, and the scorers ``companion score`` knows.

One line per game here; the menu lists games in this order. Each game's rules load when it
is first used (core/game.py's LazyGame), and each scorer's module when it first scores, so
start-up imports none of them (on a Pi Zero each game package costs a noticeable part of a
second; issue #12).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial
from importlib import import_module
from typing import TYPE_CHECKING, Any

from companion.core.game import Game, LazyGame
from companion.games.timer import RoundTimer

if TYPE_CHECKING:
    from companion.games.flight_plan import RouteGuide

Scorer = Callable[[Mapping[str, Any]], dict[str, Any]]


def playable_games(flight_plan_guide: RouteGuide | None = None) -> list[Game[Any]]:
    """Every game the box can run, in menu order. ``flight_plan_guide`` is the owner's
    route guide (read from the file named in the config), offered beside the example."""
    return [
        LazyGame("now-boarding", "Now Boarding", _now_boarding),
        LazyGame("now-boarding-v3", "Now Boarding v3", _now_boarding_v3),
        LazyGame("planes", "Planes", _planes),
        LazyGame("overbooked", "Overbooked score", _overbooked),
        LazyGame("flight-plan", "Flight Plan bank", partial(_flight_plan, flight_plan_guide)),
        RoundTimer(),
    ]


def _now_boarding() -> Game[Any]:
    from companion.games.now_boarding import NowBoarding

    return NowBoarding()


def _now_boarding_v3() -> Game[Any]:
    from companion.games.now_boarding_v3 import NowBoardingV3Game

    return NowBoardingV3Game()


def _planes() -> Game[Any]:
    from companion.games.planes import PlanesGame

    return PlanesGame()


def _overbooked() -> Game[Any]:
    from companion.games.overbooked import OverbookedEntry

    return OverbookedEntry()


def _flight_plan(guide: RouteGuide | None) -> Game[Any]:
    from companion.games.flight_plan import FlightPlanBanker

    return FlightPlanBanker(guide)


def scorers(read_guide: Callable[[str], str] | None = None) -> Mapping[str, Scorer]:
    """``companion score`` and the protocol's ``score``: game name -> scorer.

    ``read_guide`` reads a Flight Plan route guide named by path in the score input; the
    command line passes one (paths relative to the score file), the line protocol does not,
    so over the serial line a guide must be given inline. A game's scorer module is imported
    when its scorer is first looked up, not when the table is built.
    """
    return LazyScorers(read_guide)


SCORER_PACKAGES = {
    "flight-plan": "flight_plan",
    "now-boarding": "now_boarding",
    "now-boarding-v3": "now_boarding_v3",
    "overbooked": "overbooked",
    "planes": "planes",
}
"""Each game with a ``companion score`` scorer: its package's ``score``."""


class LazyScorers(Mapping[str, Scorer]):
    """The scorers by game name; each game's package is imported on first lookup."""

    def __init__(self, read_guide: Callable[[str], str] | None) -> None:
        self._read_guide = read_guide
        self._loaded: dict[str, Scorer] = {}

    def __getitem__(self, name: str) -> Scorer:
        if name not in self._loaded:
            package = SCORER_PACKAGES[name]  # KeyError for a game without a scorer
            score = import_module(f"companion.games.{package}").score
            self._loaded[name] = (partial(score, read_guide=self._read_guide)
                                  if name == "flight-plan" else score)
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(SCORER_PACKAGES)

    def __len__(self) -> int:
        return len(SCORER_PACKAGES)
