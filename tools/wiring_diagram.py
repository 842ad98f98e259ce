#!/usr/bin/env python3
"""Draw hardware/wiring.svg from hardware/pinmap.toml (standard library only).

Promises:
- The output depends only on the pin map: the same pinmap.toml always gives the same bytes, so
  a test (and CI) can regenerate the SVG and compare it with the committed one (`--check`).
- Every wire is checked against the Raspberry Pi 40-pin header before anything is drawn: a `bcm`
  number must sit on the physical `pin` it names, and a wire without `bcm` must go to a power
  or ground pin. A pin map that disagrees with the header is refused (exit 2), not drawn.

Usage: python3 tools/wiring_diagram.py [--pinmap FILE] [--output FILE] [--check]
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PINMAP = ROOT / "hardware" / "pinmap.toml"
DEFAULT_OUTPUT = ROOT / "hardware" / "wiring.svg"

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
WIDTH = 960
ROW = 26
TOP = 110
COL_LEFT_X = 460   # odd pins
COL_RIGHT_X = 500  # even pins
BOX_W = 210
BOX_LEFT_X = 24
BOX_RIGHT_X = WIDTH - 24 - BOX_W
TERM_H = 18
BOX_HEAD = 24


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


def validate(pinmap: Mapping[str, Any]) -> list[str]:
    """Every disagreement between the pin map and the header, as messages (empty: all good)."""
    errors: list[str] = []
    gpio_owner: dict[int, str] = {}
    for part_id, part in parts(pinmap):
        wires = part.get("wires")
        if not isinstance(wires, list) or not wires:
            errors.append(f"parts.{part_id}: no wires")
            continue
        for wire in wires:
            where = f"parts.{part_id} {wire.get('terminal', '?')}"
            pin = wire.get("pin")
            if not isinstance(pin, int) or pin not in HEADER:
                errors.append(f"{where}: pin {pin!r} is not a header pin 1..40")
                continue
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
                    errors.append(f"{where}: GPIO{bcm} is already used by parts.{other}")
    return errors


def _text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "start",
          weight: str = "normal", fill: str = "#000000") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(text, quote=False)}</text>')


def _pin_xy(pin: int) -> tuple[int, int]:
    row = (pin - 1) // 2
    return (COL_LEFT_X if pin % 2 else COL_RIGHT_X), TOP + row * ROW


def render_svg(pinmap: Mapping[str, Any]) -> str:
    """The wiring diagram as SVG text. Raises PinmapError when validate() finds a problem."""
    errors = validate(pinmap)
    if errors:
        raise PinmapError("; ".join(errors))
    used = {w["pin"] for _, p in parts(pinmap) for w in p["wires"]}
    body: list[str] = []
    height_header = TOP + 20 * ROW

    # The header itself.
    body.append(f'<rect x="{COL_LEFT_X - 18}" y="{TOP - 20}" '
                f'width="{COL_RIGHT_X - COL_LEFT_X + 36}" height="{20 * ROW + 14}" rx="6" '
                'fill="#f4f1e8" stroke="#555555"/>')
    body.append(_text((COL_LEFT_X + COL_RIGHT_X) / 2, TOP - 26, "40-pin header",
                      size=13, anchor="middle", weight="bold"))
    for pin, (label, _) in HEADER.items():
        x, y = _pin_xy(pin)
        colour = COLOURS[pin_kind(pin)]
        fill = colour if pin in used else "#ffffff"
        shape = (f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" fill="{fill}" '
                 f'stroke="{colour}" stroke-width="2"/>' if pin == 1 else
                 f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" stroke="{colour}" '
                 'stroke-width="2"/>')
        body.append(shape)
        number_fill = "#ffffff" if pin in used else "#666666"
        body.append(_text(x, y + 3, str(pin), size=8, anchor="middle", fill=number_fill))
        outer_x = x - 15 if pin % 2 else x + 15
        body.append(_text(outer_x, y + 4, label, size=11,
                          anchor="end" if pin % 2 else "start",
                          weight="bold" if pin in used else "normal",
                          fill="#000000" if pin in used else "#888888"))

    # The parts: on the side where most of their pins are, each near its pins' rows.
    sides: dict[str, list[tuple[str, Mapping[str, Any]]]] = {"left": [], "right": []}
    for part_id, part in parts(pinmap):
        odd = sum(1 for w in part["wires"] if w["pin"] % 2)
        sides["left" if odd * 2 >= len(part["wires"]) else "right"].append((part_id, part))
    bottom = height_header
    for side, members in sides.items():
        members.sort(key=lambda item: min(w["pin"] for w in item[1]["wires"]))
        box_x = BOX_LEFT_X if side == "left" else BOX_RIGHT_X
        edge_x = box_x + BOX_W if side == "left" else box_x
        label_end = COL_LEFT_X - 100 if side == "left" else COL_RIGHT_X + 100
        next_top = TOP - 30
        lane = 0
        for _part_id, part in members:
            wires = part["wires"]
            h = BOX_HEAD + TERM_H * len(wires) + 6
            pin_ys = [_pin_xy(w["pin"])[1] for w in wires]
            top = max(next_top, round(sum(pin_ys) / len(pin_ys) - h / 2))
            next_top = top + h + 14
            bottom = max(bottom, top + h)
            body.append(f'<rect x="{box_x}" y="{top}" width="{BOX_W}" height="{h}" rx="5" '
                        'fill="#ffffff" stroke="#333333"/>')
            body.append(_text(box_x + 8, top + 16, part["name"], size=12, weight="bold"))
            for i, wire in enumerate(wires):
                ty = top + BOX_HEAD + TERM_H * i + 10
                colour = COLOURS[pin_kind(wire["pin"])]
                term = wire["terminal"] + (f" ({wire['via']})" if "via" in wire else "")
                if side == "left":
                    body.append(_text(edge_x - 8, ty + 4, term, size=11, anchor="end"))
                else:
                    body.append(_text(edge_x + 8, ty + 4, term, size=11))
                px, py = _pin_xy(wire["pin"])
                step = 7 * (lane % 14)
                lane_x = (edge_x + 18 + step) if side == "left" else (edge_x - 18 - step)
                lane += 1
                body.append(f'<polyline points="{edge_x},{ty} {lane_x},{ty} {lane_x},{py} '
                            f'{label_end},{py}" fill="none" stroke="{colour}" '
                            'stroke-width="2.2" stroke-linejoin="round"/>')
                body.append(f'<circle cx="{edge_x}" cy="{ty}" r="2.5" fill="{colour}"/>')
                # A faint leader from the end of the wire to the pin, under the pin's label.
                body.append(f'<line x1="{label_end}" y1="{py}" x2="{px}" y2="{py}" '
                            f'stroke="{colour}" stroke-width="1" stroke-dasharray="2,3"/>')

    # The table below: what goes where, in words.
    y = bottom + 40
    body.append(_text(BOX_LEFT_X, y, "Part", size=12, weight="bold"))
    body.append(_text(BOX_LEFT_X + 260, y, "Wires (terminal: header pin, BCM)", size=12,
                      weight="bold"))
    body.append(_text(BOX_LEFT_X + 600, y, "Note", size=12, weight="bold"))
    for _part_id, part in parts(pinmap):
        y += 18
        wires = ", ".join(
            f"{w['terminal']}: {w['pin']}" + (f" GPIO{w['bcm']}" if "bcm" in w else
                                              f" {HEADER[w['pin']][0]}")
            for w in part["wires"])
        body.append(_text(BOX_LEFT_X, y, part["name"], size=11))
        body.append(_text(BOX_LEFT_X + 260, y, wires, size=11))
        note = str(part.get("note", ""))
        body.append(_text(BOX_LEFT_X + 600, y, note[:58] + ("..." if len(note) > 58 else ""),
                          size=10, fill="#444444"))
    height = y + 30

    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
        "<!-- Generated by tools/wiring_diagram.py from hardware/pinmap.toml: do not edit. -->",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        _text(BOX_LEFT_X, 30, "The table companion: wiring (Raspberry Pi 40-pin header, "
              "viewed from above, pin 1 top left)", size=15, weight="bold"),
        _text(BOX_LEFT_X, 50, "Filled pins are used. BCM numbers are what the software and "
              "config use; pin numbers are positions on the header.", size=11,
              fill="#444444"),
    ]
    legend_x = BOX_LEFT_X
    for kind, colour in COLOURS.items():
        head.append(f'<rect x="{legend_x}" y="60" width="12" height="12" fill="{colour}"/>')
        head.append(_text(legend_x + 16, 70, kind, size=11))
        legend_x += 70
    return "\n".join([*head, *body, "</svg>", ""])


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write (or with --check, compare) the wiring diagram."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pinmap", type=Path, default=DEFAULT_PINMAP)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if OUTPUT is not what PINMAP gives (write nothing)")
    args = parser.parse_args(argv)
    try:
        svg = render_svg(load_pinmap(args.pinmap))
    except (OSError, tomllib.TOMLDecodeError, PinmapError, KeyError, TypeError) as exc:
        print(f"wiring_diagram: {args.pinmap}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != svg:
            print(f"wiring_diagram: {args.output} is out of date with {args.pinmap}; "
                  "run python3 tools/wiring_diagram.py", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(svg, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
