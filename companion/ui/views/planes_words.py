"""Planes' steps in whole sentences: the screen model's full-text fields.

The panel shows the boarding track and the planes in cut lines (companion/ui/views/planes.py);
a phone at the table has room for whole sentences. One function a step (:func:`board`,
:func:`last_round`, :func:`trigger`, :func:`goals`, :func:`boarded`, :func:`result`) gives the
step's name (``heading``), what the table does now (``say``), what comes after it (``then``),
the planes as a list with the cursor's colour selected (``choices``, ``chosen``) and what
every button does now (``keys``). The view (planes.py) chooses the step once and pairs its
panel with these words; the panel's pixels do not change: these fields are never drawn.

Rules it keeps: a label names what the gesture does at this state and nothing it does not do
(no "Board" on a full plane or a missing grey plane, no "Take back" on an empty one, no
"Add the card" before it has a value, no hold NEXT before the end is triggered).
"""

from __future__ import annotations

from typing import Any

from companion.core.words import plural
from companion.games import planes
from companion.games.planes import game
from companion.games.planes.data import CUBES_PER_PLAYER
from companion.games.planes.game import (
    BOARD_COLOURS,
    MAX_GOAL_VP,
    PlanesState,
    colour_name,
    full_colours,
    player_name,
    players_after,
    slots,
    track,
    turns_left,
)
from companion.ui.screen import Words, counted

Keys = tuple[tuple[str, str], ...]
UNDO: Keys = (("hold_back", "Undo"),)


def _plane(state: PlanesState, index: int) -> str:
    size = slots(state, index)
    if size == 0:
        return f"{colour_name(index)}: no plane"
    owner = (f", P{index + 1}'s" if index < state.players
             else ", neutral" if index < len(planes.COLOURS) else "")
    return f"{colour_name(index)}: {state.cubes[index]} of {size} cubes{owner}"


def _planes(state: PlanesState, heading: str, say: str, then: str, more: Keys = ()) -> Words:
    """The planes as a list, the cursor's colour chosen, and the keys that board its cubes
    (then ``more``)."""
    index = state.cursor
    name = colour_name(index)
    cubes, size = state.cubes[index], slots(state, index)
    keys: Keys = (("next", f"Next colour: {colour_name((index + 1) % len(BOARD_COLOURS))}"),)
    if size > 0 and cubes < size:
        keys += (("up", f"Board a {name} cube"),)
    if cubes > 0:
        keys += (("down", f"Take a {name} cube back"),)
    return {"heading": heading, "say": say, "then": then,
            "choices": tuple(_plane(state, i) for i in range(len(BOARD_COLOURS))),
            "chosen": index, "keys": (*keys, *more, *UNDO)}


def board(state: PlanesState) -> Words:
    """The ``board`` step: cubes go on the planes, the track counts them."""
    say = (f"Each cube boarded on any plane moves the boarding token one space: it is at "
           f"{track(state)} of {state.mark}. Pick a colour, then board its cubes as they go "
           "on.")
    then = f"The game ends after the round a plane fills or the track reaches {state.mark}"
    return _planes(state, f"Planes: boarding track {track(state)} of {state.mark}", say, then)


def last_round(state: PlanesState) -> Words:
    """The ``last-round`` step: boarding goes on until the round is done."""
    left = turns_left(state)
    say = (f"The end is triggered: {plural(left, 'more turn')} to finish "
           "the round, then the game ends. Keep boarding cubes until then."
           if left else "The round is done: the game is over. Hold NEXT for the scores.")
    return _planes(state, "Planes: the last round", say, "Next: the goal cards",
                   (("hold_next", "End the game: scores"),))


def trigger(state: PlanesState) -> Words:
    """The ``trigger`` step: whose turn triggered the end."""
    fired = game.trigger(state)
    if fired == planes.TRIGGER_PLANE_FULL:
        full = full_colours(state)
        why = f"The {full[0]} plane is full." if full else "A plane is full."
    else:
        why = f"The boarding track reached {track(state)} of {state.mark}."
    after = players_after(state)
    still = (f"Still to play this round: {', '.join(after)}." if after
             else "That ends the round.")
    return {"heading": "End of the game triggered",
            "say": f"{why} Whose turn was it? {player_name(state.seat)}, P{state.seat + 1}. "
                   f"{still}",
            "then": "Next: finish the round",
            "choices": tuple(player_name(seat) for seat in range(state.players)),
            "chosen": state.seat,
            "keys": (("next", f"It was {player_name(state.seat)}'s turn"),
                     ("up", "Next player"), ("down", "Player before"), *UNDO)}


def goals(state: PlanesState, seat: int) -> Words:
    """The ``goals`` step: ``seat``'s goal cards, one card's VP at a time."""
    name = player_name(seat)
    cards = state.cards
    listed = ", ".join(f"{value} VP" for value in cards) or "none yet"
    keys: Keys = ()
    if state.draft:
        keys += (("next", f"Add a {state.draft} VP card"),)
    keys += (("hold_next", "Cards done"),)
    if state.draft < MAX_GOAL_VP:
        keys += (("up", "One VP more"),)
    if state.draft:
        keys += (("down", "One VP less"),)
    return {"heading": f"{name}: goal cards",
            "say": f"{name}, enter each goal card you scored: its VP with UP and DOWN, then "
                   f"add it. So far {len(cards)}: {listed} ({sum(cards)} VP). This card: "
                   f"{state.draft or 'no value yet'}.",
            "then": f"Next: {name}'s cubes on their own plane", "keys": (*keys, *UNDO)}


def boarded(state: PlanesState, seat: int) -> Words:
    """The ``boarded`` step: ``seat``'s cubes on their own plane."""
    name = player_name(seat)
    keys: Keys = (("next", f"{name} boarded {state.boarded}"),)
    if state.boarded < CUBES_PER_PLAYER:
        keys += (("up", "One cube more"),)
    if state.boarded:
        keys += (("down", "One cube less"),)
    last = seat + 1 == state.players
    return {"heading": f"{name}: cubes on their own plane",
            "say": f"How many of {name}'s cubes are on {name}'s own plane? Each is worth "
                   f"{planes.VP_PER_BOARDED_CUBE} VP. Now {state.boarded}.",
            "then": "Next: the result" if last else f"Next: {player_name(seat + 1)}'s goal cards",
            "keys": (*keys, *UNDO)}


def result(state: PlanesState, scored: dict[str, Any]) -> Words:
    """The result's pages (``scored``: the game's score of ``state``, planes.score)."""
    pages = state.players + 1
    winners = scored["winners"]
    totals = ", ".join(f"{player['name']} {player['total']} VP" for player in scored["players"])
    if state.page == 0:
        heading = ("Game over: " + " and ".join(winners) + " tie" if len(winners) > 1
                   else f"Game over: {winners[0]} wins")
        say = f"{totals}."
    else:
        player = scored["players"][state.page - 1]
        breakdown = player["breakdown"]
        heading = f"Game over: {player['name']}, {player['total']} VP"
        say = (f"{player['name']}: {counted(player['goal_cards'], 'goal cards')}, "
               f"{breakdown['goals']} VP; {counted(player['boarded'], 'cubes')} on their own "
               f"plane, {breakdown['boarded-cubes']} VP.")
    return {"heading": heading, "say": say, "then": f"Page {state.page + 1} of {pages}",
            "keys": (("next", "Next page"), ("up", "Next page"), ("down", "Page before"),
                     ("back", "Menu"), *UNDO)}
