"""The tune player: the buzzer's notes on the game clock.

What it promises:
- A new tune replaces whatever is playing: the newest news matters most.
- Notes change at their game-clock instants; :meth:`TunePlayer.next_change` is a deadline the
  loop sleeps until, so a tune needs no polling.
- A failing buzzer is skipped until its retry time (:class:`~companion.runtime.health.PartHealth`):
  a missed beep is better than a stalled timer.
"""

from __future__ import annotations

from collections import deque
from typing import Protocol

from companion.core.tunes import TUNES
from companion.runtime.health import PartHealth

RECORDED_TUNES = 200
"""The names of the last tunes played, kept for tests and the bench."""


class Buzzer(Protocol):
    def tone(self, frequency: float | None) -> None: ...


class TunePlayer:
    """Plays named tunes (core/tunes.py) on a buzzer; see the module docstring."""

    def __init__(self, buzzer: Buzzer) -> None:
        self.buzzer = buzzer
        self.health = PartHealth("buzzer")
        self.notes: list[tuple[float, float | None]] = []
        self.played: deque[str] = deque(maxlen=RECORDED_TUNES)

    def start(self, name: str, now: float) -> None:
        self.played.append(name)
        at = now
        notes: list[tuple[float, float | None]] = []
        for frequency, seconds in TUNES[name]:
            notes.append((at, frequency))
            at += seconds
        notes.append((at, None))
        self.notes = notes
        self.play_due(now)

    def next_change(self) -> float | None:
        return self.notes[0][0] if self.notes else None

    def play_due(self, now: float) -> None:
        while self.notes and self.notes[0][0] <= now:
            _, frequency = self.notes.pop(0)
            self.sound(now, frequency)

    def sound(self, now: float, frequency: float | None) -> None:
        """One tone change (``None``: silence), unless the buzzer waits for its retry."""
        if not self.health.may_try(now):
            return
        try:
            self.buzzer.tone(frequency)
        except Exception as error:  # any driver fault: play goes on
            self.health.failed(now, error)
        else:
            self.health.succeeded()
