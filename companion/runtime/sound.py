"""The tune player: the buzzer's notes on the game clock.

What it promises:
- A new tune replaces whatever is playing: the newest news matters most.
- Notes change at their game-clock instants; :meth:`TunePlayer.next_change` is a deadline the
  loop sleeps until, so a tune needs no polling.
- A failing buzzer is skipped until its retry time (:class:`~companion.runtime.health.PartHealth`):
  a missed beep is better than a stalled timer.
- Sound settings (:class:`~companion.core.tunes.SoundSettings`): muted, a tune is still
  recorded and announced but no note reaches the buzzer (a tune playing stops at once); the
  volume goes to a buzzer that has ``set_volume`` as a PWM duty (a passive buzzer; an active
  one can only be muted).
- Every listener hears each tune's name as it starts (the terminal shows a ♪ mark), with
  whether it is muted. A failing listener is logged, never stops the tune.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

from companion.core.tunes import TUNES, VOLUME_DUTY, SoundSettings, Tune
from companion.runtime.health import PartHealth

RECORDED_TUNES = 200
"""The names of the last tunes played, kept for tests and the bench."""


log = logging.getLogger(__name__)


class Buzzer(Protocol):
    def tone(self, frequency: float | None) -> None: ...


class SettingsStore(Protocol):
    """Where volume and mute, and the options last chosen for each game, are remembered
    (adapters/settings.py)."""

    def load(self) -> SoundSettings: ...

    def save(self, settings: SoundSettings) -> bool: ...

    def load_options(self) -> dict[str, dict[str, str]]: ...

    def save_options(self, remembered: Mapping[str, Mapping[str, str]]) -> bool: ...


@runtime_checkable
class VolumeBuzzer(Protocol):
    """A buzzer whose loudness can be set: ``duty`` is the PWM duty of its tones (0..0.5)."""

    def set_volume(self, duty: float) -> None: ...


TuneListener = Callable[[str, bool], None]
"""Called with a tune's name and whether sound is muted, as the tune starts."""


class TunePlayer:
    """Plays named tunes (core/tunes.py) on a buzzer; see the module docstring."""

    def __init__(self, buzzer: Buzzer, tunes: Mapping[str, Tune] = TUNES) -> None:
        self.buzzer = buzzer
        self.tunes = tunes  # tuned for the sounder fitted (core/tunes.py tunes_for)
        self.health = PartHealth("buzzer")
        self.notes: list[tuple[float, float | None]] = []
        self.played: deque[str] = deque(maxlen=RECORDED_TUNES)
        self.settings = SoundSettings()
        self.listeners: list[TuneListener] = []

    def apply(self, settings: SoundSettings, now: float) -> None:
        """Use ``settings`` from now on; muting silences a tune that is playing."""
        self.settings = settings
        if isinstance(self.buzzer, VolumeBuzzer) and self.health.may_try(now):
            try:
                self.buzzer.set_volume(VOLUME_DUTY[settings.volume])
            except Exception as error:  # any driver fault: play goes on
                self.health.failed(now, error)
        if settings.muted and self.notes:
            self.notes = []
            self.sound(now, None)

    def start(self, name: str, now: float) -> None:
        self.played.append(name)
        for listener in self.listeners:
            try:
                listener(name, self.settings.muted)
            except Exception:  # a display fault must not stop the sound
                log.exception("tune listener failed")
        if self.settings.muted:
            return
        at = now
        notes: list[tuple[float, float | None]] = []
        for frequency, seconds in self.tunes[name]:
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
