"""The Now Boarding v3.0 prototype (3-6 players, cooperative) on the box: the schedule board.

Rules enforced (rules/now-boarding-v3-prototype.txt as read by rules/CLARIFICATIONS.md; the
schedule data and the scoring are this package's data.py and score.py, reused here):

- 3 days of 6 rounds; the 6th round of each day is the Redeye. A round's steps are Departure,
  Arrival and Purchase. Departure draws one passenger per airport per player (2, 3, 4 airports
  on days 1, 2, 3); the Redeye draws none.
- The Departure timer: 60 s in the advanced variant, untimed in basic; ``timer=off`` or
  ``timer=<seconds>`` (5-600) overrides either (``auto``, the default, follows the variant).
- The Redeye round ends the day with its own steps (``end_of_day_steps``): passengers not
  delivered go to the Lost pile, the final Purchase, then after days 1 and 2 the score piles are
  shuffled back into the supply and each player adds the next city (C, then D); after day 3 the
  game is over and scored.
- The Lost pile: UP adds a lost passenger, DOWN takes one back (a correction), during Arrival,
  the Redeye's lost step and the final Purchase (Vouchers can still save passengers there).
  Advanced variant: the game is lost at once when the pile holds more than 2 x players
  (``result`` "lose", tune "lose"); reaching exactly 2 x players plays "danger".
- The game also ends when a Departure finds too few tiles to go around, as a choice on the
  screen: DOWN at a Departure before its timer runs (any time in an untimed one) asks "Too few
  tiles?", NEXT there ends the game (scored as usual), UP goes back. Never at the Redeye: it
  draws no tiles (DOWN and hold NEXT are refused there).
- The Departure screen says to put back and redraw a passenger drawn at its own destination.
- Score entry: each player's score pile total (face up and face down); ``result`` is exactly
  :func:`now_boarding_v3.score` of ``{"variant", "lost", "players": [{"name", "total"}]}``
  (players are named P1, P2, ... in seat order).

Buttons (BACK is the box's: a press opens the menu, a hold undoes the last action):

- ``setup``: a checklist; NEXT starts day 1.
- ``departure``, timed: NEXT starts the timer once the passengers are drawn, NEXT again ends
  the Departure early (tune "end"), hold NEXT pauses / resumes; the timer running out ends it
  (tune "alarm"). Untimed: NEXT ends the Departure. Either way the next step is Arrival.
  DOWN before the timer runs: the "Too few tiles?" choice (``short`` true in the state).
- Every other step: NEXT moves on. UP / DOWN change the Lost pile where it can change.
- ``score`` / ``entry``: UP / DOWN set the player's score pile total (a held UP / DOWN repeats
  on the box), NEXT goes to the next player; after the last, ``over`` with the result (tune
  "win").

Illegal input raises :class:`RuleError` with a short reason and never changes the state.
``Restore`` (the box came back after a power cut) pauses a running timer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final, assert_never

from companion.core.buttons import Button
from companion.core.game import (
    Expire,
    GameAction,
    Hold,
    OptionError,
    OptionSpec,
    Play,
    Press,
    Restore,
    RuleError,
)
from companion.core.timer import Countdown, TimerState
from companion.games.now_boarding_v3.data import (
    DEFAULT_VARIANT,
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PASSENGERS_PER_PLAYER_COLOUR,
    STEPS,
    VARIANTS,
    Step,
)
from companion.games.now_boarding_v3.lessons import current_lesson, got_it
from companion.games.now_boarding_v3.score import (
    airports_per_player,
    departure_seconds,
    end_of_day_steps,
    is_lost,
    is_redeye,
    passengers_to_draw,
)
from companion.games.now_boarding_v3.score import lost_limit as table_lost_limit
from companion.games.now_boarding_v3.score import score as score_game
from companion.games.now_boarding_v3.state import PACES, V3State

MIN_TIMER_SECONDS: Final = 5
MAX_TIMER_SECONDS: Final = 600
#: The most a score pile total may be set to on the box.
MAX_TOTAL: Final = 999


def _timer_value(value: str) -> bool:
    return value.isdigit() and MIN_TIMER_SECONDS <= int(value) <= MAX_TIMER_SECONDS


OPTIONS: Final = (
    OptionSpec("pace", "Pace", PACES, "steps",
               explain="How well does the table know v3?",
               notes=(("teach", "New to it: taught in play"),
                      ("steps", "Knows it: step by step"))),
    OptionSpec("players", "Players",
               tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)), "4",
               explain="Players at the table"),
    OptionSpec("variant", "Variant", VARIANTS, DEFAULT_VARIANT,
               explain="Basic or advanced rules"),
    OptionSpec("timer", "Departure", ("auto", "off", "30", "45", "60", "90", "120"), "auto",
               accepts=_timer_value,
               allowed=f"auto|off|{MIN_TIMER_SECONDS}..{MAX_TIMER_SECONDS}",
               explain="Departure seconds; auto: the variant's own"),
)

ROUND_STEPS: Final[tuple[Step, ...]] = tuple(step.key for step in STEPS)  # departure, ...
#: Steps where UP / DOWN change the Lost pile.
LOST_STEPS: Final[tuple[Step, ...]] = ("arrival", "redeye-lost", "final-purchase")
OFF_TIMER: Final[dict[str, Any]] = {"state": "idle", "remaining": 0.0, "duration": 0.0}


# -- derived facts (pure helpers the view shares) ------------------------------------------------


def player_name(seat: int) -> str:
    return f"P{seat + 1}"


def redeye(state: V3State) -> bool:
    return is_redeye(state.round)


def draw(state: V3State) -> int:
    """Passengers to draw at this round's Departure (0 in the Redeye)."""
    return passengers_to_draw(state.day, state.players, state.round)


def lost_limit(state: V3State) -> int | None:
    """The Lost pile's limit in the advanced variant (more loses); None in basic."""
    return table_lost_limit(state.players) if state.variant == "advanced" else None


def day_end_steps(day: int) -> tuple[Step, ...]:
    """The steps that end day ``day``, in order (``score.end_of_day_steps``' keys)."""
    return tuple(step.key for step in end_of_day_steps(day))


def score_input(state: V3State) -> dict[str, Any]:
    """The ``companion score now-boarding-v3`` input of what has been entered so far."""
    return {"variant": state.variant, "lost": state.lost,
            "players": [{"name": player_name(seat), "total": total}
                        for seat, total in enumerate(state.totals)]}


def timer_duration(variant: str, timer: str) -> int | None:
    """The Departure's seconds: the variant's own (``auto``), none (``off``) or the given."""
    if timer == "auto":
        return departure_seconds(variant)
    if timer == "off":
        return None
    return int(timer)


# -- the game ----------------------------------------------------------------------------------


class NowBoardingV3Game:
    """The Game protocol for the v3 prototype; see the module docstring."""

    name = GAME
    title = "Now Boarding v3"
    options = OPTIONS

    def new(self, options: Mapping[str, str], seed: int) -> V3State:
        players_text = options.get("players", "4")
        if not players_text.isdigit() or not (
                MIN_PLAYERS <= int(players_text) <= MAX_PLAYERS):
            raise OptionError(f"players={players_text} is not allowed; use players=3..6")
        variant = options.get("variant", DEFAULT_VARIANT)
        if variant not in VARIANTS:
            raise OptionError(f"variant={variant} is not allowed; use variant=basic|advanced")
        timer = options.get("timer", "auto")
        if timer not in ("auto", "off") and not _timer_value(timer):
            raise OptionError(f"timer={timer} is not allowed; use timer=auto|off|5..600")
        pace = options.get("pace", "steps")
        if pace not in PACES:
            raise OptionError(f"pace={pace} is not allowed; use pace=teach|steps")
        return V3State(players=int(players_text), variant=variant,
                       duration=timer_duration(variant, timer), pace=pace)

    def step(self, state: V3State, action: GameAction,
             now: float) -> tuple[V3State, tuple[Play, ...]]:
        match action:
            case Restore():
                countdown = state.countdown
                if countdown is not None and countdown.state is TimerState.RUNNING:
                    return replace(state, countdown=countdown.pause(now)), ()
                return state, ()
            case Expire():
                return self._expire(state, now)
            case Press(Button.BACK) | Hold(Button.BACK):
                raise RuleError("not-allowed", "BACK belongs to the box: menu / hold to undo")
        if (taught := got_it(state, action)) is not None:  # pace=teach: a lesson first
            return taught
        match action:
            case Press(button):
                return self._press(state, button, now)
            case Hold(Button.NEXT):
                return self._hold_next(state, now)
            case Hold(button):
                return self._press(state, button, now)  # a held UP / DOWN acts as a press
        raise RuleError("not-allowed", "that does nothing here")  # pragma: no cover

    # -- actions ---------------------------------------------------------------------------

    def _press(self, state: V3State, button: Button,
               now: float) -> tuple[V3State, tuple[Play, ...]]:
        if state.phase == "over":
            raise RuleError("not-allowed", "game over: BACK menu, hold BACK undo")
        if state.step == "entry":
            return self._entry(state, button)
        if state.step == "departure":
            return self._departure_press(state, button, now)
        if button is Button.NEXT:
            return self._next(state, now)
        return self._lost(state, +1 if button is Button.UP else -1)

    def _departure_press(self, state: V3State, button: Button,
                         now: float) -> tuple[V3State, tuple[Play, ...]]:
        """NEXT goes on; DOWN asks "Too few tiles?" (NEXT there ends the game, UP goes back)."""
        if state.short:
            if button is Button.NEXT:
                return (replace(state, step="game-over", reason="supply", short=False),
                        (Play("end"),))
            if button is Button.UP:
                return replace(state, short=False), (Play("click"),)
            raise RuleError("not-allowed", "Too few tiles? NEXT ends the game, UP goes back")
        if button is Button.NEXT:
            return self._next(state, now)
        if button is Button.DOWN:
            if redeye(state):
                raise RuleError("not-allowed", "the Redeye draws no tiles")
            countdown = state.countdown
            if countdown is not None and countdown.state is not TimerState.IDLE:
                raise RuleError("not-allowed", "tiles run short only before the timer starts")
            return replace(state, short=True), (Play("click"),)
        raise RuleError("not-allowed", "the Lost pile changes at Arrival and the day's end")

    def _next(self, state: V3State, now: float) -> tuple[V3State, tuple[Play, ...]]:
        if state.step == "departure":
            countdown = state.countdown
            if countdown is not None and countdown.state is TimerState.IDLE:
                return replace(state, countdown=countdown.start(now)), (Play("flight-start"),)
            if countdown is not None:
                ended = countdown.end_early(now)
                return (replace(state, countdown=ended, step="arrival", ended="next"),
                        (Play("end"),))
            return replace(state, step="arrival", ended="next"), (Play("click"),)
        advanced = self._advance(state)
        # A new day is the game's next stage: the table hears it.
        return advanced, (Play("stage-change" if advanced.day > state.day else "click"),)

    def _advance(self, state: V3State) -> V3State:
        """The step after the current one (not Departure, which NEXT or the timer ends)."""
        match state.step:
            case "setup":
                return self._departure(replace(state, phase="day"), state.day, 1)
            case "arrival":
                following: Step = day_end_steps(state.day)[0] if redeye(state) else "purchase"
                return replace(state, step=following)
            case "purchase":
                return self._departure(state, state.day, state.round + 1)
            case "game-over":
                return replace(state, phase="score", step="entry", totals=(), draft=0)
            case "redeye-lost" | "final-purchase" | "shuffle-score-piles" | "new-city":
                steps = day_end_steps(state.day)
                index = steps.index(state.step)
                if index + 1 < len(steps):
                    following = steps[index + 1]
                    if following == "game-over":
                        return replace(state, step=following, reason="day-3")
                    return replace(state, step=following)
                return self._departure(state, state.day + 1, 1)
            case "departure" | "entry" | "over":  # pragma: no cover - _press takes these
                raise RuleError("not-allowed", f"NEXT does not advance {state.step}")
        assert_never(state.step)

    def _departure(self, state: V3State, day: int, round_number: int) -> V3State:
        countdown = (Countdown(duration=float(state.duration))
                     if state.duration is not None else None)
        return replace(state, step="departure", day=day, round=round_number,
                       countdown=countdown, ended=None, departures=state.departures + 1)

    def _hold_next(self, state: V3State, now: float) -> tuple[V3State, tuple[Play, ...]]:
        if state.phase == "over":
            raise RuleError("not-allowed", "game over: BACK menu, hold BACK undo")
        if state.step != "departure":
            raise RuleError("not-allowed", "hold NEXT pauses the Departure timer")
        countdown = state.countdown
        if countdown is not None and countdown.state is TimerState.RUNNING:
            return replace(state, countdown=countdown.pause(now)), (Play("click"),)
        if countdown is not None and countdown.state is TimerState.PAUSED:
            return replace(state, countdown=countdown.resume(now)), (Play("click"),)
        if redeye(state):
            raise RuleError("not-allowed", "the Redeye draws no tiles")
        # No hidden ending: too few tiles is a choice on the screen.
        raise RuleError("not-allowed", "too few tiles? DOWN asks")

    def _expire(self, state: V3State, now: float) -> tuple[V3State, tuple[Play, ...]]:
        countdown = state.countdown
        if state.step != "departure" or countdown is None or not countdown.is_due(now):
            raise RuleError("not-allowed", "the timer has time left")
        return (replace(state, countdown=countdown.expire(now), step="arrival", ended="time"),
                (Play("alarm"),))

    def _lost(self, state: V3State, change: int) -> tuple[V3State, tuple[Play, ...]]:
        if state.step not in LOST_STEPS:
            raise RuleError("not-allowed", "the Lost pile changes at Arrival and the day's end")
        lost = state.lost + change
        if lost < 0:
            raise RuleError("not-allowed", "the Lost pile is empty")
        if lost > PASSENGERS_PER_PLAYER_COLOUR * state.players:
            raise RuleError("not-allowed", "more than every passenger tile")
        moved = replace(state, lost=lost)
        limit = lost_limit(state)
        if limit is not None and change > 0 and is_lost(lost, state.players):
            return replace(moved, phase="over", step="over", reason="lost"), (Play("lose"),)
        if limit is not None and change > 0 and lost == limit:
            return moved, (Play("danger"),)
        return moved, (Play("click"),)

    def _entry(self, state: V3State, button: Button) -> tuple[V3State, tuple[Play, ...]]:
        if button is Button.UP:
            if state.draft >= MAX_TOTAL:
                raise RuleError("not-allowed", f"at most {MAX_TOTAL}")
            return replace(state, draft=state.draft + 1), ()
        if button is Button.DOWN:
            if state.draft == 0:
                raise RuleError("not-allowed", "a score pile total is 0 or more")
            return replace(state, draft=state.draft - 1), ()
        totals = (*state.totals, state.draft)
        if len(totals) < state.players:
            return replace(state, totals=totals, draft=0), (Play("click"),)
        return replace(state, totals=totals, draft=0, phase="over", step="over"), (Play("win"),)

    # -- reading ---------------------------------------------------------------------------

    def countdown(self, state: V3State) -> Countdown | None:
        return state.countdown if state.step == "departure" else None

    def to_json(self, state: V3State, now: float) -> dict[str, Any]:
        in_day = state.phase == "day"
        entry: dict[str, Any] | None = None
        if state.phase == "score" or state.reason in ("day-3", "supply"):
            seat = len(state.totals) if state.phase == "score" else None
            entry = {"player": seat, "name": None if seat is None else player_name(seat),
                     "draft": state.draft, "input": score_input(state)}
        return {
            "game": self.name,
            "players": state.players,
            "phase": state.phase,
            "step": state.step,
            "result": self.result(state),
            "variant": state.variant,
            "day": state.day,
            "round": state.round,
            "redeye": redeye(state),
            "timer": (state.countdown.to_json(now) if state.countdown is not None
                      else dict(OFF_TIMER)),
            "timed": state.duration is not None,
            "lost": state.lost,
            "lost_limit": lost_limit(state),
            "draw": draw(state) if in_day and state.step == "departure" else None,
            "airports": airports_per_player(state.day),
            "departures": state.departures,
            "ended": state.ended,
            "reason": state.reason,
            "entry": entry,
            "short": state.short,
            "pace": state.pace,
            "lesson": lesson.to_json() if (lesson := current_lesson(state)) else None,
        }

    def result(self, state: V3State) -> Any:
        if state.phase != "over":
            return None
        if state.reason == "lost":
            return "lose"
        return score_game(score_input(state))
