"""Now Boarding v3 prototype: scoring, rating, the advanced loss and the schedule data."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import now_boarding_v3 as v3
from companion.games.scoring import ScoreInputError


def _game(*passengers: list[int], variant: str = "basic", lost: int = 0) -> dict[str, Any]:
    return {"variant": variant, "lost": lost,
            "players": [{"name": f"P{i}", "passengers": values}
                        for i, values in enumerate(passengers)]}


# --- rating -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "label"),
    [
        (0, "Keep trying!"), (10, "Keep trying!"),
        (11, "Notable"), (18, "Notable"),
        (19, "Great"), (24, "Great"),
        (25, "Epic"), (29, "Epic"),
        (30, "Legendary"), (32, "Legendary"),
        (33, "Mythic"), (41, "Mythic"),
        (42, "PERFECT"), (100, "PERFECT"),
    ],
)
def test_v3_rating_band_edges(score: int, label: str) -> None:
    assert v3.rating(score) == label


@pytest.mark.parametrize("bad", [-1, True, 1.5])
def test_v3_rating_refuses_non_scores(bad: Any) -> None:
    with pytest.raises(ValueError, match="score"):
        v3.rating(bad)


# --- scoring ------------------------------------------------------------------------------


def test_v3_score_output_shape_basic() -> None:
    result = v3.score(_game([2, 3, 1], [4], [5, 5], lost=3))
    assert result == {
        "game": "now-boarding-v3",
        "variant": "basic",
        "players": [
            {"name": "P0", "total": 6, "breakdown": {"passengers": 6}},
            {"name": "P1", "total": 4, "breakdown": {"passengers": 4}},
            {"name": "P2", "total": 10, "breakdown": {"passengers": 10}},
        ],
        "ranking": [["P0", "P1", "P2"]],
        "winners": ["P0", "P1", "P2"],
        "score": 7,  # 20 / 3 = 6.67, rounded up
        "rating": "Keep trying!",
        "lost": 3,
    }


@pytest.mark.parametrize(
    ("totals", "score"),
    [
        ([0, 0, 0], 0),
        ([10, 10, 10], 10),     # exact: no rounding
        ([10, 10, 11], 11),     # 31 / 3 = 10.33 -> 11
        ([10, 11, 11], 11),     # 32 / 3 = 10.67 -> 11
        ([1, 0, 0, 0], 1),      # 0.25 -> 1
        ([18, 18, 18, 19], 19),  # 18.25 -> 19: the rounding moves the rating up a band
        ([7, 7, 7, 7, 7, 8], 8),
    ],
)
def test_v3_score_is_the_ceiling_of_the_average(totals: list[int], score: int) -> None:
    data = {"lost": 0, "players": [{"name": f"P{i}", "total": t} for i, t in enumerate(totals)]}
    result = v3.score(data)
    assert result["score"] == score
    assert result["rating"] == v3.rating(score)


def test_v3_total_in_place_of_the_list() -> None:
    data = {"variant": "basic", "lost": 0,
            "players": [{"name": "Ann", "total": 17}, {"name": "Bo", "passengers": [2, 3]},
                        {"name": "Cy", "total": 0}]}
    result = v3.score(data)
    assert [p["total"] for p in result["players"]] == [17, 5, 0]
    assert result["players"][0]["breakdown"] == {"passengers": 17}
    assert result["score"] == 8  # 22 / 3 = 7.33 -> 8


def test_v3_variant_defaults_to_basic() -> None:
    result = v3.score({"lost": 0, "players": [{"name": n, "total": 20} for n in "ABC"]})
    assert result["variant"] == "basic" and result["lost"] == 0
    assert "lost_game" not in result
    assert result["rating"] == "Great"


def test_v3_basic_never_loses_however_many_are_lost() -> None:
    result = v3.score(_game([1], [1], [1], lost=50))
    assert "lost_game" not in result
    assert result["winners"] == ["P0", "P1", "P2"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize(("over_limit", "lost_game"), [(-1, False), (0, False), (1, True)])
def test_v3_advanced_loss_when_lost_pile_passes_twice_the_players(
        players: int, over_limit: int, lost_game: bool) -> None:
    lost = 2 * players + over_limit
    result = v3.score(_game(*([3] for _ in range(players)), variant="advanced", lost=lost))
    assert result["lost_game"] is lost_game
    assert result["lost"] == lost
    names = [f"P{i}" for i in range(players)]
    assert result["winners"] == ([] if lost_game else names)
    assert result["ranking"] == [names]
    # The score and rating are still reported for a lost game.
    assert result["score"] == 3


def test_v3_live_loss_helpers_agree_with_scoring() -> None:
    assert v3.lost_limit(3) == 6 and v3.lost_limit(6) == 12
    assert not v3.is_lost(6, 3) and v3.is_lost(7, 3)


_totals = st.lists(st.integers(0, 60), min_size=3, max_size=6)


@given(_totals, st.randoms(), st.sampled_from(v3.VARIANTS), st.integers(0, 20))
def test_v3_moving_players_around_changes_nothing(totals: list[int], rnd: Any, variant: str,
                                                 lost: int) -> None:
    players = [{"name": f"P{i}", "passengers": [t]} for i, t in enumerate(totals)]
    shuffled = list(players)
    rnd.shuffle(shuffled)
    first = v3.score({"variant": variant, "lost": lost, "players": players})
    second = v3.score({"variant": variant, "lost": lost, "players": shuffled})
    for field in ("score", "rating", "lost", "variant"):
        assert first[field] == second[field]
    assert first.get("lost_game") == second.get("lost_game")
    assert sorted(first["winners"]) == sorted(second["winners"])
    assert {p["name"]: p["total"] for p in first["players"]} == \
        {p["name"]: p["total"] for p in second["players"]}


@given(st.lists(st.lists(st.integers(0, 5), max_size=12), min_size=3, max_size=6))
def test_v3_score_bounds_the_average(passengers: list[list[int]]) -> None:
    result = v3.score(_game(*passengers))
    total = sum(map(sum, passengers))
    players = len(passengers)
    # The smallest whole number at least the average.
    assert result["score"] * players >= total > (result["score"] - 1) * players
    assert result["rating"] == v3.rating(result["score"])


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_v3_lost_is_required_in_both_variants(variant: str) -> None:
    # Issue #13: the contract gives "lost" no default; a missing one was read as 0.
    data = {"variant": variant, "players": [{"name": n, "total": 20} for n in "ABC"]}
    with pytest.raises(ScoreInputError, match="input: missing field 'lost'"):
        v3.score(data)


@pytest.mark.parametrize(("data", "message"), [
    ({"variant": "basic", "lost": 0, "lots": 1,
      "players": [{"name": n, "total": 1} for n in "ABC"]},
     "input: unknown key 'lots' (did you mean 'lost'?)"),
    ({"lost": 0, "players": [{"name": "A", "passenger": [1]}, {"name": "B", "total": 1},
                             {"name": "C", "total": 1}]},
     "player 'A': unknown key 'passenger' (did you mean 'passengers'?)"),
    ({"lost": 67, "players": [{"name": n, "total": 1} for n in "ABC"]},
     "lost: at most 66 (the passenger tiles of 3 players), got 67"),
])
def test_v3_refuses_unknown_keys_and_impossible_counts(data: Any, message: str) -> None:
    with pytest.raises(ScoreInputError) as refusal:
        v3.score(data)
    assert message in str(refusal.value)


def _named(*players: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"players": list(players), **top}


_ok = [{"name": "Bo", "total": 1}, {"name": "Cy", "total": 1}]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "missing field 'players'"),
        ([], "input: expected a JSON object"),
        (_named(*_ok), "players: need at least 3"),
        (_named(*({"name": n, "total": 1} for n in "ABCDEFG")), "players: at most 6"),
        (_named({"name": "Ann", "total": 1}, *_ok, variant="expert"), "variant: expected one of"),
        (_named({"name": "Ann", "total": 1}, *_ok, variant="advanced"),
         "input: missing field 'lost'"),
        (_named({"name": "Ann", "total": 1}, *_ok, lost=-1), "lost: must be at least 0"),
        (_named({"name": "Ann", "total": 1}, *_ok, lost="3"), "lost: expected a whole number"),
        (_named({"name": "Ann"}, *_ok), "player 'Ann': missing field 'passengers'"),
        (_named({"name": "Ann", "total": 3, "passengers": [3]}, *_ok),
         "player 'Ann': give either 'passengers' or 'total'"),
        (_named({"name": "Ann", "total": -3}, *_ok), r"player 'Ann'.total: must be at least 0"),
        (_named({"name": "Ann", "total": 2.5}, *_ok),
         r"player 'Ann'.total: expected a whole number"),
        (_named({"name": "Ann", "passengers": 5}, *_ok),
         r"player 'Ann'.passengers: expected a list"),
        (_named({"name": "Ann", "passengers": [1, "2"]}, *_ok),
         r"player 'Ann'.passengers\[1\]: expected a whole number"),
        (_named({"name": "Ann", "passengers": [1, -2]}, *_ok),
         r"player 'Ann'.passengers\[1\]: must be at least 0"),
        (_named({"name": "Bo", "total": 1}, *_ok), "appears twice"),
    ],
)
def test_v3_bad_input_names_player_and_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ScoreInputError, match=message):
        v3.score(data)


# --- rules data for the live schedule -----------------------------------------------------


def test_v3_schedule_constants() -> None:
    assert (v3.DAYS, v3.ROUNDS_PER_DAY, v3.REDEYE_ROUND) == (3, 6, 6)
    assert [step.key for step in v3.STEPS] == ["departure", "arrival", "purchase"]
    assert [step.timed for step in v3.STEPS] == [True, False, False]
    assert v3.is_redeye(6) and not v3.is_redeye(5)


@pytest.mark.parametrize(
    ("day", "players", "round_number", "draw"),
    [
        (1, 3, None, 6), (2, 3, None, 9), (3, 3, None, 12),
        (1, 6, 1, 12), (2, 4, 5, 12), (3, 6, 1, 24),
        (1, 3, 6, 0), (2, 5, 6, 0), (3, 6, 6, 0),  # the Redeye draws none
    ],
)
def test_v3_passengers_to_draw(day: int, players: int, round_number: int | None,
                               draw: int) -> None:
    assert v3.passengers_to_draw(day, players, round_number) == draw
    assert v3.airports_per_player(day) == day + 1


@pytest.mark.parametrize(
    ("args", "message"),
    [((0, 3), "day"), ((4, 3), "day"), ((1, 2), "players"), ((1, 7), "players"),
     ((1, 3, 7), "round"), ((1, 3, 0), "round")],
)
def test_v3_passengers_to_draw_refuses_impossible_values(args: tuple[int, ...],
                                                         message: str) -> None:
    with pytest.raises(ValueError, match=message):
        v3.passengers_to_draw(*args)


def test_v3_supply_runs_short() -> None:
    assert v3.supply_runs_short(5, 1, 3)       # 6 needed
    assert not v3.supply_runs_short(6, 1, 3)
    assert not v3.supply_runs_short(0, 1, 3, 6)  # the Redeye needs none


@pytest.mark.parametrize(("variant", "seconds"), [("advanced", 60), ("basic", None)])
def test_v3_departure_seconds(variant: str, seconds: int | None) -> None:
    assert v3.departure_seconds(variant) == seconds


def test_v3_departure_seconds_refuses_unknown_variant() -> None:
    with pytest.raises(ValueError, match="variant"):
        v3.departure_seconds("expert")


@pytest.mark.parametrize(
    ("day", "keys"),
    [
        (1, ["redeye-lost", "final-purchase", "shuffle-score-piles", "new-city"]),
        (2, ["redeye-lost", "final-purchase", "shuffle-score-piles", "new-city"]),
        (3, ["redeye-lost", "final-purchase", "game-over"]),
    ],
)
def test_v3_end_of_day_steps(day: int, keys: list[str]) -> None:
    steps = v3.end_of_day_steps(day)
    assert [step.key for step in steps] == keys
    if day < 3:
        assert f"City {'CD'[day - 1]}" in steps[-1].text


def test_v3_purchase_prices() -> None:
    assert v3.PURCHASES == {"voucher": 1, "concession": 3, "commuter": 4, "gate": 5,
                            "upgrade-jet": 6, "new-jet": 7, "city-to-hub": 8}
