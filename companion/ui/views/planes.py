"""Planes' screens: the boarding track and the planes, the end trigger, score entry, result.

During play the five body lines are the colours (the cursor's line inverted) with their
plane's cubes; the title carries the track (``Track 7/12``). Every text keeps to the Screen
limits (tests check each screen of whole games). :func:`planes_screen` chooses the step once
and pairs the step's panel (here) with its whole sentences for the table page
(planes_words.py, never drawn on the panel).
"""

from __future__ import annotations

from typing import Any, assert_never

from companion.core.words import plural
from companion.games import planes
from companion.games.planes.game import (
    BOARD_COLOURS,
    PlanesState,
    colour_name,
    entering,
    full_colours,
    player_name,
    players_after,
    score_input,
    slots,
    track,
    trigger,
    turns_left,
)
from companion.ui.screen import LINE_WIDTH, Screen, fit
from companion.ui.views import planes_words as words
from companion.ui.views.menu import window

#: Plane lines shown at once: four fit above the status bar.
BOARD_LINES = 4

SCENES: dict[str, tuple[str, ...]] = {
    "planes-board": ("new planes players=3", "press up", "press next", "press up",
                     "press up", "press next", "press next", "press next", "press up"),
    "planes-trigger": ("new planes players=3 short=3", "press up", "press up",
                       "press next", "press up", "press up"),
    "planes-last-round": ("new planes players=3 short=3", "press up", "press up",
                          "press next", "press up", "press up", "press next"),
    "planes-goals": ("new planes players=2 short=2", "press up", "press up", "press next",
                     "hold next", "press up", "press up", "press next", "press up",
                     "press next", "press up", "press up", "press up"),
    "planes-boarded": ("new planes players=2 short=2", "press up", "press up", "press next",
                       "hold next", "press up", "press next", "hold next"),
    "planes-result": ("new planes players=2 short=2", "press up", "press up", "press next",
                      "hold next", "press up", "press up", "press next", "press up",
                      "hold next", "press next", "press up", "press up", "press up",
                      "hold next", "press next"),
    "planes-result-player": ("new planes players=2 short=2", "press up", "press up",
                             "press next", "hold next", "press up", "press up", "press next",
                             "press up", "hold next", "press next", "press up", "press up",
                             "press up", "hold next", "press next", "press next"),
}
"""Screens for ``companion render`` and the golden tests: protocol lines, last screen kept."""

TRIGGER_TEXT = {
    planes.TRIGGER_PLANE_FULL: "plane full",
    planes.TRIGGER_BOARDING_TRACK: "track at",
}


def _track_title(state: PlanesState) -> str:
    return f"Planes  Track {track(state)}/{state.mark}"


def _plane_line(state: PlanesState, index: int) -> str:
    """``Red    ###.. 3/5 P1``: the cubes on a colour's plane(s), who owns it."""
    size = slots(state, index)
    cubes = state.cubes[index]
    if size == 0:
        return f"{colour_name(index):<6} no plane"
    bar = "#" * cubes + "." * (size - cubes) if size <= planes.PLANE_SLOTS * 2 else ""
    owner = (f"P{index + 1}" if index < state.players
             else ("neutral" if index < len(planes.COLOURS) else ""))
    return f"{colour_name(index):<6} {bar} {cubes}/{size} {owner}".rstrip()


def _planes(state: PlanesState, title: str, main: str) -> Screen:
    """What to do in the large font, then four of the five planes at a time, scrolled so the
    cursor's colour always shows."""
    shown = window(len(BOARD_COLOURS), state.cursor, BOARD_LINES)
    lines = tuple(_plane_line(state, index) for index in shown)
    return Screen(title, lines, selected=state.cursor - shown.start, main=main,
                  more_above=shown.start > 0, more_below=shown.stop < len(BOARD_COLOURS))


def _board(state: PlanesState) -> Screen:
    return _planes(state, _track_title(state), "UP+1 DN-1 NEXT colour")


def _why(state: PlanesState) -> str:
    fired = trigger(state)
    if fired == planes.TRIGGER_PLANE_FULL:
        full = full_colours(state)
        return f"{full[0].capitalize()} plane is full." if full else "A plane is full."
    return f"Track reached {track(state)}/{state.mark}."


def _trigger(state: PlanesState) -> Screen:
    after = players_after(state)
    still = "Then: " + ", ".join(after) if after else "That ends the round."
    return Screen("END OF GAME TRIGGERED", (
        _why(state),
        f"  < {player_name(state.seat)} (P{state.seat + 1}) >",
        still,
    ), main="Whose turn was it?", status="UP/DN player  NEXT ok")


def _last_round(state: PlanesState) -> Screen:
    left = turns_left(state)
    title = f"Finish round: {plural(left, 'turn')}"
    if left == 0:
        title = "Round done: game over"
    return _planes(state, title, "hold NEXT: scores")


def _goals(state: PlanesState, seat: int) -> Screen:
    cards = state.cards
    count = len(cards)
    listed = "+".join(str(value) for value in cards) or "none yet"
    while len(listed) > LINE_WIDTH - 4 and "+" in listed:
        listed = "~" + listed.split("+", 1)[1].lstrip("~")
    draft = f"{state.draft} VP" if state.draft else "-"
    return Screen(f"{player_name(seat)}: goal cards", (
        f"{count} {_cards(count)} = {sum(cards)} VP",
        f"VP: {listed}",
        f"Card {count + 1}: {draft}",
    ), status="NEXT add  hold NEXT done")


def _boarded(state: PlanesState, seat: int) -> Screen:
    name = player_name(seat)
    return Screen(f"{name}: cubes boarded", big=f"{state.boarded}/{planes.CUBES_PER_PLAYER}",
                  caption=fit(f"{name} cubes on {name} plane", 25),
                  status="UP/DN set  NEXT confirm")


def _cards(count: int) -> str:
    return "card" if count == 1 else "cards"


TIE_BREAKS = (("boarded", "boarded cubes"), ("goal_cards", "goal cards"))
TIE_WORDS = {"boarded cubes": "cubes", "goal cards": "cards"}
"""The short words for the main line ("Yellow wins on cards" fits the large font)."""
"""The rulebook's tie-breaks in order (see games/planes/score.py): what the result names."""


def tie_break(result: dict[str, Any]) -> str | None:
    """Why the winner won a tie on points ("boarded cubes", "goal cards"), or None when no
    one else had as many points (or the tie stands)."""
    winners = result["winners"]
    players = {player["name"]: player for player in result["players"]}
    if len(winners) != 1:
        return None
    winner = players[winners[0]]
    level = [player for name, player in players.items()
             if name != winner["name"] and player["total"] == winner["total"]]
    for key, named in TIE_BREAKS:
        if any(player[key] < winner[key] for player in level):
            return named
        level = [player for player in level if player[key] == winner[key]]
    return None


def _result(state: PlanesState, result: dict[str, Any]) -> Screen:
    pages = state.players + 1
    status = f"NEXT/UP/DN page {state.page + 1}/{pages}"
    if state.page == 0:
        lines = []
        for place, names in enumerate(result["ranking"], start=1):
            for name in names:
                total = next(p["total"] for p in result["players"] if p["name"] == name)
                lines.append(f"{place}. {name:<7} {total:>3} VP")
        winners = result["winners"]
        why = tie_break(result)
        # The winner in the large font; level on points, also what broke the tie.
        if len(winners) > 1:
            main = f"{len(winners)}-way tie"
        elif why is not None:
            main = f"{winners[0]} wins on {TIE_WORDS[why]}"
        else:
            main = f"{winners[0]} wins"
        # Four players fill the body: the page keys then live in the title alone.
        return Screen(f"Planes: end, page 1/{pages}", tuple(lines), main=main,
                      status=status if len(lines) <= 3 else "")
    player = result["players"][state.page - 1]
    place = next(number for number, names in enumerate(result["ranking"], start=1)
                 if player["name"] in names)
    breakdown = player["breakdown"]
    cards = player["goal_cards"]
    return Screen(f"{player['name']}: place {place} of {len(result['ranking'])}", (
        f"Goals: {cards} {_cards(cards)}, {breakdown['goals']} VP",
        f"Cubes: {player['boarded']} x {planes.VP_PER_BOARDED_CUBE} = "
        f"{breakdown['boarded-cubes']} VP",
    ), main=f"{player['name']}: {player['total']} VP", status=status)


def planes_screen(state: PlanesState, now: float) -> Screen:
    """The screen for ``state`` (no clock in Planes; ``now`` is unused): the step's panel with
    its full-text fields, the step's whole sentences (planes_words.py). The match names every
    step of the game's ``Step`` and has no fallback: mypy says so when one is missing."""
    match state.step:
        case "board":
            return _board(state).with_words(words.board(state))
        case "trigger":
            return _trigger(state).with_words(words.trigger(state))
        case "last-round":
            return _last_round(state).with_words(words.last_round(state))
        case "goals":
            seat = entering(state)
            return _goals(state, seat).with_words(words.goals(state, seat))
        case "boarded":
            seat = entering(state)
            return _boarded(state, seat).with_words(words.boarded(state, seat))
        case "result":
            scored = planes.score(score_input(state))
            return _result(state, scored).with_words(words.result(state, scored))
    assert_never(state.step)
