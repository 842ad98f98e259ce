"""Planes: scoring, tie-breakers, end triggers and bad input (rules/CLARIFICATIONS.md, Planes)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import planes
from companion.games.scoring import ScoreInputError


def _player(name: str, goals: list[int], boarded: int) -> dict[str, Any]:
    return {"name": name, "goals": goals, "boarded": boarded}


def _game(*players: dict[str, Any]) -> dict[str, Any]:
    return {"players": list(players)}


# --- scoring -------------------------------------------------------------------------------


def test_planes_rulebook_example_scores_27() -> None:
    # Rulebook: 1+1+2+3 = 7 VP of goals and 4 cubes x 5 = 20 VP.
    result = planes.score(_game(_player("Red", [1, 1, 2, 3], 4), _player("Blue", [], 0)))
    red = result["players"][0]
    assert red == {"name": "Red", "total": 27,
                   "breakdown": {"goals": 7, "boarded-cubes": 20},
                   "goal_cards": 4, "boarded": 4}
    assert result["game"] == "planes"
    assert result["ranking"] == [["Red"], ["Blue"]]
    assert result["winners"] == ["Red"]


@pytest.mark.parametrize(
    ("goals", "boarded", "total"),
    [
        ([], 0, 0),
        ([3], 0, 3),
        ([], 5, 25),
        ([1, 2, 3], 5, 31),
        ([0, 0], 1, 5),
    ],
)
def test_planes_total_is_goals_plus_five_per_cube(goals: list[int], boarded: int,
                                                  total: int) -> None:
    result = planes.score(_game(_player("A", goals, boarded), _player("B", [], 0)))
    assert result["players"][0]["total"] == total
    assert result["players"][0]["breakdown"] == {"goals": sum(goals),
                                                 "boarded-cubes": 5 * boarded}


def test_planes_output_keeps_input_order_of_players() -> None:
    result = planes.score(_game(_player("Low", [], 0), _player("High", [3], 5)))
    assert [p["name"] for p in result["players"]] == ["Low", "High"]
    assert result["ranking"] == [["High"], ["Low"]]


# --- tie-breakers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "ranking", "winners"),
    [
        # Score tie (15 each) broken by own cubes boarded: 2 beats 1.
        ([_player("Ann", [1, 1, 3], 2), _player("Bo", [3, 3, 2, 2], 1)],
         [["Ann"], ["Bo"]], ["Ann"]),
        # Score and cubes tied (13, 2 cubes): more goal cards wins, whatever their value.
        ([_player("Ann", [3], 2), _player("Bo", [1, 1, 1], 2)],
         [["Bo"], ["Ann"]], ["Bo"]),
        # Score, cubes and card count tied: a shared first place.
        ([_player("Ann", [1, 3], 1), _player("Bo", [2, 2], 1), _player("Cy", [], 0)],
         [["Ann", "Bo"], ["Cy"]], ["Ann", "Bo"]),
        # A tie further down shares a lower place.
        ([_player("Ann", [3], 5), _player("Bo", [2], 1), _player("Cy", [2], 1)],
         [["Ann"], ["Bo", "Cy"]], ["Ann"]),
        # More cubes never beats a higher score.
        ([_player("Ann", [3, 3, 3], 0), _player("Bo", [], 1)],
         [["Ann"], ["Bo"]], ["Ann"]),
    ],
    ids=["cubes", "goal-cards", "shared-first", "shared-lower", "score-first"],
)
def test_planes_tie_breakers(players: list[dict[str, Any]], ranking: list[list[str]],
                             winners: list[str]) -> None:
    result = planes.score({"players": players})
    assert result["ranking"] == ranking
    assert result["winners"] == winners


_players = st.lists(
    st.tuples(st.lists(st.integers(0, 3), max_size=8), st.integers(0, 5)),
    min_size=2, max_size=4,
)


@given(_players, st.randoms())
def test_planes_moving_players_changes_no_score_or_place(
        raw: list[tuple[list[int], int]], rnd: Any) -> None:
    players = [_player(f"P{i}", goals, boarded) for i, (goals, boarded) in enumerate(raw)]
    shuffled = list(players)
    rnd.shuffle(shuffled)
    first, second = planes.score({"players": players}), planes.score({"players": shuffled})
    totals = {p["name"]: p["total"] for p in first["players"]}
    assert totals == {p["name"]: p["total"] for p in second["players"]}
    assert [sorted(place) for place in first["ranking"]] == \
        [sorted(place) for place in second["ranking"]]


@given(_players)
def test_planes_ranking_respects_the_tie_key(raw: list[tuple[list[int], int]]) -> None:
    players = [_player(f"P{i}", goals, boarded) for i, (goals, boarded) in enumerate(raw)]
    result = planes.score({"players": players})
    key = {p["name"]: (p["total"], p["boarded"], p["goal_cards"]) for p in result["players"]}
    keys_by_place = [{key[name] for name in place} for place in result["ranking"]]
    assert all(len(keys) == 1 for keys in keys_by_place)
    flat = [next(iter(keys)) for keys in keys_by_place]
    assert flat == sorted(flat, reverse=True) and len(set(flat)) == len(flat)
    assert result["winners"] == result["ranking"][0]


# --- end trigger --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("track", "fill", "short_mark", "expected"),
    [
        (0, {}, None, None),
        (11, {"red": 4, "blue": 4, "green": 3}, None, None),
        (12, {"red": 4, "blue": 4, "green": 4}, None, planes.TRIGGER_BOARDING_TRACK),
        (13, {"red": 4}, None, planes.TRIGGER_BOARDING_TRACK),
        (7, {"red": 3}, 8, None),
        (8, {"red": 3}, 8, planes.TRIGGER_BOARDING_TRACK),
        (9, {"red": 3}, 8, planes.TRIGGER_BOARDING_TRACK),
        (12, {}, 12, planes.TRIGGER_BOARDING_TRACK),
        (1, {"red": 1}, 1, planes.TRIGGER_BOARDING_TRACK),
        (5, {"yellow": 5}, None, planes.TRIGGER_PLANE_FULL),
        (5, {"grey": 5}, None, planes.TRIGGER_PLANE_FULL),
        (4, {"red": 4}, None, None),
        # One boarding can fire both: the full plane is reported.
        (12, {"red": 5, "blue": 4, "green": 3}, None, planes.TRIGGER_PLANE_FULL),
    ],
)
def test_planes_end_trigger(track: int, fill: dict[str, int], short_mark: int | None,
                            expected: str | None) -> None:
    assert planes.end_triggered(track, fill, short_mark) == expected


def test_planes_end_trigger_colour_with_several_planes() -> None:
    # Two grey planes: 5 grey cubes fill only one of them.
    slots = {"grey": 10}
    assert planes.end_triggered(5, {"grey": 5}, plane_slots=slots) is None
    assert planes.end_triggered(10, {"grey": 10}, 12, plane_slots=slots) == \
        planes.TRIGGER_PLANE_FULL


def test_planes_full_planes_lists_colours() -> None:
    assert planes.full_planes({"red": 5, "blue": 2, "green": 5}) == ["red", "green"]


@pytest.mark.parametrize(
    ("track", "fill", "short_mark", "message"),
    [
        (-1, {}, None, "track"),
        (0, {}, 0, "short_mark"),
        (0, {}, 13, "short_mark"),
        (0, {"red": 6}, None, "plane_fill['red']"),
        (0, {"red": -1}, None, "plane_fill['red']"),
    ],
)
def test_planes_end_trigger_refuses_impossible_values(track: int, fill: dict[str, int],
                                                      short_mark: int | None,
                                                      message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[")):
        planes.end_triggered(track, fill, short_mark)


def test_planes_constants_match_the_rules() -> None:
    assert planes.TRACK_END == 12
    assert planes.PLANE_SLOTS == 5
    assert planes.CUBES_PER_PLAYER == 5
    assert planes.end_mark() == 12 and planes.end_mark(8) == 8
    assert [phase[0] for phase in planes.TURN_PHASES] == ["action", "move", "goal"]


@pytest.mark.parametrize(("players", "seat", "left"), [(4, 0, 3), (4, 3, 0), (2, 1, 0), (3, 1, 1)])
def test_planes_turns_left_in_round(players: int, seat: int, left: int) -> None:
    assert planes.turns_left_in_round(players, seat) == left


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "missing field 'players'"),
        ([], "input: expected a JSON object"),
        ({"players": "Ann"}, "players: expected a list"),
        (_game(_player("Ann", [], 0)), "players: need at least 2"),
        (_game(*(_player(n, [], 0) for n in "ABCDE")), "players: at most 4"),
        (_game({"name": "Ann", "boarded": 0}, _player("Bo", [], 0)),
         "player 'Ann': missing field 'goals'"),
        (_game({"name": "Ann", "goals": []}, _player("Bo", [], 0)),
         "player 'Ann': missing field 'boarded'"),
        (_game(_player("Ann", [], 6), _player("Bo", [], 0)),
         r"player 'Ann'.boarded: at most 5"),
        (_game(_player("Ann", [], -1), _player("Bo", [], 0)),
         r"player 'Ann'.boarded: must be at least 0"),
        (_game(_player("Ann", [], True), _player("Bo", [], 0)),
         r"player 'Ann'.boarded: expected a whole number"),
        (_game(_player("Ann", [1, -2], 0), _player("Bo", [], 0)),
         r"player 'Ann'.goals\[1\]: must be at least 0"),
        (_game(_player("Ann", [1, 2.5], 0), _player("Bo", [], 0)),  # type: ignore[list-item]
         r"player 'Ann'.goals\[1\]: expected a whole number"),
        (_game({"name": "Ann", "goals": 3, "boarded": 0}, _player("Bo", [], 0)),
         r"player 'Ann'.goals: expected a list"),
        (_game(_player("Ann", [], 0), _player("Ann", [], 0)), "appears twice"),
        (_game({"goals": [], "boarded": 0}, _player("Bo", [], 0)), "players\\[0\\]"),
    ],
)
def test_planes_bad_input_names_player_and_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ScoreInputError, match=message):
        planes.score(data)


@pytest.mark.parametrize(("data", "fragment"), [
    ({"players": [{"name": "A", "goals": [1], "boarded": 1, "boardded": 2},
                  {"name": "B", "goals": [], "boarded": 0}]},
     "player 'A': unknown key 'boardded' (did you mean 'boarded'?)"),
    ({"player": [], "players": [{"name": "A", "goals": [], "boarded": 0},
                                {"name": "B", "goals": [], "boarded": 0}]},
     "input: unknown key 'player' (did you mean 'players'?)"),
])
def test_planes_score_refuses_unknown_keys(
        data: Any, fragment: str) -> None:
    # Issue #13: a misspelt key was ignored silently.
    with pytest.raises(ScoreInputError) as refusal:
        planes.score(data)
    assert fragment in str(refusal.value)
