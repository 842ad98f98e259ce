"""The recommended panels end to end: ``--display ssd1309`` (2.42 in) and ``sh1106`` (1.3 in)
reach luma's own driver with partial updates, and the panel shows the frame
(cli.py -> config -> adapters/oled.py -> adapters/oled_pages.py)."""

import pytest
import smbus2

from companion import cli
from companion.adapters import oled
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
