"""The v3 prototype's state on the box (pure): one immutable record per moment of a game.

It lives apart from game.py (which re-exports it) so that the lessons (lessons.py, whose
triggers read the state) and the game (which asks the lessons) import it without a circle.
``pace`` is how well the table knows the game (``teach`` adds lessons; ``steps`` is today's
flow); ``lessons_seen`` grows only by the journaled NEXT that says "got it" to a lesson.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.core.timer import Countdown
from companion.games.now_boarding_v3.data import Step

#: How well the table knows the game: v3 has no brisk round (its round is three steps).
Pace = Literal["teach", "steps"]
PACES: tuple[Pace, ...] = ("teach", "steps")


@dataclass(frozen=True)
class V3State:
    """A game of the v3 prototype on the box; immutable."""

    players: int
    variant: str
    duration: int | None
    phase: str = "setup"
    step: Step = "setup"
    day: int = 1
    round: int = 1
    lost: int = 0
    countdown: Countdown | None = None
    ended: str | None = None  # how the last Departure ended: "next" or "time"
    reason: str | None = None  # why the game ended: "day-3", "supply" or "lost"
    totals: tuple[int, ...] = ()
    draft: int = 0
    departures: int = 0
    short: bool = False  # the "Too few tiles?" choice is on screen (at a Departure)
    pace: Pace = "steps"
    lessons_seen: tuple[str, ...] = ()  # pace=teach: the lessons the table said "got it" to
