"""What a plane holds, found once per player: groups, couples, protected children.

Rules enforced here (rules/CLARIFICATIONS.md, Overbooked):
- Connected means adjacent up, down, left or right. In the base rules an aisle is a barrier; in
  the advanced rules it is not (``across_aisles``). Event cards and solo scenarios follow the
  variant in play.
- A couple is a connected group of exactly 2 red discs. A red disc in a group of 1 or of 3+ is
  "lonely" (no couple). A horizontal couple has both discs in one row.
- A child is protected when every seat adjacent to it holds a non-child passenger: an empty seat
  or another child beside it spoils the protection, while a side with no adjacent seat (the
  plane's edge, or an aisle in the base rules) protects.
- A couple is surrounded (solo "Couples Retreat") when every seat adjacent to either disc, other
  than the pair's own two seats, is occupied; sides without a seat count as surrounded.
- Friends groups are connected groups of one friend colour; empty patches are connected groups
  of empty seats.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.games.overbooked.seatmap import FRIENDS, Passenger, Position, SeatMap

Group = frozenset[Position]


def connected_groups(
    seat_map: SeatMap, positions: Iterable[Position], *, across_aisles: bool
) -> tuple[Group, ...]:
    """Split ``positions`` into groups connected through ``positions`` only, in reading order."""
    remaining = set(positions)
    groups: list[Group] = []
    for start in sorted(remaining):
        if start not in remaining:
            continue
        remaining.discard(start)
        group = {start}
        frontier = [start]
        while frontier:
            seat = frontier.pop()
            for neighbour in seat_map.neighbours(seat, across_aisles=across_aisles):
                if neighbour in remaining:
                    remaining.discard(neighbour)
                    group.add(neighbour)
                    frontier.append(neighbour)
        groups.append(frozenset(group))
    return tuple(groups)


@dataclass(frozen=True)
class PlaneFacts:
    """One player's plane read under one variant's adjacency."""

    seat_map: SeatMap
    across_aisles: bool
    red_groups: tuple[Group, ...]
    children: frozenset[Position]
    protected_children: frozenset[Position]
    friend_groups: dict[Passenger, tuple[Group, ...]]
    empty_groups: tuple[Group, ...]

    @property
    def couples(self) -> tuple[Group, ...]:
        return tuple(group for group in self.red_groups if len(group) == 2)

    @property
    def horizontal_couples(self) -> tuple[Group, ...]:
        return tuple(couple for couple in self.couples if len({row for row, _ in couple}) == 1)

    @property
    def lonely_reds(self) -> int:
        return sum(len(group) for group in self.red_groups if len(group) != 2)

    @property
    def unprotected_children(self) -> frozenset[Position]:
        return self.children - self.protected_children

    @property
    def empty_seats(self) -> int:
        return sum(len(group) for group in self.empty_groups)

    @property
    def largest_empty_patch(self) -> int:
        return max((len(group) for group in self.empty_groups), default=0)

    def largest_group(self, colour: Passenger) -> int:
        return max((len(group) for group in self.friend_groups[colour]), default=0)

    def discs_of(self, colour: Passenger) -> int:
        return sum(len(group) for group in self.friend_groups[colour])

    @property
    def friend_groups_of_three_or_more(self) -> int:
        """Groups of 3+ of one friend colour, all three colours counted together."""
        return sum(
            1 for colour in FRIENDS for group in self.friend_groups[colour] if len(group) >= 3
        )

    def adjacent(self, position: Position) -> tuple[Position, ...]:
        return tuple(self.seat_map.neighbours(position, across_aisles=self.across_aisles))

    def is_surrounded(self, couple: Group) -> bool:
        return all(
            self.seat_map.occupant(neighbour) is not None
            for seat in couple
            for neighbour in self.adjacent(seat)
            if neighbour not in couple
        )


def analyse(seat_map: SeatMap, *, across_aisles: bool) -> PlaneFacts:
    """Read a plane: every group, couple and protected child under the given adjacency."""

    def groups_of(positions: Iterable[Position]) -> tuple[Group, ...]:
        return connected_groups(seat_map, positions, across_aisles=across_aisles)

    children = seat_map.positions_of(Passenger.CHILD)
    protected = frozenset(
        child
        for child in children
        if all(
            seat_map.occupant(neighbour) not in (None, Passenger.CHILD)
            for neighbour in seat_map.neighbours(child, across_aisles=across_aisles)
        )
    )
    return PlaneFacts(
        seat_map=seat_map,
        across_aisles=across_aisles,
        red_groups=groups_of(seat_map.positions_of(Passenger.COUPLE)),
        children=children,
        protected_children=protected,
        friend_groups={colour: groups_of(seat_map.positions_of(colour)) for colour in FRIENDS},
        empty_groups=groups_of(seat_map.empty_positions),
    )
