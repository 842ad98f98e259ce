"""The box's output: the display and the status LED, driven from the screen model.

What it promises:
- **A frame is sent only when the screen model changed** (models are immutable and compared
  by value), or when the display is failing: a failing display is retried with backoff
  (:class:`~companion.runtime.health.PartHealth`) even with nothing new to show, as it may
  have lost its picture. A driver fault never stops play.
- **The status LED is lit while a countdown runs**, and set only when that changes.
- Blanking at a stop never raises (the box is stopping anyway).

Single-threaded like the controller that owns it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from companion.runtime.health import PartHealth
from companion.ui.render import render
from companion.ui.screen import Screen

log = logging.getLogger(__name__)


class FrameSink(Protocol):
    def show(self, image: Any, text: Sequence[str] = ...) -> bool: ...

    def blank(self) -> None: ...


class StatusLed(Protocol):
    def set(self, lit: bool) -> None: ...


class Output:
    """The display and the LED; see the module docstring."""

    def __init__(self, display: FrameSink, led: StatusLed | None = None) -> None:
        self.display = display
        self.led = led
        self.health = PartHealth("display")
        self.last_screen: Screen | None = None
        self._led_lit: bool | None = None

    def show(self, screen: Screen, now: float, *, countdown_running: bool) -> bool:
        """Draw ``screen`` if it changed (or the display is failing and due a retry); keep
        the LED in step with ``countdown_running``. True if the screen changed."""
        changed = screen != self.last_screen or self.health.failing
        if changed and self.health.may_try(now):
            try:
                self.display.show(render(screen), screen.marked_lines())
            except Exception as error:  # any driver fault: play goes on
                self.health.failed(now, error)
            else:
                self.last_screen = screen
                self.health.succeeded()
        if self.led is not None and countdown_running != self._led_lit:
            self._led_lit = countdown_running
            self.led.set(countdown_running)
        return changed

    def blank(self) -> None:
        try:
            self.display.blank()
        except Exception as error:  # stopping anyway
            log.warning("display failed while blanking: %s", error)
