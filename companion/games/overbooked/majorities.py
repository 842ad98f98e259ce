"""Who has the most (and the second most) of something, for the majority bonuses.

Rules enforced here (rules/CLARIFICATIONS.md, our reading where it is silent):
- Every player tied for the most gets the bonus.
- A majority needs 2 or more players: CLARIFICATIONS.md says so for the base friends and
  most-overbooked bonuses, and we read the advanced majorities and "Low Season Blues" the same
  way, since "the most" compares players and a solo player has no one to beat.
- A count of 0 never wins a majority.
- The second most is the next lower count than the most, above 0.
"""

from __future__ import annotations

from collections.abc import Sequence

MINIMUM_PLAYERS_FOR_A_MAJORITY = 2


def leaders(counts: Sequence[int]) -> frozenset[int]:
    """The indices of the players with the most (above 0), when 2 or more players compare."""
    if len(counts) < MINIMUM_PLAYERS_FOR_A_MAJORITY:
        return frozenset()
    most = max(counts)
    if most <= 0:
        return frozenset()
    return frozenset(index for index, count in enumerate(counts) if count == most)


def runners_up(counts: Sequence[int]) -> frozenset[int]:
    """The indices of the players with the second most: the next lower count, above 0."""
    if len(counts) < MINIMUM_PLAYERS_FOR_A_MAJORITY:
        return frozenset()
    lower = [count for count in counts if 0 < count < max(counts)]
    if not lower:
        return frozenset()
    second = max(lower)
    return frozenset(index for index, count in enumerate(counts) if count == second)
