"""Partial updates (adapters/oled_pages.py) against the real luma drivers on a recording I2C bus.

The panel's memory is modelled (SimulatedPanel) by applying the recorded command/data stream,
so every test checks what the panel would show, not just which bytes went out.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1305, ssd1306, ssd1309
from PIL import Image, ImageDraw

from companion.adapters.oled import Display, partial_device
from companion.adapters.oled_pages import (
    PartialUpdates,
    SimulatedPanel,
    image_from_pages,
    page_bytes,
    wire_cost,
)
from companion.scenes import run_scene
from companion.testing.recording import RecordingI2CBus

DRIVERS = {"ssd1306": (ssd1306, 0), "ssd1309": (ssd1309, 0), "sh1106": (sh1106, 2)}
FULL_FRAME_BYTES = 1034  # SSD1306: window command + 1024 data bytes, address + control each


class Rig:
    """A luma driver on a recording bus, wrapped for partial updates, and its panel model."""

    def __init__(self, kind: str) -> None:
        driver, self.column_offset = DRIVERS[kind]
        self.bus = RecordingI2CBus()
        self.luma = driver(serial_interface=i2c(bus=self.bus, address=0x3C))
        self.device = partial_device(self.luma)
        assert isinstance(self.device, PartialUpdates)
        self.panel = SimulatedPanel(kind)
        self.sync()

    def sync(self) -> list[tuple[int, int, list[int]]]:
        """Apply what was sent since the last call to the panel; return it."""
        writes = list(self.bus.writes)
        self.panel.apply(writes)
        self.bus.clear()
        return writes

    def show(self, image: Image.Image) -> list[tuple[int, int, list[int]]]:
        self.device.display(image)
        return self.sync()

    def shown(self) -> Image.Image:
        return self.panel.image(128, self.column_offset)


def timer_frame(text: str) -> Image.Image:
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 10), fill=1)
    draw.text((30, 20), text, fill=1)
    draw.text((2, 54), "Round 1  BACK menu", fill=1)
    return image


def same_pixels(first: Image.Image, second: Image.Image) -> bool:
    return first.convert("1").tobytes() == second.convert("1").tobytes()


def test_page_bytes_match_luma_full_frame_data() -> None:
    bus = RecordingI2CBus()
    device = ssd1306(serial_interface=i2c(bus=bus, address=0x3C))
    image = timer_frame("1:29")
    bus.clear()
    device.display(image)
    assert page_bytes(image) == bytes(bus.data_bytes())
    assert same_pixels(image_from_pages(page_bytes(image), 128, 64), image)


@pytest.mark.parametrize("kind", DRIVERS)
def test_first_frame_is_whole_and_the_panel_shows_it(kind: str) -> None:
    rig = Rig(kind)
    image = timer_frame("1:29")
    writes = rig.show(image)
    assert sum(len(data) for _, control, data in writes if control == 0x40) == 1024
    assert same_pixels(rig.shown(), image)


@pytest.mark.parametrize("kind", DRIVERS)
def test_one_digit_change_sends_only_its_window_and_matches_a_full_redraw(kind: str) -> None:
    rig = Rig(kind)
    before, after = timer_frame("1:29"), timer_frame("1:28")
    rig.show(before)
    writes = rig.show(after)
    assert same_pixels(rig.shown(), after)
    # The changed bytes lie inside the last digit's columns and text pages only.
    data = sum(len(payload) for _, control, payload in writes if control == 0x40)
    assert 0 < data <= 8 * 2  # one 6-pixel glyph on at most two pages
    commands = [payload for _, control, payload in writes if control == 0x00]
    if kind != "sh1106":  # the SSD1309 is addressed like the SSD1306
        assert commands and all(payload[0] == 0x21 and payload[3] == 0x22 for payload in commands)
    else:
        assert commands and all(0xB0 <= payload[0] <= 0xB7 for payload in commands)
    # The same frame drawn whole by luma's own driver gives the same panel.
    reference = Rig(kind)
    reference.luma.display(after)
    reference.sync()
    assert rig.panel.page_bytes(128, rig.column_offset) == \
        reference.panel.page_bytes(128, reference.column_offset)


@pytest.mark.parametrize("kind", DRIVERS)
def test_unchanged_frame_sends_nothing(kind: str) -> None:
    rig = Rig(kind)
    image = timer_frame("0:42")
    rig.show(image)
    assert rig.show(image.copy()) == []


@pytest.mark.parametrize("kind", DRIVERS)
def test_clear_goes_through_the_partial_path_and_blanks_the_panel(kind: str) -> None:
    rig = Rig(kind)
    rig.show(timer_frame("0:42"))
    rig.device.clear()
    rig.sync()
    assert rig.shown().getbbox() is None
    assert rig.show(Image.new("1", (128, 64))) == []


class FailingBus(RecordingI2CBus):
    fail = False

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if self.fail:
            raise OSError(110, "Connection timed out")  # luma passes it on as is
        super().write_i2c_block_data(address, register, data)


def test_a_failed_write_makes_the_next_frame_whole() -> None:
    bus = FailingBus()
    device = partial_device(ssd1306(serial_interface=i2c(bus=bus, address=0x3C)))
    device.display(timer_frame("1:00"))
    bus.fail = True
    with pytest.raises(OSError):
        device.display(timer_frame("0:59"))
    bus.fail = False
    bus.clear()
    device.display(timer_frame("0:59"))
    assert len(bus.data_bytes()) == 1024


def test_partial_updates_off_keeps_luma_device_and_other_drivers_untouched() -> None:
    luma = ssd1306(serial_interface=i2c(bus=RecordingI2CBus(), address=0x3C))
    assert partial_device(luma, enabled=False) is luma
    from luma.core.device import dummy

    other = dummy(width=128, height=64, mode="1")
    assert partial_device(other) is other
    # A controller whose addressing is not modelled keeps luma's full frames.
    ssd1305_panel = ssd1305(serial_interface=i2c(bus=RecordingI2CBus(), address=0x3C))
    assert partial_device(ssd1305_panel) is ssd1305_panel


def test_display_wrapper_blank_and_show_work_on_the_partial_device() -> None:
    rig = Rig("ssd1306")
    display = Display(rig.device)
    assert display.show(timer_frame("0:10"))
    rig.sync()
    display.blank()
    rig.sync()
    assert rig.shown().getbbox() is None


@st.composite
def images(draw: Any) -> Image.Image:
    image = Image.new("1", (128, 64))
    canvas = ImageDraw.Draw(image)
    for _ in range(draw(st.integers(0, 5))):
        x = draw(st.integers(0, 127))
        y = draw(st.integers(0, 63))
        width = draw(st.integers(0, 60))
        height = draw(st.integers(0, 40))
        canvas.rectangle((x, y, x + width, y + height), fill=draw(st.integers(0, 1)))
    for _ in range(draw(st.integers(0, 20))):
        image.putpixel((draw(st.integers(0, 127)), draw(st.integers(0, 63))),
                       draw(st.integers(0, 1)))
    return image


@pytest.mark.parametrize("kind", DRIVERS)
@settings(max_examples=150, deadline=None)
@given(first=images(), second=images())
def test_property_panel_always_equals_the_second_image(kind: str, first: Image.Image,
                                                       second: Image.Image) -> None:
    rig = Rig(kind)
    rig.show(first)
    rig.show(second)
    assert same_pixels(rig.shown(), second)


def countdown_frames(seconds: int) -> list[Image.Image]:
    """The round timer's frames, one per second, from the real views on a fake clock."""
    with tempfile.TemporaryDirectory(prefix="companion-test-") as state_dir:
        controller = run_scene((f"new timer seconds={seconds}", "press next"), Path(state_dir))
        try:
            frames = [controller.display.frames[-1]]
            for _ in range(seconds):
                controller.command_line("wait 1")
                frames.append(controller.display.frames[-1])
        finally:
            controller.journal.close()
    return frames


def test_full_frame_costs_1034_bytes_on_the_pi_bus() -> None:
    rig = Rig("ssd1306")
    rig.device.invalidate()
    assert wire_cost(rig.show(timer_frame("1:29"))).bytes == FULL_FRAME_BYTES


@pytest.mark.parametrize("kind", DRIVERS)
def test_a_timer_tick_costs_at_most_15_percent_of_a_full_frame(kind: str) -> None:
    frames = countdown_frames(15)
    rig = Rig(kind)
    rig.show(frames[1])
    writes = rig.show(frames[2])  # 0:14 -> 0:13: one digit
    assert same_pixels(rig.shown(), frames[2])
    assert 0 < wire_cost(writes).bytes <= 0.15 * FULL_FRAME_BYTES
