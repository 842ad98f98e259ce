"""Advanced scoring of couples, children and friends (rulebook "Advanced Rules").

These replace the base categories; vouchers, empty seats and overbooked stay as in the base game.
Rules enforced here (aisles are no barrier for scoring in the advanced rules):
- ``children``: +5 per protected child; ``children-majority``: +5 to each player with the most
  protected children (above 0).
- ``couples``: +5 per couple (connected group of exactly 2 red); ``couples-majority``: +5 to each
  player with the most horizontal couples (both discs in one row, above 0).
- ``friends-<colour>``: every connected group of that colour scores by size:
  3-4 -> 5, 5-6 -> 10, 7-8 -> 15, 9+ -> 20 (1-2 -> 0).
- ``group-majority``: groups of 3+, all three friend colours counted together. Each player with
  the most groups scores 2 per group they have; each player with the second most (the next lower
  count) scores 1 per group. Counts of 0 score nothing.
- ``bonus-cards``: +1 per card of the "1 extra point" suit, as reported by the player.
- Every majority needs 2 or more players (see :mod:`companion.games.overbooked.majorities`).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.overbooked.analysis import PlaneFacts
from companion.games.overbooked.majorities import leaders, runners_up
from companion.games.overbooked.seatmap import COLOUR_NAMES, FRIENDS

POINTS_PER_PROTECTED_CHILD = 5
POINTS_FOR_MOST_PROTECTED_CHILDREN = 5
POINTS_PER_COUPLE = 5
POINTS_FOR_MOST_HORIZONTAL_COUPLES = 5
POINTS_PER_GROUP_IN_MOST_GROUPS = 2
POINTS_PER_GROUP_IN_SECOND_MOST_GROUPS = 1
POINTS_PER_BONUS_CARD = 1
FRIEND_GROUP_TIERS: tuple[tuple[int, int], ...] = ((9, 20), (7, 15), (5, 10), (3, 5))
"""(smallest group size, points), largest first."""


def friend_group_points(size: int) -> int:
    """What one friends group scores by its size: 3-4 -> 5, 5-6 -> 10, 7-8 -> 15, 9+ -> 20."""
    for smallest_size, points in FRIEND_GROUP_TIERS:
        if size >= smallest_size:
            return points
    return 0


def advanced_breakdowns(
    planes: Sequence[PlaneFacts], bonus_cards: Sequence[int]
) -> list[dict[str, int]]:
    """The advanced-rule categories of every player, in player order."""
    protected = [len(plane.protected_children) for plane in planes]
    horizontal = [len(plane.horizontal_couples) for plane in planes]
    groups = [plane.friend_groups_of_three_or_more for plane in planes]
    most_children = leaders(protected)
    most_horizontal = leaders(horizontal)
    most_groups = leaders(groups)
    second_most_groups = runners_up(groups)

    breakdowns = []
    for index, plane in enumerate(planes):
        breakdown = {
            "couples": POINTS_PER_COUPLE * len(plane.couples),
            "couples-majority": (
                POINTS_FOR_MOST_HORIZONTAL_COUPLES if index in most_horizontal else 0
            ),
            "children": POINTS_PER_PROTECTED_CHILD * protected[index],
            "children-majority": (
                POINTS_FOR_MOST_PROTECTED_CHILDREN if index in most_children else 0
            ),
        }
        for colour in FRIENDS:
            breakdown[f"friends-{COLOUR_NAMES[colour]}"] = sum(
                friend_group_points(len(group)) for group in plane.friend_groups[colour]
            )
        if index in most_groups:
            breakdown["group-majority"] = POINTS_PER_GROUP_IN_MOST_GROUPS * groups[index]
        elif index in second_most_groups:
            breakdown["group-majority"] = POINTS_PER_GROUP_IN_SECOND_MOST_GROUPS * groups[index]
        else:
            breakdown["group-majority"] = 0
        breakdown["bonus-cards"] = POINTS_PER_BONUS_CARD * bonus_cards[index]
        breakdowns.append(breakdown)
    return breakdowns
