"""The Now Boarding v3 prototype's screens: the schedule board, step by step.

The title says where the schedule stands (``Day 2 R3 Arrival``, ``D1 Redeye ...``); a
Departure that draws says how many, to put back and redraw a passenger drawn at its own
destination, and offers the "too few tiles" ending as a choice (DOWN); a running Departure
timer shows in big M:SS digits. The result rates the basic game (never "table wins!") and
gives a lost game no rating. The status bar shows the Lost pile (with its
limit in the advanced variant) wherever it matters. What to do now is in the 12-pixel font
(a main line, usually the NEXT step, over small lines; or big digits). Every text keeps to
the Screen limits (tests check each screen of whole games). :func:`now_boarding_v3_screen`
chooses the step once and pairs the step's panel (here) with its whole sentences for the
table page (now_boarding_v3_words.py, never drawn on the panel).
"""

from __future__ import annotations

from typing import Any, assert_never

from companion.core.timer import TimerState
from companion.games import now_boarding_v3 as v3
from companion.games.now_boarding_v3.game import (
    draw,
    lost_limit,
    player_name,
    redeye,
    score_input,
)
from companion.games.now_boarding_v3.lessons import current_lesson
from companion.games.now_boarding_v3.state import V3State
from companion.ui.screen import LINE_WIDTH, Screen
from companion.ui.views import now_boarding_v3_words as words
from companion.ui.views.lesson import lesson_panel
from companion.ui.views.timer import clock_text

#: NEXT presses from the start of an untimed game to the first score entry: setup, 3 days of
#: 5 rounds x 3 steps plus the Redeye (Departure, Arrival, the day's end steps), Game over.
TO_ENTRY = 1 + 3 * (5 * 3 + 2) + 4 + 4 + 3

SCENES: dict[str, tuple[str, ...]] = {
    "v3-setup": ("new now-boarding-v3 players=4",),
    "v3-departure": ("new now-boarding-v3 players=4", "press next"),
    "v3-departure-timed": ("new now-boarding-v3 players=4 variant=advanced", "press next",
                           "press next", "wait 17.5"),
    "v3-departure-paused": ("new now-boarding-v3 players=4 variant=advanced", "press next",
                            "press next", "wait 20", "hold next"),
    "v3-arrival": ("new now-boarding-v3 players=4 variant=advanced", "press next",
                   "press next", "wait 60", "press up", "press up"),
    "v3-purchase": ("new now-boarding-v3 players=4", "press next", "press next",
                    "press next"),
    "v3-redeye": ("new now-boarding-v3 players=4", *("press next",) * 16),
    "v3-redeye-lost": ("new now-boarding-v3 players=4", *("press next",) * 18, "press up"),
    "v3-new-city": ("new now-boarding-v3 players=4", *("press next",) * 21),
    "v3-too-few-tiles": ("new now-boarding-v3 players=4", "press next", "press down"),
    "v3-departure-ready": ("new now-boarding-v3 players=4 variant=advanced", "press next"),
    "v3-entry": ("new now-boarding-v3 players=3", *("press next",) * TO_ENTRY,
                 *("press up",) * 7),
    "v3-result": ("new now-boarding-v3 players=3", *("press next",) * TO_ENTRY,
                  *("press up",) * 17, "press next", *("press up",) * 20, "press next",
                  *("press up",) * 12, "press next"),
    "v3-lost": ("new now-boarding-v3 players=3 variant=advanced", "press next", "press next",
                "press next", *("press up",) * 7),
}
"""Screens for ``companion render`` and the golden tests: protocol lines, last screen kept."""

SHORT_STEP = {"departure": "Departure", "arrival": "Arrival", "purchase": "Purchase"}


def _where(state: V3State) -> str:
    """``Day 2 R3`` or ``D2 Redeye``."""
    return f"D{state.day} Redeye" if redeye(state) else f"Day {state.day} R{state.round}"


def _lost(state: V3State) -> str:
    return f"Lost {_pile(state)}"


def _setup(state: V3State) -> Screen:
    timer_text = (f"Timer {clock_text(state.duration)}" if state.duration
                  else "No timer")
    return Screen("Now Boarding v3 setup", (
        "Each: Hub A + City B;",
        "A+B tiles face down in",
        "the supply; 1 Jet at the",
        "Hub gate, 1 Commuter.",
    ), status=f"{timer_text}  NEXT: day 1").with_status_as_main()


#: Said at every Departure that draws (the prototype: a passenger drawn for the airport of
#: its own destination goes back face-down and another is drawn in its place).
REDRAW = ("Drawn at its destination?", "Put back, draw another.")
SHORT_CHOICE = "DOWN: too few tiles left"


def _short(state: V3State) -> Screen:
    """The "Too few tiles?" choice: the game ends (scored) when a draw cannot go around."""
    return Screen("Too few tiles?", (
        f"Fewer than {draw(state)} tiles for",
        "everyone's draw: the game",
        "is scored.  UP: back",
    ), main="NEXT: end and score", status=_lost(state))


def _departure(state: V3State, now: float) -> Screen:
    if state.short:
        return _short(state)
    count = draw(state)
    airports = v3.airports_per_player(state.day)
    title = f"{_where(state)} Departure"
    drawing = f"Draw {count}: {airports} per player"  # the main line: 21 characters at most
    countdown = state.countdown
    if countdown is None:
        if redeye(state):
            return Screen(title, ("REDEYE: no passengers", "Load, depart planes",
                                  "Last round of the day"),
                          status=f"NEXT: Arrival  {_lost(state)}")
        return Screen(title, (*REDRAW, SHORT_CHOICE), main=drawing,
                      status=f"NEXT: Arrival  {_lost(state)}")
    if countdown.state is TimerState.IDLE:  # the draw, before the timer runs
        start = f"NEXT: start {clock_text(int(countdown.duration))}"
        if redeye(state):
            return Screen(title, ("REDEYE: no passengers", "Load, depart planes", start),
                          status=f"Redeye  {_lost(state)}")
        return Screen(title, (*REDRAW, start), main=drawing, status=SHORT_CHOICE)
    captions = {
        TimerState.IDLE: "",
        TimerState.RUNNING: "NEXT end  hold NEXT pause",
        TimerState.PAUSED: "PAUSED  hold NEXT resume",
        TimerState.EXPIRED: "TIME!",
    }
    status = (f"{airports} per player  {_lost(state)}" if not redeye(state)
              else f"Redeye  {_lost(state)}")
    return Screen(title, big=clock_text(countdown.shown_seconds(now)),
                  caption=captions[countdown.state], status=status)


def _arrival(state: V3State) -> Screen:
    return Screen(f"{_where(state)} Arrival", (
        "Jets: runway to tarmac",
        "De-board gates, commuters",
        "Score or age passengers",
        f"Lost {_pile(state)}  UP+1 DN-1",
    ), status="NEXT: " + ("day's end" if redeye(state) else "Purchase")).with_status_as_main()


def _pile(state: V3State) -> str:
    """``3/8`` (advanced: the most before the game is lost) or ``3``."""
    limit = lost_limit(state)
    return f"{state.lost}/{limit}" if limit is not None else str(state.lost)


def _purchase(state: V3State) -> Screen:
    prices = v3.PURCHASES
    return Screen(f"{_where(state)} Purchase", (
        f"${prices['voucher']} Voucher ${prices['concession']} Concession",
        f"${prices['commuter']} Commuter ${prices['gate']} Gate",
        f"${prices['upgrade-jet']} Upgrade Jet ${prices['new-jet']} New Jet",
        f"${prices['city-to-hub']} City into a Hub",
    ), main=_next_round(state))


def _next_round(state: V3State) -> str:
    """``NEXT: round 3  Lost 2``, or ``NEXT: R3  Lost 2/8`` where the long form would not fit
    the main line (the four price lines leave no room for a status bar under it)."""
    following = state.round + 1
    text = f"NEXT: round {following}  {_lost(state)}"
    return text if len(text) <= LINE_WIDTH else f"NEXT: R{following}  {_lost(state)}"


def _redeye_lost(state: V3State) -> Screen:
    return Screen(f"Day {state.day} ends: Lost", (
        "Not at their destination",
        "after the Redeye: to the",
        "Lost pile.",
        f"Lost {_pile(state)}  UP+1 DN-1",
    ), status="NEXT: final Purchase").with_status_as_main()


def _final_purchase(state: V3State) -> Screen:
    return Screen(f"Day {state.day} final Purchase", (
        "Buy until nothing more is",
        "affordable. Vouchers can",
        "still save passengers.",
        f"Lost {_pile(state)}  UP+1 DN-1",
    ), status="NEXT: " + ("score piles" if state.day < v3.DAYS else "game over")
    ).with_status_as_main()


def _shuffle_score_piles(state: V3State) -> Screen:
    return Screen(f"Day {state.day} ends", (
        "Shuffle every score",
        "pile back into the",
        "face-down supply.",
    ), status="NEXT: new city")


def _new_city(state: V3State) -> Screen:
    day = state.day
    city = v3.CITY_ADDED_BEFORE_DAY[day + 1]
    airports = v3.airports_per_player(day + 1)
    return Screen(f"Before day {day + 1}", (
        f"Each player adds City {city}",
        "and its passenger tiles",
        "to the supply; mix well.",
        f"Then draw {airports} each ({airports * state.players}).",
    ), status=f"NEXT: day {day + 1} begins").with_status_as_main()


def _game_over(state: V3State) -> Screen:
    supply = state.reason == "supply"
    return Screen("Game over", (
        "Too few tiles to draw:" if supply else "Day 3 is over.",
        "Each player totals their",
        "score pile: face up and",
        "face down tiles alike.",
    ), status="NEXT: enter scores").with_status_as_main()


def _entry(state: V3State) -> Screen:
    seat = len(state.totals)
    return Screen(f"Score pile {player_name(seat)}", big=str(state.draft),
                  caption="UP/DN total  NEXT ok",
                  status=f"Player {seat + 1} of {state.players}  {_lost(state)}")


def _result(state: V3State, result: dict[str, Any]) -> Screen:
    totals = [f"{p['name']} {p['total']}" for p in result["players"]]
    rows = ["  ".join(totals[i:i + 3]) for i in range(0, len(totals), 3)]
    rows = [row if len(row) <= LINE_WIDTH else row.replace("  ", " ") for row in rows]
    if result.get("lost_game"):  # a lost game has no rating
        first, last = "No rating: game lost", f"Lost {result['lost']}: table loses."
    elif result["variant"] == "advanced":
        first, last = f"Rating: {result['rating']}", f"Lost {result['lost']}: table wins!"
    else:  # the basic game is rated, never won or lost
        first, last = f"Rating: {result['rating']}", f"Lost pile: {result['lost']}"
    return Screen(f"Final score {result['score']}", (first, *rows, last),
                  status="BACK menu  hold BACK undo").with_main(0)


def _lose(state: V3State) -> Screen:
    limit = lost_limit(state)
    return Screen("GAME LOST", (
        f"Lost pile {state.lost}: more",
        f"than 2 x {state.players} = {limit}.",
        "Too many passengers",
        "stormed off. Try again!",
    ), status="BACK menu  hold BACK undo").with_main(0)


def now_boarding_v3_screen(state: V3State, now: float) -> Screen:
    """The screen for ``state`` at ``now``: the step's panel with its full-text fields, the
    step in whole sentences for the table page (now_boarding_v3_words.py). The match names
    every step of the game's ``Step`` and has no fallback: mypy says so when one is missing.
    ``over`` is two screens: a game lost on the Lost pile, else the scored result. A lesson
    the state names (``pace=teach``, the game's lessons.py) shows before the step."""
    lesson = current_lesson(state)
    if lesson is not None:
        return lesson_panel(lesson.title, lesson.panel).with_words(words.lesson(lesson))
    match state.step:
        case "setup":
            return _setup(state).with_words(words.setup(state))
        case "departure":
            return _departure(state, now).with_words(words.departure(state))
        case "arrival":
            return _arrival(state).with_words(words.arrival(state))
        case "purchase":
            return _purchase(state).with_words(words.purchase(state))
        case "redeye-lost":
            return _redeye_lost(state).with_words(words.redeye_lost(state))
        case "final-purchase":
            return _final_purchase(state).with_words(words.final_purchase(state))
        case "shuffle-score-piles":
            return _shuffle_score_piles(state).with_words(words.shuffle_score_piles(state))
        case "new-city":
            return _new_city(state).with_words(words.new_city(state))
        case "game-over":
            return _game_over(state).with_words(words.game_over(state))
        case "entry":
            return _entry(state).with_words(words.entry(state))
        case "over" if state.reason == "lost":
            return _lose(state).with_words(words.lost(state))
        case "over":
            scored = v3.score(score_input(state))
            return _result(state, scored).with_words(words.result(state, scored))
    assert_never(state.step)
