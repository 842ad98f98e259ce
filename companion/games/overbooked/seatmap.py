"""Overbooked seat maps: the text format, its checks, the plane's geometry and the board presets.

The format (rules/CLARIFICATIONS.md, "The seat map") is one text row per seat row, every row the
same width:

    R couple (red)   W child (white)   B G Y friends (blue, green, yellow)
    . empty seat     | an aisle between two seats

Rules enforced here:
- Every character is one of ``RWBGY.|``; letters are upper case.
- Every row has the same width and its aisles in the same places, so the ``|`` positions split the
  plane into sections (blocks of seat columns between aisles). An aisle lies between two seats:
  never at the start or end of a row, never two side by side.
- A plane has at least one row, and every row at least one seat.
- A plane has at most :data:`MAX_ROWS` rows, :data:`MAX_SEATS_PER_ROW` seats per row and
  :data:`MAX_SEATS_PER_SECTION` seats across a section. No printed board comes near (the largest
  is 5 rows of 10 seats); the caps keep the exact like-sardines search fast on a Raspberry Pi
  whatever a score file holds.

Geometry (same file):
- Seat columns are counted without the aisles; ``column`` always means a seat column, counted
  from 0. Error messages count rows and text characters from 1, as a person reading the file does.
- Adjacent means up, down, left, right. Across an aisle two seats are adjacent only when aisles
  are no barrier (the advanced rules); :meth:`SeatMap.neighbours` takes that as a flag.
- Window seats are the first and last seat columns; aisle seats are those beside a ``|``; the
  plane's edge is its first and last row and its window columns; corners are the four corners of
  the whole grid; the middle row is ``rows // 2`` (counting from 0).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.games.scoring import ScoreInputError

AISLE = "|"
EMPTY = "."
MAX_ROWS = 40
MAX_SEATS_PER_ROW = 40
MAX_SEATS_PER_SECTION = 12


class Passenger(StrEnum):
    """A passenger disc, named by what it stands for; the value is its letter in a seat map."""

    COUPLE = "R"
    CHILD = "W"
    BLUE = "B"
    GREEN = "G"
    YELLOW = "Y"


FRIENDS: tuple[Passenger, ...] = (Passenger.BLUE, Passenger.GREEN, Passenger.YELLOW)
COLOUR_NAMES: dict[Passenger, str] = {
    Passenger.COUPLE: "red",
    Passenger.CHILD: "white",
    Passenger.BLUE: "blue",
    Passenger.GREEN: "green",
    Passenger.YELLOW: "yellow",
}
SEAT_LETTERS = "RWBGY."

Position = tuple[int, int]
"""(row, seat column), both counted from 0."""


@dataclass(frozen=True)
class Seat:
    """One seat: where it is (seat column, aisles not counted) and who sits there (None: empty)."""

    row: int
    column: int
    occupant: Passenger | None

    @property
    def position(self) -> Position:
        return (self.row, self.column)

    @property
    def is_empty(self) -> bool:
        return self.occupant is None


@dataclass(frozen=True)
class SeatMap:
    """A checked plane. Build it with :func:`parse_seat_map`; it never holds an invalid plane.

    ``occupants[row][column]`` is the passenger in a seat (None when empty); ``aisles_before``
    holds every seat column that has an aisle on its left.
    """

    occupants: tuple[tuple[Passenger | None, ...], ...]
    aisles_before: frozenset[int]

    # -- size and cells, for scoring and for a cursor moving over the plane --------------------

    @property
    def row_count(self) -> int:
        return len(self.occupants)

    @property
    def column_count(self) -> int:
        return len(self.occupants[0])

    @property
    def seat_count(self) -> int:
        return self.row_count * self.column_count

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Every seat in reading order: row by row from the top, left to right."""
        return tuple(
            Seat(row, column, occupant)
            for row, line in enumerate(self.occupants)
            for column, occupant in enumerate(line)
        )

    def occupant(self, position: Position) -> Passenger | None:
        row, column = position
        return self.occupants[row][column]

    def seat(self, row: int, column: int) -> Seat:
        return Seat(row, column, self.occupants[row][column])

    def text_column(self, column: int) -> int:
        """Where a seat column sits in a row's text (counted from 0), aisles included."""
        return column + sum(1 for aisle in self.aisles_before if aisle <= column)

    def with_occupant(self, row: int, column: int, occupant: Passenger | None) -> SeatMap:
        """A copy of the plane with one seat changed (for an editor on the box)."""
        line = list(self.occupants[row])
        line[column] = occupant
        occupants = (*self.occupants[:row], tuple(line), *self.occupants[row + 1 :])
        return SeatMap(occupants=occupants, aisles_before=self.aisles_before)

    def to_rows(self) -> tuple[str, ...]:
        """The plane in the text format, the inverse of :func:`parse_seat_map`."""
        rows = []
        for line in self.occupants:
            text = []
            for column, occupant in enumerate(line):
                if column in self.aisles_before:
                    text.append(AISLE)
                text.append(EMPTY if occupant is None else occupant.value)
            rows.append("".join(text))
        return tuple(rows)

    # -- geometry -------------------------------------------------------------------------------

    @property
    def sections(self) -> tuple[range, ...]:
        """The blocks of seat columns between aisles, left to right."""
        starts = [0, *sorted(self.aisles_before)]
        ends = [*sorted(self.aisles_before), self.column_count]
        return tuple(range(start, end) for start, end in zip(starts, ends, strict=True))

    def section_of(self, column: int) -> int:
        return sum(1 for aisle in self.aisles_before if aisle <= column)

    def neighbours(self, position: Position, *, across_aisles: bool) -> Iterator[Position]:
        """The seats adjacent to one seat: up, down, left, right.

        A seat across an aisle is a neighbour only when ``across_aisles`` (the advanced rules).
        """
        row, column = position
        if row > 0:
            yield (row - 1, column)
        if row < self.row_count - 1:
            yield (row + 1, column)
        if column > 0 and (across_aisles or column not in self.aisles_before):
            yield (row, column - 1)
        right = column + 1
        if right < self.column_count and (across_aisles or right not in self.aisles_before):
            yield (row, right)

    def is_window_seat(self, position: Position) -> bool:
        return position[1] in (0, self.column_count - 1)

    def is_aisle_seat(self, position: Position) -> bool:
        column = position[1]
        return column in self.aisles_before or column + 1 in self.aisles_before

    def is_on_edge(self, position: Position) -> bool:
        row, _ = position
        return row in (0, self.row_count - 1) or self.is_window_seat(position)

    @property
    def corners(self) -> tuple[Position, Position, Position, Position]:
        last_row, last_column = self.row_count - 1, self.column_count - 1
        return ((0, 0), (0, last_column), (last_row, 0), (last_row, last_column))

    @property
    def middle_row(self) -> int:
        return self.row_count // 2

    def positions_of(self, passenger: Passenger) -> frozenset[Position]:
        return frozenset(seat.position for seat in self.seats if seat.occupant is passenger)

    @property
    def empty_positions(self) -> frozenset[Position]:
        return frozenset(seat.position for seat in self.seats if seat.is_empty)


# -- parsing --------------------------------------------------------------------------------------


def parse_seat_map(rows: object, where: str = "seats") -> SeatMap:
    """Check a plane in the text format and build its :class:`SeatMap`.

    ``rows`` is the decoded JSON value (a list of strings). ``where`` starts every error message,
    e.g. ``"player 'Ann': seats"``; the message then names the row and column (counted from 1,
    the column being the character's place in the row's text) and what is wrong.
    """
    if isinstance(rows, str) or not isinstance(rows, Sequence):
        raise ScoreInputError(f"{where}: expected a list of seat rows, got {type(rows).__name__}")
    if not rows:
        raise ScoreInputError(f"{where}: the plane is empty (no seat rows)")
    if len(rows) > MAX_ROWS:
        raise ScoreInputError(f"{where}: {len(rows)} rows, at most {MAX_ROWS} are allowed")
    texts = [_row_text(row, index, where) for index, row in enumerate(rows)]
    first = texts[0]
    aisle_places = _aisle_places(first, where)
    for index, text in enumerate(texts[1:], start=1):
        _check_same_shape(text, index, first, aisle_places, where)
    occupants = tuple(
        tuple(_passenger_of(letter) for letter in text if letter != AISLE) for text in texts
    )
    seats_per_row = len(occupants[0])
    if seats_per_row > MAX_SEATS_PER_ROW:
        raise ScoreInputError(
            f"{where}: {seats_per_row} seats per row, at most {MAX_SEATS_PER_ROW} are allowed"
        )
    _check_section_widths(first, aisle_places, where)
    # The aisle at text index i has i - (aisles before it) seats on its left.
    aisles_before = frozenset(place - count for count, place in enumerate(aisle_places))
    return SeatMap(occupants=occupants, aisles_before=aisles_before)


def _row_text(row: object, index: int, where: str) -> str:
    label = f"{where} row {index + 1}"
    if not isinstance(row, str):
        raise ScoreInputError(f"{label}: expected a string of seat letters, got {row!r}")
    if not row:
        raise ScoreInputError(f"{label}: the row is empty (no seats)")
    for place, letter in enumerate(row):
        if letter != AISLE and letter not in SEAT_LETTERS:
            raise ScoreInputError(
                f"{label}, column {place + 1}: unknown seat letter {letter!r} "
                "(expected R, W, B, G, Y, '.' for an empty seat or '|' for an aisle)"
            )
    return row


def _aisle_places(text: str, where: str) -> list[int]:
    """Where row 1 has its aisles (text indices), after checking each lies between two seats."""
    places = [place for place, letter in enumerate(text) if letter == AISLE]
    for place in places:
        if place in (0, len(text) - 1) or text[place - 1] == AISLE:
            raise ScoreInputError(
                f"{where} row 1, column {place + 1}: an aisle '|' must lie between two seats"
            )
    return places


def _check_same_shape(
    text: str, index: int, first: str, aisle_places: list[int], where: str
) -> None:
    label = f"{where} row {index + 1}"
    if len(text) != len(first):
        # The first column where the two rows stop matching: one of them has ended.
        column = min(len(text), len(first)) + 1
        raise ScoreInputError(
            f"{label}, column {column}: the row is {len(text)} characters wide, but row 1 is "
            f"{len(first)} (every row must have the same width)"
        )
    for place, letter in enumerate(text):
        if (letter == AISLE) != (place in aisle_places):
            what = "an aisle '|'" if letter == AISLE else f"a seat {letter!r}"
            expected = "an aisle" if place in aisle_places else "a seat"
            raise ScoreInputError(
                f"{label}, column {place + 1}: {what} where row 1 has {expected} "
                "(every row must have its aisles in the same places)"
            )


def _check_section_widths(text: str, aisle_places: list[int], where: str) -> None:
    starts = [0, *(place + 1 for place in aisle_places)]
    ends = [*aisle_places, len(text)]
    for start, end in zip(starts, ends, strict=True):
        if end - start > MAX_SEATS_PER_SECTION:
            raise ScoreInputError(
                f"{where} row 1, columns {start + 1}-{end}: a section of {end - start} seats, "
                f"at most {MAX_SEATS_PER_SECTION} are allowed between aisles"
            )


def _passenger_of(letter: str) -> Passenger | None:
    return None if letter == EMPTY else Passenger(letter)


# -- the two sides of the printed player board ----------------------------------------------------


def _empty_rows(section_widths: Sequence[int], row_count: int) -> tuple[str, ...]:
    row = AISLE.join(EMPTY * width for width in section_widths)
    return (row,) * row_count


BOARD_PRESETS: dict[str, tuple[str, ...]] = {
    # FACTS.md: 40 seats in two sections of 4 x 5; we draw each section 4 seats across and
    # 5 rows long, so both sides of the board are planes 5 rows long.
    "4-player": _empty_rows((4, 4), 5),
    # FACTS.md gives no size for this side. Our chosen default: three sections 3-4-3 across,
    # 5 rows long (50 seats), a wide-body cabin that holds the 50 discs each player can get
    # in a 2- or 3-player game (100 or 150 discs shared out). Override it in configuration.
    "1-3-player": _empty_rows((3, 4, 3), 5),
}
"""The empty seat maps of the two board sides, by name, in the text format."""


def board_preset(name: str) -> tuple[str, ...]:
    """The empty seat map of a board side: ``"4-player"`` or ``"1-3-player"``.

    ``"4-player"``: two sections of 4 seats across by 5 rows (40 seats, FACTS.md).
    ``"1-3-player"``: our chosen default, three sections 3, 4 and 3 seats across by 5 rows
    (50 seats); FACTS.md does not give this side's size, so configuration may replace it.
    """
    try:
        return BOARD_PRESETS[name]
    except KeyError:
        known = ", ".join(BOARD_PRESETS)
        raise ScoreInputError(f"board: unknown board side {name!r} (expected {known})") from None
