"""The pin map as the wiring tools read it: the 40-pin header, the parts and panels of
hardware/pinmap.toml, the checks that refuse a pin map the header cannot take, and the text
measure the drawings wrap their words with.

Promises: `load_pinmap` answers the parsed TOML; `validate` lists every disagreement with the
header (an empty list: the pin map is good); `wrap` never cuts a word.
"""

from __future__ import annotations

import textwrap
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


DEFAULT_PINMAP = ROOT / "hardware" / "pinmap.toml"


# The 40-pin header of every Raspberry Pi since the B+ (Zero, 2, 3, 4, 5): physical pin ->
# (label, BCM number or None). Pins 27/28 are the HAT ID EEPROM bus; leave them alone.
HEADER: dict[int, tuple[str, int | None]] = {
    1: ("3V3", None), 2: ("5V", None),
    3: ("GPIO2 SDA", 2), 4: ("5V", None),
    5: ("GPIO3 SCL", 3), 6: ("GND", None),
    7: ("GPIO4", 4), 8: ("GPIO14 TXD", 14),
    9: ("GND", None), 10: ("GPIO15 RXD", 15),
    11: ("GPIO17", 17), 12: ("GPIO18 PWM0", 18),
    13: ("GPIO27", 27), 14: ("GND", None),
    15: ("GPIO22", 22), 16: ("GPIO23", 23),
    17: ("3V3", None), 18: ("GPIO24", 24),
    19: ("GPIO10 MOSI", 10), 20: ("GND", None),
    21: ("GPIO9 MISO", 9), 22: ("GPIO25", 25),
    23: ("GPIO11 SCLK", 11), 24: ("GPIO8 CE0", 8),
    25: ("GND", None), 26: ("GPIO7 CE1", 7),
    27: ("ID_SD", 0), 28: ("ID_SC", 1),
    29: ("GPIO5", 5), 30: ("GND", None),
    31: ("GPIO6", 6), 32: ("GPIO12 PWM0", 12),
    33: ("GPIO13 PWM1", 13), 34: ("GND", None),
    35: ("GPIO19", 19), 36: ("GPIO16", 16),
    37: ("GPIO26", 26), 38: ("GPIO20", 20),
    39: ("GND", None), 40: ("GPIO21", 21),
}


COLOURS = {"3V3": "#d62728", "5V": "#8c1515", "GND": "#222222", "I2C": "#1f77b4",
           "UART": "#9467bd", "GPIO": "#2ca02c", "ID": "#999999"}


LINE = 14          # line height of 11 px text


CHAR_EM = {"normal": 0.62, "bold": 0.68}  # DejaVu Sans advance per character, generous


class PinmapError(ValueError):
    """The pin map disagrees with the 40-pin header or is malformed."""


def pin_kind(pin: int) -> str:
    """The colour class of a header pin: 3V3, 5V, GND, I2C, UART, ID or GPIO."""
    label = HEADER[pin][0]
    for kind in ("3V3", "5V", "GND", "ID"):
        if label.startswith(kind):
            return kind
    if label.endswith(("SDA", "SCL")):
        return "I2C"
    if label.endswith(("TXD", "RXD")):
        return "UART"
    return "GPIO"


def load_pinmap(path: Path = DEFAULT_PINMAP) -> dict[str, Any]:
    """Parse a pin map file."""
    with path.open("rb") as f:
        return tomllib.load(f)


def parts(pinmap: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """The parts of a pin map as (id, table), in file order."""
    table = pinmap.get("parts")
    if not isinstance(table, Mapping) or not table:
        raise PinmapError("pin map has no [parts.*] tables")
    return list(table.items())


def panels(pinmap: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """The display panels of a pin map as (id, table), in file order."""
    table = pinmap.get("panels")
    if not isinstance(table, Mapping) or not table:
        raise PinmapError("pin map has no [panels.*] tables")
    return list(table.items())


def parts_for(pinmap: Mapping[str, Any], panel_id: str) -> list[tuple[str, Mapping[str, Any]]]:
    """The parts of one build: the panel's own `wires` (an SPI panel) replace the OLED's I2C
    wires, with the panel's `name`, `note` and `config` where it gives them."""
    panel = dict(panels(pinmap))[panel_id]
    if "wires" not in panel:
        return parts(pinmap)
    built: list[tuple[str, Mapping[str, Any]]] = []
    for part_id, part in parts(pinmap):
        own = {key: panel[key] for key in ("name", "note", "config", "wires") if key in panel}
        built.append((part_id, {**part, **own} if part_id == "oled" else part))
    return built


def validate(pinmap: Mapping[str, Any]) -> list[str]:
    """Every disagreement between the pin map and the header, as messages (empty: all good).
    Each panel's build is checked on its own (an SPI panel brings its own wires)."""
    errors: list[str] = []
    for panel_id, _ in panels(pinmap):
        errors += [e for e in _validate_build(parts_for(pinmap, panel_id), panel_id)
                   if e not in errors]
    for panel_id, panel in panels(pinmap):
        order = panel.get("order")
        oled = {w["terminal"] for w in dict(parts_for(pinmap, panel_id)).get("oled", {})
                .get("wires", [])}
        if not isinstance(order, list) or not oled <= set(order):
            errors.append(f"panels.{panel_id}: order must name every OLED wire {sorted(oled)}")
        extra = set(order or []) - oled - set(panel.get("local", {}))
        if extra:
            errors.append(f"panels.{panel_id}: terminals {sorted(extra)} have no wire and no "
                          "`local` text")
    return errors


def _validate_build(built: Sequence[tuple[str, Mapping[str, Any]]], panel_id: str) -> list[str]:
    errors: list[str] = []
    gpio_owner: dict[int, str] = {}
    pin_owner: dict[int, str] = {}
    for part_id, part in built:
        wires = part.get("wires")
        if not isinstance(wires, list) or not wires:
            errors.append(f"parts.{part_id}: no wires")
            continue
        columns = {wire.get("pin", 0) % 2 for wire in wires if isinstance(wire.get("pin"), int)}
        if len(columns) > 1:
            errors.append(f"parts.{part_id}: wires to both header columns; a part's wires go "
                          "to odd pins (left) or even pins (right), so each reaches its pin "
                          "from its own side")
        for wire in wires:
            where = f"parts.{part_id} {wire.get('terminal', '?')}"
            pin = wire.get("pin")
            if not isinstance(pin, int) or pin not in HEADER:
                errors.append(f"{where}: pin {pin!r} is not a header pin 1..40")
                continue
            other_pin = pin_owner.setdefault(pin, where)
            if other_pin != where:
                errors.append(f"{where}: pin {pin} already has a wire ({other_pin}); one wire "
                              "per pin (join grounds on a bus, as the buttons do)")
            label, header_bcm = HEADER[pin]
            bcm = wire.get("bcm")
            if bcm is None:
                if pin_kind(pin) not in ("3V3", "5V", "GND"):
                    errors.append(f"{where}: pin {pin} is {label}; give its bcm number")
            elif bcm != header_bcm:
                errors.append(f"{where}: bcm {bcm} is not on pin {pin} ({label})")
            else:
                other = gpio_owner.setdefault(bcm, part_id)
                if other != part_id:
                    errors.append(f"{where}: GPIO{bcm} is already used by parts.{other}"
                                  + (f" (with panels.{panel_id})" if part_id == "oled" or
                                     other == "oled" else ""))
    return errors


def wrap(text: str, width: float, size: int = 11, weight: str = "normal") -> list[str]:
    """`text` broken at spaces into lines that fit `width` px (a word longer than a line
    stands alone: nothing is ever cut)."""
    limit = max(1, int(width / (size * CHAR_EM[weight])))
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= limit or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines or [""]


def wrap_markdown(text: str, width: int = 96) -> list[str]:
    """`text` broken at spaces into Markdown source lines of at most `width` characters."""
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)


def setting_words(panel: Mapping[str, Any]) -> str:
    """The config lines a panel needs, as the diagrams and steps print them."""
    words = f"display.driver = \"{panel['driver']}\""
    if panel.get("interface", "i2c") != "i2c":
        words += f", display.interface = \"{panel['interface']}\""
    return words
