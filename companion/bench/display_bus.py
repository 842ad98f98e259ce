"""The display bus: what a frame costs on the I2C wire, from luma's real SSD1306 driver.

What is measured: ``frame_bytes_full`` / ``frame_bytes_timer_tick``: I2C bytes (address +
control + payload per transaction, luma's own smbus2 bus on a Pi) of a full SSD1306 frame and
of the ticks of a 120 s countdown (mean; median and max beside), with the bus time at 100 and
400 kHz (9 bits a byte plus start and stop). ``frame_bytes_unchanged``: the bytes sent for a
frame equal to the last one (none). ``panel_matches_full_redraw``: every tick applied to a
model of the panel RAM equals the frame, for SSD1306 and SH1106.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from companion.bench.figures import I2C_CLOCKS, TARGETS


class CountingBus:
    """An smbus-like bus that only counts (a long session must not keep every write)."""

    def __init__(self) -> None:
        self.writes = 0
        self.bytes = 0

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.writes += 1
        self.bytes += 2 + len(data)

    def close(self) -> None:
        pass


def partial_ssd1306(bus: Any) -> Any:
    """luma's real ssd1306 driver on ``bus``, with partial updates."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    from companion.adapters.oled_pages import with_partial_updates

    return with_partial_updates(ssd1306(serial_interface=i2c(bus=bus, address=0x3C)))


def countdown_frames(seconds: int) -> list[Any]:
    """The round timer's frames, one a second, from the real views on a fake clock."""

    from companion.scenes import run_scene

    with tempfile.TemporaryDirectory(prefix="companion-bench-frames-") as state_dir:
        controller = run_scene((f"new timer seconds={seconds}", "press next"), Path(state_dir))
        try:
            display: Any = controller.display
            frames = [display.frames[-1]]
            for _ in range(seconds):
                controller.command_line("wait 1")
                frames.append(display.frames[-1])
        finally:
            controller.journal.close()
    return frames


def measure_display_bus() -> dict[str, Any]:
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    from companion.adapters.oled_pages import (
        SimulatedPanel,
        WireCost,
        wire_cost,
        with_partial_updates,
    )
    from companion.testing.recording import RecordingI2CBus

    frames = countdown_frames(120)
    matches = True
    tick_costs: list[WireCost] = []
    full = WireCost(0, 0)
    unchanged = 0
    for driver, column_offset in ((ssd1306, 0), (sh1106, 2)):
        bus = RecordingI2CBus()
        device = with_partial_updates(driver(serial_interface=i2c(bus=bus, address=0x3C)))
        panel = SimulatedPanel(driver.__name__)
        panel.apply(bus.writes)  # the driver's init: addressing mode, the first clear
        for index, frame in enumerate(frames):
            bus.clear()
            device.display(frame)
            panel.apply(bus.writes)
            if driver is ssd1306:
                if index == 0:
                    full = wire_cost(bus.writes)
                else:
                    tick_costs.append(wire_cost(bus.writes))
            matches = matches and panel.image(128, column_offset).tobytes() == \
                frame.convert("1").tobytes()
        bus.clear()
        device.display(frames[-1].copy())
        unchanged += wire_cost(bus.writes).bytes
    tick_bytes = sorted(cost.bytes for cost in tick_costs)
    mean = sum(tick_bytes) / len(tick_bytes)
    worst = max(tick_costs, key=lambda cost: cost.bytes)
    typical = tick_costs[len(tick_costs) // 2]

    def bus_ms(cost: WireCost) -> dict[str, float]:
        return {f"{hz // 1000}kHz": round(cost.seconds(hz) * 1000, 2) for hz in I2C_CLOCKS}

    limit = TARGETS["frame_bytes_timer_tick"] * full.bytes
    return {
        "frame_bytes_full": {"value": full.bytes, "bus_ms": bus_ms(full),
                             "transactions": full.transactions},
        "frame_bytes_timer_tick": {
            "value": round(mean, 1), "median": tick_bytes[len(tick_bytes) // 2],
            "max": tick_bytes[-1], "ticks": len(tick_bytes),
            "share_of_full": round(mean / full.bytes, 4),
            "bus_ms": bus_ms(WireCost(typical.transactions, tick_bytes[len(tick_bytes) // 2])),
            "bus_ms_max": bus_ms(worst),
            "target": round(limit, 1), "met": mean <= limit},
        "frame_bytes_unchanged": {"value": unchanged, "target": 0, "met": unchanged == 0},
        "panel_matches_full_redraw": {"value": matches, "target": True, "met": matches},
    }
