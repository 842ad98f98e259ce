"""Overbooked base and advanced categories: couples, children, friends, vouchers, majorities."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.overbooked import score
from companion.games.overbooked.advanced import friend_group_points

#: Every player of a score input gives these counts (issue #13: none defaults to 0).
COUNTS: dict[str, int] = {"overbooked": 0, "vouchers": 0, "bonus_cards": 0}


def breakdown_of(rows: list[str], variant: str = "base", **player: Any) -> dict[str, int]:
    """One player's breakdown (one player: no majority can apply)."""
    result = score(
        {"variant": variant, "players": [{"name": "Ann", "seats": rows, **COUNTS, **player}]}
    )
    breakdown: dict[str, int] = result["players"][0]["breakdown"]
    return breakdown


def table(planes: list[list[str]], variant: str = "base", **counts: list[int]) -> list[
    dict[str, int]
]:
    """Every player's breakdown, players named P0, P1, ... in order."""
    players = []
    for index, rows in enumerate(planes):
        player: dict[str, Any] = {"name": f"P{index}", "seats": rows, **COUNTS}
        for field, values in counts.items():
            player[field] = values[index]
        players.append(player)
    result = score({"variant": variant, "players": players})
    return [player["breakdown"] for player in result["players"]]


# -- couples ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "variant", "couples"),
    [
        (["RR"], "base", 5),
        (["R", "R"], "base", 5),  # a vertical pair is a couple too
        (["RR.RR"], "base", 10),
        (["R.R"], "base", 0),  # singles score nothing
        (["RRR"], "base", 0),  # a chain of three reds: three's a crowd
        (["RR", "R."], "base", 0),  # an L of three reds
        (["RRRR"], "base", 0),
        (["R|R"], "base", 0),  # the aisle keeps them apart
        (["R|R"], "advanced", 5),  # ...unless aisles are no barrier
        (["RR|R"], "base", 5),  # a pair and a single across the aisle
        (["RR|R"], "advanced", 0),  # a chain of three across the aisle
        (["RR|RR"], "base", 10),
        (["RR|RR"], "advanced", 0),
    ],
)
def test_overbooked_couples(rows: list[str], variant: str, couples: int) -> None:
    assert breakdown_of(rows, variant)["couples"] == couples


# -- children --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "variant", "children"),
    [
        (["RWR"], "base", 3),  # top and bottom are the plane's edge: protected
        (["WR"], "base", 3),  # a child in the corner, on the edge
        (["W"], "base", 3),  # no adjacent seat at all
        (["RRR", "RWR", "RRR"], "base", 3),
        (["BGY", "RWR", "YGB"], "base", 3),  # any non-child passenger protects
        (["RRR", "RW.", "RRR"], "base", 0),  # an empty seat beside it
        (["RRR", "RWW", "RRR"], "base", 0),  # another child beside it
        (["W.", ".."], "base", 0),
        (["RW|.", "RR|."], "base", 3),  # beside an aisle: the aisle protects in base
        (["RW|.", "RR|."], "advanced", 0),  # ...the empty seat across it spoils it in advanced
        (["RW|R", "RR|R"], "advanced", 5),  # advanced: +5, a non-child across the aisle
        (["RW|W"], "base", 6),  # two children, the aisle between them
        (["RW|W"], "advanced", 0),
    ],
)
def test_overbooked_children(rows: list[str], variant: str, children: int) -> None:
    assert breakdown_of(rows, variant)["children"] == children


# -- friends ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "variant", "blue", "green", "yellow"),
    [
        (["BBB.B"], "base", 3, 0, 0),  # only the largest group counts
        (["BB", "BG", "YG"], "base", 3, 2, 1),
        (["BB|BB"], "base", 2, 0, 0),
        (["BB|BB"], "advanced", 5, 0, 0),  # one group of 4 across the aisle
        (["...", "..."], "base", 0, 0, 0),  # no friends of any colour
        (["BBBBBBBBB"], "advanced", 20, 0, 0),
        (["BBB.BBB", "GG..YYY"], "advanced", 10, 0, 5),  # every group of 3+ scores
    ],
)
def test_overbooked_friends(
    rows: list[str], variant: str, blue: int, green: int, yellow: int
) -> None:
    breakdown = breakdown_of(rows, variant)
    assert (breakdown["friends-blue"], breakdown["friends-green"], breakdown["friends-yellow"]) == (
        blue,
        green,
        yellow,
    )


@pytest.mark.parametrize(
    ("size", "points"),
    [(1, 0), (2, 0), (3, 5), (4, 5), (5, 10), (6, 10), (7, 15), (8, 15), (9, 20), (12, 20)],
)
def test_overbooked_advanced_friend_group_sizes(size: int, points: int) -> None:
    assert friend_group_points(size) == points
    one_row_group = ("Y" * size).ljust(12, ".")
    assert breakdown_of([one_row_group], "advanced")["friends-yellow"] == points


def test_overbooked_base_largest_group_majority_is_shared_on_a_tie() -> None:
    blue_three = ["BBB", "..."]
    blue_two = ["BB.", "..."]
    breakdowns = table([blue_three, blue_two, blue_three])
    assert [b["friends-blue"] for b in breakdowns] == [3, 2, 3]
    assert [b["friends-blue-majority"] for b in breakdowns] == [2, 0, 2]


def test_overbooked_base_no_majority_for_a_colour_nobody_has() -> None:
    breakdowns = table([["BB"], ["B."]])
    assert [b["friends-yellow"] for b in breakdowns] == [0, 0]
    assert [b["friends-yellow-majority"] for b in breakdowns] == [0, 0]
    assert [b["friends-blue-majority"] for b in breakdowns] == [2, 0]


def test_overbooked_base_majority_needs_two_players() -> None:
    assert breakdown_of(["BBB"])["friends-blue-majority"] == 0


def test_overbooked_base_player_with_no_friends_of_a_colour_gets_no_majority() -> None:
    breakdowns = table([["GGG"], ["..."]])
    assert [b["friends-green-majority"] for b in breakdowns] == [2, 0]
    assert [b["friends-green"] for b in breakdowns] == [3, 0]


# -- vouchers, empty seats, overbooked -------------------------------------------------------------


@pytest.mark.parametrize(
    ("vouchers", "points"), [(0, 0), (1, 0), (2, 1), (3, 1), (6, 3), (7, 3), (24, 12)]
)
def test_overbooked_vouchers_score_one_per_pair(vouchers: int, points: int) -> None:
    assert breakdown_of(["R"], vouchers=vouchers)["vouchers"] == points


@pytest.mark.parametrize(("rows", "empty"), [(["R"], 0), (["..."], -3), (["R.|..", ".B|.."], -6)])
def test_overbooked_empty_seats_cost_one_each(rows: list[str], empty: int) -> None:
    assert breakdown_of(rows)["empty-seats"] == empty


@pytest.mark.parametrize(
    ("overbooked", "points", "most"),
    [
        ([0, 0, 0], [0, 0, 0], [0, 0, 0]),  # nobody overbooked: no "most"
        ([1, 3, 2], [-2, -6, -4], [0, -2, 0]),
        ([2, 2, 1], [-4, -4, -2], [-2, -2, 0]),  # a tie for most overbooked: both pay
        ([4, 4, 4], [-8, -8, -8], [-2, -2, -2]),
    ],
)
def test_overbooked_passengers_and_most_overbooked(
    overbooked: list[int], points: list[int], most: list[int]
) -> None:
    breakdowns = table([["R"], ["R"], ["R"]], overbooked=overbooked)
    assert [b["overbooked"] for b in breakdowns] == points
    assert [b["most-overbooked"] for b in breakdowns] == most


def test_overbooked_most_overbooked_needs_two_players() -> None:
    assert breakdown_of(["R"], overbooked=3)["most-overbooked"] == 0


# -- advanced majorities ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("planes", "majority"),
    [
        ([["RWR"], ["RWR.RWR"], ["..."]], [0, 5, 0]),
        ([["RWR"], ["RWR"], ["..."]], [5, 5, 0]),  # tied for the most: both
        ([["..."], ["W.."]], [0, 0]),  # nobody has a protected child
    ],
)
def test_overbooked_advanced_children_majority(
    planes: list[list[str]], majority: list[int]
) -> None:
    assert [b["children-majority"] for b in table(planes, "advanced")] == majority


@pytest.mark.parametrize(
    ("planes", "couples", "majority"),
    [
        # vertical couples score as couples but not for the majority
        ([["R.", "R."], ["RR"]], [5, 5], [0, 5]),
        ([["R|R"], ["RR"]], [5, 5], [5, 5]),  # a couple across the aisle is horizontal
        ([["R", "R"], ["R", "R"]], [5, 5], [0, 0]),  # no horizontal couples at all
        ([["RR.RR"], ["RR...", "...RR"], ["RR..."]], [10, 10, 5], [5, 5, 0]),
    ],
)
def test_overbooked_advanced_couples_majority_counts_horizontal_couples(
    planes: list[list[str]], couples: list[int], majority: list[int]
) -> None:
    breakdowns = table(planes, "advanced")
    assert [b["couples"] for b in breakdowns] == couples
    assert [b["couples-majority"] for b in breakdowns] == majority


THREE_GROUPS = ["BBB.GGG.YYY"]
TWO_GROUPS = ["BBB.GGG...."]
ONE_GROUP = ["BBB........"]
NO_GROUP = ["BB.GG.YY..."]


@pytest.mark.parametrize(
    ("planes", "majority"),
    [
        # the most scores 2 per group, the second most (next lower count) 1 per group
        ([THREE_GROUPS, TWO_GROUPS, ONE_GROUP, NO_GROUP], [6, 2, 0, 0]),
        ([THREE_GROUPS, TWO_GROUPS, TWO_GROUPS, ONE_GROUP], [6, 2, 2, 0]),
        ([TWO_GROUPS, TWO_GROUPS, ONE_GROUP], [4, 4, 1]),  # tied first; second is next lower
        ([ONE_GROUP, NO_GROUP], [2, 0]),  # a count of 0 is never second
        ([NO_GROUP, NO_GROUP], [0, 0]),
        ([TWO_GROUPS], [0]),  # one player: nobody to compare with
    ],
)
def test_overbooked_advanced_group_majority_with_second_place(
    planes: list[list[str]], majority: list[int]
) -> None:
    assert [b["group-majority"] for b in table(planes, "advanced")] == majority


def test_overbooked_advanced_group_majority_counts_all_colours_and_groups_across_aisles() -> None:
    # P0: blue 3 across the aisle + green 3 = 2 groups; P1: one yellow group of 4.
    breakdowns = table([["BB|B.", "GG|G."], ["YY|YY", "..|.."]], "advanced")
    assert [b["group-majority"] for b in breakdowns] == [4, 1]


# -- bonus cards and the variants' category lists --------------------------------------------------


def test_overbooked_bonus_cards_count_in_advanced_only() -> None:
    assert breakdown_of(["R"], "advanced", bonus_cards=3)["bonus-cards"] == 3
    assert "bonus-cards" not in breakdown_of(["R"], "base", bonus_cards=3)


def test_overbooked_breakdown_categories_per_variant() -> None:
    assert list(breakdown_of(["R"], "base")) == [
        "couples", "children",
        "friends-blue", "friends-blue-majority",
        "friends-green", "friends-green-majority",
        "friends-yellow", "friends-yellow-majority",
        "vouchers", "empty-seats", "overbooked", "most-overbooked",
    ]  # fmt: skip
    assert list(breakdown_of(["R"], "advanced")) == [
        "couples", "couples-majority", "children", "children-majority",
        "friends-blue", "friends-green", "friends-yellow", "group-majority", "bonus-cards",
        "vouchers", "empty-seats", "overbooked", "most-overbooked",
    ]  # fmt: skip


def test_overbooked_variant_defaults_to_base() -> None:
    result = score({"players": [{"name": "Ann", "seats": ["RR"], "overbooked": 0, "vouchers": 0}]})
    assert result["variant"] == "base"
    assert result["events"] == []
    assert result["players"][0]["breakdown"]["couples"] == 5
