"""Overbooked seat maps: the text format, geometry, board presets and bad-input messages."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.overbooked import (
    BOARD_PRESETS,
    Passenger,
    Seat,
    board_preset,
    parse_seat_map,
    score,
)
from companion.games.overbooked.seatmap import MAX_ROWS, MAX_SEATS_PER_ROW, MAX_SEATS_PER_SECTION
from companion.games.scoring import ScoreInputError

#: Every player of a score input gives these counts (issue #13: none defaults to 0).
COUNTS: dict[str, int] = {"overbooked": 0, "vouchers": 0, "bonus_cards": 0}

# -- parsing and geometry --------------------------------------------------------------------------


def test_overbooked_seatmap_reads_rows_columns_and_sections() -> None:
    seat_map = parse_seat_map(["RR.|BBG", "W..|.Y."])
    assert (seat_map.row_count, seat_map.column_count, seat_map.seat_count) == (2, 6, 12)
    assert seat_map.sections == (range(0, 3), range(3, 6))
    assert seat_map.aisles_before == frozenset({3})
    assert seat_map.occupant((0, 3)) is Passenger.BLUE
    assert seat_map.occupant((0, 2)) is None


def test_overbooked_seatmap_lists_seats_in_reading_order() -> None:
    seat_map = parse_seat_map(["R|W", "B|."])
    assert seat_map.seats == (
        Seat(0, 0, Passenger.COUPLE),
        Seat(0, 1, Passenger.CHILD),
        Seat(1, 0, Passenger.BLUE),
        Seat(1, 1, None),
    )


def test_overbooked_seatmap_maps_seat_columns_to_text_columns() -> None:
    seat_map = parse_seat_map(["RR|B|GY"])
    assert [seat_map.text_column(column) for column in range(5)] == [0, 1, 3, 5, 6]
    assert [seat_map.section_of(column) for column in range(5)] == [0, 0, 1, 2, 2]


def test_overbooked_seatmap_edits_one_seat_and_writes_the_text_back() -> None:
    seat_map = parse_seat_map(["...|...", "...|..."])
    edited = seat_map.with_occupant(1, 4, Passenger.YELLOW)
    assert edited.to_rows() == ("...|...", "...|.Y.")  # seat column 4: 2nd of section 2
    assert seat_map.to_rows() == ("...|...", "...|...")  # the original is untouched


@pytest.mark.parametrize(
    ("position", "across_aisles", "expected"),
    [
        ((0, 0), False, {(1, 0), (0, 1)}),
        ((1, 1), False, {(0, 1), (2, 1), (1, 0)}),  # the aisle is a barrier
        ((1, 1), True, {(0, 1), (2, 1), (1, 0), (1, 2)}),  # ...but not in the advanced rules
        ((1, 2), False, {(0, 2), (2, 2), (1, 3)}),
        ((2, 3), True, {(1, 3), (2, 2)}),
    ],
)
def test_overbooked_seatmap_neighbours(
    position: tuple[int, int], across_aisles: bool, expected: set[tuple[int, int]]
) -> None:
    seat_map = parse_seat_map(["..|..", "..|..", "..|.."])
    assert set(seat_map.neighbours(position, across_aisles=across_aisles)) == expected


def test_overbooked_seatmap_names_window_aisle_edge_corner_and_middle() -> None:
    seat_map = parse_seat_map(["...|...", "...|...", "...|...", "...|..."])
    assert [seat_map.is_window_seat((1, column)) for column in range(6)] == [
        True, False, False, False, False, True,
    ]
    assert [seat_map.is_aisle_seat((1, column)) for column in range(6)] == [
        False, False, True, True, False, False,
    ]
    assert seat_map.is_on_edge((0, 2)) and seat_map.is_on_edge((3, 1))
    assert not seat_map.is_on_edge((1, 1))
    assert seat_map.corners == ((0, 0), (0, 5), (3, 0), (3, 5))
    assert seat_map.middle_row == 2  # rows // 2 with 4 rows


@given(
    st.integers(1, 6).flatmap(
        lambda rows: st.lists(st.integers(1, 4), min_size=1, max_size=3).flatmap(
            lambda widths: st.lists(
                st.tuples(*(st.text("RWBGY.", min_size=w, max_size=w) for w in widths)),
                min_size=rows,
                max_size=rows,
            )
        )
    )
)
def test_overbooked_seatmap_text_round_trips(sections: list[tuple[str, ...]]) -> None:
    rows = ["|".join(row) for row in sections]
    assert list(parse_seat_map(rows).to_rows()) == rows


# -- board presets ---------------------------------------------------------------------------------


def test_overbooked_presets_four_player_side_is_two_sections_of_four_by_five() -> None:
    seat_map = parse_seat_map(board_preset("4-player"))
    assert seat_map.seat_count == 40
    assert [len(section) for section in seat_map.sections] == [4, 4]
    assert seat_map.row_count == 5


def test_overbooked_presets_small_side_has_three_sections() -> None:
    seat_map = parse_seat_map(BOARD_PRESETS["1-3-player"])
    assert len(seat_map.sections) == 3
    assert seat_map.seat_count == 50
    assert all(seat.is_empty for seat in seat_map.seats)


@pytest.mark.parametrize("side", sorted(BOARD_PRESETS))
def test_overbooked_presets_score_minus_one_per_empty_seat(side: str) -> None:
    rows = list(BOARD_PRESETS[side])
    result = score({"players": [{"name": "Ann", "seats": rows, **COUNTS}]})
    seats = parse_seat_map(rows).seat_count
    assert result["players"][0]["total"] == -seats


def test_overbooked_presets_unknown_side_is_refused() -> None:
    with pytest.raises(ScoreInputError, match="5-player"):
        board_preset("5-player")


# -- bad input -------------------------------------------------------------------------------------


def _game_with(**player: Any) -> dict[str, Any]:
    return {
        "players": [
            {"name": "Bo", "seats": ["RR.|BBG"], **COUNTS},
            {"name": "Ann", "seats": ["RR.|BBG", "W..|.Y."], **COUNTS, **player},
        ]
    }


@pytest.mark.parametrize(
    ("player", "fragments"),
    [
        # unknown seat letter: player, row, column (the character's place) and the letter
        ({"seats": ["RR.|BBG", "W..|.X."]}, ["player 'Ann'", "row 2, column 6", "'X'"]),
        ({"seats": ["RR.|BBG", "w..|..."]}, ["player 'Ann'", "row 2, column 1", "'w'"]),
        ({"seats": ["RR.|BBG", "W..|. ."]}, ["player 'Ann'", "row 2, column 6", "' '"]),
        # rows of different width
        ({"seats": ["RR.|BBG", "W..|.Y"]}, ["player 'Ann'", "row 2, column 7", "same width"]),
        ({"seats": ["RR.|BBG", "W..|.Y.."]}, ["player 'Ann'", "row 2, column 8", "same width"]),
        # aisles in different places
        ({"seats": ["RR.|BBG", "W.|..Y."]}, ["player 'Ann'", "row 2, column 3", "aisle"]),
        ({"seats": ["RR.|BBG", "W...Y.."]}, ["player 'Ann'", "row 2, column 4", "aisle"]),
        # an aisle must lie between two seats
        ({"seats": ["|RR.", "|..."]}, ["player 'Ann'", "row 1, column 1", "between two seats"]),
        ({"seats": ["RR.|", "...|"]}, ["player 'Ann'", "row 1, column 4", "between two seats"]),
        ({"seats": ["RR||B", "..||."]}, ["player 'Ann'", "row 1, column 4", "between two seats"]),
        # an empty plane, an empty row, the wrong types
        ({"seats": []}, ["player 'Ann'", "seats", "empty"]),
        ({"seats": ["RR.|BBG", ""]}, ["player 'Ann'", "row 2", "empty"]),
        ({"seats": "RR.|BBG"}, ["player 'Ann'", "seats", "list"]),
        ({"seats": ["RR.|BBG", 7]}, ["player 'Ann'", "row 2", "string"]),
        ({"seats": ["."] * (MAX_ROWS + 1)}, ["player 'Ann'", "seats", f"at most {MAX_ROWS}"]),
        (
            {"seats": ["|".join("." * 10 for _ in range(5))]},
            ["player 'Ann'", "seats", f"at most {MAX_SEATS_PER_ROW}"],
        ),
        (
            {"seats": ["..|" + "." * (MAX_SEATS_PER_SECTION + 1)]},
            ["player 'Ann'", "row 1, columns 4-16", f"at most {MAX_SEATS_PER_SECTION}"],
        ),
        # counts: whole numbers, not negative
        ({"overbooked": -1}, ["player 'Ann'", "overbooked", "at least 0"]),
        ({"vouchers": -2}, ["player 'Ann'", "vouchers", "at least 0"]),
        ({"bonus_cards": -1}, ["player 'Ann'", "bonus_cards", "at least 0"]),
        ({"vouchers": "6"}, ["player 'Ann'", "vouchers", "whole number"]),
        ({"overbooked": 1.5}, ["player 'Ann'", "overbooked", "whole number"]),
        ({"overbooked": True}, ["player 'Ann'", "overbooked", "whole number"]),
    ],
)
def test_overbooked_bad_player_input_names_player_row_and_column(
    player: dict[str, Any], fragments: list[str]
) -> None:
    with pytest.raises(ScoreInputError) as refused:
        score(_game_with(**player))
    for fragment in fragments:
        assert fragment in str(refused.value)


def test_overbooked_missing_seats_names_the_player() -> None:
    with pytest.raises(ScoreInputError, match="player 'Ann': missing field 'seats'"):
        score({"players": [{"name": "Ann"}]})


@pytest.mark.parametrize(
    ("game", "fragments"),
    [
        ({"variant": "expert"}, ["variant", "'expert'", "base or advanced"]),
        ({"variant": None}, ["variant", "None"]),
        ({"events": ["full-flight", "free-lunch"]}, ["events[1]", "'free-lunch'"]),
        ({"events": ["full-flight", "full-flight"]}, ["events[1]", "twice"]),
        ({"events": "full-flight"}, ["events", "list"]),
        ({"events": [["full-flight"]]}, ["events[0]", "unknown event"]),
        ({"players": []}, ["players", "at least 1"]),
        ({"players": [{"seats": ["R"]}]}, ["players[0]", "name"]),
        ({"solo": {"scenario": "schools-out"}}, ["solo", "exactly one player", "2"]),
    ],
)
def test_overbooked_bad_game_input_names_the_field(
    game: dict[str, Any], fragments: list[str]
) -> None:
    data = {
        "players": [{"name": "Ann", "seats": ["RR"], **COUNTS},
                    {"name": "Bo", "seats": ["RR"], **COUNTS}],
        **game,
    }
    with pytest.raises(ScoreInputError) as refused:
        score(data)
    for fragment in fragments:
        assert fragment in str(refused.value)


def test_overbooked_input_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(ScoreInputError, match="object"):
        score(["not", "an", "object"])  # type: ignore[arg-type]
