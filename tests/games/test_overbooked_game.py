"""Whole Overbooked games checked by hand, and the solo scenarios won and lost."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.games.overbooked import SOLO_SCENARIOS, score
from companion.games.scoring import ScoreInputError, format_table

#: Every player of a score input gives these counts (issue #13: none defaults to 0).
COUNTS: dict[str, int] = {"overbooked": 0, "vouchers": 0, "bonus_cards": 0}

# -- a four-player advanced game with three events, every number worked out by hand ---------------
#
# Advanced rules: aisles are no barrier. Columns 0-2 | 3-5, rows 0-3 from the top.
#
# Ann  RRB|BYY   couples: (0,0)(0,1) and (2,3)(2,4), both horizontal          2 -> 10
#      WGB|BY.   children: (1,0) beside R, G, G: protected; (2,5) beside the
#      GGB|RRW             empty (1,5): not                                   1 -> 5
#      GGG|Y.G   blue: (0,2)(1,2)(2,2) + across the aisle (0,3)(1,3) = 5      -> 10
#                green: (1,1)(2,0)(2,1)(3,0)(3,1)(3,2) = 6 -> 10; (3,5) = 1 -> 0
#                yellow: (0,4)(0,5)(1,4) = 3 -> 5; (3,3) = 1 -> 0
#                groups of 3+: 3; empty seats 2, largest empty patch 1
#                full columns: 0, 1, 2, 3 -> 16; groups of exactly 3: 1 -> 3
#
# Bo   RBR|BWB   couples: (0,0)(1,0) and (0,2)(1,2), both vertical            2 -> 10
#      RBR|BBB   children: (0,4), (2,3) (Y across the aisle), (3,0): 3 protected -> 15
#      YYY|WY.   blue: (0,1)(1,1) = 2 -> 0; (0,3)(1,3)(1,4)(1,5)(0,5) = 5      -> 10
#      WY.|YY.   yellow: (2,0)(2,1)(2,2)(3,1) = 4 -> 5; (2,4)(3,4)(3,3) = 3 -> 5 -> 10
#                groups of 3+: 3; empty seats 3, largest patch (2,5)(3,5) = 2
#                full columns: 0, 1, 3, 4 -> 16; groups of exactly 3: 1 -> 3
#
# Cy   BBB|GGG   couples: (2,0)(2,1) horizontal; (2,3) alone                  1 -> 5
#      YYY|...   children: (2,2) beside Y, B, R, R: protected                 1 -> 5
#      RRW|R..   blue 3 + 3 -> 10; green 3 + 3 -> 10; yellow 3 -> 5
#      BBB|GGG   groups of 3+: 5; empty seats 5, one patch of 5
#                full columns: 0, 1, 2 -> 12; groups of exactly 3: 5 -> 15
#
# Dee  WRR|W..   couples: (0,1)(0,2) horizontal; (1,3) alone                  1 -> 5
#      GWY|RYG   children: (0,0) protected; (1,1) beside empty (2,1), (0,3)
#      ...|...             beside empty (0,4): not                            1 -> 5
#      BB.|...   friends: no group of 3+ -> 0; empty seats 12, largest patch 10
#                (row 2 and (3,2)..(3,5)); no full column; no group of exactly 3
#
# Majorities: protected children 1/3/1/1 -> Bo +5. Horizontal couples 2/0/1/1 -> Ann +5.
# Groups 3/3/5/0 -> Cy most, 2 x 5 = 10; Ann and Bo second, 1 x 3 = 3 each.
# Overbooked 1/2/2/0 -> Bo and Cy tie for the most, -2 each.
# Low Season Blues: largest empty patch 1/2/5/10 -> Dee +5.

FOUR_PLAYER_GAME: dict[str, Any] = {
    "variant": "advanced",
    "events": ["full-flight", "threes-company", "low-season-blues"],
    "players": [
        {
            "name": "Ann",
            "seats": ["RRB|BYY", "WGB|BY.", "GGB|RRW", "GGG|Y.G"],
            "overbooked": 1,
            "vouchers": 3,
            "bonus_cards": 1,
        },
        {
            "name": "Bo",
            "seats": ["RBR|BWB", "RBR|BBB", "YYY|WY.", "WY.|YY."],
            "overbooked": 2,
            "vouchers": 6,
            "bonus_cards": 0,
        },
        {
            "name": "Cy",
            "seats": ["BBB|GGG", "YYY|...", "RRW|R..", "BBB|GGG"],
            "overbooked": 2,
            "vouchers": 0,
            "bonus_cards": 2,
        },
        {
            "name": "Dee",
            "seats": ["WRR|W..", "GWY|RYG", "...|...", "BB.|..."],
            "overbooked": 0,
            "vouchers": 5,
            "bonus_cards": 0,
        },
    ],
}

EXPECTED_BREAKDOWNS: dict[str, dict[str, int]] = {
    "Ann": {
        "couples": 10, "couples-majority": 5, "children": 5, "children-majority": 0,
        "friends-blue": 10, "friends-green": 10, "friends-yellow": 5, "group-majority": 3,
        "bonus-cards": 1, "vouchers": 1, "empty-seats": -2, "overbooked": -2,
        "most-overbooked": 0, "full-flight": 16, "threes-company": 3, "low-season-blues": 0,
    },
    "Bo": {
        "couples": 10, "couples-majority": 0, "children": 15, "children-majority": 5,
        "friends-blue": 10, "friends-green": 0, "friends-yellow": 10, "group-majority": 3,
        "bonus-cards": 0, "vouchers": 3, "empty-seats": -3, "overbooked": -4,
        "most-overbooked": -2, "full-flight": 16, "threes-company": 3, "low-season-blues": 0,
    },
    "Cy": {
        "couples": 5, "couples-majority": 0, "children": 5, "children-majority": 0,
        "friends-blue": 10, "friends-green": 10, "friends-yellow": 5, "group-majority": 10,
        "bonus-cards": 2, "vouchers": 0, "empty-seats": -5, "overbooked": -4,
        "most-overbooked": -2, "full-flight": 12, "threes-company": 15, "low-season-blues": 0,
    },
    "Dee": {
        "couples": 5, "couples-majority": 0, "children": 5, "children-majority": 0,
        "friends-blue": 0, "friends-green": 0, "friends-yellow": 0, "group-majority": 0,
        "bonus-cards": 0, "vouchers": 2, "empty-seats": -12, "overbooked": 0,
        "most-overbooked": 0, "full-flight": 0, "threes-company": 0, "low-season-blues": 5,
    },
}  # fmt: skip
EXPECTED_TOTALS = {"Ann": 65, "Bo": 66, "Cy": 63, "Dee": 5}


def test_overbooked_four_player_advanced_game_checked_by_hand() -> None:
    result = score(FOUR_PLAYER_GAME)
    breakdowns = {p["name"]: p["breakdown"] for p in result["players"]}
    totals = {p["name"]: p["total"] for p in result["players"]}
    assert breakdowns == EXPECTED_BREAKDOWNS
    assert totals == EXPECTED_TOTALS
    assert result["ranking"] == [["Bo"], ["Ann"], ["Cy"], ["Dee"]]
    assert result["winners"] == ["Bo"]
    assert result["game"] == "overbooked"
    assert result["variant"] == "advanced"
    assert result["events"] == ["full-flight", "threes-company", "low-season-blues"]


def test_overbooked_four_player_game_counts_explain_the_points() -> None:
    counts = {p["name"]: p["counts"] for p in score(FOUR_PLAYER_GAME)["players"]}
    assert counts["Bo"]["protected-children"] == 3
    assert counts["Ann"]["horizontal-couples"] == 2
    assert [counts[name]["friend-groups-of-3-or-more"] for name in counts] == [3, 3, 5, 0]
    assert counts["Dee"]["empty-seats"] == 12


def test_overbooked_result_is_plain_json() -> None:
    result = score(FOUR_PLAYER_GAME)
    assert json.loads(json.dumps(result)) == result


def test_overbooked_result_prints_as_a_table() -> None:
    text = format_table(score(FOUR_PLAYER_GAME))
    assert text.splitlines()[2].split()[:3] == ["1", "Bo", "66"]
    assert "winners: Bo" in text.splitlines()


# -- a three-player base game, by hand ----------------------------------------------------------
#
# Base rules: the aisle is a barrier.
# Ann  RR|BB   couple (0,0)(0,1) -> 5; (1,0) W beside R above, B right, the plane's edge
#      WB|BB   left and below: protected -> 3; blue (0,2)(0,3)(1,2)(1,3) = 4, (1,1) is cut
#              off by the aisle (1 disc) -> 4, the largest blue: +2. 6 vouchers -> 3.
#              Total 5 + 3 + 4 + 2 + 3 = 17.
# Bo   RR|R.   couple (0,0)(0,1) -> 5; (0,2) alone across the aisle; (1,1) W beside the
#      BW|GG   aisle (protected in base) and R above, B left -> 3; blue 1; green 2 -> +2
#              (largest green); empty 1 -> -1. 1 voucher -> 0. overbooked 2 -> -4, most: -2.
#              Total 5 + 3 + 1 + 2 + 2 - 1 - 4 - 2 = 6.
# Cy   ..|..   8 empty -> -8; overbooked 2 -> -4, most: -2. Total -14.
#      ..|..


def test_overbooked_three_player_base_game_checked_by_hand() -> None:
    result = score(
        {
            "players": [
                {"name": "Ann", "seats": ["RR|BB", "WB|BB"], "overbooked": 0, "vouchers": 6},
                {"name": "Bo", "seats": ["RR|R.", "BW|GG"], "vouchers": 1, "overbooked": 2},
                {"name": "Cy", "seats": ["..|..", "..|.."], "overbooked": 2, "vouchers": 0},
            ]
        }
    )
    breakdowns = {p["name"]: p["breakdown"] for p in result["players"]}
    zero = dict.fromkeys(breakdowns["Ann"], 0)
    assert breakdowns["Ann"] == {
        **zero, "couples": 5, "children": 3, "friends-blue": 4, "friends-blue-majority": 2,
        "vouchers": 3,
    }  # fmt: skip
    assert breakdowns["Bo"] == {
        **zero, "couples": 5, "children": 3, "friends-blue": 1, "friends-green": 2,
        "friends-green-majority": 2, "empty-seats": -1, "overbooked": -4, "most-overbooked": -2,
    }  # fmt: skip
    assert breakdowns["Cy"] == {
        **zero, "empty-seats": -8, "overbooked": -4, "most-overbooked": -2,
    }  # fmt: skip
    assert [p["total"] for p in result["players"]] == [17, 6, -14]
    assert result["ranking"] == [["Ann"], ["Bo"], ["Cy"]]


def test_overbooked_equal_totals_share_a_place() -> None:
    result = score(
        {
            "players": [
                {"name": "Ann", "seats": ["RR"], **COUNTS},
                {"name": "Bo", "seats": ["RR"], **COUNTS},
                {"name": "Cy", "seats": [".."], **COUNTS},
            ]
        }
    )
    assert result["ranking"] == [["Ann", "Bo"], ["Cy"]]
    assert result["winners"] == ["Ann", "Bo"]


# -- solo scenarios ------------------------------------------------------------------------------

SCHOOLS_OUT = [
    "WRWRW",  # ten children, each beside couples' discs (singles) or the plane's edge
    "RWRWR",
    "WRWRW",
    "RWRWR",
    "BBBBB",  # a friend group of 5
]
BEST_FRIENDS = ["BBBBBBBB", "GGGGGGGG", "YYYYYYYY", "RR.RR.RR"]
COUPLES_RETREAT = [
    "RRBRRBRR",  # three couples on top, walled in by B and the row below
    "BBBBBGGG",  # blue (1,0)-(1,4) + (0,2) = a friend group of 6
    "RRYRRYGG",  # two couples more, walled in
    "YYYYYYYY",
]


def solo_game(rows: list[str], scenario: str, vouchers: int = 1, **solo: str) -> dict[str, Any]:
    return score(
        {
            "variant": solo.pop("variant", "base"),
            "players": [{"name": "Sam", "seats": rows, **COUNTS, "vouchers": vouchers}],
            "solo": {"scenario": scenario, "difficulty": "hard", **solo},
        }
    )


@pytest.mark.parametrize(
    ("rows", "scenario", "conditions"),
    [
        (
            SCHOOLS_OUT,
            "schools-out",
            {"8-protected-children": True, "friend-group-of-5-or-3-couples": True},
        ),
        (
            [*SCHOOLS_OUT[:4], "BBBB."],  # the friends group shrinks to 4, and no couples
            "schools-out",
            {"8-protected-children": True, "friend-group-of-5-or-3-couples": False},
        ),
        (
            ["WRWRW", "RWRWR", "WRW.W", "RWRWR", "BBBBB"],  # an empty seat spoils 3 children
            "schools-out",
            {"8-protected-children": False, "friend-group-of-5-or-3-couples": True},
        ),
        (
            BEST_FRIENDS,
            "best-friends-forever",
            {"group-of-6-of-each-friend-colour": True, "3-couples-or-3-protected-children": True},
        ),
        (
            [*BEST_FRIENDS[:2], "YYYYY.YY", BEST_FRIENDS[3]],  # yellow only 5 together
            "best-friends-forever",
            {"group-of-6-of-each-friend-colour": False, "3-couples-or-3-protected-children": True},
        ),
        (
            [*BEST_FRIENDS[:3], "RR.RR..."],  # two couples
            "best-friends-forever",
            {"group-of-6-of-each-friend-colour": True, "3-couples-or-3-protected-children": False},
        ),
        (
            COUPLES_RETREAT,
            "couples-retreat",
            {"5-surrounded-couples": True, "friend-group-of-5-or-3-protected-children": True},
        ),
        (
            [*COUPLES_RETREAT[:3], "YYYY.YYY"],  # an empty seat below the fifth couple
            "couples-retreat",
            {"5-surrounded-couples": False, "friend-group-of-5-or-3-protected-children": True},
        ),
        (
            # every couple walled in by friends of mixed colours: no friend group above 2
            ["RRBRRGRR", "GBYGBYBG", "RRGRRBYY", "YBYGYGBG"],
            "couples-retreat",
            {"5-surrounded-couples": True, "friend-group-of-5-or-3-protected-children": False},
        ),
    ],
)
def test_overbooked_solo_scenarios(
    rows: list[str], scenario: str, conditions: dict[str, bool]
) -> None:
    result = solo_game(rows, scenario)
    won = all(conditions.values())
    assert result["solo"]["conditions"] == {**conditions, "vouchers-left": True}
    assert result["solo"]["won"] is won
    assert result["winners"] == (["Sam"] if won else [])
    assert result["ranking"] == [["Sam"]]


@pytest.mark.parametrize("scenario", sorted(SOLO_SCENARIOS))
def test_overbooked_solo_is_lost_when_the_vouchers_ran_out(scenario: str) -> None:
    rows = {"schools-out": SCHOOLS_OUT, "best-friends-forever": BEST_FRIENDS,
            "couples-retreat": COUPLES_RETREAT}[scenario]  # fmt: skip
    assert solo_game(rows, scenario, vouchers=1)["solo"]["won"] is True
    lost = solo_game(rows, scenario, vouchers=0)["solo"]
    assert lost["won"] is False
    assert lost["conditions"]["vouchers-left"] is False


def test_overbooked_solo_reports_scenario_and_starting_vouchers() -> None:
    solo = solo_game(SCHOOLS_OUT, "schools-out", difficulty="medium")["solo"]
    assert (solo["scenario"], solo["difficulty"], solo["starting_vouchers"]) == (
        "schools-out", "medium", 4,
    )  # fmt: skip


def test_overbooked_solo_difficulty_defaults_to_easy() -> None:
    result = score(
        {
            "players": [{"name": "Sam", "seats": SCHOOLS_OUT, **COUNTS, "vouchers": 3}],
            "solo": {"scenario": "schools-out"},
        }
    )
    assert result["solo"]["starting_vouchers"] == 6


def test_overbooked_solo_follows_the_variant_in_play() -> None:
    # A couple across the aisle: walled in only when the aisle is no barrier.
    rows = ["BBBBBB|B", "BBBBBR|R", "BBBBBB|B"]
    base = solo_game(rows, "couples-retreat", variant="base")["solo"]["conditions"]
    advanced = solo_game(rows, "couples-retreat", variant="advanced")["solo"]["conditions"]
    assert base["friend-group-of-5-or-3-protected-children"] is True
    assert (base["5-surrounded-couples"], advanced["5-surrounded-couples"]) == (False, False)
    assert solo_game(rows, "couples-retreat", variant="advanced")["players"][0]["counts"][
        "couples"
    ] == 1


def test_overbooked_solo_scores_the_plane_without_majorities() -> None:
    result = solo_game(SCHOOLS_OUT, "schools-out", vouchers=4)
    breakdown = result["players"][0]["breakdown"]
    assert breakdown["children"] == 30  # 10 protected children x 3
    assert breakdown["friends-blue"] == 5
    assert breakdown["friends-blue-majority"] == 0
    assert breakdown["vouchers"] == 2


@pytest.mark.parametrize(
    ("solo", "players", "fragments"),
    [
        ({"scenario": "schools-out"}, 2, ["solo", "exactly one player", "got 2"]),
        ({"scenario": "holiday"}, 1, ["solo.scenario", "'holiday'"]),
        ({"scenario": "schools-out", "difficulty": "brutal"}, 1, ["solo.difficulty", "'brutal'"]),
        ({"difficulty": "easy"}, 1, ["solo", "missing field 'scenario'"]),
        ("schools-out", 1, ["solo", "object"]),
    ],
)
def test_overbooked_solo_bad_input(solo: Any, players: int, fragments: list[str]) -> None:
    data = {
        "players": [{"name": f"P{i}", "seats": ["RR"], **COUNTS} for i in range(players)],
        "solo": solo,
    }
    with pytest.raises(ScoreInputError) as refused:
        score(data)
    for fragment in fragments:
        assert fragment in str(refused.value)


# -- issue #13: mistakes in a score file are refused, not read as 0 ------------------------------


def _two_players(variant: str = "base", **ann: Any) -> dict[str, Any]:
    return {"variant": variant,
            "players": [{"name": "Ann", "seats": ["RR"], **COUNTS, **ann},
                        {"name": "Bo", "seats": ["RR"], **COUNTS}]}


@pytest.mark.parametrize(("data", "fragment"), [
    ({**_two_players(), "variants": "base"},
     "input: unknown key 'variants' (did you mean 'variant'?)"),
    (_two_players(voucher=3), "player 'Ann': unknown key 'voucher' (did you mean 'vouchers'?)"),
    (_two_players(bonus_card=1),
     "player 'Ann': unknown key 'bonus_card' (did you mean 'bonus_cards'?)"),
    ({"players": [{"name": "Sam", "seats": ["RR"], **COUNTS}],
      "solo": {"scenario": "schools-out", "dificulty": "hard"}},
     "solo: unknown key 'dificulty' (did you mean 'difficulty'?)"),
    ({"players": [{"name": f"P{i}", "seats": ["RR"], **COUNTS} for i in range(5)]},
     "players: at most 4, got 5"),
])
def test_overbooked_refuses_unknown_keys_and_a_fifth_player(data: Any, fragment: str) -> None:
    with pytest.raises(ScoreInputError) as refused:
        score(data)
    assert fragment in str(refused.value)


@pytest.mark.parametrize(("variant", "missing"), [("base", "overbooked"), ("base", "vouchers"),
                                                  ("advanced", "overbooked"),
                                                  ("advanced", "vouchers"),
                                                  ("advanced", "bonus_cards")])
def test_overbooked_counts_are_required(variant: str, missing: str) -> None:
    data = _two_players(variant)
    del data["players"][0][missing]
    with pytest.raises(ScoreInputError, match=f"player 'Ann': missing field '{missing}'"):
        score(data)


def test_overbooked_base_game_may_leave_out_bonus_cards_and_warns_when_given() -> None:
    data = _two_players()
    del data["players"][0]["bonus_cards"]
    assert "warnings" not in score(data)
    warned = score(_two_players(bonus_cards=2))
    assert warned["warnings"] == ["player 'Ann': bonus_cards 2 ignored: bonus cards score only "
                                  "under the advanced rules"]
    assert warned["players"][0]["total"] == score(data)["players"][0]["total"]
