"""gpiozero: the four buttons and the buzzer.

What it promises:
- Every device gets the pin factory it is given (``MockFactory`` for the fake backend, the
  Pi's own factory chain otherwise); nothing here sets a global factory.
- Buttons report raw edges, timestamped by the caller's clock, through ``on_edge``. gpiozero's
  own debounce is off (``bounce_time=None``): mock pins ignore it and the real backends
  disagree about it, so debounce happens in core/buttons.py (DESIGN.md rule 4).
- On a Pi the callbacks run on gpiozero's threads; the runtime's ``on_edge`` only puts the
  edge on a thread-safe queue.
- The devices are kept referenced for the object's lifetime: a collected device stops calling
  back.
- A button costs no thread of its own: it is a ``DigitalInputDevice``, not a gpiozero
  ``Button``, whose hold machinery (``HoldMixin``) starts a ``HoldThread`` per button that
  wakes ten times a second for ever. Holds are recognised in core/buttons.py from the edges,
  so that thread would only burn wakeups at idle (issue #13).
- The buzzer is a passive piezo driven with PWM tones (``TonalBuzzer``, 110-7040 Hz) or an
  active buzzer switched on and off (``Buzzer``), chosen in config.
- Volume is the passive buzzer's PWM duty (``TonalBuzzer`` plays at 0.5, the loudest; a
  lower duty is quieter), set on its ``PWMOutputDevice`` after every note. An active buzzer
  has no volume: ``set_volume`` is accepted and changes nothing (mute works by silence).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from companion.core.buttons import Button

EdgeCallback = Callable[[Button, bool], None]


def mock_pin_factory() -> Any:
    """gpiozero's MockFactory with PWM-capable pins (a passive buzzer needs PWM)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


class GpioButtons:
    """The four buttons as gpiozero ``DigitalInputDevice`` devices reporting raw edges
    (pressed = active, which ``pull_up`` makes the low level for buttons wired to ground)."""

    def __init__(self, pins: Mapping[Button, int], *, pull_up: bool, pin_factory: Any,
                 on_edge: EdgeCallback) -> None:
        from gpiozero import DigitalInputDevice

        self.devices: dict[Button, Any] = {}
        for button, pin in pins.items():
            device = DigitalInputDevice(pin, pull_up=pull_up, bounce_time=None,
                                        pin_factory=pin_factory)
            device.when_activated = partial(on_edge, button, True)
            device.when_deactivated = partial(on_edge, button, False)
            self.devices[button] = device

    def close(self) -> None:
        for device in self.devices.values():
            device.close()


class GpioBuzzer:
    """A buzzer that sounds one frequency at a time, or is silent."""

    def __init__(self, pin: int, *, kind: str, pin_factory: Any) -> None:
        from gpiozero import Buzzer, TonalBuzzer
        from gpiozero.tones import Tone

        self.kind = kind
        self.duty = 0.5
        if kind == "passive":
            # A5 +/- 3 octaves: 110-7040 Hz, room for the alarms near a piezo's 4 kHz resonance.
            self.device: Any = TonalBuzzer(pin, mid_tone=Tone("A5"), octaves=3,
                                           pin_factory=pin_factory)
        elif kind == "active":
            self.device = Buzzer(pin, pin_factory=pin_factory)
        else:
            raise ValueError(f"buzzer kind must be 'passive' or 'active', got {kind!r}")

    def tone(self, frequency: float | None) -> None:
        """Sound ``frequency`` Hz (an active buzzer just sounds), or stop for ``None``."""
        if self.kind == "passive":
            if frequency is None:
                self.device.stop()
            else:
                from gpiozero.tones import Tone

                self.device.play(Tone.from_frequency(frequency))
                self.device.pwm_device.value = self.duty
        elif frequency is None:
            self.device.off()
        else:
            self.device.on()

    def set_volume(self, duty: float) -> None:
        """The PWM duty of the passive buzzer's tones from now on (0 < duty <= 0.5)."""
        if not 0 < duty <= 0.5:
            raise ValueError(f"buzzer duty must be in (0, 0.5], got {duty!r}")
        self.duty = duty
        if self.kind == "passive" and self.device.value is not None:
            self.device.pwm_device.value = duty

    def close(self) -> None:
        self.device.close()


class GpioLed:
    """The optional status LED, lit while a countdown runs."""

    def __init__(self, pin: int, *, pin_factory: Any) -> None:
        from gpiozero import LED

        self.device = LED(pin, pin_factory=pin_factory)

    def set(self, lit: bool) -> None:
        if lit:
            self.device.on()
        else:
            self.device.off()

    def close(self) -> None:
        self.device.close()


class ShutdownButton:
    """The shutdown button watched by the companion itself (``shutdown.handler =
    "companion"``), for a system without the gpio-shutdown overlay (the Debian card image):
    held for ``hold_s`` seconds, it calls ``on_held`` once (the menu's "Power off" path);
    a short press does nothing, so a knock cannot switch the box off."""

    def __init__(self, pin: int, *, pin_factory: Any, hold_s: float,
                 on_held: Callable[[], object]) -> None:
        from gpiozero import Button as GpioButton

        self.device = GpioButton(pin, pull_up=True, hold_time=hold_s, pin_factory=pin_factory)

        def held() -> None:  # gpiozero would hand a one-argument callable the device
            on_held()

        self.device.when_held = held

    def close(self) -> None:
        self.device.close()
