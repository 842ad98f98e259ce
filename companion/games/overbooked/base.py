"""Base scoring of couples, children and friends (rulebook "Scoring", CLARIFICATIONS.md).

Rules enforced here (aisles are barriers in the base rules):
- ``couples``: +5 per connected group of exactly 2 red discs (groups of 1 or 3+ score 0).
- ``children``: +3 per protected child.
- ``friends-<colour>`` for blue, green, yellow: +1 per disc in the player's largest group of
  that colour.
- ``friends-<colour>-majority``: +2 once when that group is at least as large as every other
  player's largest group of the colour (ties all score; 2 or more players; size at least 1).

Vouchers, empty seats and overbooked passengers are scored the same in both variants, in
:mod:`companion.games.overbooked.score`.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.overbooked.analysis import PlaneFacts
from companion.games.overbooked.majorities import leaders
from companion.games.overbooked.seatmap import COLOUR_NAMES, FRIENDS

POINTS_PER_COUPLE = 5
POINTS_PER_PROTECTED_CHILD = 3
POINTS_PER_FRIEND_IN_LARGEST_GROUP = 1
POINTS_FOR_LARGEST_GROUP_OF_A_COLOUR = 2


def base_breakdowns(planes: Sequence[PlaneFacts]) -> list[dict[str, int]]:
    """The base-rule categories of every player, in player order."""
    breakdowns = [
        {
            "couples": POINTS_PER_COUPLE * len(plane.couples),
            "children": POINTS_PER_PROTECTED_CHILD * len(plane.protected_children),
        }
        for plane in planes
    ]
    for colour in FRIENDS:
        name = f"friends-{COLOUR_NAMES[colour]}"
        largest = [plane.largest_group(colour) for plane in planes]
        biggest = leaders(largest)
        for index, breakdown in enumerate(breakdowns):
            breakdown[name] = POINTS_PER_FRIEND_IN_LARGEST_GROUP * largest[index]
            breakdown[f"{name}-majority"] = (
                POINTS_FOR_LARGEST_GROUP_OF_A_COLOUR if index in biggest else 0
            )
    return breakdowns
