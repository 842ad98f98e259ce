#!/usr/bin/env python3
"""Draw hardware/wiring-<panel>.svg from hardware/pinmap.toml (standard library only).

Promises:
- The output depends only on the pin map: the same pinmap.toml always gives the same bytes, so
  a test (and CI) can regenerate every SVG and compare it with the committed one (`--check`).
- One diagram per panel of `[panels.*]`, the OLED's terminals in the order the module prints
  them, its module-side links (RES, DC, CS) written in its box.
- Every wire is checked against the Raspberry Pi 40-pin header before anything is drawn: a `bcm`
  number must sit on the physical `pin` it names, a wire without `bcm` must go to a power or
  ground pin, no pin takes two wires, and a part's wires all go to one column. A pin map that
  disagrees is refused (exit 2), not drawn.
- Wires you can copy (`geometry_problems` checks each drawing; `--check` fails on any): every
  wire has its own lane and its own two ends; no two wires run within MIN_GAP px of each other
  for more than a crossing; odd (left-column) pins are reached from the left and even
  (right-column) pins from the right; a wire stops at its pin's label (a tag frames label and
  pin) and crosses no text; text is wrapped to its column, never cut.

Usage: python3 tools/wiring_diagram.py [--pinmap FILE] [--out-dir DIR] [--check] [--png DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import textwrap
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PINMAP = ROOT / "hardware" / "pinmap.toml"
DEFAULT_OUT_DIR = ROOT / "hardware"
# The display's wires per panel as Python, for companion doctor's advice (the doctor runs where
# hardware/ is not installed): generated here, checked by --check like the drawings.
DOCTOR_WIRING = ROOT / "companion" / "doctor" / "wiring.py"

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

# Layout (pixels).
WIDTH = 1000
ROW = 26
TOP = 150
COL_LEFT_X = 480   # odd pins
COL_RIGHT_X = 520  # even pins
LABEL_GAP = 14     # pin centre to its label
LABEL_W = 88       # the widest pin label, bold
LABEL_END_LEFT = COL_LEFT_X - LABEL_GAP - LABEL_W - 6
LABEL_END_RIGHT = COL_RIGHT_X + LABEL_GAP + LABEL_W + 6
BOX_W = 230
BOX_LEFT_X = 20
BOX_RIGHT_X = WIDTH - 20 - BOX_W
LANE_MARGIN = 12
MIN_GAP = 5        # wires closer than this, side by side, read as one
LINE = 14          # line height of 11 px text
CHAR_EM = {"normal": 0.62, "bold": 0.68}  # DejaVu Sans advance per character, generous


class PinmapError(ValueError):
    """The pin map disagrees with the 40-pin header or is malformed."""


@dataclass(frozen=True)
class Text:
    """One line of text; `group` ties the lines of one wrapped cell together (for tests)."""

    x: float
    y: float
    text: str
    size: int = 11
    anchor: str = "start"
    weight: str = "normal"
    fill: str = "#000000"
    group: str = ""

    def extent(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1): the box the text takes, estimated generously."""
        width = len(self.text) * self.size * CHAR_EM[self.weight]
        x0 = {"start": self.x, "middle": self.x - width / 2, "end": self.x - width}[self.anchor]
        return x0, self.y - self.size * 0.8, x0 + width, self.y + self.size * 0.25

    def svg(self) -> str:
        return (f'<text x="{self.x:g}" y="{self.y:g}" font-size="{self.size}" '
                f'text-anchor="{self.anchor}" font-weight="{self.weight}" fill="{self.fill}">'
                f"{escape(self.text, quote=False)}</text>")


@dataclass(frozen=True)
class Wire:
    """One wire: from its part's terminal to the end of its pin's label, as a polyline."""

    part: str
    terminal: str
    pin: int
    points: tuple[tuple[float, float], ...]
    colour: str
    optional: bool = False

    def segments(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        return list(zip(self.points, self.points[1:], strict=False))


@dataclass
class Layout:
    """A drawing: its size, its wires, its text, and the other shapes (as SVG)."""

    title: str
    width: int
    height: int = 0
    wires: list[Wire] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    shapes: list[str] = field(default_factory=list)


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


def _pin_xy(pin: int) -> tuple[int, int]:
    row = (pin - 1) // 2
    return (COL_LEFT_X if pin % 2 else COL_RIGHT_X), TOP + row * ROW


def _snap_row(y: float) -> int:
    """The nearest y half-way between two pin rows: terminal rows sit there, so no wire's
    terminal run can lie along another wire's pin run."""
    k = round((y - TOP - ROW / 2) / ROW)
    return TOP + ROW // 2 + k * ROW


def _box_rows(part: Mapping[str, Any], panel: Mapping[str, Any] | None,
              part_id: str) -> list[tuple[str, Mapping[str, Any] | None]]:
    """The rows of a part's box: (text, wire or None for a module-side link)."""
    wires = list(part["wires"])
    if part_id == "oled" and panel is not None:
        by_terminal = {w["terminal"]: w for w in wires}
        local = panel.get("local", {})
        return [(t, by_terminal[t]) if t in by_terminal else (str(local[t]), None)
                for t in panel["order"]]
    rows: list[tuple[str, Mapping[str, Any] | None]] = [
        (w["terminal"] + (f" ({w['via']})" if "via" in w else ""), w) for w in wires]
    rows += [(str(text), None) for text in part.get("local", [])]
    return rows


def layout(pinmap: Mapping[str, Any], panel_id: str) -> Layout:
    """The wiring diagram for one panel. Raises PinmapError when validate() finds a problem."""
    errors = validate(pinmap)
    if errors:
        raise PinmapError("; ".join(errors))
    panel = dict(panels(pinmap))[panel_id]
    out = Layout(title=str(panel["title"]), width=WIDTH)
    built = parts_for(pinmap, panel_id)
    used: dict[int, str] = {}
    for part_id, part in built:
        for wire in part["wires"]:
            used[wire["pin"]] = part_id
    _draw_header(out, used)

    sides: dict[str, list[tuple[str, Mapping[str, Any]]]] = {"left": [], "right": []}
    for part_id, part in built:
        sides["left" if part["wires"][0]["pin"] % 2 else "right"].append((part_id, part))
    bottom = TOP + 20 * ROW
    for side, members in sides.items():
        members.sort(key=lambda item: min(w["pin"] for w in item[1]["wires"]))
        bottom = max(bottom, _draw_side(out, side, members, panel))

    y = _draw_table(out, built, bottom + 44)
    out.height = int(y + 24)
    _draw_title(out, panel)
    return out


def _draw_header(out: Layout, used: Mapping[int, str]) -> None:
    out.shapes.append(f'<rect x="{COL_LEFT_X - 18}" y="{TOP - 20}" '
                      f'width="{COL_RIGHT_X - COL_LEFT_X + 36}" height="{20 * ROW + 14}" '
                      'rx="6" fill="#f4f1e8" stroke="#555555"/>')
    out.texts.append(Text((COL_LEFT_X + COL_RIGHT_X) / 2, TOP - 28, "40-pin header", size=13,
                          anchor="middle", weight="bold"))
    for pin, (label, _) in HEADER.items():
        x, y = _pin_xy(pin)
        colour = COLOURS[pin_kind(pin)]
        left = pin % 2 == 1
        if pin in used:  # the tag: label and pin framed together, where the wire ends
            x0 = LABEL_END_LEFT if left else x - 10
            x1 = x + 10 if left else LABEL_END_RIGHT
            out.shapes.append(f'<rect x="{x0}" y="{y - 10}" width="{x1 - x0}" height="20" '
                              f'rx="4" fill="{colour}" fill-opacity="0.12" stroke="{colour}" '
                              'stroke-width="1.2"/>')
        fill = colour if pin in used else "#ffffff"
        out.shapes.append(
            f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" fill="{fill}" '
            f'stroke="{colour}" stroke-width="2"/>' if pin == 1 else
            f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" stroke="{colour}" stroke-width="2"/>')
        out.texts.append(Text(x, y + 3, str(pin), size=8, anchor="middle",
                              fill="#ffffff" if pin in used else "#666666"))
        out.texts.append(Text(x - LABEL_GAP if left else x + LABEL_GAP, y + 4, label,
                              anchor="end" if left else "start",
                              weight="bold" if pin in used else "normal",
                              fill="#000000" if pin in used else "#888888"))


def _draw_side(out: Layout, side: str, members: Sequence[tuple[str, Mapping[str, Any]]],
               panel: Mapping[str, Any]) -> int:
    """Draw one side's part boxes and their wires; answer the lowest y drawn."""
    left = side == "left"
    box_x = BOX_LEFT_X if left else BOX_RIGHT_X
    edge_x = box_x + BOX_W if left else box_x
    label_end = LABEL_END_LEFT if left else LABEL_END_RIGHT
    n_wires = sum(len(part["wires"]) for _, part in members)
    lane_from = edge_x + LANE_MARGIN if left else edge_x - LANE_MARGIN
    lane_to = label_end - LANE_MARGIN if left else label_end + LANE_MARGIN
    pitch = (lane_to - lane_from) / max(1, n_wires - 1)
    next_top = TOP - 40
    lane = 0
    bottom = 0
    for part_id, part in members:
        rows = _box_rows(part, panel, part_id)
        title = wrap(str(part["name"]), BOX_W - 16, size=12, weight="bold")
        head = 10 + LINE * len(title)
        wired_ys = [_pin_xy(w["pin"])[1] for _, w in rows if w is not None]
        ideal_first = sum(wired_ys) / len(wired_ys) - ROW * (len(rows) - 1) / 2
        first = _snap_row(max(ideal_first, next_top + head + 8))
        if first < next_top + head + 8:
            first += ROW
        top = first - head - 8
        height = head + 8 + ROW * (len(rows) - 1) + 14
        next_top = top + height + 12
        bottom = max(bottom, top + height)
        out.shapes.append(f'<rect x="{box_x}" y="{top}" width="{BOX_W}" height="{height}" '
                          'rx="5" fill="#ffffff" stroke="#333333"/>')
        for i, line in enumerate(title):
            out.texts.append(Text(box_x + 8, top + 16 + LINE * i, line, size=12, weight="bold",
                                  group=f"title:{part_id}"))
        for i, (text, wire) in enumerate(rows):
            ty = first + ROW * i
            text_x = edge_x - 8 if left else edge_x + 8
            anchor = "end" if left else "start"
            if wire is None:
                out.texts.append(Text(text_x, ty + 4, text, anchor=anchor, fill="#555555"))
                continue
            colour = COLOURS[pin_kind(wire["pin"])]
            out.texts.append(Text(text_x, ty + 4, text, anchor=anchor))
            _px, py = _pin_xy(wire["pin"])
            lane_x = round(lane_from + pitch * lane, 1)
            lane += 1
            points = ((edge_x, ty), (lane_x, ty), (lane_x, py), (label_end, py))
            optional = bool(wire.get("optional", False))
            dash = ' stroke-dasharray="7,4"' if optional else ""
            out.wires.append(Wire(part_id, wire["terminal"], wire["pin"], points, colour,
                                  optional))
            out.shapes.append(
                '<polyline points="' + " ".join(f"{x:g},{y:g}" for x, y in points) +
                f'" fill="none" stroke="{colour}" stroke-width="2.2" '
                f'stroke-linejoin="round"{dash}/>')
            out.shapes.append(f'<circle cx="{edge_x}" cy="{ty}" r="2.5" fill="{colour}"/>')
            out.shapes.append(f'<circle cx="{label_end}" cy="{py}" r="2.5" fill="{colour}"/>')
    return bottom


COLUMNS = ((BOX_LEFT_X, 210), (BOX_LEFT_X + 222, 330), (BOX_LEFT_X + 566, 394))


def _draw_table(out: Layout, built: Sequence[tuple[str, Mapping[str, Any]]], y: float) -> float:
    """The table under the picture: each part, its wires in words, its note (wrapped)."""
    for (x, _), head in zip(COLUMNS, ("Part", "Wires (terminal: header pin)", "Note"),
                            strict=True):
        out.texts.append(Text(x, y, head, size=12, weight="bold"))
    y += 6
    for part_id, part in built:
        wires = ", ".join(
            f"{w['terminal']}: pin {w['pin']} " + (f"GPIO{w['bcm']}" if "bcm" in w else
                                                  HEADER[w["pin"]][0])
            + (" (optional)" if w.get("optional") else "")
            for w in part["wires"])
        cells = (str(part["name"]), wires, str(part.get("note", "")))
        wrapped = [wrap(text, width) for (_, width), text in zip(COLUMNS, cells, strict=True)]
        y += LINE + 4
        for (x, _), lines, kind in zip(COLUMNS, wrapped, ("name", "wires", "note"), strict=True):
            for i, line in enumerate(lines):
                out.texts.append(Text(x, y + LINE * i, line,
                                      fill="#444444" if kind == "note" else "#000000",
                                      group=f"{kind}:{part_id}"))
        y += LINE * (max(len(lines) for lines in wrapped) - 1)
        out.shapes.append(f'<line x1="{BOX_LEFT_X}" y1="{y + 6}" x2="{WIDTH - 20}" '
                          f'y2="{y + 6}" stroke="#dddddd"/>')
    return y


def setting_words(panel: Mapping[str, Any]) -> str:
    """The config lines a panel needs, as the diagrams and steps print them."""
    words = f"display.driver = \"{panel['driver']}\""
    if panel.get("interface", "i2c") != "i2c":
        words += f", display.interface = \"{panel['interface']}\""
    return words


def doctor_wiring(pinmap: Mapping[str, Any]) -> str:
    """companion/doctor/wiring.py: each panel's driver, interface and display wires."""
    lines = ['"""The display\'s wires for each panel the box is built for, for companion doctor\'s',
             "advice (the doctor runs where hardware/ is not installed).", "",
             "Generated by tools/wiring_diagram.py from hardware/pinmap.toml: do not edit. Run",
             'python3 tools/wiring_diagram.py after changing the pin map (--check says when this',
             'file is stale)."""', "", "from typing import NamedTuple", "", "",
             "class PanelWiring(NamedTuple):",
             '    """One panel: its luma driver and interface, and (terminal, header pin, pin',
             '    label) for each wire from the module to the header."""', "",
             "    title: str", "    driver: str", "    interface: str",
             "    wires: tuple[tuple[str, int, str], ...]", "", "",
             "PANELS: dict[str, PanelWiring] = {"]
    for panel_id, panel in panels(pinmap):
        oled = dict(parts_for(pinmap, panel_id))["oled"]
        lines.append(f"    {json.dumps(panel_id)}: PanelWiring(")
        said = (str(panel["title"]), str(panel["driver"]), str(panel.get("interface", "i2c")))
        lines.append(f"        {', '.join(json.dumps(word) for word in said)}, (")
        for wire in oled["wires"]:
            lines.append(f"            ({json.dumps(str(wire['terminal']))}, {int(wire['pin'])}, "
                         f"{json.dumps(HEADER[int(wire['pin'])][0])}),")
        lines.append("        )),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _draw_title(out: Layout, panel: Mapping[str, Any]) -> None:
    out.texts.append(Text(BOX_LEFT_X, 30, f"The table companion: wiring with the {panel['title']}"
                          " panel", size=16, weight="bold"))
    intro = ("Raspberry Pi 40-pin header seen from above, pin 1 (square) top left. Each wire "
             "ends at its pin's label tag. Filled pins are used; BCM numbers are what the "
             "software and config use. Grey rows in a box are soldered at the part, not wired "
             f"to the Pi. Dashed: optional. Set {setting_words(panel)}.")
    for i, line in enumerate(wrap(intro, WIDTH - 40)):
        out.texts.append(Text(BOX_LEFT_X, 52 + LINE * i, line, fill="#444444", group="intro"))
    legend_x = BOX_LEFT_X
    for kind, colour in COLOURS.items():
        out.shapes.append(f'<rect x="{legend_x}" y="88" width="12" height="12" '
                          f'fill="{colour}"/>')
        out.texts.append(Text(legend_x + 16, 98, kind))
        legend_x += 70


def render_svg(drawing: Layout) -> str:
    """A layout as SVG text."""
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{drawing.width}" '
        f'height="{drawing.height}" viewBox="0 0 {drawing.width} {drawing.height}" '
        'font-family="DejaVu Sans, Verdana, sans-serif">',
        "<!-- Generated by tools/wiring_diagram.py from hardware/pinmap.toml: do not edit. -->",
        f'<rect width="{drawing.width}" height="{drawing.height}" fill="#ffffff"/>',
        *drawing.shapes, *(text.svg() for text in drawing.texts), "</svg>", ""])


# -- the geometry a builder relies on --------------------------------------------------------


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(max(a0, a1), max(b0, b1)) - max(min(a0, a1), min(b0, b1))


def _crosses(seg: tuple[tuple[float, float], tuple[float, float]],
             box: tuple[float, float, float, float]) -> bool:
    (x0, y0), (x1, y1) = seg
    bx0, by0, bx1, by1 = box
    if y0 == y1:  # horizontal
        return by0 < y0 < by1 and _overlap(x0, x1, bx0, bx1) > 0
    return bx0 < x0 < bx1 and _overlap(y0, y1, by0, by1) > 0


def geometry_problems(drawing: Layout) -> list[str]:
    """What would make the drawing mislead a builder (empty: nothing)."""
    problems: list[str] = []
    ends: dict[tuple[float, float], str] = {}
    for wire in drawing.wires:
        name = f"{wire.part} {wire.terminal}"
        for end in (wire.points[0], wire.points[-1]):
            if end in ends:
                problems.append(f"{name} and {ends[end]} share the end point {end}")
            ends[end] = name
        last_x, pin_x = wire.points[-1][0], _pin_xy(wire.pin)[0]
        if (wire.pin % 2 == 0) != (last_x > pin_x):
            problems.append(f"{name}: reaches pin {wire.pin} from the wrong side")
    for i, a in enumerate(drawing.wires):
        for b in drawing.wires[i + 1:]:
            for sa in a.segments():
                for sb in b.segments():
                    (ax0, ay0), (ax1, ay1) = sa
                    (bx0, by0), (bx1, by1) = sb
                    if ay0 == ay1 and by0 == by1 and abs(ay0 - by0) < MIN_GAP:
                        run = _overlap(ax0, ax1, bx0, bx1)
                    elif ax0 == ax1 and bx0 == bx1 and abs(ax0 - bx0) < MIN_GAP:
                        run = _overlap(ay0, ay1, by0, by1)
                    else:
                        continue
                    if run > MIN_GAP:
                        problems.append(f"{a.part} {a.terminal} runs {run:g} px beside "
                                        f"{b.part} {b.terminal}")
    for text in drawing.texts:
        if "..." in text.text or "\u2026" in text.text:
            problems.append(f"text cut: {text.text!r}")
        x0, _, x1, _ = text.extent()
        if x0 < 0 or x1 > drawing.width:
            problems.append(f"text runs off the picture: {text.text!r}")
        for wire in drawing.wires:
            if any(_crosses(seg, text.extent()) for seg in wire.segments()):
                problems.append(f"{wire.part} {wire.terminal} strikes through {text.text!r}")
    return problems


# -- command line -----------------------------------------------------------------------------


def drawings(pinmap: Mapping[str, Any]) -> dict[str, Layout]:
    """Every panel's drawing, by file name (wiring-<panel>.svg)."""
    return {f"wiring-{panel_id}.svg": layout(pinmap, panel_id) for panel_id, _ in panels(pinmap)}


def to_png(svg: Path, png: Path, size: tuple[int, int]) -> None:
    """Render an SVG to PNG with headless Chromium (the browser the web tests use)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise OSError("chromium is needed for --png (apt install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",  # noqa: S603
                        "--hide-scrollbars", f"--user-data-dir={profile}",
                        f"--window-size={size[0]},{size[1]}", f"--screenshot={png}",
                        svg.resolve().as_uri()],
                       check=True, timeout=120, capture_output=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write (or with --check, compare and check) the wiring diagrams."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pinmap", type=Path, default=DEFAULT_PINMAP)
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT_DIR)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a drawing is stale or misleading (write nothing)")
    parser.add_argument("--png", type=Path, metavar="DIR",
                        help="also render each drawing to DIR/<name>.png (needs chromium)")
    args = parser.parse_args(argv)
    try:
        found = drawings(load_pinmap(args.pinmap))
    except (OSError, tomllib.TOMLDecodeError, PinmapError, KeyError, TypeError) as exc:
        print(f"wiring_diagram: {args.pinmap}: {exc}", file=sys.stderr)
        return 2
    status = 0
    if not args.check:
        args.out_dir.mkdir(parents=True, exist_ok=True)
    if args.pinmap == DEFAULT_PINMAP:  # the doctor's copy follows the project's own pin map
        module = doctor_wiring(load_pinmap(args.pinmap))
        current = DOCTOR_WIRING.read_text(encoding="utf-8") if DOCTOR_WIRING.exists() else ""
        if args.check and current != module:
            print(f"wiring_diagram: {DOCTOR_WIRING} is out of date with {args.pinmap}; "
                  "run python3 tools/wiring_diagram.py", file=sys.stderr)
            status = 1
        elif not args.check and current != module:
            DOCTOR_WIRING.write_text(module, encoding="utf-8")
            print(f"wrote {DOCTOR_WIRING}")
    for name, drawing in found.items():
        problems = geometry_problems(drawing)
        for problem in problems:
            print(f"wiring_diagram: {name}: {problem}", file=sys.stderr)
        status = 1 if problems else status
        target = args.out_dir / name
        svg = render_svg(drawing)
        if args.check:
            current = target.read_text(encoding="utf-8") if target.exists() else ""
            if current != svg:
                print(f"wiring_diagram: {target} is out of date with {args.pinmap}; "
                      "run python3 tools/wiring_diagram.py", file=sys.stderr)
                status = 1
            continue
        target.write_text(svg, encoding="utf-8")
        print(f"wrote {target}")
        if args.png is not None:
            args.png.mkdir(parents=True, exist_ok=True)
            to_png(target, args.png / f"{target.stem}.png", (drawing.width, drawing.height))
            print(f"wrote {args.png / f'{target.stem}.png'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
