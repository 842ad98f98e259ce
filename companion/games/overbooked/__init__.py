"""Overbooked: the pure scoring engine (rules/overbooked.txt as read by rules/CLARIFICATIONS.md).

- :func:`score` scores a finished game: CONTRACT.md section 4 in, the result object out.
- :func:`parse_seat_map` checks a plane in the text format and returns a :class:`SeatMap`
  (rows, columns, seats in reading order, sections, adjacency) for scoring and for a cursor.
- :data:`BOARD_PRESETS` / :func:`board_preset`: the empty planes of the two board sides.
- :data:`EVENT_CARDS`, :data:`SOLO_SCENARIOS`, :data:`VARIANTS`: the ids the input may name.

The modules: ``seatmap`` (format and geometry), ``analysis`` (groups, couples, protected
children), ``base`` and ``advanced`` (the variants' own categories), ``majorities``, ``events``
(the fifteen event cards), ``squares`` (Like Sardines), ``solo`` and ``score`` (the whole score).
``game`` is the box game (:class:`OverbookedEntry`). The tables live beside the rules that read
them (the board presets in ``seatmap``, the cards in ``events``, the scenarios in ``solo``), so
this game has no ``data`` module.
"""

from companion.games.overbooked.events import EVENT_CARDS, EVENT_IDS, EventCard
from companion.games.overbooked.game import OverbookedEntry
from companion.games.overbooked.score import VARIANTS, score
from companion.games.overbooked.seatmap import (
    BOARD_PRESETS,
    Passenger,
    Seat,
    SeatMap,
    board_preset,
    parse_seat_map,
)
from companion.games.overbooked.solo import SOLO_SCENARIOS, STARTING_VOUCHERS

__all__ = [
    "BOARD_PRESETS",
    "EVENT_CARDS",
    "EVENT_IDS",
    "SOLO_SCENARIOS",
    "STARTING_VOUCHERS",
    "VARIANTS",
    "EventCard",
    "OverbookedEntry",
    "Passenger",
    "Seat",
    "SeatMap",
    "board_preset",
    "parse_seat_map",
    "score",
]
