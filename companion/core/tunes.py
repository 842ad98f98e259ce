"""The tunes the buzzer plays, as data: notes of (frequency in Hz or None for a rest, seconds).

What it promises:
- A passive buzzer plays the frequencies; an active buzzer sounds for every note and is silent
  for rests. Frequencies stay within 220-4700 Hz, inside the range the passive buzzer is set up
  for (110-7040 Hz: adapters/gpio.py).
- The tunes a table must hear across the room (:data:`ALARM_TUNES`: the warnings and the time-up
  alarm) sit in :data:`LOUD_BAND`, around the piezo's resonance :data:`RESONANCE_HZ`, where it
  is loudest for the same drive; the time-up alarm is the resonance itself. The part and the
  figure: Murata PKM17EPPH4001-B0, whose part number's "40" is its 4.0 kHz resonant frequency
  (Murata's part numbering, piezoelectric sound components catalog P37E). A piezo driven far
  below its resonance (the old 1.5-2.8 kHz warnings) is markedly quieter.
- Every tune has its own note sequence, so the table can tell events apart by ear, and every
  event the table must hear (:data:`EVENT_TUNES`) has a tune of its own.
- The alarm tunes follow the sounder: :func:`tunes_for` moves them to a magnetic buzzer's or a
  speaker's loud frequency (:data:`SOUNDERS`); the piezo's are :data:`TUNES` themselves.
- How loud: :class:`SoundSettings` (a volume step and mute, chosen in the menu and remembered
  in the state dir); :data:`VOLUME_DUTY` turns the volume step into the passive buzzer's PWM
  duty. An active buzzer has no volume: it can only be muted.
"""

from __future__ import annotations

from dataclasses import dataclass

Note = tuple[float | None, float]
Tune = tuple[Note, ...]

RESONANCE_HZ = 4000.0
"""The piezo's resonant frequency (Murata PKM17EPPH4001-B0: 4.0 kHz, a datasheet value)."""
LOUD_BAND = (3000.0, 4700.0)
"""Where the alarm tunes sit: about -0.4 to +0.25 octave around the resonance."""

TUNES: dict[str, Tune] = {
    # A flight (a round's countdown) starts: a rising "take-off".
    "flight-start": ((1047.0, 0.1), (1568.0, 0.2)),
    # A short high beep at a seconds-left mark the table chose (the timer's own marks).
    "warning": ((3520.0, 0.08),),
    # The last three seconds of such marks are more urgent: a higher, slightly longer beep.
    "warning-final": ((4186.0, 0.12),),
    # The standard marks each have their own, so the table hears how much time is left:
    # 10 s and 5 s are calm (one and two beeps), 3, 2 and 1 s count down by pitch and beeps.
    # All near the piezo's 4 kHz resonance, where it is loudest.
    "warning-10": ((3136.0, 0.1),),
    "warning-5": ((3520.0, 0.08), (None, 0.06), (3520.0, 0.08)),
    "warning-3": ((3951.0, 0.07), (None, 0.05), (3951.0, 0.07), (None, 0.05), (3951.0, 0.07)),
    "warning-2": ((4186.0, 0.1), (None, 0.06), (4186.0, 0.1)),
    "warning-1": ((4435.0, 0.2),),
    # Time is up: one long tone at the resonance, the loudest the piezo gets.
    "alarm": ((RESONANCE_HZ, 1.2),),
    # A flight or timer ended early by the players.
    "end": ((1319.0, 0.1), (None, 0.05), (880.0, 0.15)),
    # A button press that changed something (kept very short).
    "click": ((2637.0, 0.02),),
    # Refused: the rules do not allow that now.
    "refused": ((330.0, 0.15),),
    # A complaint was filed, and the game goes on: two falling notes.
    "complaint": ((659.0, 0.15), (None, 0.05), (523.0, 0.25)),
    # One step before disaster: one more complaint (or lost passenger) loses.
    "danger": ((440.0, 0.2), (None, 0.1), (440.0, 0.2), (None, 0.1), (330.0, 0.4)),
    # A new stage of the game (Now Boarding's next deck, a new day).
    "stage-change": ((1319.0, 0.1), (1568.0, 0.1), (1319.0, 0.15)),
    # The final round begins: three calls, the last one higher.
    "final-round": ((1568.0, 0.15), (None, 0.05), (1568.0, 0.15), (None, 0.05),
                    (2093.0, 0.4)),
    "win": ((1047.0, 0.12), (1319.0, 0.12), (1568.0, 0.12), (2093.0, 0.5)),
    "lose": ((784.0, 0.25), (659.0, 0.25), (523.0, 0.25), (392.0, 0.7)),
}

EVENT_TUNES: dict[str, str] = {
    "flight start": "flight-start",
    "warning at 10 s": "warning-10",
    "warning at 5 s": "warning-5",
    "warning at 3 s": "warning-3",
    "warning at 2 s": "warning-2",
    "warning at 1 s": "warning-1",
    "warning at another mark": "warning",
    "final warning at another mark": "warning-final",
    "alarm": "alarm",
    "complaint filed": "complaint",
    "one more loses": "danger",
    "stage change": "stage-change",
    "final round": "final-round",
    "win": "win",
    "lose": "lose",
}
"""The events a table must hear, each with the tune it gets (issue 14)."""

ALARM_TUNES = ("warning", "warning-final", "warning-10", "warning-5", "warning-3", "warning-2",
               "warning-1", "alarm")
"""The tunes that must carry across a table: in :data:`LOUD_BAND`."""

FINAL_WARNING_SECONDS = 3
"""Marks at or below this many seconds left get the more urgent beep."""


@dataclass(frozen=True)
class Sounder:
    """What makes the sound (``buzzer.sounder`` in the config) and where it is loudest:
    ``loud_hz``, the frequency the time-up alarm sits on, and the source of that figure."""

    loud_hz: float
    source: str


SOUNDERS: dict[str, Sounder] = {
    "piezo": Sounder(RESONANCE_HZ, "Murata PKM17EPPH4001-B0: 4.0 kHz resonance (datasheet)"),
    "magnetic": Sounder(2400.0, "CUI CD-1206 magnetic transducer: rated at 2400 Hz "
                                "(datasheet)"),
    "speaker": Sounder(2500.0, "a small speaker on a class-D amplifier has no sharp resonance; "
                               "2-5 kHz is where the ear is most sensitive (ISO 226 equal-"
                               "loudness contours), and 2.5 kHz is less shrill than 4 kHz"),
}
"""The sounders the box is built for (hardware/README.md, Sound), by config name."""


def tunes_for(sounder: str) -> dict[str, Tune]:
    """The tunes tuned for ``sounder``: the alarm tunes (:data:`ALARM_TUNES`) moved as a whole
    so the time-up alarm sits on its loud frequency (every interval kept, so each warning stays
    its own), the others as they are. KeyError for a sounder not in :data:`SOUNDERS`."""
    factor = SOUNDERS[sounder].loud_hz / RESONANCE_HZ
    return {name: tuple((None if f is None else round(f * factor), s) for f, s in tune)
            if name in ALARM_TUNES else tune for name, tune in TUNES.items()}


def loud_band(sounder: str) -> tuple[float, float]:
    """Where ``sounder``'s alarm tunes sit: :data:`LOUD_BAND` moved with them."""
    factor = SOUNDERS[sounder].loud_hz / RESONANCE_HZ
    return LOUD_BAND[0] * factor, LOUD_BAND[1] * factor


def warning_tune(mark: float) -> str:
    """The tune for the seconds-left ``mark``: its own for the standard marks (10, 5, 3, 2,
    1 s), else the plain or the urgent beep."""
    own = f"warning-{int(mark)}"
    if mark == int(mark) and own in TUNES:
        return own
    return "warning-final" if mark <= FINAL_WARNING_SECONDS else "warning"

VOLUME_STEPS = 5
DEFAULT_VOLUME = 3
# PWM duty per volume step (1..5). A piezo is loudest at 50 % duty; loudness falls off
# steeply below about 10 %, so the steps are spaced roughly evenly by ear, not by duty.
VOLUME_DUTY: dict[int, float] = {1: 0.02, 2: 0.05, 3: 0.12, 4: 0.25, 5: 0.5}


@dataclass(frozen=True)
class SoundSettings:
    """How the buzzer sounds: a volume step (1 quietest .. 5 loudest) and mute."""

    volume: int = DEFAULT_VOLUME
    muted: bool = False

    def __post_init__(self) -> None:
        if self.volume not in VOLUME_DUTY:
            raise ValueError(f"volume must be 1 to {VOLUME_STEPS}, got {self.volume!r}")

    @property
    def duty(self) -> float:
        """The passive buzzer's PWM duty for this volume (0 when muted)."""
        return 0.0 if self.muted else VOLUME_DUTY[self.volume]

    def louder(self) -> SoundSettings:
        """One step louder, wrapping from the loudest to the quietest (NEXT in the menu)."""
        return SoundSettings(self.volume % VOLUME_STEPS + 1, self.muted)

    def toggled(self) -> SoundSettings:
        return SoundSettings(self.volume, not self.muted)


def tune_length(name: str) -> float:
    """Seconds the named tune lasts."""
    return sum(seconds for _, seconds in TUNES[name])
