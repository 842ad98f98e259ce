"""The panel's idle level at run time: core/idle.py's policy, applied to the display.

Promises (the rules themselves are in :mod:`companion.core.idle`):
- The controller reports activity (a press, a command, a new screen) and asks
  :meth:`IdleScreen.swallow` about every raw button edge; a press that finds the panel dimmed
  or off wakes it and is kept from the gesture recogniser, its release too, so it never acts.
- The level is applied to the panel only when it changes, through ``set_idle(level)`` on a
  display that has it (:class:`Dimmable`: adapters/oled.py's Display, the recording fake).
- :meth:`IdleScreen.next_change` is a wake-up like any other deadline: the loop sleeps until
  the panel must dim, never polls.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from companion.core.buttons import Button
from companion.core.idle import AWAKE, IdleLevel, IdlePolicy, level_at, next_change

__all__ = ["Dimmable", "IdleScreen"]


@runtime_checkable
class Dimmable(Protocol):
    """A display that can dim and switch its panel off."""

    def set_idle(self, level: str) -> None: ...


class IdleScreen:
    """The idle level, the last activity, and the presses being swallowed."""

    def __init__(self, policy: IdlePolicy, now: float, panel: Dimmable | None) -> None:
        self.policy = policy
        self.panel = panel
        self.last_activity = now
        self.level: IdleLevel = AWAKE
        self.swallowing: set[Button] = set()

    def activity(self, now: float) -> None:
        self.last_activity = max(self.last_activity, now)

    def swallow(self, button: Button, pressed: bool, now: float) -> bool:
        """Whether this raw edge must not reach the recogniser (it only wakes the panel)."""
        if not pressed:
            if button in self.swallowing:
                self.swallowing.discard(button)
                return True
            return False
        self.activity(now)
        if self.level == AWAKE:
            return False
        self.swallowing.add(button)
        self._apply(AWAKE)
        return True

    def swallow_gesture(self, now: float) -> bool:
        """A whole gesture from a source without edges (the keyboard): wake, or let it act."""
        self.activity(now)
        if self.level == AWAKE:
            return False
        self._apply(AWAKE)
        return True

    def update(self, now: float, busy: bool, changed: bool) -> None:
        """After a redraw: a new screen or a running countdown is activity; apply the level."""
        if busy or changed:
            self.activity(now)
        self._apply(level_at(self.policy, self.last_activity, now, busy))

    def next_change(self, now: float, busy: bool) -> float | None:
        return next_change(self.policy, self.last_activity, now, busy)

    def _apply(self, level: IdleLevel) -> None:
        if level != self.level:
            self.level = level
            if self.panel is not None:
                self.panel.set_idle(level)
