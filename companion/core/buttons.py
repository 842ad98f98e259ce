"""Button gestures from timestamped edges.

The hardware reports raw edges (pressed / released, each with a monotonic timestamp). This
module turns them into the gestures the games understand, and it is pure so a fake clock can
test every case. The rules it enforces:

- **Debounce acts on the first edge and adds no delay.** An edge that changes the button's
  accepted level is acted on at once; for ``debounce`` seconds after it, further edges only
  update the raw level. When that window closes, a raw level that differs from the accepted
  one is accepted then (so a bouncing release still ends the press).
- **A short press fires on release**, unless the press already became a long press.
- **A long press fires once, while the button is still held**, ``long_press`` seconds after
  the press was accepted. Releasing afterwards fires nothing more.
- **Repeating buttons** (UP and DOWN by default) do not long-press: held past ``long_press``
  they fire a press at once and another every ``repeat_interval``, for setting numbers fast.
- **The chord: UP and DOWN down together** fire one ``chord`` gesture (named by
  :data:`CHORD`, the box mutes at once) the instant the second of them is accepted down.
  Neither button then fires anything more (no press on release, no repeat) until it is
  released and pressed again, so a chord never also moves a cursor or changes a number.

The recogniser is an immutable value: every call returns a new one plus the gestures that
fired. ``next_deadline`` tells the runtime when to call :meth:`GestureRecognizer.on_tick`
(when a debounce window closes, a long press is due, or a repeat is due).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Literal


class Button(StrEnum):
    """The four buttons, named as the line protocol names them."""

    NEXT = "next"
    UP = "up"
    DOWN = "down"
    BACK = "back"


GestureKind = Literal["press", "hold", "chord"]

CHORD = (Button.UP, Button.DOWN)
"""The two buttons that, down together, make the chord; its gesture is named by the first."""


@dataclass(frozen=True)
class Edge:
    """A raw level change reported by the hardware."""

    button: Button
    pressed: bool
    at: float


@dataclass(frozen=True)
class Gesture:
    """A recognised short press, long press (hold), or the UP+DOWN chord (button UP)."""

    kind: GestureKind
    button: Button
    at: float


@dataclass(frozen=True)
class GestureTiming:
    """How gestures are told apart; every time is configurable (seconds)."""

    debounce: float = 0.03
    long_press: float = 0.8
    repeat_interval: float = 0.15
    repeating: frozenset[Button] = frozenset({Button.UP, Button.DOWN})

    def __post_init__(self) -> None:
        if not 0 <= self.debounce < self.long_press:
            raise ValueError("debounce must be at least 0 and shorter than the long press")
        if self.repeat_interval <= 0:
            raise ValueError("repeat_interval must be positive")


@dataclass(frozen=True)
class _Track:
    """One button's debounce and press bookkeeping."""

    raw_down: bool = False
    down: bool = False
    accepted_at: float = float("-inf")
    long_fired: bool = False
    next_repeat: float | None = None
    # Part of a chord that fired: the button stays silent until it is released.
    in_chord: bool = False


def _no_tracks() -> Mapping[Button, _Track]:
    return MappingProxyType({button: _Track() for button in Button})


@dataclass(frozen=True)
class GestureRecognizer:
    """Turns edges into gestures; see the module docstring for the rules."""

    timing: GestureTiming = GestureTiming()
    tracks: Mapping[Button, _Track] = field(default_factory=_no_tracks)

    def on_edge(self, edge: Edge) -> tuple[GestureRecognizer, list[Gesture]]:
        """Take one raw edge. Time must not run backwards between calls."""
        recognizer, gestures = self.on_tick(edge.at)
        track = replace(recognizer.tracks[edge.button], raw_down=edge.pressed)
        if edge.at - track.accepted_at >= self.timing.debounce and track.raw_down != track.down:
            track, fired = self._accept(edge.button, track, edge.at)
            gestures.extend(fired)
        recognizer, chord = recognizer._with(edge.button, track)._chord()
        return recognizer, gestures + chord

    def on_tick(self, now: float) -> tuple[GestureRecognizer, list[Gesture]]:
        """Fire whatever is due at ``now``: closed debounce windows, long presses, repeats."""
        recognizer = self
        gestures: list[Gesture] = []
        for button in Button:
            track = recognizer.tracks[button]
            track, fired = self._due(button, track, now)
            if fired or track is not recognizer.tracks[button]:
                recognizer = recognizer._with(button, track)
                gestures.extend(fired)
        recognizer, chord = recognizer._chord()
        gestures.extend(chord)
        gestures.sort(key=lambda gesture: gesture.at)
        return recognizer, gestures

    def next_deadline(self) -> float | None:
        """The earliest instant at which :meth:`on_tick` would fire or settle something."""
        deadlines = [d for track in self.tracks.values()
                     if (d := self._track_deadline(track)) is not None]
        return min(deadlines) if deadlines else None

    def is_down(self, button: Button) -> bool:
        """The accepted (debounced) level of a button."""
        return self.tracks[button].down

    # -- internals -------------------------------------------------------------------------

    def _with(self, button: Button, track: _Track) -> GestureRecognizer:
        tracks = dict(self.tracks)
        tracks[button] = track
        return replace(self, tracks=MappingProxyType(tracks))

    def _chord(self) -> tuple[GestureRecognizer, list[Gesture]]:
        """Fire the chord if both its buttons are down and neither is in a chord already."""
        first, second = (self.tracks[button] for button in CHORD)
        if not (first.down and second.down) or first.in_chord or second.in_chord:
            return self, []
        at = max(first.accepted_at, second.accepted_at)
        recognizer = self
        for button in CHORD:
            # long_fired silences the release and the long press; no repeat either.
            silenced = replace(recognizer.tracks[button], in_chord=True, long_fired=True,
                               next_repeat=None)
            recognizer = recognizer._with(button, silenced)
        return recognizer, [Gesture("chord", CHORD[0], at)]

    def _track_deadline(self, track: _Track) -> float | None:
        candidates: list[float] = []
        if track.raw_down != track.down:
            candidates.append(track.accepted_at + self.timing.debounce)
        if track.down and not track.long_fired:
            candidates.append(track.accepted_at + self.timing.long_press)
        if track.down and track.next_repeat is not None:
            candidates.append(track.next_repeat)
        return min(candidates) if candidates else None

    def _due(self, button: Button, track: _Track, now: float) -> tuple[_Track, list[Gesture]]:
        gestures: list[Gesture] = []
        # Loop because settling a bounce can start a press whose own deadlines may be due too.
        while (deadline := self._track_deadline(track)) is not None and deadline <= now:
            settle_at = track.accepted_at + self.timing.debounce
            if track.raw_down != track.down and settle_at == deadline:
                track, fired = self._accept(button, track, settle_at)
            elif track.down and not track.long_fired:
                track, fired = self._long_press(button, track, deadline)
            else:
                fired = [Gesture("press", button, deadline)]
                track = replace(track, next_repeat=deadline + self.timing.repeat_interval)
            gestures.extend(fired)
        return track, gestures

    def _accept(self, button: Button, track: _Track, at: float) -> tuple[_Track, list[Gesture]]:
        """Accept the raw level as the button's level at ``at``."""
        if track.raw_down:
            return replace(track, down=True, accepted_at=at, long_fired=False,
                           next_repeat=None, in_chord=False), []
        fired = [] if track.long_fired else [Gesture("press", button, at)]
        return replace(track, down=False, accepted_at=at, long_fired=False,
                       next_repeat=None, in_chord=False), fired

    def _long_press(self, button: Button, track: _Track, at: float) -> tuple[_Track, list[Gesture]]:
        if button in self.timing.repeating:
            return (replace(track, long_fired=True, next_repeat=at + self.timing.repeat_interval),
                    [Gesture("press", button, at)])
        return replace(track, long_fired=True), [Gesture("hold", button, at)]
