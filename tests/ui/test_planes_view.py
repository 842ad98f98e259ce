"""The Planes result explains a tie-break and counts cards right (ui/views/planes.py)."""

from dataclasses import replace

import pytest

from companion.games import planes
from companion.games.planes.game import PlanesGame
from companion.ui.views.planes import _result, tie_break


def new_state():
    return PlanesGame().new({"players": "2", "short": "12", "grey": "1"}, 1)


def result(*players):
    return planes.score({"players": [{"name": name, "goals": goals, "boarded": boarded}
                                     for name, goals, boarded in players]})


@pytest.mark.parametrize(("players", "why"), [
    ((("Red", [5], 2), ("Blue", [10], 1)), "boarded cubes"),        # 15 each, 2 cubes to 1
    ((("Red", [2, 3], 1), ("Blue", [5], 1)), "goal cards"),          # 10 each, 2 cards to 1
    ((("Red", [9], 1), ("Blue", [3], 1)), None),                     # no tie on points
    ((("Red", [5], 1), ("Blue", [5], 1)), None),                     # the tie stands
])
def test_tie_break_names_what_broke_the_tie(players, why):
    assert tie_break(result(*players)) == why


def test_the_result_says_who_won_on_the_tie_break():
    page = _result(replace(new_state(), page=0), result(("Red", [5], 2), ("Blue", [10], 1)))
    assert page.main == "Red wins on cubes"  # what broke the tie, in the large font


@pytest.mark.parametrize(("goals", "shown"), [([], "0 cards"), ([4], "1 card,"),
                                               ([4, 2], "2 cards")])
def test_a_player_page_counts_goal_cards_in_words_that_agree(goals, shown):
    data = result(("Red", goals, 0), ("Blue", [1], 0))
    page = _result(replace(new_state(), page=1), data)
    assert page.lines[0].startswith(f"Goals: {shown}")
