"""adapters/gpio.py on gpiozero's MockFactory: buttons report raw edges and cost no thread."""

import io
import random
import threading

import pytest

from companion import config as config_module
from companion.adapters.gpio import GpioButtons, ShutdownButton, mock_pin_factory
from companion.adapters.power import FAKE_MESSAGE
from companion.bootstrap import build_box
from companion.core.buttons import Button
from companion.testing.clock import FakeClock

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


def test_shutdown_button_acts_when_held_and_never_on_a_knock(factory):
    """shutdown.handler = "companion": held, the button calls the power-off path once; a short
    press (released before its hold time) calls nothing."""
    held = threading.Event()
    knock = ShutdownButton(21, pin_factory=factory, hold_s=3600.0, on_held=held.set)
    factory.pin(21).drive_low()
    factory.pin(21).drive_high()
    assert not held.is_set() and not knock.device.is_held
    knock.close()
    button = ShutdownButton(21, pin_factory=factory, hold_s=0.0, on_held=held.set)
    factory.pin(21).drive_low()
    assert held.wait(10), "holding the shutdown button did not power off"
    factory.pin(21).drive_high()
    button.close()


def test_box_watches_the_shutdown_button_itself_only_when_told(tmp_path):
    """The Debian card has no gpio-shutdown overlay: with shutdown.handler = "companion" the
    box's own button, held, takes the menu's power-off path (on the fake backend: a clean
    stop that says so); with the overlay (the default) the companion leaves the pin alone."""
    for handler, watched in (("overlay", False), ("companion", True)):
        config = config_module.defaults()
        config["shutdown"]["handler"] = handler
        out = io.StringIO()
        box = build_box(config, backend="fake", clock=FakeClock(), state_dir=tmp_path / handler,
                        rng=random.Random(1), out=out)
        try:
            assert (box.hardware.shutdown is not None) is watched
            if watched:
                device = box.hardware.shutdown.device
                assert device.pin.info.name == "GPIO21" and device.hold_time == 1.5
                device.when_held()  # what gpiozero calls after 1.5 s held
                assert FAKE_MESSAGE in out.getvalue()
                assert box.loop.run_without_signals() == 0  # the stop it posted ends the loop
        finally:
            box.close()
