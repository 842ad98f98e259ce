"""The ``timer`` game: a plain round timer for any table (CONTRACT.md section 3).

Buttons:
- NEXT starts the countdown (idle), ends it early (running or paused) and starts it again
  from the full duration (expired).
- Hold NEXT pauses a running countdown and resumes a paused one.
- UP / DOWN change the duration while idle, in steps that grow with the duration.

``phase`` and ``step`` are the countdown's state. Warnings beep at the configured
seconds-left marks below the duration; the alarm sounds at zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

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
    int_between,
)
from companion.core.timer import Countdown, TimerState

MIN_SECONDS = 5
MAX_SECONDS = 99 * 60 + 59


def _warning_list(value: str) -> bool:
    parts = [part for part in value.split(",") if part]
    return bool(parts) and all(part.isdigit() and int(part) > 0 for part in parts)


OPTIONS = (
    OptionSpec("seconds", "Seconds",
               ("30", "45", "60", "90", "120", "180", "300", "600"), "60",
               accepts=int_between(MIN_SECONDS, MAX_SECONDS),
               allowed=f"{MIN_SECONDS}..{MAX_SECONDS}",
               explain="Length of each round's countdown"),
    OptionSpec("warnings", "Warn at", ("10,5,3,2,1",), "10,5,3,2,1",
               accepts=_warning_list, allowed="a comma-separated list of seconds, e.g. 10,5,3",
               explain="Beeps at these seconds left"),
)


DURATION_GRID: tuple[int, ...] = (
    *range(MIN_SECONDS, 60, 5), *range(60, 300, 15), *range(300, MAX_SECONDS, 60), MAX_SECONDS)
"""The durations UP / DOWN step through: 5 s steps to a minute, 15 s to 5 min, then minutes."""


def duration_step(seconds: float, direction: int) -> int:
    """The next duration on the grid above (UP, +1) or below (DOWN, -1) ``seconds``."""
    if direction > 0:
        return next((grid for grid in DURATION_GRID if grid > seconds), MAX_SECONDS)
    return next((grid for grid in reversed(DURATION_GRID) if grid < seconds), MIN_SECONDS)


@dataclass(frozen=True)
class TimerGame:
    countdown: Countdown
    rounds: int = 0


class RoundTimer:
    """The round timer's rules; see the module docstring."""

    name = "timer"
    title = "Round timer"
    options = OPTIONS

    def new(self, options: Mapping[str, str], seed: int) -> TimerGame:
        try:
            marks = tuple(float(mark) for mark in options["warnings"].split(",") if mark)
            return TimerGame(Countdown(duration=float(options["seconds"]), warnings=marks))
        except ValueError as error:
            raise OptionError(str(error)) from error

    def step(self, state: TimerGame, action: GameAction,
             now: float) -> tuple[TimerGame, tuple[Play, ...]]:
        countdown = state.countdown
        match action:
            case Press(Button.NEXT):
                if countdown.state in (TimerState.IDLE, TimerState.EXPIRED):
                    return replace(state, countdown=countdown.start(now),
                                   rounds=state.rounds + 1), (Play("flight-start"),)
                return replace(state, countdown=countdown.end_early(now)), (Play("end"),)
            case Press(Button.UP | Button.DOWN as button):
                if countdown.state is not TimerState.IDLE:
                    raise RuleError("not-allowed",
                                    "the duration changes only before the timer starts")
                direction = 1 if button is Button.UP else -1
                seconds = duration_step(countdown.duration, direction)
                return replace(state, countdown=countdown.with_duration(seconds)), ()
            case Hold(Button.NEXT):
                if countdown.state is TimerState.RUNNING:
                    return replace(state, countdown=countdown.pause(now)), (Play("click"),)
                if countdown.state is TimerState.PAUSED:
                    return replace(state, countdown=countdown.resume(now)), (Play("click"),)
                raise RuleError("not-allowed", "only a running timer can pause")
            case Expire():
                if not countdown.is_due(now):
                    raise RuleError("not-allowed", "the timer has time left")
                return replace(state, countdown=countdown.expire(now)), (Play("alarm"),)
            case Restore():
                if countdown.state is TimerState.RUNNING:
                    return replace(state, countdown=countdown.pause(now)), ()
                return state, ()
        raise RuleError("not-allowed", f"{_describe(action)} does nothing in the round timer")

    def countdown(self, state: TimerGame) -> Countdown:
        return state.countdown

    def to_json(self, state: TimerGame, now: float) -> dict[str, Any]:
        countdown_state = str(state.countdown.state)
        return {"game": self.name, "players": None, "phase": countdown_state,
                "step": countdown_state, "result": None, "rounds": state.rounds,
                "timer": state.countdown.to_json(now)}

    def result(self, state: TimerGame) -> None:
        return None


def _describe(action: GameAction) -> str:
    match action:
        case Press(button):
            return f"press {button}"
        case Hold(button):
            return f"hold {button}"
    return type(action).__name__.lower()
