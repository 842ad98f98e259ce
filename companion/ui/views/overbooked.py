"""Overbooked score entry's screens: the plane being entered, the counts, the result pages.

- ``seats``: the plane as text rows, one letter per seat (``R W B G Y``, ``.`` empty) spaced
  out for reading at arm's length, ``|`` for an aisle; the cursor seat is in brackets; the title
  names the player, the seat number and who sits there in words. The five rows of a board fill
  the body, so this screen has no status line (and no inverted row: the small font's inverted
  bar cuts the letters' last pixel row).
- ``overbooked`` / ``vouchers`` / ``bonus-cards``: the count in big digits, what it scores.
- ``events``: three event cards at a time, ``[x]`` in play, the cursor card inverted.
- ``result``: the ranking (solo: the scenario won or lost and each condition), then each
  player's breakdown, one entry a line with its points.
Every text keeps to the Screen limits (tests check every screen of whole entries).
:func:`overbooked_screen` chooses the step once and pairs the step's panel (here) with its
whole sentences for the table page (overbooked_words.py, never drawn on the panel).
"""

from __future__ import annotations

from typing import Any, assert_never

from companion.games.overbooked.events import EVENT_CARDS, EVENT_IDS
from companion.games.overbooked.game import (
    OverbookedEntryState,
    count_of,
    player_name,
    result_of,
    seat_position,
)
from companion.games.overbooked.seatmap import COLOUR_NAMES, EMPTY, SeatMap
from companion.ui.screen import LINE_WIDTH, SMALL_LINE_WIDTH, TITLE_WIDTH, Screen, fit
from companion.ui.views import overbooked_words as words
from companion.ui.views.menu import window

_TWO = "new overbooked players=2"
_PLANE = ("press up", "press next", "press up", "press next", "press down", "press next",
          "press down", "press next", "press up", "press up", "press next",
          "press up", "press up", "press up", "press next", "press up", "press up",
          "press up", "press next", "press up", "press up", "press next")
_DONE = ("hold next", "press up", "press next", "press next")

SCENES: dict[str, tuple[str, ...]] = {
    "overbooked-events": ("new overbooked players=2 events=choose", "press up", "press next",
                          "press next", "press up", "press next"),
    "overbooked-seats": (_TWO, *_PLANE),
    "overbooked-seats-4p": ("new overbooked players=4", *_PLANE),
    "overbooked-overbooked": (_TWO, *_PLANE, "hold next", "press up"),
    "overbooked-vouchers": (_TWO, *_PLANE, "hold next", "press next", "press down"),
    "overbooked-bonus": ("new overbooked players=2 variant=advanced", *_PLANE, "hold next",
                         "press next", "press next", "press up"),
    "overbooked-ranking": ("new overbooked players=2 events=full-flight", *_PLANE, *_DONE,
                           "press up", "hold next", "press next", "press next"),
    "overbooked-breakdown": ("new overbooked players=2 events=full-flight", *_PLANE, *_DONE,
                             "press up", "hold next", "press next", "press next",
                             "press next"),
    "overbooked-solo": ("new overbooked players=1 scenario=couples difficulty=medium",
                        *_PLANE, "hold next", "press next", "press next"),
    "overbooked-refused": (_TWO, "hold next", "press down"),
}
"""Screens for ``companion render`` and the golden tests: protocol lines, last screen kept."""

OCCUPANT_WORDS = {"R": "Red", "W": "White", "B": "Blue", "G": "Green", "Y": "Yellow"}

COUNT_SCREENS = {
    "overbooked": ("Overbooked", "-2 pts each"),
    "vouchers": ("Vouchers", "+1 pt per 2 vouchers"),
    "bonus-cards": ("Bonus cards", "+1 pt each (1-pt suit)"),
}

BREAKDOWN_LABELS = {
    "couples": "Couples",
    "couples-majority": "Most h. couples",
    "children": "Children",
    "children-majority": "Most children",
    "group-majority": "Group majority",
    "bonus-cards": "Bonus cards",
    "vouchers": "Vouchers",
    "empty-seats": "Empty seats",
    "overbooked": "Overbooked",
    "most-overbooked": "Most overbooked",
    "emergency-exit": "Emergency Exit",
    **{f"friends-{colour}": f"{colour.title()} friends" for colour in COLOUR_NAMES.values()},
    **{f"friends-{colour}-majority": f"{colour.title()} largest"
       for colour in COLOUR_NAMES.values()},
}

CONDITION_LABELS = {
    "group-of-6-of-each-friend-colour": "6-group each colour",
    "3-couples-or-3-protected-children": "3 couples / 3 kids",
    "5-surrounded-couples": "5 surrounded couples",
    "friend-group-of-5-or-3-protected-children": "group of 5 / 3 kids",
    "8-protected-children": "8 protected kids",
    "friend-group-of-5-or-3-couples": "group of 5 / 3 couples",
    "vouchers-left": "vouchers left",
}

SCENARIO_TITLES = {
    "best-friends-forever": "Best Friends",
    "couples-retreat": "Couples Retreat",
    "schools-out": "School's Out",
}


def overbooked_screen(state: OverbookedEntryState, now: float) -> Screen:
    """The screen for ``state`` (nothing here depends on ``now``): the step's panel with its
    full-text fields, the step's whole sentences (overbooked_words.py). The match names every
    step of the game's ``Step`` and has no fallback: mypy says so when one is missing."""
    match state.step:
        case "events":
            return _events(state).with_words(words.events(state))
        case "seats":
            return _seats(state).with_words(words.seats(state))
        case "overbooked" | "vouchers" | "bonus-cards":
            return _count(state).with_words(words.count(state))
        case "result":
            scored = result_of(state)
            assert scored is not None, "the result step always holds its result"
            return _result(state, scored).with_words(words.result(state, scored))
    assert_never(state.step)


# -- entry ----------------------------------------------------------------------------------------


def plane_lines(seats: SeatMap, cursor: int | None) -> tuple[str, ...]:
    """The plane's rows as text: seats spaced out when they fit, the cursor seat in brackets."""
    rows = seats.to_rows()
    width = LINE_WIDTH if len(rows) <= 3 else SMALL_LINE_WIDTH
    spaced = 2 * len(rows[0]) + 1 <= width
    margin = (width - 2 * len(rows[0]) - 1) // 2
    position = seat_position(seats, cursor) if cursor is not None else None
    lines = []
    for row_index, row in enumerate(rows):
        cells = list(row)
        if spaced:
            line = list(" " * margin + " " + " ".join(cells) + " ")
            if position is not None and position[0] == row_index:
                place = margin + 1 + 2 * seats.text_column(position[1])
                line[place - 1], line[place + 1] = "[", "]"
            lines.append("".join(line).rstrip())
        else:
            if position is not None and position[0] == row_index:
                place = seats.text_column(position[1])
                cells[place] = "_" if cells[place] == EMPTY else cells[place].lower()
            lines.append("".join(cells))
    return tuple(lines)


SEAT_KEYS = "UP/DN who  NEXT seat"
SEAT_ROWS = 3


def _seats(state: OverbookedEntryState) -> Screen:
    seats = state.sheet.seats
    row, column = seat_position(seats, state.cursor)
    occupant = seats.occupant((row, column))
    who = "Empty" if occupant is None else OCCUPANT_WORDS[occupant.value]
    title = f"{player_name(state.player)} seat {state.cursor + 1}/{seats.seat_count} {who}"
    lines = plane_lines(seats, state.cursor)
    # The keys in the large font, three rows of the plane (scrolled to the cursor's row;
    # the rows fill the width, so no scroll arrows: the title counts the seats), and how
    # to finish early.
    shown = window(len(lines), row, SEAT_ROWS)
    return Screen(title, tuple(lines[i] for i in shown), main=SEAT_KEYS,
                  status="hold NEXT: plane is done")


def _count(state: OverbookedEntryState) -> Screen:
    label, worth = COUNT_SCREENS[state.step]
    players = len(state.sheets)
    title = f"{player_name(state.player)}/{players} {label}" if players > 1 else label
    return Screen(title, big=str(count_of(state)), caption="UP/DN set  NEXT confirm",
                  status=worth)


def _events(state: OverbookedEntryState) -> Screen:
    shown = window(len(EVENT_IDS), state.cursor)
    lines = tuple(fit(f"[{'x' if EVENT_IDS[i] in state.events else ' '}] {_label(EVENT_IDS[i])}",
                      LINE_WIDTH) for i in shown)
    title = f"Event {state.cursor + 1}/{len(EVENT_IDS)}: {len(state.events)} on"
    return Screen(title, lines, selected=state.cursor - shown.start,
                  status="UP on DN off hold NEXT=ok")


# -- result ---------------------------------------------------------------------------------------


def ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def _places(ranking: list[list[str]]) -> dict[str, int]:
    """Each name's place; players sharing a place push the next one down (1, 1, 3)."""
    places: dict[str, int] = {}
    place = 1
    for names in ranking:
        for name in names:
            places[name] = place
        place += len(names)
    return places


def _result(state: OverbookedEntryState, result: dict[str, Any]) -> Screen:
    page = state.pages[state.page]
    # Result pages: the page and its keys in the title, the headline in the large font.
    status = f"Page {state.page + 1}/{len(state.pages)} NEXT/DN> UP<"
    totals = {player["name"]: player["total"] for player in result["players"]}
    places = _places(result["ranking"])
    if page.player is None:
        if "solo" in result:
            return _solo(result, totals, status)
        lines = tuple(f"{ordinal(places[name])} {name}  {totals[name]:>3} pts"
                      for names in result["ranking"] for name in names)
        winners = " ".join(result["winners"])
        headline = f"{winners} wins!" if len(result["winners"]) == 1 else f"Tie: {winners}"
        return Screen(fit(status, TITLE_WIDTH), lines, main=fit(headline, LINE_WIDTH))
    name = player_name(page.player)
    part = f" {page.part}/{page.parts}" if page.parts > 1 else ""
    headline = f"{name} {totals[name]} pts {ordinal(places[name])}{part}"
    width = SMALL_LINE_WIDTH
    lines = tuple(f"{fit(_label(key), width - 5):<{width - 5}}{points:>+5}"
                  for key, points in page.entries)
    return Screen(fit(status, TITLE_WIDTH), lines or ("Nothing scored",),
                  main=fit(headline, LINE_WIDTH))


def _solo(result: dict[str, object], totals: dict[str, int], status: str) -> Screen:
    solo = result["solo"]
    assert isinstance(solo, dict)
    verdict = "WON" if solo["won"] else "LOST"
    headline = f"{SCENARIO_TITLES.get(solo['scenario'], 'Solo')} {verdict}"
    lines = [f"P1 {totals['P1']} pts  {solo['difficulty']}"]
    for key, held in solo["conditions"].items():
        lines.append(fit(f"{'ok' if held else '--'} {CONDITION_LABELS.get(key, key)}",
                         SMALL_LINE_WIDTH))
    return Screen(fit(status, TITLE_WIDTH), tuple(lines[:4]), main=fit(headline, LINE_WIDTH))


def _label(key: str) -> str:
    if key in BREAKDOWN_LABELS:
        return BREAKDOWN_LABELS[key]
    if key in EVENT_CARDS:
        return EVENT_CARDS[key].title
    return key

