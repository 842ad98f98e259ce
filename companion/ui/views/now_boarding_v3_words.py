"""The Now Boarding v3 prototype's steps in whole sentences: the screen model's full-text fields.

The panel cuts every instruction to its 21 or 25 characters
(companion/ui/views/now_boarding_v3.py); a phone at the table has room for the whole
sentence. One function a step (:func:`setup`, :func:`departure`, :func:`arrival`,
:func:`purchase`, the day's end: :func:`redeye_lost`, :func:`final_purchase`,
:func:`shuffle_score_piles`, :func:`new_city`, :func:`game_over`; then :func:`entry` and
:func:`lost` or :func:`result`) gives the fields the table page shows
(companion/ui/screen.py): the step's name (``heading``), its whole instruction (``say``, from
rules/now-boarding-v3-prototype.txt as the game package reads it), what comes after it
(``then``), the purchase list (``choices``: the prices, nothing selected), what every button
does now (``keys``) and the last action confirmed in words (``done``: how the Departure
ended, the score pile just entered). The view (now_boarding_v3.py) chooses the step once and
pairs its panel with these words; the panel's pixels do not change: these fields are never
drawn.

Rules it keeps: a label names what the gesture does at this state and nothing it does not do
(no "Pause" on an untimed Departure or before its timer runs, no "Too few tiles" at the
Redeye or once the timer runs, no "One fewer" on an empty Lost pile or a 0 total, no NEXT
once the game is over); UP on the Lost pile says when it would lose the advanced game;
"TIME UP" and "0:00" are never said (the Departure's end is said as "the time ran out").
"""

from __future__ import annotations

import math
from typing import Any

from companion.core.lessons import ShownLesson
from companion.core.timer import TimerState
from companion.core.words import plural
from companion.games import now_boarding_v3 as v3
from companion.games.now_boarding_v3.game import (
    MAX_TOTAL,
    draw,
    lost_limit,
    player_name,
    redeye,
)
from companion.games.now_boarding_v3.state import V3State
from companion.ui.screen import Words
from companion.ui.views.lesson import lesson_words
from companion.ui.views.timer import clock_text

Keys = tuple[tuple[str, str], ...]
UNDO: Keys = (("hold_back", "Undo"),)

PURCHASE_NAMES = {"voucher": "Voucher", "concession": "Concession", "commuter": "Commuter",
                  "gate": "Gate", "upgrade-jet": "Upgrade a Jet", "new-jet": "New Jet",
                  "city-to-hub": "City into a Hub"}
"""The Purchase step's items (the prices are the game's data.PURCHASES)."""

PURCHASES: tuple[str, ...] = tuple(f"${v3.PURCHASES[item]} {name}"
                                   for item, name in PURCHASE_NAMES.items())
"""The Purchase step's list, one item a row: short enough for a phone's card."""


def _where(state: V3State) -> str:
    """``Day 2, round 3`` or ``Day 2, the Redeye``."""
    return f"Day {state.day}, the Redeye" if redeye(state) else (
        f"Day {state.day}, round {state.round}")


def _pile(state: V3State) -> str:
    """The Lost pile in words, with the advanced game's limit."""
    limit = lost_limit(state)
    pile = f"The Lost pile holds {state.lost}"
    if limit is None:
        return f"{pile}."
    if state.lost == limit:
        return f"{pile}, the most it may hold: one more loses the game."
    return f"{pile}; more than {limit} loses the game."


def _lost_keys(state: V3State) -> Keys:
    """UP / DOWN on the Lost pile, where they change it."""
    keys: Keys = ()
    limit = lost_limit(state)
    if state.lost < v3.PASSENGERS_PER_PLAYER_COLOUR * state.players:
        loses = limit is not None and state.lost + 1 > limit
        keys += (("up", "One more lost: the game is lost" if loses
                  else "One more lost passenger"),)
    if state.lost > 0:
        keys += (("down", "One fewer lost passenger"),)
    return keys


# -- setup and the round's steps -----------------------------------------------------------------


def lesson(shown: ShownLesson) -> Words:
    """A lesson (``pace=teach``) before the step it teaches: its text, NEXT "Got it"."""
    return lesson_words(shown.title, shown.text)


def setup(state: V3State) -> Words:
    """The ``setup`` step: each player's airports, the supply, the timer."""
    timer = (f"Each Departure is timed: {clock_text(state.duration)}." if state.duration
             else "The Departures are untimed.")
    say = ("Each player: Hub A and City B in front of you, 1 Jet on your Hub's Gate, 1 "
           "Commuter below. Shuffle the A and B passenger tiles into one face-down supply; set "
           f"City C, City D and their tiles aside. {timer}")
    return {"heading": "Setup: your airports", "say": say,
            "then": "Next: day 1, round 1, Departure",
            "keys": (("next", "Start day 1"), *UNDO)}


def _drawing(state: V3State) -> str:
    count = draw(state)
    airports = v3.airports_per_player(state.day)
    return (f"Each player draws {plural(airports, 'passenger tile')}, one per airport ({count} "
            "in all), upright. One drawn at its own destination goes back face-down: draw "
            "another.")


def departure(state: V3State) -> Words:
    """The ``departure`` step: draw, load and depart; its timer, or the "too few tiles"
    question (the words name no time left: the page shows the panel's digits)."""
    heading = f"{_where(state)}: Departure"
    if state.short:
        return {"heading": "Departure: too few tiles?",
                "say": f"Are there fewer than {draw(state)} passenger tiles left in the supply "
                       "for everyone's draw? Then the game ends now and is scored as usual.",
                "then": "Next: total the score piles",
                "keys": (("next", "End the game and score it"),
                         ("up", "Back to the Departure"), *UNDO)}
    countdown = state.countdown
    short: Keys = () if redeye(state) else (("down", "Too few tiles left"),)
    if redeye(state):
        load = ("The Redeye, the last round of the day: draw no passengers. Load and depart "
                "planes.")
    else:
        load = f"{_drawing(state)} Then load and depart planes."
    if countdown is None:
        return {"heading": heading, "say": f"{load} Say when everyone is done.",
                "then": "Next: Arrival",
                "keys": (("next", "End Departure"), *short, *UNDO)}
    if countdown.state is TimerState.IDLE:
        time = clock_text(int(countdown.duration))
        first = (f"{_drawing(state)} Then {time} to load and depart planes."
                 if not redeye(state) else
                 "The Redeye, the last round of the day: draw no passengers. Start the "
                 f"timer: {time} to load and depart planes.")
        return {"heading": heading, "say": first, "then": "Next: load and depart planes",
                "keys": (("next", "Start the timer"), *short, *UNDO)}
    keys: Keys = (("next", "End Departure"),)
    if countdown.state is TimerState.RUNNING:
        say = "Load and depart planes until the time runs out. Everyone moves on together."
        keys += (("hold_next", "Pause"),)
    elif countdown.state is TimerState.PAUSED:
        say = "Paused: nobody moves a passenger or a plane until the Departure resumes."
        keys += (("hold_next", "Resume"),)
    else:
        say = "The Departure's time has run out."
    return {"heading": heading, "say": say, "then": "Next: Arrival", "keys": (*keys, *UNDO)}


def _ended(state: V3State) -> str:
    """How the Departure just ended, in words ("" when the box did not time it)."""
    if state.ended == "time":
        return "The Departure's time ran out."
    if state.ended == "next" and state.countdown is not None:
        left = clock_text(math.ceil(state.countdown.left or 0))  # as the digits showed it
        return f"The Departure ended with {left} left." if state.countdown.left else (
            "The Departure ended.")
    return ""


def arrival(state: V3State) -> Words:
    """The ``arrival`` step: planes land, passengers score or age."""
    say = ("Runway Jets go to your Tarmac, then into free Gates; Commuters and Jets at Gates "
           "de-board. A passenger at its destination scores, face up into your score pile; "
           "every other one (Tarmac too) turns a quarter turn clockwise: off its red side, it "
           f"is lost. {_pile(state)}")
    following = "the day's end" if redeye(state) else "Purchase"
    return {"heading": f"{_where(state)}: Arrival", "say": say, "then": f"Next: {following}",
            "keys": (("next", "Arrival done"), *_lost_keys(state), *UNDO),
            "done": _ended(state)}


def purchase(state: V3State) -> Words:
    """The ``purchase`` step: the price list."""
    say = ("Pay with face-up passengers from your score pile: they turn face down and stay. "
           "No change is given.")
    following = state.round + 1
    then = ("Next: the Redeye's Departure" if following == v3.REDEYE_ROUND
            else f"Next: round {following}'s Departure")
    return {"heading": f"{_where(state)}: Purchase", "say": say, "then": then,
            "choices": PURCHASES,
            "keys": (("next", f"Start round {following}"), *UNDO)}


def redeye_lost(state: V3State) -> Words:
    """The ``redeye-lost`` step: who is not home after the Redeye is lost."""
    return {"heading": f"Day {state.day} ends: the Lost pile",
            "say": "Every passenger not at their destination after the Redeye goes to "
                   "the Lost pile. Vouchers in the final Purchase can still save "
                   f"them. {_pile(state)}",
            "then": "Next: the day's final Purchase",
            "keys": (("next", "Lost pile counted"), *_lost_keys(state), *UNDO)}


def final_purchase(state: V3State) -> Words:
    """The ``final-purchase`` step: the day's last Purchase."""
    after = "shuffle the score piles" if state.day < v3.DAYS else "the game ends"
    return {"heading": f"Day {state.day} ends: final Purchase",
            "say": "Buy until nothing more is affordable. A Voucher can still save a "
                   f"passenger from the Lost pile. {_pile(state)}",
            "then": f"Next: {after}", "choices": PURCHASES,
            "keys": (("next", "Purchases done"), *_lost_keys(state), *UNDO)}


def shuffle_score_piles(state: V3State) -> Words:
    """The ``shuffle-score-piles`` step (after days 1 and 2)."""
    return {"heading": f"Day {state.day} ends: shuffle the score piles",
            "say": "Shuffle every passenger of every score pile, face up and face "
                   "down, back into the face-down supply.",
            "then": f"Next: a new city for day {state.day + 1}",
            "keys": (("next", "Piles shuffled"), *UNDO)}


def new_city(state: V3State) -> Words:
    """The ``new-city`` step: the next day's city and its tiles."""
    day = state.day
    city = v3.CITY_ADDED_BEFORE_DAY[day + 1]
    airports = v3.airports_per_player(day + 1)
    return {"heading": f"Before day {day + 1}: City {city}",
            "say": f"Each player puts their City {city} board beside their airports "
                   f"and adds its passenger tiles to the face-down supply; mix it "
                   f"well. From now on each player draws {airports} passengers at a "
                   f"Departure ({airports * state.players} in all).",
            "then": f"Next: day {day + 1}, round 1, Departure",
            "keys": (("next", f"Start day {day + 1}"), *UNDO)}


def game_over(state: V3State) -> Words:
    """The ``game-over`` step: day 3 is over or the tiles ran short; total the piles."""
    why = ("Too few passenger tiles were left to draw: the game ends." if state.reason == "supply"
           else "Day 3 is over: the game ends.")
    return {"heading": "Game over: total the score piles",
            "say": f"{why} Each player adds up the value of every passenger in their score "
                   "pile, face up and face down alike.",
            "then": "Next: enter each player's total",
            "keys": (("next", "Enter the scores"), *UNDO)}


# -- the score --------------------------------------------------------------------------------


def _entered(state: V3State) -> str:
    """The score pile total entered last, in words ("" before the first)."""
    if not state.totals:
        return ""
    seat = len(state.totals) - 1
    return f"{player_name(seat)}'s score pile: {state.totals[-1]}."


def entry(state: V3State) -> Words:
    """The ``entry`` step: one player's score pile total."""
    seat = len(state.totals)
    name = player_name(seat)
    last = seat + 1 == state.players
    keys: Keys = (("next", f"{name} scored {state.draft}"),)
    if state.draft < MAX_TOTAL:
        keys += (("up", "One more"),)
    if state.draft > 0:
        keys += (("down", "One fewer"),)
    return {"heading": f"Score pile: {name}, player {seat + 1} of {state.players}",
            "say": f"{name}: the total value of every passenger in your score pile, face up "
                   f"and face down. Now {state.draft}.",
            "then": "Next: the final score" if last else f"Next: {player_name(seat + 1)}",
            "keys": (*keys, *UNDO), "done": _entered(state)}


OVER: Keys = (("back", "Menu"), *UNDO)
OVER_THEN = "Next: a new game from the menu"


def lost(state: V3State) -> Words:
    """The ``over`` step of an advanced game lost on the Lost pile."""
    return {"heading": "Game over: LOSS",
            "say": f"The Lost pile holds {state.lost}, more than 2 x {state.players} = "
                   f"{lost_limit(state)}: too many passengers stormed off. The table loses.",
            "then": OVER_THEN, "keys": OVER}


def result(state: V3State, scored: dict[str, Any]) -> Words:
    """The ``over`` step once the score piles are in (``scored``: v3.score of the state)."""
    totals = ", ".join(f"{player['name']} {player['total']}" for player in scored["players"])
    if scored.get("lost_game"):
        heading = "Game over: LOSS"
        say = (f"Final score {scored['score']} ({totals}), but the Lost pile holds "
               f"{scored['lost']}: the table loses, with no rating.")
    else:
        heading = f"Game over: final score {scored['score']}"
        rated = str(scored["rating"])
        say = (f"Final score {scored['score']}, the score piles' average rounded up ({totals}). "
               f"Rating: {rated}{'' if rated.endswith('!') else '.'} Lost pile: "
               f"{scored['lost']}.")
        if state.variant == "advanced":
            say += " The table wins."
    return {"heading": heading, "say": say, "then": OVER_THEN, "keys": OVER,
            "done": _entered(state)}
