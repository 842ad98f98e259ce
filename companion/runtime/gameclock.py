"""The game clock: time that survives a restart, and the checkpoints that bound a power cut.

Games keep deadlines on a clock that survives restarts (DESIGN.md rule 2, "time is data"):
game time is the monotonic clock minus an offset, and the offset is chosen at start so that
game time resumes where the journal last saw it: the last action, or the last checkpoint
written while a countdown ran. Checkpoints are written at most every
:data:`CHECKPOINT_SECONDS` (SD-card wear) and at least that often (what a power cut can add to
the time left), so a countdown running at a power cut comes back with at most that much more
time than it had, never less.

A game untouched for :data:`STALE_HOURS` is offered at start-up, not forced on the table; that
is the one place wall-clock dates are compared, and an unreadable date never counts as stale.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

CHECKPOINT_SECONDS = 4.0
"""While a countdown runs, the game clock is saved at most this often (SD-card wear) and at
least this often (what a power cut can add to the time left)."""

STALE_HOURS = 12
"""A game untouched for longer is offered at start-up, not forced on the table."""


class Clock(Protocol):
    """The clock adapter: the monotonic clock, and the wall clock's date for the record."""

    def monotonic(self) -> float: ...

    def wall(self) -> str: ...


class GameClock:
    """Game-clock seconds over a monotonic clock, resuming at ``resume_at`` (from the journal)."""

    def __init__(self, clock: Clock, resume_at: float) -> None:
        self.clock = clock
        self.offset = clock.monotonic() - resume_at
        self.last_checkpoint = self.now()

    def now(self) -> float:
        return self.clock.monotonic() - self.offset

    def to_monotonic(self, game_time: float) -> float:
        """The monotonic instant of a game-clock instant (for a fake clock's ``set``)."""
        return game_time + self.offset

    def next_checkpoint(self) -> float:
        return self.last_checkpoint + CHECKPOINT_SECONDS

    def checkpoint_due(self, now: float) -> bool:
        # Compared with next_checkpoint() itself, never as a difference: (a + 4) - a can come
        # out below 4 in floating point, and a wake-up at the checkpoint would then find it
        # not yet due and wake again at the same instant, for ever.
        return now >= self.next_checkpoint()

    def checkpointed(self, at: float) -> None:
        self.last_checkpoint = at


def hours_between(earlier: str, later: str) -> float | None:
    """Hours between two ISO 8601 wall-clock dates, or None if either is unreadable."""
    try:
        elapsed = datetime.fromisoformat(later) - datetime.fromisoformat(earlier)
    except ValueError:
        return None
    return elapsed.total_seconds() / 3600


def is_stale(last_wall: str, wall_now: str) -> bool:
    """Whether a game last touched at ``last_wall`` should be offered rather than resumed."""
    idle = hours_between(last_wall, wall_now)
    return idle is not None and idle > STALE_HOURS
