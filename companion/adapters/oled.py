"""luma: the OLED, its simulated twin, and the terminal preview.

What it promises:
- Real devices are built by luma's own command-line machinery (``luma.core.cmdline``) from
  luma-style options (``--display ssd1306 --interface i2c --i2c-address 0x3C``), so every
  panel luma supports works without a branch per driver here.
- SSD1306, SSD1309 and SH1106 panels get partial updates (adapters/partial.py): only the changed
  part of a frame goes over the bus, and the panel still ends up with exactly the frame.
  ``display.partial_updates = false`` in the config goes back to luma's full frames; other
  drivers always get luma's own ``display()``.
- The fake backend uses ``luma.core.device.dummy``: the same ``display(image)`` call, the
  frame kept in memory.
- :class:`Display` sends a frame to the device only when it differs from the last one, keeps
  the last frame for PNG capture, and can mirror it to a terminal as braille dots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from PIL import Image

LUMA_OPTIONS = ("display", "interface", "i2c_port", "i2c_address", "spi_port", "spi_device",
                "width", "height", "rotate")


def luma_arguments(options: Mapping[str, Any]) -> list[str]:
    """Our display config as luma's own command-line arguments."""
    arguments: list[str] = []
    for key in LUMA_OPTIONS:
        value = options.get(key)
        if value is None:
            continue
        if key == "i2c_address" and isinstance(value, int):
            value = hex(value)
        arguments += [f"--{key.replace('_', '-')}", str(value)]
    return arguments


def real_device(options: Mapping[str, Any]) -> Any:
    """A luma device for real hardware, built by luma's own argument parser and factory,
    wrapped for partial updates unless ``options["partial_updates"]`` is false."""
    from luma.core import cmdline

    parser = cmdline.create_parser(description="companion display", autocomplete=False)
    try:
        arguments = parser.parse_args(luma_arguments(options))
    except SystemExit as exit_error:
        raise ValueError(f"bad display options {dict(options)}") from exit_error
    device = cmdline.create_device(arguments)
    return partial_device(device, bool(options.get("partial_updates", True)))


def partial_device(device: Any, enabled: bool = True) -> Any:
    """``device`` sending only changed regions when ``enabled`` and it is an SSD1306,
    SSD1309 or SH1106 (see adapters/partial.py); ``device`` itself otherwise."""
    if not enabled:
        return device
    from companion.adapters.partial import with_partial_updates

    return with_partial_updates(device)


def dummy_device(width: int = 128, height: int = 64) -> Any:
    """luma's in-memory device: what the fake backend draws on."""
    from luma.core.device import dummy

    return dummy(width=width, height=height, mode="1")


class Display:
    """Frames to a luma device, skipping unchanged ones, optionally mirrored to a terminal."""

    def __init__(self, device: Any, preview: TerminalPreview | None = None) -> None:
        self.device = device
        self.preview = preview
        self.last_frame: Image.Image | None = None
        self.frames_sent = 0

    def show(self, image: Image.Image, text: Sequence[str] = ()) -> bool:
        """Send ``image`` unless it is the frame already shown; say whether it was sent.

        ``text`` is the screen's text, which the terminal preview prints under the picture
        (small bitmap text is hard to read as braille dots)."""
        frame = image if image.mode == self.device.mode else image.convert(self.device.mode)
        if self.last_frame is not None and frame.tobytes() == self.last_frame.tobytes():
            return False
        self.device.display(frame)
        self.last_frame = frame
        self.frames_sent += 1
        if self.preview is not None:
            self.preview.draw(frame, text)
        return True

    def blank(self) -> None:
        """Clear the panel (on stop, so a switched-off game does not burn in)."""
        self.device.clear()
        self.last_frame = None

    def close(self) -> None:
        cleanup = getattr(self.device, "cleanup", None)
        if cleanup is not None:
            cleanup()


BRAILLE_BASE = 0x2800
# Bit for each dot of a 2x4 braille cell, by (x, y) inside the cell.
BRAILLE_DOTS = {(0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (1, 0): 0x08, (1, 1): 0x10,
                (1, 2): 0x20, (0, 3): 0x40, (1, 3): 0x80}


def braille_lines(image: Image.Image) -> list[str]:
    """A 1-bit image as braille characters: 2 x 4 pixels each (128x64 -> 64 x 16)."""
    pixels = image.convert("1").load()
    assert pixels is not None
    width, height = image.size
    lines = []
    for top in range(0, height, 4):
        row = []
        for left in range(0, width, 2):
            code = 0
            for (dx, dy), bit in BRAILLE_DOTS.items():
                x, y = left + dx, top + dy
                if x < width and y < height and pixels[x, y]:
                    code |= bit
            row.append(chr(BRAILLE_BASE + code))
        lines.append("".join(row))
    return lines


class TerminalPreview:
    """Draws each frame at the top of a terminal, framed, with the screen's text and the key
    help below it; redrawn in place, so lines printed after it (``ready``) stay below."""

    TEXT_ROWS = 8

    def __init__(self, out: TextIO, footer: str = "") -> None:
        self.out = out
        self.footer = footer
        self._drawn = False

    def draw(self, image: Image.Image, text: Sequence[str] = ()) -> None:
        lines = braille_lines(image)
        width = len(lines[0]) if lines else 0
        rows = ["┌" + "─" * width + "┐", *("│" + line + "│" for line in lines),
                "└" + "─" * width + "┘"]
        shown = [f"  {line}" for line in text][: self.TEXT_ROWS]
        rows += shown + [""] * (self.TEXT_ROWS - len(shown))
        if self.footer:
            rows.append(self.footer)
        prefix = "\x1b[H" if self._drawn else "\x1b[2J\x1b[H"
        self.out.write(prefix + "\n".join(row + "\x1b[K" for row in rows) + "\n")
        self.out.flush()
        self._drawn = True
