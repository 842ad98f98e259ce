"""The recommended panels end to end: ``--display ssd1309`` (2.42 in) and ``sh1106`` (1.3 in)
reach luma's own driver with partial updates, and the panel shows the frame
(cli.py -> config -> adapters/oled.py -> adapters/oled_pages.py)."""

import sys
import types

import pytest
import smbus2
from gpiozero import Device, DigitalOutputDevice

from companion import cli
from companion.adapters import oled
from companion.adapters.gpio import mock_pin_factory
from companion.adapters.oled_pages import PartialUpdates, SimulatedPanel
from companion.scenes import render_scene


class FakeSMBus:
    """smbus2.SMBus as luma's managed I2C uses it: every message kept, in order."""

    def __init__(self, port):
        self.port = port
        self.writes = []

    def write_i2c_block_data(self, address, register, data):
        self.writes.append((address, register, list(data)))

    def i2c_rdwr(self, *messages):
        for message in messages:
            payload = list(message)
            self.writes.append((message.addr, payload[0], payload[1:]))

    def close(self):
        pass


@pytest.mark.parametrize(("driver", "columns_offset"), [("ssd1306", 0), ("ssd1309", 0),
                                                        ("sh1106", 2)])
def test_display_flag_builds_the_panel_with_partial_updates(driver, columns_offset,
                                                            monkeypatch):
    buses = []
    monkeypatch.setattr(smbus2, "SMBus", lambda port: buses.append(FakeSMBus(port))
                        or buses[-1])
    args = cli.build_parser().parse_args(["run", "--display", driver])
    display = cli._config_with_flags(args)["display"]
    device = oled.real_device({"display": display["driver"], **display})
    assert isinstance(device, PartialUpdates) and device.kind == driver
    frame = render_scene("menu")
    device.display(frame)
    panel = SimulatedPanel(driver)
    panel.apply(buses[0].writes)
    assert panel.image(128, columns_offset).tobytes() == frame.convert("1").tobytes()


class FakeSpiDev:
    """spidev.SpiDev as luma's SPI interface uses it; each write is kept with the level of the
    data/command line at that moment, as the I2C stream's control byte (0x00 command, 0x40
    data), so the same SimulatedPanel can replay it."""

    def __init__(self, dc_level):
        self.dc_level = dc_level
        self.opened = None
        self.closed = False
        self.max_speed_hz = None
        self.writes = []

    def open(self, port, device):
        self.opened = (port, device)

    def writebytes(self, data):
        self.writes.append((0x3C, 0x40 if self.dc_level() else 0x00, list(data)))

    def close(self):
        self.closed = True


def _spi_display(**changes):
    args = cli.build_parser().parse_args(["run", "--display", "ssd1309", "--interface", "spi"])
    display = cli._config_with_flags(args)["display"]
    display.update(changes)
    return {"display": display["driver"], **display}


def test_spi_panel_as_sold_gets_the_frame_over_spi0_with_dc_and_reset_on_gpios(monkeypatch):
    """`--display ssd1309 --interface spi` reaches luma's SPI interface on SPI0 device 0 (the
    kernel's chip select), DC and RES on the config's GPIOs through gpiozero (mock pins), with
    partial updates; the reset line was pulsed low, then held high."""
    factory = mock_pin_factory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    options = _spi_display()
    dc, reset = options["spi_dc_pin"], options["spi_reset_pin"]
    made = []
    fake = types.SimpleNamespace(SpiDev=lambda: made.append(FakeSpiDev(
        lambda: factory.pin(dc).state)) or made[-1])
    monkeypatch.setitem(sys.modules, "spidev", fake)
    device = oled.real_device(options)
    assert isinstance(device, PartialUpdates) and device.kind == "ssd1309"
    (spi,) = made
    assert spi.opened == (0, 0) and spi.max_speed_hz == options["spi_speed_hz"]
    assert [state.state for state in factory.pin(reset).states][-2:] == [0, 1]
    started = len(spi.writes)  # start-up: the init commands (DC low), then a clear
    assert started and spi.writes[0][1] == 0x00
    frame = render_scene("menu")
    device.display(frame)
    assert any(control == 0x40 for _, control, _ in spi.writes[started:])  # DC high: pixels
    panel = SimulatedPanel("ssd1309")
    panel.apply(spi.writes)
    assert panel.image(128).tobytes() == frame.convert("1").tobytes()
    display = oled.Display(device)
    display.close()
    assert spi.closed
    for pin in (dc, reset):  # closed with the display: free to claim again
        DigitalOutputDevice(pin, pin_factory=factory).close()
    factory.close()


@pytest.mark.parametrize(("changes", "says"), [
    ({"driver": "ssd1351"}, "over SPI: use one of"),
])
def test_spi_panel_refuses_a_driver_the_box_is_not_built_for(changes, says):
    options = _spi_display(**changes)
    options["display"] = options["driver"]
    with pytest.raises(ValueError, match=says):
        oled.spi_device(options, spi=FakeSpiDev(lambda: 0),
                        lines=oled.GpiozeroLines(mock_pin_factory()))
