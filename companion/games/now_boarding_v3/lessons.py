"""The v3 prototype's lessons for a table new to it (``pace=teach``), as data (pure).

DESIGN.md rule 16, with the mechanism Now Boarding's lessons use (companion/core/lessons.py):
each lesson an id, a trigger (a pure predicate on the state), a title, two or three panel
lines, a page text of at most 60 words; no "More" link (the page's Rules view is the retail
game's). What this module promises:

- :func:`current_lesson` is the first lesson, in game order, whose trigger holds and whose
  id is not in ``state.lessons_seen``; only at ``pace=teach``, and never while a Departure's
  countdown runs or stands paused (a timed Departure teaches before NEXT starts its minute).
- ``lessons_seen`` changes only by the journaled NEXT that says "got it" (:func:`got_it`), so
  undo, resume and a power cut follow it.
- The lessons: the pitch at setup, the first Departure, the first Arrival, the first
  Purchase, the first Redeye, the Lost pile at the first day's end, the day's end (its last
  Purchase, the shuffle, the new city) and how the game is scored. The words are the
  project's own: rules/now-boarding-v3-prototype.txt is the source of the facts only.
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.game import GameAction, Play
from companion.core.lessons import Lesson, ShownLesson, answer, first_unseen
from companion.core.timer import TimerState
from companion.games.now_boarding_v3.score import is_redeye, lost_limit
from companion.games.now_boarding_v3.state import V3State


def _departure(state: V3State, redeye: bool) -> bool:
    return state.step == "departure" and is_redeye(state.round) == redeye


LESSONS: tuple[Lesson[V3State], ...] = (
    Lesson("pitch", "Welcome aboard",
           ("Send passengers on", "to the airport on", "their tile."),
           "Each of you runs a hub airport, later cities too. Passengers turn up wanting the "
           "airport printed on their tile, often someone else's. Pass them on by jet and "
           "commuter before their patience, the colour on top, runs from green through "
           "yellow to red. Three days of six rounds: deliver all you can together.",
           None, lambda s: s.step == "setup"),
    Lesson("departure", "Departure",
           ("Draw 1 per airport,", "load jets and", "commuters; send jets."),
           "Each of your airports draws one passenger, stood upright; one drawn at its own "
           "destination goes back for another. Load jets at your gates (two seats) and "
           "commuters (one seat, only between your own airports). Send a jet to a hub it can "
           "reach, at first a neighbour's, on their runway, facing them. Leave no jet in a "
           "gate.",
           None, lambda s: _departure(s, redeye=False)),
    Lesson("arrival", "Arrival",
           ("Runway jets: tarmac,", "then gates. Score or", "turn each passenger."),
           "Jets on your runway move to your tarmac, then into free gates. Everyone in a "
           "gated jet or a commuter gets off. A passenger standing at the airport on its tile "
           "scores: into your score pile, face up. Every other one, tarmac included, turns a "
           "quarter to the right; one turned past its red edge is lost (UP counts it).",
           None, lambda s: s.step == "arrival"),
    Lesson("purchase", "Purchase",
           ("Pay with face-up", "scored tiles, then", "turn them down."),
           "Pay with the prices on the face-up tiles of your score pile, then turn them face "
           "down: they still count at the end. No change is given. A $1 voucher turns a "
           "passenger back a quarter; concessions, commuters, gates and jets grow your "
           "network.",
           None, lambda s: s.step == "purchase"),
    Lesson("redeye", "The Redeye",
           ("Last round of the", "day: no new", "passengers."),
           "The sixth round of each day is the Redeye: nobody draws new passengers. Whoever "
           "is not home after its Arrival joins the Lost pile, unless a voucher at the day's "
           "last Purchase saves them. Fly everyone you can now.",
           None, lambda s: _departure(s, redeye=True)),
    Lesson("lost", "The Lost pile",
           ("Still away from home?", "Lost pile: UP adds", "each one."),
           "Every passenger still away from home goes to the Lost pile: UP adds each one, "
           "DOWN takes one back. Lost passengers never score. {limit}",
           None, lambda s: s.step == "redeye-lost"),
    Lesson("day-end", "The day's end",
           ("Spend all you can:", "the score piles go", "back to the supply."),
           "The day's last Purchase: spend all you can, since afterwards every score pile "
           "is shuffled back into the supply. Then each of you opens a new city and adds its "
           "tiles: one more airport, so one more passenger at every Departure.",
           None, lambda s: s.step == "final-purchase" and s.day < 3),
    Lesson("scoring", "Scoring",
           ("Total every scored", "tile; the box takes", "the average."),
           "Each of you totals the prices on every tile in your score pile, face up and face "
           "down alike, and enters it. The box adds the totals, divides by the number of "
           "players and rounds up: that is the table's score, rated from Keep trying! to "
           "PERFECT.",
           None, lambda s: s.step == "game-over"),
)

LESSON_IDS: tuple[str, ...] = tuple(lesson.id for lesson in LESSONS)


def lesson_fields(state: V3State) -> dict[str, object]:
    """The counts a lesson may name: the Lost pile's rule for this variant."""
    limit = lost_limit(state.players) if state.variant == "advanced" else None
    rule = (f"In this advanced game, more than {limit} lost loses at once." if limit
            else "In the basic game they only cost you points.")
    return {"limit": rule}


def current_lesson(state: V3State) -> ShownLesson | None:
    """The lesson the state shows now (see the module docstring), or None."""
    countdown = state.countdown
    if state.pace != "teach" or (state.step == "departure" and countdown is not None
                                 and countdown.state is not TimerState.IDLE):
        return None
    return first_unseen(LESSONS, state, state.lessons_seen, lesson_fields)


def got_it(state: V3State, action: GameAction) -> tuple[V3State, tuple[Play, ...]] | None:
    """NEXT while a lesson shows marks it seen; any other input of the game's is refused;
    None when no lesson shows."""
    lesson = current_lesson(state)
    if lesson is None:
        return None
    seen = answer(lesson, action)
    return replace(state, lessons_seen=(*state.lessons_seen, seen)), (Play("click"),)
