"""The fifteen Overbooked event cards, each with its edges, in base and advanced rules."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.overbooked import EVENT_CARDS, EVENT_IDS, score
from companion.games.overbooked.squares import most_disjoint_full_squares

#: Every player of a score input gives these counts (issue #13: none defaults to 0).
COUNTS: dict[str, int] = {"overbooked": 0, "vouchers": 0, "bonus_cards": 0}


def event_points(event: str, rows: list[str], variant: str = "base") -> int:
    result = score(
        {"variant": variant, "events": [event],
         "players": [{"name": "Ann", "seats": rows, **COUNTS}]}
    )
    points: int = result["players"][0]["breakdown"][event]
    return points


def test_overbooked_events_all_fifteen_are_known() -> None:
    assert len(EVENT_IDS) == 15
    assert set(EVENT_IDS) == {
        "adorable-babies", "buddy-time", "corner-seats", "couples-retreat", "emergency-exit",
        "family-vacation", "full-flight", "kids-gone-wild", "like-sardines", "lonely-christmas",
        "low-season-blues", "meteor-shower", "missing-friends", "school-holidays",
        "threes-company",
    }  # fmt: skip
    assert all(card.id == event_id for event_id, card in EVENT_CARDS.items())


SARDINES_GREEDY_TRAP = [
    # A 3 x 3 at the top (columns 3-5) overlaps the two at the bottom (columns 1-3 and 5-7).
    # A scan in reading order would take the top one and stop at 1; the largest set is 2.
    "..BBB..",
    "BBBBBBB",
    "BBBBBBB",
    "BBB.BBB",
]


@pytest.mark.parametrize(
    ("event", "rows", "variant", "points"),
    [
        # adorable-babies: +4 per protected child neither on the edge nor in an aisle seat
        ("adorable-babies", ["RRR", "RWR", "RRR"], "base", 4),
        ("adorable-babies", ["RWR", "RRR"], "base", 0),  # protected but on the edge
        ("adorable-babies", ["RRR", "RW.", "RRR"], "base", 0),  # inside but not protected
        ("adorable-babies", ["RRR|R", "RRW|R", "RRR|R"], "base", 0),  # an aisle seat
        ("adorable-babies", ["RRR|R", "RRW|R", "RRR|R"], "advanced", 0),
        ("adorable-babies", ["RRRRR", "RWRWR", "RRRRR"], "base", 8),
        # buddy-time: +5 per section with a 3+ group of each friend colour inside it
        ("buddy-time", ["BBB", "GGG", "YYY"], "base", 5),
        ("buddy-time", ["BBB|BBB", "GGG|GGG", "YYY|YYY"], "base", 10),
        ("buddy-time", ["BBB|...", "GGG|GGG", "YYY|YYY"], "base", 5),
        ("buddy-time", ["BBB", "GGG", "YY."], "base", 0),  # yellow only 2
        ("buddy-time", ["BB|B", "GG|G", "YY|Y"], "advanced", 0),  # groups cross the aisle
        # corner-seats: +6 if the four corners hold four different passenger types
        ("corner-seats", ["R.W", "...", "B.G"], "base", 6),
        ("corner-seats", ["B.G", "...", "Y.R"], "base", 6),  # friend colours are types
        ("corner-seats", ["R.R", "...", "B.G"], "base", 0),  # a type twice
        ("corner-seats", ["R.W", "...", "B.."], "base", 0),  # an empty corner
        ("corner-seats", ["RW"], "base", 0),  # one row: each corner twice
        ("corner-seats", ["R|W", ".|.", "B|G"], "advanced", 6),
        # couples-retreat: +4 per section with 3+ couples in it
        ("couples-retreat", ["R.R.R", "R.R.R"], "base", 4),
        ("couples-retreat", ["R.R.R|R.R.R", "R.R.R|R.R.R"], "base", 8),
        ("couples-retreat", ["R.R.R|R.R.R", "R.R..|R.R.R"], "base", 4),
        ("couples-retreat", ["R.R.R", "R.R.."], "base", 0),  # only 2 couples
        ("couples-retreat", ["RRR.R", "...R."], "base", 0),  # a chain of 3 is no couple
        # advanced: the third couple straddles the aisle and so belongs to no section
        ("couples-retreat", ["R.R.R|R", "R.R..|."], "advanced", 0),
        # emergency-exit: +10 if every seat of the middle row (rows // 2) is occupied
        ("emergency-exit", ["...", "RBG", "..."], "base", 10),
        ("emergency-exit", ["RBG", "R.G", "RBG"], "base", 0),
        ("emergency-exit", [".", ".", "R", "."], "base", 10),  # 4 rows: row 2 from 0
        ("emergency-exit", ["R", "R", ".", "R"], "base", 0),
        ("emergency-exit", ["RB|GY"], "base", 10),
        # family-vacation: +3 per couple with a disc adjacent to a protected child
        ("family-vacation", ["RRB", "BWB", "BBB"], "base", 3),
        ("family-vacation", ["RR.", "BW."], "base", 0),  # the child is not protected
        ("family-vacation", ["RRR", "BWB", "BBB"], "base", 0),  # three reds: no couple
        ("family-vacation", ["RR|W"], "base", 0),  # the aisle: not adjacent
        ("family-vacation", ["RR|W"], "advanced", 3),
        ("family-vacation", ["RWR", "RBR"], "base", 6),  # two couples, one child
        # full-flight: +4 per column with no empty seat
        ("full-flight", ["RB", "G."], "base", 4),
        ("full-flight", ["RB|G", "RB|."], "base", 8),
        ("full-flight", ["..", ".."], "base", 0),
        ("full-flight", ["RWBGY"], "advanced", 20),
        # kids-gone-wild: -2 per child not protected
        ("kids-gone-wild", ["W.", "RW"], "base", -4),
        ("kids-gone-wild", ["RWR"], "base", 0),
        ("kids-gone-wild", ["W|."], "base", 0),  # the aisle protects in base...
        ("kids-gone-wild", ["W|."], "advanced", -2),  # ...not in advanced
        ("kids-gone-wild", ["WW"], "base", -4),
        # like-sardines: +3 per full 3 x 3 square in one section, largest non-overlapping set
        ("like-sardines", ["RRR", "BBB", "GGG"], "base", 3),
        ("like-sardines", ["RRRR", "BBBB", "GGGG"], "base", 3),
        ("like-sardines", ["RRRRRR", "BBBBBB", "GGGGGG"], "base", 6),
        ("like-sardines", ["RRRR", "RRRR", "RRRR", "RRRR"], "base", 3),  # overlapping squares
        ("like-sardines", ["RRR", "B.B", "GGG"], "base", 0),
        ("like-sardines", ["RR|R", "RR|R", "RR|R"], "advanced", 0),  # never across an aisle
        ("like-sardines", ["RRR|RRR", "RRR|RRR", "RRR|RRR"], "base", 6),
        ("like-sardines", SARDINES_GREEDY_TRAP, "base", 6),
        # lonely-christmas: -3 per red disc not in an exact pair
        ("lonely-christmas", ["RRR"], "base", -9),
        ("lonely-christmas", ["RR.R"], "base", -3),
        ("lonely-christmas", ["RR"], "base", 0),
        ("lonely-christmas", ["RR|R"], "base", -3),
        ("lonely-christmas", ["RR|R"], "advanced", -9),
        # meteor-shower: +1 per 2 occupied window seats
        ("meteor-shower", ["R.R", "R.."], "base", 1),  # 3 window seats filled
        ("meteor-shower", ["R.R", "R.R"], "base", 2),
        ("meteor-shower", ["RR|RR"], "base", 1),  # aisle seats are not window seats
        ("meteor-shower", [".RR."], "base", 0),
        # missing-friends: +5 per friend colour with 3 or fewer discs on the plane
        ("missing-friends", ["..."], "base", 15),
        ("missing-friends", ["BBBB", "GGG.", "...."], "base", 10),
        ("missing-friends", ["B.B.B.B"], "base", 10),  # discs count, not groups
        ("missing-friends", ["BBBB", "GGGG", "YYYY"], "base", 0),
        # school-holidays: +4 per section with 3+ protected children
        ("school-holidays", ["RWRWRWR"], "base", 4),
        ("school-holidays", ["RWRWRWR|RWRWRWR"], "base", 8),
        ("school-holidays", ["RWRWR"], "base", 0),
        ("school-holidays", ["RWRWRW|."], "base", 4),  # the aisle protects the third...
        ("school-holidays", ["RWRWRW|."], "advanced", 0),  # ...but not in advanced
        # threes-company: +3 per group of exactly 3 friends of one colour
        ("threes-company", ["BBB.GGG.YYYY"], "base", 6),
        ("threes-company", ["BB", "B."], "base", 3),
        ("threes-company", ["BB|B"], "base", 0),
        ("threes-company", ["BB|B"], "advanced", 3),
        ("threes-company", ["BBB|B"], "base", 3),
        ("threes-company", ["BBB|B"], "advanced", 0),
    ],
)
def test_overbooked_event(event: str, rows: list[str], variant: str, points: int) -> None:
    assert event_points(event, rows, variant) == points


@pytest.mark.parametrize(
    ("planes", "variant", "points"),
    [
        ([["...", "RRR"], ["..R", "RRR"]], "base", [5, 0]),
        ([["..R", "RRR"], ["R..", "RRR"]], "base", [5, 5]),  # tied: both score
        ([["RRR"], ["RRR"]], "base", [0, 0]),  # no empty seat anywhere
        ([[".|."], ["..|R"]], "base", [0, 5]),
        ([[".|."], ["..|R"]], "advanced", [5, 5]),  # the patch crosses the aisle
        ([["..."]], "base", [0]),  # one player: nobody to compare with
    ],
)
def test_overbooked_event_low_season_blues(
    planes: list[list[str]], variant: str, points: list[int]
) -> None:
    result = score(
        {
            "variant": variant,
            "events": ["low-season-blues"],
            "players": [{"name": f"P{i}", "seats": rows, **COUNTS}
                        for i, rows in enumerate(planes)],
        }
    )
    assert [p["breakdown"]["low-season-blues"] for p in result["players"]] == points


def test_overbooked_events_add_up_in_the_order_given() -> None:
    result = score(
        {
            "events": ["kids-gone-wild", "full-flight"],
            "players": [{"name": "Ann", "seats": ["W.", "RR"], **COUNTS}],
        }
    )
    breakdown = result["players"][0]["breakdown"]
    assert list(breakdown)[-2:] == ["kids-gone-wild", "full-flight"]
    assert (breakdown["kids-gone-wild"], breakdown["full-flight"]) == (-2, 4)
    assert result["events"] == ["kids-gone-wild", "full-flight"]


# -- like-sardines: the search against brute force ------------------------------------------------


def _brute_force_squares(grid: Sequence[Sequence[bool]]) -> int:
    height, width = len(grid), len(grid[0])
    squares = [
        frozenset((row + down, column + across) for down in range(3) for across in range(3))
        for row in range(height - 2)
        for column in range(width - 2)
        if all(grid[row + down][column + across] for down in range(3) for across in range(3))
    ]
    for size in range(len(squares), 0, -1):
        for chosen in itertools.combinations(squares, size):
            if sum(len(square) for square in chosen) == len(frozenset().union(*chosen)):
                return size
    return 0


@given(
    st.integers(1, 7).flatmap(
        lambda width: st.lists(
            st.lists(st.booleans() | st.just(True), min_size=width, max_size=width),
            min_size=1,
            max_size=7,
        )
    )
)
def test_overbooked_like_sardines_finds_the_largest_set(grid: list[list[bool]]) -> None:
    assert most_disjoint_full_squares(grid) == _brute_force_squares(grid)
