"""Each game's facts are declared once (companion/games/registry.py ``GAMES``) and read from
there by the menu, the scorers, the views, the history builders, the history API and the page."""

from __future__ import annotations

from importlib import import_module

import pytest

from companion.games.records import BUILDERS
from companion.games.registry import FACTS, GAMES, SCORER_PACKAGES, page_facts, playable_games
from companion.ui.views import VIEW_MODULES, view_for

NAMES = tuple(facts.name for facts in GAMES)


def test_facts_are_one_per_game_in_menu_order() -> None:
    assert [game.name for game in playable_games()] == list(NAMES)
    assert len(set(NAMES)) == len(NAMES) == len(FACTS)


@pytest.mark.parametrize("name", NAMES)
def test_the_menu_label_is_the_games_own_title(name: str) -> None:
    game = next(game for game in playable_games() if game.name == name)
    rules = getattr(game, "rules", game)  # a LazyGame loads its rules; the timer is one
    assert game.title == rules.title == FACTS[name].label


@pytest.mark.parametrize("name", NAMES)
def test_view_and_history_builder_are_named_after_the_games_module(name: str) -> None:
    facts = FACTS[name]
    assert VIEW_MODULES[name] == (facts.module, facts.view)
    assert view_for(name) is getattr(import_module(f"companion.ui.views.{facts.module}"),
                                     facts.view)
    assert BUILDERS[name] is getattr(import_module("companion.games.records"), facts.module)


def test_scorers_are_the_scored_games() -> None:
    assert set(SCORER_PACKAGES) == {facts.name for facts in GAMES if facts.scored}
    assert list(SCORER_PACKAGES) == sorted(SCORER_PACKAGES)


def test_the_page_gets_overbookeds_lists_from_the_scorers_tables() -> None:
    from companion.games.overbooked.events import EVENT_CARDS
    from companion.games.overbooked.solo import SCENARIO_TITLES, SOLO_SCENARIOS

    served = {game["name"]: game for game in page_facts()["games"]}
    assert list(served) == list(NAMES)
    lists = served["overbooked"]["lists"]
    assert lists["events"] == sorted([card.id, card.title] for card in EVENT_CARDS.values())
    assert [scenario for scenario, _ in lists["scenarios"]] == list(SCENARIO_TITLES)
    assert set(SCENARIO_TITLES) == set(SOLO_SCENARIOS)
    assert all(served[name]["lists"] == {} for name in NAMES if name != "overbooked")
    assert served["now-boarding-v3"]["title"] == FACTS["now-boarding-v3"].title
