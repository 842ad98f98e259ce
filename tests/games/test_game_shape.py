"""Every game has the same shape (games/__init__.py), its view mirrors it, and start-up loads none.

- A game named ``a-b`` is the package ``companion.games.a_b``: its Game class is in ``game.py``,
  its ``companion score`` scorer is ``score.py``'s ``score``; ``timer`` is the one plain module.
- Its view is ``companion.ui.views.a_b`` (ui/views mirrors games).
- Building the menu's games and the screen code imports no game's rules and no game's view.
"""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from importlib import import_module
from importlib.util import find_spec

import pytest

from companion.core.game import LazyGame
from companion.games.registry import playable_games, scorers
from companion.ui.views import VIEW_MODULES, view_for

GAMES = tuple(game.name for game in playable_games())
PACKAGED = tuple(name for name in GAMES if name != "timer")


def _module(name: str) -> str:
    return name.replace("-", "_")


def test_the_menu_offers_the_five_games_and_the_timer() -> None:
    assert set(GAMES) == {"now-boarding", "now-boarding-v3", "planes", "overbooked",
                          "flight-plan", "timer"}


@pytest.mark.parametrize("name", PACKAGED)
def test_a_game_is_a_package_with_its_game_and_its_score(name: str) -> None:
    package = f"companion.games.{_module(name)}"
    spec = find_spec(package)
    assert spec is not None and spec.submodule_search_locations is not None, package
    game = next(g for g in playable_games() if g.name == name)
    assert isinstance(game, LazyGame)
    assert type(game.rules).__module__ == f"{package}.game"
    scorer = scorers()[name]
    function = scorer.func if isinstance(scorer, partial) else scorer
    assert function is import_module(f"{package}.score").score
    assert function is import_module(package).score


def test_the_timer_is_a_plain_module() -> None:
    timer = next(g for g in playable_games() if g.name == "timer")
    assert type(timer).__module__ == "companion.games.timer"


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_its_view_named_after_it(name: str) -> None:
    module, function = VIEW_MODULES[name]
    assert module == _module(name)
    assert view_for(name) is getattr(import_module(f"companion.ui.views.{module}"), function)


def test_views_name_no_game_the_menu_does_not_offer() -> None:
    assert set(VIEW_MODULES) == set(GAMES)


def test_start_up_loads_no_game_and_no_game_view() -> None:
    # A fresh interpreter: this test process has imported every game already.
    probe = ("import sys, companion.cli, companion.ui.views\n"
             "from companion.games.registry import playable_games\n"
             "playable_games()\n"
             "print(' '.join(sorted(sys.modules)))\n")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout.split()
    games = {m for m in loaded if m.startswith("companion.games.")}
    views = {m for m in loaded if m.startswith("companion.ui.views.")}
    assert games == {"companion.games.registry", "companion.games.timer"}
    assert views == {"companion.ui.views.menu"}
