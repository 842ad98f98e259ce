"""luma: the OLED and its simulated twin, mirrored to the terminal simulator when asked.

What it promises:
- Real devices are built by luma's own command-line machinery (``luma.core.cmdline``) from
  luma-style options (``--display ssd1306 --interface i2c --i2c-address 0x3C``), so every
  panel luma supports works without a branch per driver here.
- SSD1306, SSD1309 and SH1106 panels get partial updates (adapters/oled_pages.py): only the changed
  part of a frame goes over the bus, and the panel still ends up with exactly the frame.
  ``display.partial_updates = false`` in the config goes back to luma's full frames; other
  drivers always get luma's own ``display()``.
- The fake backend uses ``luma.core.device.dummy``: the same ``display(image)`` call, the
  frame kept in memory.
- :class:`Display` sends a frame to the device only when it differs from the last one, keeps
  the last frame for PNG capture, and can mirror it to the terminal simulator
  (adapters/terminal.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

# The terminal simulator's drawing lives with the terminal's keys; imported here for the
# Display that mirrors frames to it.
from companion.adapters.terminal import TerminalPreview

__all__ = ["Display", "TerminalPreview", "dummy_device", "luma_arguments", "partial_device",
           "real_device"]

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
    SSD1309 or SH1106 (see adapters/oled_pages.py); ``device`` itself otherwise."""
    if not enabled:
        return device
    from companion.adapters.oled_pages import with_partial_updates

    return with_partial_updates(device)


def dummy_device(width: int = 128, height: int = 64) -> Any:
    """luma's in-memory device: what the fake backend draws on."""
    from luma.core.device import dummy

    return dummy(width=width, height=height, mode="1")


# Contrast levels (0-255) for idle dimming: luma's own start-up value, and a dim one.
BRIGHT_CONTRAST = 0xCF
DIM_CONTRAST = 0x10


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

    def set_idle(self, level: str) -> None:
        """Idle dimming (core/idle.py): "dim" lowers the contrast, "saver" switches the panel
        off (its RAM keeps the picture), "awake" brings it back at full contrast."""
        if level == "saver":
            self.device.hide()
            return
        self.device.show()
        self.device.contrast(DIM_CONTRAST if level == "dim" else BRIGHT_CONTRAST)

    def blank(self) -> None:
        """Clear the panel (on stop, so a switched-off game does not burn in)."""
        self.device.clear()
        self.last_frame = None

    def close(self) -> None:
        cleanup = getattr(self.device, "cleanup", None)
        if cleanup is not None:
            cleanup()
