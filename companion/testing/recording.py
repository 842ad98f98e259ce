"""Fakes that record what happened: tones played, frames shown, bytes sent on the I2C bus,
snapshots handed to a channel that mirrors the box.

The fake backend and the tests use the same recorders (DESIGN.md rule 8).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image


@dataclass
class RecordingBuzzer:
    """Records every tone change (game-clock instant, frequency or None) and every volume
    (PWM duty) set, and forwards them."""

    inner: Any = None
    clock: Any = None
    # Bounded: the real backend records too (for doctor and bench), and runs for days.
    tones: deque[tuple[float | None, float | None]] = field(
        default_factory=lambda: deque(maxlen=1000))

    volumes: list[float] = field(default_factory=list)

    def tone(self, frequency: float | None) -> None:
        at = self.clock() if self.clock is not None else None
        self.tones.append((at, frequency))
        if self.inner is not None:
            self.inner.tone(frequency)

    def set_volume(self, duty: float) -> None:
        """Record the PWM duty; forward it to a buzzer that has a volume."""
        self.volumes.append(duty)
        set_volume = getattr(self.inner, "set_volume", None)
        if set_volume is not None:
            set_volume(duty)

    @property
    def frequencies(self) -> list[float]:
        """The frequencies sounded, in order (rests left out)."""
        return [frequency for _, frequency in self.tones if frequency is not None]

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()


@dataclass
class RecordingDisplay:
    """A frame sink that keeps the latest frames shown (for tests that need no luma device).

    Bounded, so a simulated evening costs no memory."""

    frames: deque[Image.Image] = field(default_factory=lambda: deque(maxlen=100))
    text: list[str] = field(default_factory=list)
    blanked: int = 0
    idle: list[str] = field(default_factory=list)  # each idle level set, in order

    def show(self, image: Image.Image, text: Sequence[str] = ()) -> bool:
        self.frames.append(image.copy())
        self.text = list(text)
        return True

    def blank(self) -> None:
        self.blanked += 1

    def set_idle(self, level: str) -> None:
        self.idle.append(level)


@dataclass
class RecordingI2CBus:
    """An smbus-like bus for luma's ``i2c(bus=...)``: keeps every write, never fails.

    luma sends commands with ``write_i2c_block_data(addr, 0x00, [...])`` and data in blocks
    of at most 32 bytes with control byte 0x40 on an unmanaged bus.
    """

    writes: list[tuple[int, int, list[int]]] = field(default_factory=list)

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.writes.append((address, register, list(data)))

    def i2c_rdwr(self, *messages: Any) -> None:
        raise NotImplementedError("luma uses i2c_rdwr only on a bus it manages itself")

    def close(self) -> None:
        pass

    def command_bytes(self) -> list[int]:
        return [byte for _, register, data in self.writes if register == 0x00 for byte in data]

    def data_bytes(self) -> list[int]:
        return [byte for _, register, data in self.writes if register == 0x40 for byte in data]

    def clear(self) -> None:
        self.writes.clear()


class RecordingMirror:
    """A channel that mirrors the box (as the table page's does) and records every snapshot
    the loop hands it; it posts nothing."""

    name = "mirror"

    def __init__(self) -> None:
        self.snapshots: list[Any] = []

    def start(self, post: Any) -> None:
        """Nothing to read: a mirror only watches."""

    def close(self) -> None:
        """Nothing to release."""

    def observe(self, snapshot: Any) -> None:
        self.snapshots.append(snapshot)
