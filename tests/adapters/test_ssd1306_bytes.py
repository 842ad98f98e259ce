"""The real luma.oled ssd1306 driver against a recording I2C bus: the bytes of one frame."""

from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from companion.testing.recording import RecordingI2CBus
from companion.ui.render import render
from companion.ui.screen import Screen

SET_COLUMN_ADDRESS, SET_PAGE_ADDRESS = 0x21, 0x22


def page_bytes(image):
    """SSD1306 GDDRAM order: 8 pages of 8 rows, each column one byte, LSB on top."""
    pixels = image.load()
    out = []
    for page in range(image.height // 8):
        for x in range(image.width):
            out.append(sum(1 << bit for bit in range(8) if pixels[x, page * 8 + bit]))
    return out


def test_ssd1306_one_frame_is_the_window_commands_then_1024_bytes_in_page_order():
    bus = RecordingI2CBus()
    device = ssd1306(serial_interface=i2c(bus=bus, address=0x3C), width=128, height=64)
    assert all(address == 0x3C for address, _, _ in bus.writes)
    bus.clear()

    image = render(Screen("Round timer", big="1:30", caption="NEXT start"))
    device.display(image)

    commands = bus.command_bytes()
    assert commands[:6] == [SET_COLUMN_ADDRESS, 0, 127, SET_PAGE_ADDRESS, 0, 7]
    data = bus.data_bytes()
    assert len(data) == 1024
    assert data == page_bytes(image)
    # luma sends data in 32-byte blocks on an unmanaged bus, each with its control byte.
    assert all(len(payload) <= 32 for _, _, payload in bus.writes)
