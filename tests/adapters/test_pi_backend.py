"""The real backend's RPi.GPIO path, off a Pi: fake-rpi stands in for RPi.GPIO.

``--backend pi`` builds gpiozero devices with no pin factory of ours, so gpiozero picks its
own (lgpio on Bookworm; RPi.GPIO where that is what is installed, as here). This checks that
that path imports and builds every device the box uses: buttons, the passive buzzer and the
status LED.
"""

import sys

import pytest

from companion import bootstrap
from companion import config as config_module
from companion.adapters import oled


@pytest.fixture
def fake_rpi_gpio(monkeypatch):
    import fake_rpi
    from gpiozero import Device
    from gpiozero.pins.local import LocalPiFactory

    gpio = fake_rpi.RPi.GPIO
    # fake-rpi answers OUT for every pin; real RPi.GPIO reports what setup() made it.
    directions = {}
    real_setup = gpio.setup

    def setup(channel, state, initial=0, pull_up_down=None):
        directions[channel] = state
        return real_setup(channel, state, initial, pull_up_down)

    monkeypatch.setattr(gpio, "setup", setup, raising=False)
    # fake-rpi's input() is random, so what was written is recorded instead.
    monkeypatch.setattr(gpio, "written", [], raising=False)
    real_output = gpio.output

    def output(channel, state):
        gpio.written.append((channel, bool(state)))
        return real_output(channel, state)

    monkeypatch.setattr(gpio, "output", output, raising=False)
    monkeypatch.setattr(gpio, "gpio_function",
                        lambda channel: directions.get(channel, gpio.IN), raising=False)
    monkeypatch.setitem(sys.modules, "RPi", fake_rpi.RPi)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", gpio)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "rpigpio")
    # Off a Pi there is no board revision to read: say it is a Pi 4 B.
    monkeypatch.setattr(LocalPiFactory, "_get_revision", lambda self: 0xC03111)
    # gpiozero keeps its default factory on the Device class: put it back afterwards.
    monkeypatch.setattr(Device, "pin_factory", None)
    yield gpio


def test_pi_backend_builds_every_device_on_rpi_gpio(fake_rpi_gpio, monkeypatch):
    gpio = fake_rpi_gpio
    from gpiozero.pins.rpigpio import RPiGPIOFactory

    monkeypatch.setattr(oled, "real_device", lambda options: oled.dummy_device())
    config = config_module.defaults()
    config["led"]["shows"] = "countdown"  # the companion's LED (as the power-off cue: the kernel's)
    edges = []
    hardware = bootstrap.build_hardware(config, "pi", on_edge=lambda b, p: edges.append((b, p)))
    try:
        assert hardware.pin_factory is None  # gpiozero's own chain, nothing forced
        devices = [*hardware.buttons.devices.values(), hardware.buzzer.device, hardware.led.device]
        assert all(isinstance(device.pin_factory, RPiGPIOFactory) for device in devices)
        assert {button.value: device.pin.info.name
                for button, device in hardware.buttons.devices.items()} == {
            name: f"GPIO{config['buttons'][name]}" for name in ("next", "up", "down", "back")}
        assert all(device.pull_up for device in hardware.buttons.devices.values())
        hardware.buzzer.tone(1760.0)  # a PWM tone on the RPi.GPIO PWM object
        assert hardware.buzzer.device.tone.frequency == pytest.approx(1760.0)
        hardware.buzzer.tone(None)
        assert hardware.buzzer.device.tone is None
        hardware.led.set(True)
        assert gpio.written[-1] == (config["led"]["pin"], True)
    finally:
        hardware.close()


def test_pi_backend_leaves_the_power_off_led_to_the_kernel(fake_rpi_gpio, monkeypatch):
    """led.shows = "power-off" (the default): the gpio-poweroff overlay owns the LED's pin, so
    the companion never claims it."""
    monkeypatch.setattr(oled, "real_device", lambda options: oled.dummy_device())
    config = config_module.defaults()
    assert config["led"]["shows"] == "power-off"
    hardware = bootstrap.build_hardware(config, "pi", on_edge=lambda b, p: None)
    try:
        assert hardware.led is None
        assert config["led"]["pin"] not in [pin for pin, _ in fake_rpi_gpio.written]
    finally:
        hardware.close()
