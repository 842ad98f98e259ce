"""Overbooked score entry's steps in whole sentences: the screen model's full-text fields.

The panel shows the plane as rows of letters and counts in big digits
(companion/ui/views/overbooked.py); a phone at the table has room for whole sentences.
One function a step (:func:`events`, :func:`seats`, :func:`count`, :func:`result`) gives the
step's name (``heading``), what to enter now (``say``; it names the event cards in play:
fifteen do not fit a phone's card as a list), what comes after it (``then``) and what every
button does now (``keys``). The view (overbooked.py) chooses the step once and pairs its
panel with these words; the panel's pixels do not change: these fields are never drawn.

Rules it keeps: a label names what the gesture does at this state and nothing it does not do
(no "Put in play" on a card in play, no "Take out" on one that is not, no "One less" at 0 or
"One more" at the top, no NEXT that pages once the scores are in is called anything but a
page).
"""

from __future__ import annotations

from typing import Any

from companion.games.overbooked.events import EVENT_CARDS, EVENT_IDS
from companion.games.overbooked.game import (
    MAX_COUNT,
    OCCUPANTS,
    OverbookedEntryState,
    count_of,
    player_name,
    seat_position,
)
from companion.games.overbooked.seatmap import COLOUR_NAMES
from companion.ui.screen import Words, counted

Keys = tuple[tuple[str, str], ...]
UNDO: Keys = (("hold_back", "Undo"),)

OCCUPANT_NAMES = {"R": "a couple (red)", "W": "a child (white)", "B": "a blue friend",
                  "G": "a green friend", "Y": "a yellow friend"}
COUNTS = {
    "overbooked": ("overbooked passengers", "How many passengers did {name} leave overbooked? "
                   "Each costs 2 points."),
    "vouchers": ("vouchers", "How many vouchers does {name} have left? Every 2 score 1 point."),
    "bonus-cards": ("bonus cards", "How many bonus cards does {name} hold in the 1-point suit? "
                    "Each scores 1 point."),
}


def _who(occupant: Any) -> str:
    return "empty" if occupant is None else OCCUPANT_NAMES.get(occupant.value, occupant.value)


def events(state: OverbookedEntryState) -> Words:
    """The ``events`` step: which event cards are in play."""
    event = EVENT_IDS[state.cursor]
    title = EVENT_CARDS[event].title
    keys: Keys = (("next", "Next card"),)
    keys += ((("down", "Take it out"),) if event in state.events
             else (("up", "Put it in play"),))
    # Fifteen cards do not fit a phone's card as a list: the card at the cursor, and the ones
    # in play, in words.
    chosen = ", ".join(EVENT_CARDS[e].title for e in EVENT_IDS if e in state.events)
    return {"heading": f"Event cards: {len(state.events)} in play",
            "say": f"Which event cards are in play this game? Card {state.cursor + 1} of "
                   f"{len(EVENT_IDS)}: {title}, "
                   f"{'in play' if event in state.events else 'not in play'}. In play: "
                   f"{chosen or 'none yet'}.",
            "then": "Next: the first plane's seats",
            "keys": (*keys, ("hold_next", "Events done"), *UNDO)}


def seats(state: OverbookedEntryState) -> Words:
    """The ``seats`` step: who sits in the cursor's seat of the player's plane."""
    seats = state.sheet.seats
    name = player_name(state.player)
    position = seat_position(seats, state.cursor)
    occupant = seats.occupant(position)
    index = OCCUPANTS.index(occupant)
    after = OCCUPANTS[(index + 1) % len(OCCUPANTS)]
    before = OCCUPANTS[(index - 1) % len(OCCUPANTS)]
    last = state.cursor + 1 >= seats.seat_count
    return {"heading": f"{name}'s plane: seat {state.cursor + 1} of {seats.seat_count}",
            "say": f"Seat {state.cursor + 1}, row {position[0] + 1}, holds {_who(occupant)}. "
                   "Set who sits there, then go on to the next seat.",
            "then": f"Next: {name}'s overbooked passengers" if last else "Next: the next seat",
            "keys": (("next", "Plane done" if last else "Next seat"),
                     ("up", f"Make it {_who(after)}"), ("down", f"Make it {_who(before)}"),
                     ("hold_next", "Plane done: the rest empty"), *UNDO)}


def count(state: OverbookedEntryState) -> Words:
    """The ``overbooked``, ``vouchers`` and ``bonus-cards`` steps: one count each."""
    what, question = COUNTS[state.step]
    name = player_name(state.player)
    value = count_of(state)
    keys: Keys = (("next", counted(value, what)),)
    if value < MAX_COUNT:
        keys += (("up", "One more"),)
    if value > 0:
        keys += (("down", "One less"),)
    following = {"overbooked": "vouchers",
                 "vouchers": "bonus cards" if state.advanced else "the next plane"}.get(
                     state.step, "the next plane")
    if following == "the next plane" and state.player + 1 >= len(state.sheets):
        following = "the scores"
    return {"heading": f"{name}: {what}", "say": f"{question.format(name=name)} Now {value}.",
            "then": f"Next: {following}", "keys": (*keys, *UNDO)}


def result(state: OverbookedEntryState, scored: dict[str, Any]) -> Words:
    """The result's pages (``scored``: the entry's result, game.result_of)."""
    totals = ", ".join(f"{player['name']} {player['total']} points"
                       for player in scored["players"])
    page = state.pages[state.page]
    if "solo" in scored:
        heading = "Game over: scenario " + ("won" if scored["solo"]["won"] else "lost")
    elif len(scored["winners"]) == 1:
        heading = f"Game over: {scored['winners'][0]} wins"
    else:
        heading = "Game over: a tie, " + ", ".join(scored["winners"])
    say = f"{totals}."
    if page.player is not None:
        entries = "; ".join(f"{_label(key)} {points:+d}" for key, points in page.entries)
        say = f"{player_name(page.player)}: {entries or 'nothing scored'}."
    return {"heading": heading, "say": say,
            "then": f"Page {state.page + 1} of {len(state.pages)}",
            "keys": (("next", "Next page"), ("down", "Next page"), ("up", "Page before"),
                     ("back", "Menu"), *UNDO)}


def _label(key: str) -> str:
    if key in EVENT_CARDS:
        return EVENT_CARDS[key].title
    for colour in COLOUR_NAMES.values():
        if key == f"friends-{colour}":
            return f"{colour} friends"
    return key.replace("-", " ")
