"""The tunes the buzzer plays, as data: notes of (frequency in Hz or None for a rest, seconds).

A passive buzzer plays the frequencies; an active buzzer sounds for every note and is silent
for rests. Frequencies stay within 220-3520 Hz, the range the passive buzzer is set up for.
"""

from __future__ import annotations

Note = tuple[float | None, float]
Tune = tuple[Note, ...]

TUNES: dict[str, Tune] = {
    # A short high beep at a seconds-left mark.
    "warning": ((1760.0, 0.08),),
    # The last three marks are more urgent: a higher, slightly longer beep.
    "warning-final": ((2349.0, 0.12),),
    # Time is up: one long tone.
    "alarm": ((1760.0, 1.2),),
    # A flight or timer ended early by the players.
    "end": ((1319.0, 0.1), (None, 0.05), (880.0, 0.15)),
    # A button press that changed something (kept very short).
    "click": ((2637.0, 0.02),),
    # Refused: the rules do not allow that now.
    "refused": ((330.0, 0.15),),
    # One step before disaster (two complaints).
    "danger": ((440.0, 0.2), (None, 0.1), (440.0, 0.2), (None, 0.1), (330.0, 0.4)),
    "win": ((1047.0, 0.12), (1319.0, 0.12), (1568.0, 0.12), (2093.0, 0.5)),
    "lose": ((784.0, 0.25), (659.0, 0.25), (523.0, 0.25), (392.0, 0.7)),
}


def tune_length(name: str) -> float:
    """Seconds the named tune lasts."""
    return sum(seconds for _, seconds in TUNES[name])
