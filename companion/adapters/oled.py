"""luma: the OLED and its simulated twin, mirrored to the terminal simulator when asked.

What it promises:
- Real devices are built by luma's own command-line machinery (``luma.core.cmdline``) from
  luma-style options (``--display ssd1306 --interface i2c --i2c-address 0x3C``), so every
  panel luma supports works without a branch per driver here.
- SSD1306, SSD1309 and SH1106 panels get partial updates (adapters/oled_pages.py): only the changed
  part of a frame goes over the bus, and the panel still ends up with exactly the frame.
  ``display.partial_updates = false`` in the config goes back to luma's full frames; other
  drivers always get luma's own ``display()``.
- ``display.interface = "spi"`` (the 7-pin 2.42 in SSD1309 as sold) builds luma's own SPI
  interface (``luma.core.interface.serial.spi``) on SPI0, device 0 (its chip select is the
  spi0-1cs overlay's ``cs0_pin``, so the kernel drives it), with data/command and reset on
  the GPIOs the config names. luma drives those two lines through an RPi.GPIO-style object;
  :class:`GpiozeroLines` is that object over gpiozero, so they go through the same pin
  factory as the buttons (lgpio on every Pi, the Pi 5 included; mock pins in tests).
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

__all__ = ["SPI_DRIVERS", "Display", "GpiozeroLines", "TerminalPreview", "dummy_device",
           "luma_arguments", "partial_device", "real_device", "spi_device"]

# The SPI panels the box is built for, by luma driver name (hardware/pinmap.toml's SPI panel).
SPI_DRIVERS = ("ssd1309", "ssd1306", "sh1106")

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
    """A luma device for real hardware, built by luma's own argument parser and factory (I2C)
    or :func:`spi_device` (SPI), wrapped for partial updates unless
    ``options["partial_updates"]`` is false."""
    if options.get("interface") == "spi":
        return partial_device(spi_device(options), bool(options.get("partial_updates", True)))
    from luma.core import cmdline

    parser = cmdline.create_parser(description="companion display", autocomplete=False)
    try:
        arguments = parser.parse_args(luma_arguments(options))
    except SystemExit as exit_error:
        raise ValueError(f"bad display options {dict(options)}") from exit_error
    device = cmdline.create_device(arguments)
    return partial_device(device, bool(options.get("partial_updates", True)))


class GpiozeroLines:
    """The part of RPi.GPIO that luma's SPI interface uses (``setup``, ``output``,
    ``cleanup``, ``OUT``/``HIGH``/``LOW``), as gpiozero output devices: each line is claimed
    through gpiozero's pin factory, BCM numbers."""

    OUT = "out"
    IN = "in"
    HIGH = 1
    LOW = 0
    BCM = "BCM"

    def __init__(self, pin_factory: Any = None) -> None:
        self._factory = pin_factory
        self._lines: dict[int, Any] = {}

    def setmode(self, mode: str) -> None:
        """BCM numbering is the only one there is here."""

    def setup(self, pin: int, direction: str, initial: int = LOW) -> None:
        if direction != self.OUT:
            raise ValueError(f"GPIO{pin}: only outputs are needed for the display")
        from gpiozero import DigitalOutputDevice

        self.cleanup(pin)
        self._lines[pin] = DigitalOutputDevice(pin, initial_value=bool(initial),
                                               pin_factory=self._factory)

    def output(self, pin: int, value: int) -> None:
        self._lines[pin].value = 1 if value else 0

    def cleanup(self, pins: int | Sequence[int] | None = None) -> None:
        chosen = (list(self._lines) if pins is None else
                  [pins] if isinstance(pins, int) else list(pins))
        for pin in chosen:
            line = self._lines.pop(pin, None)
            if line is not None:
                line.close()


def spi_device(options: Mapping[str, Any], *, spi: Any = None,
               lines: GpiozeroLines | None = None) -> Any:
    """luma's device for an SPI panel: SPI0 device 0 (``spi``: a spidev.SpiDev-like object,
    the real one by default), data/command on ``spi_dc_pin``, reset on ``spi_reset_pin``."""
    from luma.core.interface.serial import spi as luma_spi
    from luma.oled import device as drivers

    driver = str(options.get("display", options.get("driver", "")))
    if driver not in SPI_DRIVERS:
        raise ValueError(f"display.driver = {driver!r} over SPI: use one of "
                         f"{', '.join(SPI_DRIVERS)}")
    if spi is None:
        import spidev

        spi = spidev.SpiDev()
    lines = GpiozeroLines() if lines is None else lines
    serial = luma_spi(spi=spi, gpio=lines, port=0, device=0,
                      bus_speed_hz=int(options.get("spi_speed_hz", 8_000_000)),
                      gpio_DC=int(options["spi_dc_pin"]), gpio_RST=int(options["spi_reset_pin"]))
    device = getattr(drivers, driver)(serial, width=int(options.get("width", 128)),
                                      height=int(options.get("height", 64)),
                                      rotate=int(options.get("rotate", 0)))
    device.gpio_lines = lines  # closed with the device (Display.close)
    return device


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
        lines = getattr(self.device, "gpio_lines", None)  # an SPI panel's DC and RES
        if lines is not None:
            lines.cleanup()
