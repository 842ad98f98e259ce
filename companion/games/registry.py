"""The games the box offers, and each game's facts, declared once.

:data:`GAMES` holds one :class:`GameFacts` per game, in menu order: its name, the label the
menu shows, its full title, its module (the game's package, its view module and its history
builder are all named after it), its view function, whether ``companion score`` scores it, its
BoardGameGeek id and whether BG Stats records it without points, and where the lists its
table-page form needs come from. Everything else reads them from here: the menu
(:func:`playable_games`), the scorers (:func:`scorers`), the views
(companion/ui/views ``view_for``), the history builders (companion/games/records.py), the
history API and BG Stats links, and the table page (``GET /api/games``).

The facts live here and not in each game's package because start-up must import no game
(tests/e2e/test_startup_imports.py): importing a package's ``__init__`` loads its whole rules.
Each game's rules load when it is first used (core/game.py's LazyGame), each scorer's module
when it first scores, each page list when the page first asks (issue #12).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

from companion.core.game import Game, LazyGame
from companion.games.timer import RoundTimer

if TYPE_CHECKING:
    from companion.games.flight_plan import RouteGuide

Scorer = Callable[[Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class GameFacts:
    """One game's facts (see the module docstring)."""

    name: str
    label: str
    """The menu's and the game's own title (the box's 128 px panel shows it)."""
    title: str
    """The full title: the history, BG Stats and the table page show it."""
    module: str
    """``companion.games.<module>`` is the game, ``companion.ui.views.<module>`` its view,
    ``companion.games.records.<module>`` its history builder."""
    view: str
    """The view function in its view module."""
    scored: bool = True
    """``companion score <name>`` scores it (its package's ``score``)."""
    bgg_id: int | None = None
    """Its BoardGameGeek id, where the project can cite one (BG Stats matches by it)."""
    no_points: bool = False
    """Won together or by a condition: BG Stats records it without points."""
    page_lists: str | None = None
    """The module whose ``page_lists()`` gives the lists the table page's form needs."""


GAMES: Final[tuple[GameFacts, ...]] = (
    GameFacts("now-boarding", "Now Boarding", "Now Boarding", "now_boarding",
              "now_boarding_screen", bgg_id=231567, no_points=True),
    GameFacts("now-boarding-v3", "Now Boarding v3", "Now Boarding (2015 prototype v3)",
              "now_boarding_v3", "now_boarding_v3_screen"),
    GameFacts("planes", "Planes", "Planes", "planes", "planes_screen"),
    GameFacts("overbooked", "Overbooked score", "Overbooked", "overbooked",
              "overbooked_screen", page_lists="companion.games.overbooked.page"),
    GameFacts("flight-plan", "Flight Plan bank", "Flight Plan", "flight_plan",
              "flight_plan_screen", no_points=True),
    GameFacts("timer", "Round timer", "Round timer", "timer", "timer_screen", scored=False),
)
"""Every game, in menu order."""

FACTS: Final[Mapping[str, GameFacts]] = {facts.name: facts for facts in GAMES}
"""The facts by game name."""


def facts_of(name: str) -> GameFacts | None:
    """The facts of the game called ``name`` (None for a name no game has)."""
    return FACTS.get(name)


def page_facts() -> dict[str, Any]:
    """What the table page knows of the games (``GET /api/games``): each game's name, label
    and title, whether it is scored, and the lists its form needs (loaded now)."""
    return {"games": [{"name": facts.name, "label": facts.label, "title": facts.title,
                       "scored": facts.scored,
                       "lists": ({} if facts.page_lists is None
                                 else import_module(facts.page_lists).page_lists())}
                      for facts in GAMES]}


def playable_games(flight_plan_guide: RouteGuide | None = None) -> list[Game[Any]]:
    """Every game the box can run, in menu order. ``flight_plan_guide`` is the owner's
    route guide (read from the file named in the config), offered beside the example."""
    loaders: dict[str, Callable[[], Game[Any]]] = {
        "now-boarding": _now_boarding, "now-boarding-v3": _now_boarding_v3,
        "planes": _planes, "overbooked": _overbooked,
        "flight-plan": partial(_flight_plan, flight_plan_guide)}
    return [RoundTimer() if facts.name == "timer"   # one small module: nothing to defer
            else LazyGame(facts.name, facts.label, loaders[facts.name]) for facts in GAMES]


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


SCORER_PACKAGES: Final[Mapping[str, str]] = {
    facts.name: facts.module for facts in sorted(GAMES, key=lambda facts: facts.name)
    if facts.scored}
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
