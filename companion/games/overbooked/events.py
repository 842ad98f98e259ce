"""The fifteen Overbooked event cards, as read by rules/CLARIFICATIONS.md.

Each event in play adds its points to every player's total under its id. Adjacency (groups,
couples, protection) follows the variant in play: aisles block in the base rules, not in the
advanced rules. Sections are always the blocks of columns between aisles.

- adorable-babies: +4 per protected child neither on the plane's edge nor in an aisle seat.
- buddy-time: +5 per section holding, for each friend colour, a connected group of 3+ of that
  colour inside the section.
- corner-seats: +6 if the four corner seats hold four different passenger types.
- couples-retreat: +4 per section holding at least 3 couples (exact red pairs).
- emergency-exit: +10 if every seat of the middle row (row ``rows // 2``) is occupied.
- family-vacation: +3 per couple with at least one disc adjacent to a protected child.
- full-flight: +4 per column with no empty seat.
- kids-gone-wild: -2 per child that is not protected.
- like-sardines: +3 per fully occupied 3 x 3 square inside one section, counting the largest
  set of squares that do not overlap.
- lonely-christmas: -3 per red disc that is not part of an exact pair.
- low-season-blues: +5 to each player whose largest connected group of empty seats is the
  largest (ties all score), size above 0.
- meteor-shower: +1 per 2 occupied window seats (rounded down).
- missing-friends: +5 per friend colour with 3 or fewer discs on the plane.
- school-holidays: +4 per section holding at least 3 protected children.
- threes-company: +3 per connected group of exactly 3 discs of one friend colour.

Our readings where the card is unclear:
- buddy-time: in the advanced rules a group may cross an aisle; only its part inside the
  section counts, connected without crossing the aisle ("inside the section").
- couples-retreat: a couple is an exact red pair under the variant's adjacency; it belongs to a
  section when both its discs are there (an advanced-rule couple across an aisle belongs to none).
- corner-seats: the four corners of the whole grid; an empty corner has no type, and the three
  friend colours are three different types.
- low-season-blues compares players, so like every majority it needs 2 or more players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.games.overbooked.analysis import PlaneFacts, connected_groups
from companion.games.overbooked.majorities import leaders
from companion.games.overbooked.seatmap import FRIENDS, Position
from companion.games.overbooked.squares import most_disjoint_full_squares

PlanePoints = Callable[[PlaneFacts], int]
TablePoints = Callable[[Sequence[PlaneFacts]], list[int]]


@dataclass(frozen=True)
class EventCard:
    """An event card: its id (the breakdown key), printed title, what it scores and how."""

    id: str
    title: str
    rule: str
    points: TablePoints


def _each_plane(points: PlanePoints) -> TablePoints:
    """An event that looks at one plane at a time."""

    def for_the_table(planes: Sequence[PlaneFacts]) -> list[int]:
        return [points(plane) for plane in planes]

    return for_the_table


def _sections(plane: PlaneFacts) -> tuple[range, ...]:
    return plane.seat_map.sections


def _in_section(position: Position, section: range) -> bool:
    return position[1] in section


# -- the cards, in the rulebook's order -----------------------------------------------------------


def adorable_babies(plane: PlaneFacts) -> int:
    seat_map = plane.seat_map
    return 4 * sum(
        1
        for child in plane.protected_children
        if not seat_map.is_on_edge(child) and not seat_map.is_aisle_seat(child)
    )


def buddy_time(plane: PlaneFacts) -> int:
    seat_map = plane.seat_map
    count = 0
    for section in _sections(plane):
        if all(
            any(
                len(group) >= 3
                for group in connected_groups(
                    seat_map,
                    (seat for seat in seat_map.positions_of(colour) if _in_section(seat, section)),
                    across_aisles=False,  # "inside the section": never across its aisles
                )
            )
            for colour in FRIENDS
        ):
            count += 1
    return 5 * count


def corner_seats(plane: PlaneFacts) -> int:
    occupants = [plane.seat_map.occupant(corner) for corner in plane.seat_map.corners]
    different_types = None not in occupants and len(set(occupants)) == 4
    return 6 if different_types else 0


def couples_retreat(plane: PlaneFacts) -> int:
    sections_with_three = sum(
        1
        for section in _sections(plane)
        if sum(
            1
            for couple in plane.couples
            if all(_in_section(seat, section) for seat in couple)
        )
        >= 3
    )
    return 4 * sections_with_three


def emergency_exit(plane: PlaneFacts) -> int:
    seat_map = plane.seat_map
    middle_row = seat_map.occupants[seat_map.middle_row]
    return 10 if all(occupant is not None for occupant in middle_row) else 0


def family_vacation(plane: PlaneFacts) -> int:
    return 3 * sum(
        1
        for couple in plane.couples
        if any(
            neighbour in plane.protected_children
            for seat in couple
            for neighbour in plane.adjacent(seat)
        )
    )


def full_flight(plane: PlaneFacts) -> int:
    seat_map = plane.seat_map
    full_columns = sum(
        1
        for column in range(seat_map.column_count)
        if all(line[column] is not None for line in seat_map.occupants)
    )
    return 4 * full_columns


def kids_gone_wild(plane: PlaneFacts) -> int:
    return -2 * len(plane.unprotected_children)


def like_sardines(plane: PlaneFacts) -> int:
    seat_map = plane.seat_map
    squares = sum(
        most_disjoint_full_squares(
            [[line[column] is not None for column in section] for line in seat_map.occupants]
        )
        for section in _sections(plane)
    )
    return 3 * squares


def lonely_christmas(plane: PlaneFacts) -> int:
    return -3 * plane.lonely_reds


def low_season_blues(planes: Sequence[PlaneFacts]) -> list[int]:
    largest = leaders([plane.largest_empty_patch for plane in planes])
    return [5 if index in largest else 0 for index in range(len(planes))]


def meteor_shower(plane: PlaneFacts) -> int:
    seat_map = plane.seat_map
    occupied_windows = sum(
        1 for seat in seat_map.seats if not seat.is_empty and seat_map.is_window_seat(seat.position)
    )
    return occupied_windows // 2


def missing_friends(plane: PlaneFacts) -> int:
    return 5 * sum(1 for colour in FRIENDS if plane.discs_of(colour) <= 3)


def school_holidays(plane: PlaneFacts) -> int:
    sections_with_three = sum(
        1
        for section in _sections(plane)
        if sum(1 for child in plane.protected_children if _in_section(child, section)) >= 3
    )
    return 4 * sections_with_three


def threes_company(plane: PlaneFacts) -> int:
    return 3 * sum(
        1 for colour in FRIENDS for group in plane.friend_groups[colour] if len(group) == 3
    )


EVENT_CARDS: dict[str, EventCard] = {
    card.id: card
    for card in (
        EventCard(
            "adorable-babies",
            "Adorable Babies",
            "+4 per protected child not on the plane's edge nor in an aisle seat",
            _each_plane(adorable_babies),
        ),
        EventCard(
            "buddy-time",
            "Buddy Time",
            "+5 per section with a group of 3+ of each friend colour",
            _each_plane(buddy_time),
        ),
        EventCard(
            "corner-seats",
            "Corner Seats",
            "+6 if the four corners hold four different passenger types",
            _each_plane(corner_seats),
        ),
        EventCard(
            "couples-retreat",
            "Couples' Retreat",
            "+4 per section with at least 3 couples",
            _each_plane(couples_retreat),
        ),
        EventCard(
            "emergency-exit",
            "Emergency Exit Assistance",
            "+10 if the entire middle row is full",
            _each_plane(emergency_exit),
        ),
        EventCard(
            "family-vacation",
            "Family Vacation",
            "+3 per couple next to a protected child",
            _each_plane(family_vacation),
        ),
        EventCard(
            "full-flight",
            "Full Flight",
            "+4 per column with no empty seat",
            _each_plane(full_flight),
        ),
        EventCard(
            "kids-gone-wild",
            "Kids Gone Wild",
            "-2 per child not protected",
            _each_plane(kids_gone_wild),
        ),
        EventCard(
            "like-sardines",
            "Like Sardines",
            "+3 per full 3 x 3 square in one section, squares not overlapping",
            _each_plane(like_sardines),
        ),
        EventCard(
            "lonely-christmas",
            "Lonely Christmas",
            "-3 per red disc not in an exact pair",
            _each_plane(lonely_christmas),
        ),
        EventCard(
            "low-season-blues",
            "Low Season Blues",
            "+5 for the largest empty patch (ties all score)",
            low_season_blues,
        ),
        EventCard(
            "meteor-shower",
            "Meteor Shower",
            "+1 per 2 occupied window seats",
            _each_plane(meteor_shower),
        ),
        EventCard(
            "missing-friends",
            "Missing Friends",
            "+5 per friend colour with 3 or fewer discs",
            _each_plane(missing_friends),
        ),
        EventCard(
            "school-holidays",
            "School Holidays",
            "+4 per section with at least 3 protected children",
            _each_plane(school_holidays),
        ),
        EventCard(
            "threes-company",
            "Three's Company",
            "+3 per group of exactly 3 friends of one colour",
            _each_plane(threes_company),
        ),
    )
}
"""Every event card by id, in the rulebook's order."""

EVENT_IDS: tuple[str, ...] = tuple(EVENT_CARDS)
