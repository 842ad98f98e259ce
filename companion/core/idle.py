"""Idle dimming and the screen saver: how long the panel stays bright after the last activity.

An OLED pixel that shows the same thing for hours wears unevenly (burn-in). The box dims its
panel a while after the last activity and switches it off (the screen saver) a while later.

Rules it enforces (pure: the runtime passes every instant in):
- Activity is a button press, a protocol command, or a change of the screen's content (a tick
  of a running countdown, the alarm, a notice): any of them makes the panel bright again.
- **Never while a countdown runs**: a running flight timer (or round timer) keeps the panel
  bright however long nobody touches a button; the idle time counts from when it stopped.
- A press that finds the panel dimmed or off **only wakes it**: the press does nothing else,
  so nobody acts on a screen they could not read. (Its release and a hold of the same press
  are swallowed too.) Protocol commands are never swallowed: a program cannot see the panel.
- ``0`` seconds switches a stage off (``dim_after_s = 0``: never dim).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["AWAKE", "DIM", "SAVER", "IdleLevel", "IdlePolicy", "level_at", "next_change"]

IdleLevel = Literal["awake", "dim", "saver"]
AWAKE: IdleLevel = "awake"
DIM: IdleLevel = "dim"
SAVER: IdleLevel = "saver"


@dataclass(frozen=True)
class IdlePolicy:
    """Seconds of no activity before the panel dims, and before it switches off (0: never)."""

    dim_after_s: float = 120.0
    saver_after_s: float = 900.0

    def __post_init__(self) -> None:
        if self.dim_after_s < 0 or self.saver_after_s < 0:
            raise ValueError("idle times must be 0 (never) or positive seconds")

    def stages(self) -> list[tuple[float, IdleLevel]]:
        """The stages that are on, in the order they come."""
        found: list[tuple[float, IdleLevel]] = []
        if self.dim_after_s > 0:
            found.append((self.dim_after_s, DIM))
        if self.saver_after_s > 0:
            found.append((self.saver_after_s, SAVER))
        return sorted(found)


def level_at(policy: IdlePolicy, last_activity: float, now: float, busy: bool) -> IdleLevel:
    """How the panel should be at ``now``; ``busy``: a countdown is running."""
    if busy:
        return AWAKE
    level: IdleLevel = AWAKE
    for after, stage in policy.stages():
        if now - last_activity >= after:
            level = stage
    return level


def next_change(policy: IdlePolicy, last_activity: float, now: float,
                busy: bool) -> float | None:
    """The next instant at which :func:`level_at` changes by itself (None: never, as things
    stand; activity or a countdown's end moves it)."""
    if busy:
        return None
    for after, _stage in policy.stages():
        if last_activity + after > now:
            return last_activity + after
    return None
