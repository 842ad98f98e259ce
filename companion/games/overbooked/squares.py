"""The most non-overlapping, fully occupied 3 x 3 squares in a block of seats ("Like Sardines").

Rule enforced here: a square counts when all 9 of its seats are occupied; squares may touch but
not share a seat; the count is the largest such set (not the first one a greedy scan finds: a
greedy pick can block two squares that fit side by side).

How: a dynamic programme over the square's top-left seats in reading order. The state is, for
each column, how many rows from the current one onwards are already taken by a chosen square
(0 to 3). The grid is turned so the state runs along its shorter side; with the seat map's size
caps (:mod:`companion.games.overbooked.seatmap`) the number of states stays in the low thousands.
"""

from __future__ import annotations

from collections.abc import Sequence

SQUARE = 3


def _transposed(grid: Sequence[Sequence[bool]]) -> list[list[bool]]:
    return [list(column) for column in zip(*grid, strict=True)]


def _is_full_square(grid: Sequence[Sequence[bool]], row: int, column: int) -> bool:
    return all(
        grid[row + down][column + across] for down in range(SQUARE) for across in range(SQUARE)
    )


def most_disjoint_full_squares(occupied: Sequence[Sequence[bool]]) -> int:
    """How many 3 x 3 squares of all-True cells fit in ``occupied`` without sharing a cell."""
    grid: Sequence[Sequence[bool]] = occupied
    if grid and len(grid[0]) > len(grid):
        grid = _transposed(grid)
    height = len(grid)
    width = len(grid[0]) if grid else 0
    if height < SQUARE or width < SQUARE:
        return 0

    # best[state] = most squares chosen so far that leave the columns taken as in ``state``.
    best: dict[tuple[int, ...], int] = {(0,) * width: 0}
    for row in range(height - SQUARE + 1):
        if row > 0:
            best = _next_row(best)
        for column in range(width - SQUARE + 1):
            if not _is_full_square(grid, row, column):
                continue
            placed: dict[tuple[int, ...], int] = dict(best)
            for state, count in best.items():
                if any(state[column + across] for across in range(SQUARE)):
                    continue
                taken = (*state[:column], *(SQUARE,) * SQUARE, *state[column + SQUARE :])
                if placed.get(taken, -1) < count + 1:
                    placed[taken] = count + 1
            best = placed
    return max(best.values())


def _next_row(best: dict[tuple[int, ...], int]) -> dict[tuple[int, ...], int]:
    """Move every state one row down: each taken column has one row fewer ahead of it."""
    moved: dict[tuple[int, ...], int] = {}
    for state, count in best.items():
        shifted = tuple(max(rows - 1, 0) for rows in state)
        moved[shifted] = max(moved.get(shifted, 0), count)
    return moved
