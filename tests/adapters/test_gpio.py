"""adapters/gpio.py on gpiozero's MockFactory: buttons report raw edges and cost no thread."""

import threading

import pytest

from companion.adapters.gpio import GpioButtons, mock_pin_factory
from companion.core.buttons import Button

PINS = {Button.NEXT: 17, Button.UP: 27, Button.DOWN: 22, Button.BACK: 23}


@pytest.fixture
def factory():
    pin_factory = mock_pin_factory()
    yield pin_factory
    pin_factory.close()


def test_gpio_buttons_start_no_thread_per_button(factory):
    # gpiozero's Button starts a HoldThread per button that wakes 10 times a second at idle
    # (issue #13); holds are recognised in core/buttons.py, so the buttons need no thread.
    before = {thread.ident for thread in threading.enumerate()}
    buttons = GpioButtons(PINS, pull_up=True, pin_factory=factory, on_edge=lambda *_: None)
    try:
        started = [thread for thread in threading.enumerate() if thread.ident not in before]
        assert started == []
    finally:
        buttons.close()


@pytest.mark.parametrize(("pull_up", "press", "release"), [
    (True, "drive_low", "drive_high"),   # wired to ground: low is pressed
    (False, "drive_high", "drive_low"),  # wired to 3V3 with a pull-down: high is pressed
])
def test_gpio_buttons_report_press_and_release_edges(factory, pull_up, press, release):
    edges: list[tuple[Button, bool]] = []
    buttons = GpioButtons(PINS, pull_up=pull_up, pin_factory=factory,
                          on_edge=lambda button, pressed: edges.append((button, pressed)))
    try:
        for button, number in PINS.items():
            pin = factory.pin(number)
            getattr(pin, press)()
            getattr(pin, release)()
            assert edges[-2:] == [(button, True), (button, False)]
        assert len(edges) == 2 * len(PINS)
    finally:
        buttons.close()
