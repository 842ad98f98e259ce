"""The countdown timer, on absolute deadlines.

A running countdown stores the instant it ends (``deadline``, on the game clock), never a
count of ticks, so it cannot drift however late or often it is looked at. The rules:

- **Never early.** The countdown is expired only when ``now >= deadline``; a look at any
  earlier instant sees time left.
- **Pause and resume are exact:** pausing stores what is left (``deadline - now``); resuming
  sets a new deadline ``now + left``.
- **Warnings** are the seconds-left marks (10, 5, 3, 2, 1 by default) strictly below the
  duration. Each mark's instant is ``deadline - mark``; :meth:`Countdown.warnings_between`
  reports the marks whose instants fall in a half-open window, so a caller that asks for
  consecutive windows hears each mark exactly once and in order. Marks already behind the
  countdown when it resumes are not repeated.
- **Display changes** happen on whole seconds left (the screen shows ``ceil(remaining)``);
  :meth:`Countdown.next_wake` includes them so the screen is redrawn exactly then.

It is a frozen value: every operation returns a new countdown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.errors import FixedCodeError


class TimerState(StrEnum):
    IDLE = "idle"
    RUNNING = "running"
    PAUSED = "paused"
    EXPIRED = "expired"


class TimerError(FixedCodeError, ValueError):
    """An operation the countdown's current state does not allow (``not-allowed``; still a
    ``ValueError``, which the games catch)."""

    CODE = "not-allowed"


DEFAULT_WARNINGS: tuple[float, ...] = (10, 5, 3, 2, 1)


@dataclass(frozen=True)
class Countdown:
    """A countdown of ``duration`` seconds; see the module docstring for the rules."""

    duration: float
    warnings: tuple[float, ...] = DEFAULT_WARNINGS
    state: TimerState = TimerState.IDLE
    deadline: float | None = None
    left: float | None = None

    def __post_init__(self) -> None:
        if not self.duration > 0:
            raise TimerError(f"a countdown needs a positive duration, got {self.duration}")
        if self.left is None:
            object.__setattr__(self, "left", float(self.duration))
        marks = tuple(sorted({float(mark) for mark in self.warnings if mark > 0}, reverse=True))
        object.__setattr__(self, "warnings", marks)

    # -- reading ---------------------------------------------------------------------------

    def remaining(self, now: float) -> float:
        """Seconds left at ``now`` (never negative)."""
        if self.state is TimerState.RUNNING:
            assert self.deadline is not None
            return max(0.0, self.deadline - now)
        assert self.left is not None
        return self.left

    def used(self, now: float) -> float:
        """Seconds of the duration used so far."""
        return self.duration - self.remaining(now)

    def is_due(self, now: float) -> bool:
        """Whether a running countdown has reached zero at ``now``."""
        return (self.state is TimerState.RUNNING and self.deadline is not None
                and now >= self.deadline)

    def shown_seconds(self, now: float) -> int:
        """The whole seconds a display shows: rounded up, so 0 appears only at the end."""
        return math.ceil(round(self.remaining(now), 6))

    def warnings_between(self, after: float, upto: float) -> list[float]:
        """Marks (seconds left) whose instants lie in ``(after, upto]``, largest mark first."""
        if self.state is not TimerState.RUNNING or self.deadline is None:
            return []
        deadline = self.deadline
        return [mark for mark in self.warnings
                if mark < self.duration and after < deadline - mark <= upto]

    def next_wake(self, now: float) -> float | None:
        """The next instant after ``now`` at which something happens or the display changes."""
        if self.state is not TimerState.RUNNING or self.deadline is None:
            return None
        deadline = self.deadline
        if now >= deadline:
            return deadline
        candidates = [deadline]
        candidates.extend(deadline - mark for mark in self.warnings
                          if mark < self.duration and deadline - mark > now)
        whole_seconds_after = math.ceil(round(deadline - now, 6)) - 1
        if whole_seconds_after >= 1:
            candidates.append(deadline - whole_seconds_after)
        return min(candidates)

    # -- changing --------------------------------------------------------------------------

    def start(self, now: float) -> Countdown:
        """Start from the full duration (from idle, or again after it expired)."""
        if self.state in (TimerState.RUNNING, TimerState.PAUSED):
            raise TimerError(f"the timer is {self.state}; end it before starting again")
        return replace(self, state=TimerState.RUNNING, deadline=now + self.duration,
                       left=None)

    def pause(self, now: float) -> Countdown:
        if self.state is not TimerState.RUNNING:
            raise TimerError(f"only a running timer can pause; it is {self.state}")
        return replace(self, state=TimerState.PAUSED, deadline=None, left=self.remaining(now))

    def resume(self, now: float) -> Countdown:
        if self.state is not TimerState.PAUSED:
            raise TimerError(f"only a paused timer can resume; it is {self.state}")
        assert self.left is not None
        return replace(self, state=TimerState.RUNNING, deadline=now + self.left, left=None)

    def expire(self, now: float) -> Countdown:
        """Mark a running countdown as run out; refused before its deadline."""
        if not self.is_due(now):
            raise TimerError("the timer has time left")
        return replace(self, state=TimerState.EXPIRED, deadline=None, left=0.0)

    def end_early(self, now: float) -> Countdown:
        """End a running or paused countdown now, keeping what was left for the record."""
        if self.state not in (TimerState.RUNNING, TimerState.PAUSED):
            raise TimerError(f"only a running or paused timer can end early; it is {self.state}")
        return replace(self, state=TimerState.EXPIRED, deadline=None, left=self.remaining(now))

    def reset(self) -> Countdown:
        """Back to idle with the full duration."""
        return replace(self, state=TimerState.IDLE, deadline=None, left=float(self.duration))

    def with_duration(self, duration: float) -> Countdown:
        """A different duration; only while idle."""
        if self.state is not TimerState.IDLE:
            raise TimerError("the duration can change only while the timer is idle")
        return Countdown(duration=duration, warnings=self.warnings)

    def to_json(self, now: float) -> dict[str, object]:
        """The ``timer`` object of CONTRACT.md section 3."""
        return {"state": str(self.state), "remaining": round(self.remaining(now), 3),
                "duration": float(self.duration)}
