"""Now Boarding's lessons for a table new to the game (``pace=teach``), as data (pure).

DESIGN.md rule 16, "Teaching is data": each lesson is an id, a trigger (a pure predicate on
the state), a title, the panel's lines, the page's text and the Rules view section its
"More" opens (companion/core/lessons.py holds the mechanism every game shares). What this
module promises:

- :func:`current_lesson` names the lesson the state shows, or None: the first lesson of
  :data:`LESSONS` (in game order) whose trigger holds and whose id is not in
  ``state.lessons_seen``. Only at ``pace=teach``; never during the ``flight`` step, so never
  over a running countdown (nor over the practice flight, whose NEXT ends it).
- Which lessons were seen is game state (``lessons_seen``), changed only by the journaled
  NEXT that says "got it" (game.py), so undo, resume and a power cut follow it: a lesson seen
  stays seen when a later action is undone, and a replayed journal shows none twice.
- Sizes (tests/games/test_now_boarding_lessons.py holds every lesson to them): a title of at
  most 21 characters (the panel's title bar), two or three panel lines of at most 21
  characters (the 12 px font), a page text of at most 60 words; the lessons a table meets
  before its first flight come to at most 250 words together (two minutes of reading).
- The words are the project's own: rules/now-boarding.txt is the source of the facts only.
- :data:`SETUP_WHY`: at ``pace=teach`` each setup page also says why, in one sentence.

Texts may hold ``{fields}`` filled from :func:`lesson_fields` (the counts the result lesson
explains); every lesson is filled the same way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.core.game import GameAction, Play
from companion.core.lessons import Lesson, ShownLesson, answer, first_unseen
from companion.core.words import plural
from companion.games.now_boarding.data import COMPLAINT_LIMIT, REMOVED_AIRPORTS, STAGES
from companion.games.now_boarding.rules import NowBoardingState, deck_empty, vip_left

#: The Rules view's sections (the page's ``#rules/<section>``): a lesson's ``more`` is one.
RULES_SECTIONS = ("goal", "setup", "round", "flight", "planes", "moving", "boarding",
                  "delivering", "weather", "anger", "complaints", "passengers", "stages",
                  "upgrades", "final-round", "end", "vip")

# -- triggers -----------------------------------------------------------------------------------


def _first_flight_ahead(state: NowBoardingState) -> bool:
    """Before the first flight, from the first draw on: what a flight is comes before the
    VIP cards and the weather, which change passengers and moves (the rules build so)."""
    return (state.phase == "setup" and state.step != "setup") or (
        state.step == "ready" and not state.flights)


def _stage_ends(state: NowBoardingState, last: bool) -> bool:
    """At ``passengers``, the deck found empty with no VIP left to complain: a stage change
    (``last`` False) or, after the Evening, the final round (``last`` True)."""
    return (state.step == "passengers" and deck_empty(state) and not vip_left(state)
            and (state.stage_index + 1 == len(STAGES)) == last)


def _complained(state: NowBoardingState) -> bool:
    return state.complaints > 0 and state.step != "over"


# -- the lessons, in game order -----------------------------------------------------------------

LESSONS: tuple[Lesson[NowBoardingState], ...] = (
    Lesson("pitch", "Welcome aboard",
           ("Fly passengers where", "they want to go.", "3 complaints lose."),
           "Together you run one airline: fly waiting passengers where they want to go. "
           "Anyone kept waiting too long complains; three complaints and the airline folds: "
           "you all lose. Get through Morning, Afternoon and Evening with fewer than three "
           "and you all win.",
           "goal", lambda s: s.step == "setup"),
    Lesson("moving", "Moving your plane",
           ("Speed = spaces for", "the WHOLE flight.", "Colour routes: yours"),
           "Speed is how many spaces you move in the whole flight, not per hop; stop "
           "anywhere, turn back freely. White-dot routes are open to all; a coloured route "
           "only to planes showing that colour.",
           "moving", _first_flight_ahead),
    Lesson("boarding", "Boarding",
           ("At an airport: board", "up to your seats,", "drop off anywhere."),
           "At an airport, pick up waiting passengers up to your seats. Drop them at any "
           "airport but the one they just left, and another plane may take them on.",
           "boarding", _first_flight_ahead),
    Lesson("delivering", "Delivering",
           ("At the destination:", "keep the card: money", "NEXT ends the flight"),
           "Drop a passenger at their destination and keep the card: its ticket price is "
           "money for upgrades. Everyone flies at once, no turns. The flight ends when time "
           "runs out, or when you end it.",
           "delivering", _first_flight_ahead),
    Lesson("vip", "VIP passengers",
           ("A VIP card changes", "the last passenger.", "Unserved: a complaint"),
           "A VIP card rides on the last passenger drawn and changes that passenger as it "
           "says. Serving is your choice, but each VIP card left when its stage's deck runs "
           "out is a complaint. Once its passenger is delivered, the card is done.",
           "vip", lambda s: s.step == "vip" and s.page == 0),
    Lesson("weather", "Storms and tailwinds",
           ("Storm: a dot costs 2.", "Tailwind: skip a dot.", "Both ways alike."),
           "A token goes on a dot of its card's route, never an airport. A storm makes that "
           "dot cost two spaces; a tailwind lets you skip it, both ways. Each new stage "
           "brings new weather.",
           "weather", lambda s: s.step == "weather"),
    Lesson("anger", "Anger",
           ("Waiting passengers", "get 1 cube a round;", "the 4th: a complaint"),
           "After each flight, each passenger waiting at an airport gets an anger cube; at "
           "the fourth, their card goes to the complaint pile. Passengers on planes get "
           "none, and boarding clears the cubes. Three complaints end the game at once.",
           "anger", lambda s: s.step == "anger" and (s.page == 0 or not s.full_flow)),
    Lesson("complaints", "Counting complaints",
           ("Set how many got a", "4th cube; 3 in all", "and the game is lost."),
           "Count the passengers who just got their fourth cube, set that number here and "
           "confirm it. The box keeps the tally: at three complaints the game ends at once.",
           # The short flow's one anger page: the anger lesson says the tally's end.
           "complaints", lambda s: s.step == "anger" and s.page == 1 and s.full_flow),
    Lesson("first-complaint", "A complaint!",
           ("{left} more and the", "airline folds. Board", "the angriest first."),
           "A passenger has complained: {left} more and the airline folds. Rescue the "
           "angriest passengers first: boarding clears their cubes, and dropping them at "
           "another airport also buys time.",
           "complaints", _complained),
    Lesson("upgrades", "Upgrades",
           ("Pay with delivered", "cards; no change.", "Each tile costs more"),
           "Pay with the cards of passengers you delivered: their prices add up, no change. "
           "Seats, speed and routes stay yours; each next seat or speed tile costs more. A "
           "temporary token gives one extra passenger or space, once, then goes back.",
           "upgrades", lambda s: s.step == "upgrades" and not s.final_round),
    Lesson("stage", "A new stage",
           ("The deck is empty:", "clear the weather;", "more passengers now."),
           "This stage's passenger deck is empty, so the next stage begins. Clear every "
           "weather token; the next stage's cards lay new ones. Each stage draws more "
           "passengers a round than the last, so upgrades bought now pay off.",
           "stages", lambda s: _stage_ends(s, last=False)),
    Lesson("final-round", "The final round",
           ("One last flight: no", "new passengers, no", "new weather."),
           "The Evening deck is empty: one last round, with no new passengers and no new "
           "weather. After its flight the anger cubes come as usual, then Exit the "
           "aircraft: every passenger not yet delivered counts against you.",
           "final-round", lambda s: _stage_ends(s, last=True)),
    Lesson("exit", "Exit the aircraft",
           ("Count undelivered:", "every 2 = 1 complaint", "Under 3 in all: win"),
           "Count every passenger not delivered, waiting at airports and still on planes. "
           "Each two of them make one more complaint; one left over makes none. With fewer "
           "than three complaints in all, you win.",
           "end", lambda s: s.step == "exit"),
    Lesson("result", "How it ended",
           ("{verdict}: {complaints} of 3", "anger {anger} VIP {vip} exit {exit}",
            "{flights_flown} flown"),
           "{verdict}. Complaints in all: {complaints}. Kept waiting: {anger}; unserved "
           "VIPs: {vip}; undelivered at the end: {exit} (left at airports and on planes: "
           "{undelivered}). {why}",
           "end", lambda s: s.step == "over"),
)

LESSON_IDS: tuple[str, ...] = tuple(lesson.id for lesson in LESSONS)


def teaching(state: NowBoardingState) -> bool:
    """Whether the game teaches: ``pace=teach``."""
    return state.pace == "teach"


def lesson_fields(state: NowBoardingState) -> dict[str, Any]:
    """The counts a lesson's text may name: complaints by source, flights, the verdict."""
    by_source = {"anger": 0, "vip": 0, "exit": 0}
    for entry in state.complaint_log:
        by_source[entry.source] += entry.count
    won = state.result == "win"
    why = ("Fewer than three: the airline flies on." if won
           else "Three or more put the airline out of business.")
    return {**by_source, "complaints": state.complaints,
            "left": max(0, COMPLAINT_LIMIT - state.complaints),
            "undelivered": state.undelivered or 0, "flights": len(state.flights),
            "undelivered_passengers": plural(state.undelivered or 0, "passenger"),
            "flights_flown": plural(len(state.flights), "flight"),
            "verdict": "You won" if won else "You lost", "why": why}


def current_lesson(state: NowBoardingState) -> ShownLesson | None:
    """The lesson the state shows now (see the module docstring), filled in, or None."""
    if not teaching(state) or state.step == "flight":
        return None
    return first_unseen(LESSONS, state, state.lessons_seen, lesson_fields)


def got_it(state: NowBoardingState,
           action: GameAction) -> tuple[NowBoardingState, tuple[Play, ...]] | None:
    """The game's answer to ``action`` while a lesson shows: NEXT marks it seen (the table's
    "got it"), any other input of the game's is refused; None when no lesson shows."""
    lesson = current_lesson(state)
    if lesson is None:
        return None
    seen = answer(lesson, action)
    return replace(state, lessons_seen=(*state.lessons_seen, seen)), (Play("click"),)


SETUP_WHY = {
    "board": "Each side of the board is drawn for its number of planes.",
    "cards": "Fewer planes cover fewer airports, so the far ones leave the game.",
    "planes": "Its home is printed on the back of its cockpit tile, and its colour opens "
              "the coloured routes of that colour: between you, try to reach the whole map.",
    "free": "A seat carries one more passenger at a time; speed covers one more space each "
            "flight.",
    "decks": "The three decks are the three parts of the day: when one runs out, the next "
             "stage begins.",
    "weather": "Each stage lays its own storms and tailwinds on the routes.",
    "vip": "Every VIP card must ride during its own stage, or it becomes a complaint.",
}
"""Why each setup page matters, said at ``pace=teach`` after what to do (one sentence)."""


def setup_why(state: NowBoardingState, page: str) -> str:
    """At ``pace=teach``, the sentence (with its leading space) saying why a setup page
    matters; "" at other paces, and for the cards page when no card leaves the game."""
    if not teaching(state) or (page == "cards" and not REMOVED_AIRPORTS[state.players]):
        return ""
    return " " + SETUP_WHY.get(page, SETUP_WHY["free" if page.startswith("free-") else "vip"])


def draw_why(state: NowBoardingState) -> str:
    """At ``pace=teach``, on the first passenger draw of the game only: where the cards go
    and when they show (with its leading space); "" otherwise."""
    if not teaching(state) or state.flights:
        return ""
    return (" Each goes face-down by the airport printed on its back and turns face up when "
            "a flight starts.")
