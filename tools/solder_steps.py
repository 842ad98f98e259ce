#!/usr/bin/env python3
"""Draw hardware/solder/<step>.svg: the "solder these joints" pictures of the soldered build.

Each picture shows one step of hardware/README.md's soldered path as it lies on the bench: the
parts photo-style on a cutting mat, every joint of the step as a numbered marker (a silver
blob: solder it; a black plug: push it on, no solder), each Dupont lead from its joint to its
plug, and the Pi's header with the step's pins filled. Under the picture, one line per joint.

Promises:
- One source of truth. The wires (part, terminal, header pin, the series resistor), the parts'
  notes and names, the panels' terminal order and their module-side links all come from
  hardware/pinmap.toml through tools/wiring_diagram.py (its header table, its checks, its text
  measure): a pin map it refuses is refused here too (exit 2). This tool only lays them out.
- Every wire end of the pin map is in some step: its part end is a joint, its header end a
  plug labelled with the pin; every module-side link (`local`) is a joint. Each build (a panel,
  and the buzzer driven directly or through the NPN stage) draws each joint exactly once.
- Pictures you can copy (`problems` checks each one; `--check` fails on any): no two joint
  markers overlap, no wire runs through a joint it does not end at or through any text, no two
  leads run side by side, every text stays inside the picture and is wrapped, never cut.
- The same pin map always gives the same bytes (`--check` compares with the committed SVGs).

Usage: python3 tools/solder_steps.py [--pinmap FILE] [--out-dir DIR] [--check] [--png DIR]
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wiring_diagram as wd  # the tools are scripts beside each other

ROOT = wd.ROOT
DEFAULT_OUT_DIR = ROOT / "hardware" / "solder"

WIDTH = 1000
PLUG_X = 640        # the left end of every Dupont plug: where a lead ends
PLUG_W = 30
PLUG_GAP = 34       # plugs this far apart, at least
INSET_X = (896, 926)  # the header inset's two pin columns
INSET_PITCH = 14
JOINT_R = 9
MIN_GAP = wd.MIN_GAP
MAT = "#36695a"     # the cutting mat
ON_MAT = "#f2f2ea"  # text on the mat
BANDS = ("#000000", "#8b4513", "#d62728", "#ff7f0e", "#f5d033", "#2ca02c", "#1f4fd6",
         "#8e44ad", "#8a8a8a", "#ffffff")

DEFS = """<defs>
<radialGradient id="solder" cx="35%" cy="30%" r="75%"><stop offset="0" stop-color="#ffffff"/>
<stop offset="0.45" stop-color="#c9ccd0"/><stop offset="1" stop-color="#6c7075"/></radialGradient>
<linearGradient id="plug" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4a4a4a"/>
<stop offset="0.5" stop-color="#151515"/><stop offset="1" stop-color="#000000"/></linearGradient>
<radialGradient id="body" cx="40%" cy="35%" r="70%"><stop offset="0" stop-color="#5b5b5b"/>
<stop offset="1" stop-color="#111111"/></radialGradient>
<linearGradient id="steel" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e8e8e8"/>
<stop offset="0.5" stop-color="#9da1a6"/><stop offset="1" stop-color="#d0d3d6"/></linearGradient>
<radialGradient id="led" cx="40%" cy="35%" r="70%"><stop offset="0" stop-color="#ffb3b3"/>
<stop offset="0.6" stop-color="#d81e1e"/><stop offset="1" stop-color="#7a0b0b"/></radialGradient>
<linearGradient id="glass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2b2f36"/>
<stop offset="0.5" stop-color="#07080a"/><stop offset="1" stop-color="#22262c"/></linearGradient>
<linearGradient id="resistor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f0dcb0"/>
<stop offset="1" stop-color="#b89a62"/></linearGradient>
</defs>"""


@dataclass(frozen=True)
class Joint:
    """One joint: `kind` "solder" (a blob) or "plug" (a Dupont plug pushed on a pin)."""

    key: str
    kind: str
    x: float
    y: float
    says: str
    local: str = ""  # the pin map's `local` text this joint makes, if any


@dataclass(frozen=True)
class Run:
    """Anything drawn as a line: a lead (ends at a plug), a bus, a link, a board trace.

    `path` is the SVG path data; `points` the same line sampled densely (for the checks);
    `joints` the keys of the joints it ends at or passes through on purpose."""

    kind: str
    points: tuple[tuple[float, float], ...]
    joints: frozenset[str]
    path: str
    colour: str
    part: str = ""
    terminal: str = ""
    pin: int = 0


@dataclass
class Picture:
    """One step's drawing."""

    name: str
    title: str
    parts: tuple[str, ...]
    height: int = 0
    joints: list[Joint] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    texts: list[wd.Text] = field(default_factory=list)
    shapes: list[str] = field(default_factory=list)
    pending: list[tuple[str, str, int, str, tuple[float, float], float | None]] = \
        field(default_factory=list)

    def joint(self, key: str, kind: str, at: tuple[float, float], says: str, *,
              local: str = "") -> Joint:
        made = Joint(key, kind, at[0], at[1], says, local)
        self.joints.append(made)
        return made

    def text(self, x: float, y: float, text: str, *, size: int = 11, anchor: str = "start",
             weight: str = "normal", fill: str = ON_MAT, group: str = "") -> None:
        self.texts.append(wd.Text(x, y, text, size, anchor, weight, fill, group))

    def line(self, kind: str, points: Sequence[tuple[float, float]], joints: Sequence[str],
             colour: str, width: float = 3) -> None:
        """A straight-segment run (bus, link, trace)."""
        path = "M " + " L ".join(f"{x:g},{y:g}" for x, y in points)
        self.runs.append(Run(kind, _dense(points), frozenset(joints), path, colour))
        self.shapes.append(f'<path d="{path}" fill="none" stroke="{colour}" '
                           f'stroke-width="{width}" stroke-linejoin="round" '
                           'stroke-linecap="round"/>')

    def lead(self, part: str, wire: Mapping[str, Any], joint: Joint,
             plug_y: float | None = None) -> None:
        """A Dupont lead from `joint` to a plug for the wire's header pin (placed later)."""
        self.pending.append((part, str(wire["terminal"]), int(wire["pin"]), joint.key,
                             (joint.x, joint.y), plug_y))


# -- parts, photo-style ------------------------------------------------------------------------


def bands(ohms: int) -> tuple[str, str, str]:
    """A resistor's first three colour bands: two digits and the multiplier (10 ohm and up)."""
    digits = f"{ohms:d}"
    if ohms < 10 or digits[2:].strip("0"):
        raise ValueError(f"{ohms} ohm is not two significant digits")
    return BANDS[int(digits[0])], BANDS[int(digits[1])], BANDS[len(digits) - 2]


def _resistor(pic: Picture, start: tuple[float, float], end: tuple[float, float],
              ohms: int) -> None:
    """Legs from (x0, y0) to (x1, y1) with the body in the middle, its colour bands read
    from the value (two digits and a multiplier, gold tolerance)."""
    (x0, y0), (x1, y1) = start, end
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
    pic.shapes.append(f'<line x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y1:g}" '
                      'stroke="#b8bcc0" stroke-width="2"/>')
    stripes = "".join(f'<rect x="{-14 + 7 * i}" y="-7" width="4" height="14" fill="{colour}"/>'
                      for i, colour in enumerate(bands(ohms)))
    pic.shapes.append(f'<g transform="translate({mx:g},{my:g}) rotate({angle:g})">'
                      '<rect x="-22" y="-7" width="44" height="14" rx="6" '
                      f'fill="url(#resistor)" stroke="#7a6540"/>{stripes}'
                      '<rect x="12" y="-7" width="4" height="14" fill="#c9a227"/></g>')


def _button(pic: Picture, cx: float, cy: float, r: float) -> None:
    """A panel button seen from behind: the hex nut and the body."""
    hexagon = " ".join(f"{cx + (r + 8) * math.cos(math.radians(30 + 60 * k)):.1f},"
                       f"{cy + (r + 8) * math.sin(math.radians(30 + 60 * k)):.1f}"
                       for k in range(6))
    pic.shapes.append(f'<polygon points="{hexagon}" fill="url(#steel)" stroke="#555555"/>')
    pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="url(#body)" '
                      'stroke="#000000"/>')


def _lug(pic: Picture, x0: float, x1: float, y: float) -> None:
    pic.shapes.append(f'<rect x="{min(x0, x1)}" y="{y - 4}" width="{abs(x1 - x0)}" height="8" '
                      'rx="2" fill="url(#steel)" stroke="#666666"/>')


def _piezo(pic: Picture, cx: float, cy: float, r: float) -> None:
    pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="url(#body)" '
                      'stroke="#000000"/>')
    pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="{r / 5:g}" fill="#000000" '
                      'stroke="#444444"/>')


def _leg(pic: Picture, x0: float, y0: float, x1: float, y1: float) -> None:
    pic.shapes.append(f'<line x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y1:g}" '
                      'stroke="#b8bcc0" stroke-width="2"/>')


# -- the steps ---------------------------------------------------------------------------------


def _pin_words(pin: int) -> str:
    return f"pin {pin} ({wd.HEADER[pin][0]})"


def _wire(part: Mapping[str, Any], terminal: str, part_id: str) -> Mapping[str, Any]:
    for wire in part["wires"]:
        if wire["terminal"] == terminal or str(wire["terminal"]).startswith(terminal + " "):
            return wire  # type: ignore[no-any-return]
    raise wd.PinmapError(f"parts.{part_id}: no wire {terminal!r} for the solder steps")


def _lid_order(part_id: str) -> int:
    """Where a front button sits in the lid, left to right seen from the front (the case's
    order: BACK, UP, DOWN, NEXT)."""
    return ("back", "up", "down", "next").index(part_id)


def _buttons(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    table = dict(wd.parts(pinmap))
    buttons = [p for p in pic.parts if p != "ground_bus"]
    buttons.sort(key=lambda p: _wire(table[p], "A", p)["pin"])
    cx, r, row = 250.0, 27.0, 92.0
    pic.text(cx, top + 20, "16 mm buttons, seen from behind", anchor="middle")
    bus: list[tuple[float, float]] = []
    keys: list[str] = []
    cy = top + 80
    for i, part_id in enumerate(buttons):
        part = table[part_id]
        onward = ("on to the next button" if i < len(buttons) - 1 else
                  "on down to its end")
        wire = _wire(part, "A", part_id)
        _lug(pic, cx + 12, cx + 48, cy - 12)
        _lug(pic, cx - 48, cx - 12, cy + 12)
        _button(pic, cx, cy, r)
        label = str(part["name"]).removeprefix("Button ")
        pic.text(cx - 68, cy + 5, label, size=14, anchor="end", weight="bold")
        a = pic.joint(f"{part_id}:A", "solder", (cx + 48, cy - 12),
                      f"{label} lug A: the lead for {_pin_words(wire['pin'])}")
        pic.lead(part_id, wire, a)
        for local in part.get("local", []):
            b = pic.joint(f"{part_id}:B", "solder", (cx - 48, cy + 12),
                          f"{label} lug B: the ground bus, a solid wire {onward}",
                          local=str(local))
            bus.append((b.x, b.y))
            keys.append(b.key)
        cy += row
    bus_part = table["ground_bus"]
    wire = bus_part["wires"][0]
    end = pic.joint("ground_bus:bus", "solder", (cx - 48, cy - row + 62),
                    f"the ground bus's end: the lead for {_pin_words(wire['pin'])}")
    pic.line("bus", [*bus, (end.x, end.y)], [*keys, end.key], "#c9ccd0", width=3.5)
    pic.text(end.x - 16, end.y + 4, "ground bus", anchor="end")
    pic.lead("ground_bus", wire, end)
    lid = ", ".join(str(table[p]["name"]).removeprefix("Button ") for p in
                    sorted(buttons, key=lambda p: -_lid_order(p)))
    pic.text(40, end.y + 30, f"Drawn one above the other; in the lid, seen from behind, they "
             f"sit {lid} from left to right.")
    return end.y + 44


def _series_part(pic: Picture, part_id: str, top: float, *, part: Mapping[str, Any],
                 body: Callable[[float, float], None], legs: tuple[str, str],
                 plus: str, minus: str) -> float:
    """A two-legged part whose + side takes the pin map's series resistor: the buzzer driven
    directly and the LED."""
    plus_wire, minus_wire = _wire(part, plus, part_id), _wire(part, minus, part_id)
    series = plus_wire.get("series")
    if not isinstance(series, Mapping) or not isinstance(series.get("ohms"), int):
        raise wd.PinmapError(f"parts.{part_id} {plus}: give its series = {{ ohms, says }}")
    cx, cy = 190.0, top + 100
    body(cx, cy)
    _leg(pic, cx + 30, cy - 20, 300, cy - 20)
    _leg(pic, cx + 30, cy + 20, 300, cy + 20)
    pic.text(cx + 44, cy - 28, legs[0])
    pic.text(cx + 44, cy + 40, legs[1])
    _resistor(pic, (300, cy - 20), (440, cy - 20), int(series["ohms"]))
    pic.shapes.append(f'<rect x="{336}" y="{cy - 31}" width="68" height="22" rx="5" '
                      'fill="#000000" fill-opacity="0.3" stroke="#000000" stroke-opacity="0.5"/>')
    pic.text(370, cy - 46, str(series["says"]), anchor="middle")
    pic.text(370, cy + 4, "heat-shrink over it", size=10, anchor="middle")
    name = str(part["name"]).split(" (")[0]
    pic.joint(f"{part_id}:{plus}", "solder", (300, cy - 20),
                    f"{name} {legs[0]}: one leg of the {series['says']} resistor")
    far = pic.joint(f"{part_id}:{plus}:series", "solder", (440, cy - 20),
                    f"the resistor's other leg: the lead for {_pin_words(plus_wire['pin'])}; "
                    "slide heat-shrink over the resistor and both joints")
    low = pic.joint(f"{part_id}:{minus}", "solder", (300, cy + 20),
                    f"{name} {legs[1]}: the lead for {_pin_words(minus_wire['pin'])}")
    pic.lead(part_id, plus_wire, far)
    pic.lead(part_id, minus_wire, low)
    return cy + 70


def _buzzer(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    part = dict(wd.parts(pinmap))["buzzer"]

    def body(cx: float, cy: float) -> None:
        _piezo(pic, cx, cy, 46)
        pic.text(cx, cy + 66, "PKM17EPPH4001-B0", anchor="middle")

    return _series_part(pic, "buzzer", top, part=part, body=body, legs=("+ leg", "- leg"),
                        plus="signal", minus="GND")


def _led(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    part = dict(wd.parts(pinmap))["led"]

    def body(cx: float, cy: float) -> None:
        pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="30" fill="#7a0b0b"/>')
        pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="25" fill="url(#led)"/>')
        pic.text(cx, cy + 52, "5 mm LED", anchor="middle")

    return _series_part(pic, "led", top, part=part, body=body,
                        legs=("anode (long leg)", "cathode (short leg)"), plus="anode",
                        minus="cathode")


def _buzzer_npn(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    """The optional 5 V stage of hardware/buzzer-5v.svg on a scrap of perfboard."""
    part = dict(wd.parts(pinmap))["buzzer"]
    five, signal, ground = (_wire(part, t, "buzzer") for t in ("5V", "signal", "GND"))
    pitch, bx, by = 22.0, 250.0, top + 46

    def g(col: float, row: float) -> tuple[float, float]:
        return bx + 14 + col * pitch, by + 14 + row * pitch

    w, h = 11 * pitch + 28, 8 * pitch + 28
    pic.shapes.append(f'<rect x="{bx}" y="{by}" width="{w:g}" height="{h:g}" rx="3" '
                      'fill="#c8a063" stroke="#7d5f2e"/>')
    pic.shapes.extend(f'<circle cx="{g(c, r)[0]:g}" cy="{g(c, r)[1]:g}" r="4" fill="#c07a3a" '
                      'stroke="#8a5226"/>' for c in range(12) for r in range(9))
    pic.text(bx, by - 10, "perfboard, parts side; silver lines: bare wire underneath")
    spots = {
        "piezo+": ((1, 1), "piezo + wire (through a hole)"),
        "rx:top": ((4, 1), "1 kohm across the piezo, top leg"),
        "5v": ((10, 1), f"the lead for {_pin_words(five['pin'])}"),
        "piezo-": ((1, 4), "piezo - wire"),
        "rx:low": ((4, 4), "1 kohm across the piezo, lower leg"),
        "c": ((4, 6), "transistor C leg"),
        "b": ((5, 6), "transistor B leg"),
        "e": ((6, 6), "transistor E leg"),
        "gnd": ((10, 6), f"the lead for {_pin_words(ground['pin'])}"),
        "rb:a": ((5, 8), "1 kohm base resistor, left leg"),
        "rb:b": ((9, 8), "1 kohm base resistor, right leg"),
        "sig": ((10, 8), f"the lead for {_pin_words(signal['pin'])}"),
    }
    _resistor(pic, g(4, 1), g(4, 4), 1000)
    _resistor(pic, g(5, 8), g(9, 8), 1000)
    qx, qy = g(5, 6)
    pic.shapes.append(f'<path d="M {qx - 18:g},{qy - 12:g} L {qx + 18:g},{qy - 12:g} '
                      f'A 18 16 0 0 0 {qx - 18:g},{qy - 12:g} Z" transform="translate(0,-10)" '
                      'fill="url(#body)"/>')
    for col in (4, 5, 6):
        _leg(pic, qx + (col - 5) * 10, qy - 16, *g(col, 6))
    pic.text(g(6.6, 2.5)[0], g(6.6, 2.5)[1] + 4, "1k across the piezo")
    pic.text(g(7, 7.35)[0], g(7, 7.35)[1] + 4, "1k", anchor="middle")
    piezo = g(-4.5, 2.5)
    _piezo(pic, piezo[0], piezo[1], 40)
    _leg(pic, piezo[0] + 28, piezo[1] - 20, *g(1, 1))
    _leg(pic, piezo[0] + 28, piezo[1] + 20, *g(1, 4))
    joints = {key: pic.joint(f"npn:{key}", "solder", g(*spot), says)
              for key, (spot, says) in spots.items()}

    def trace(*keys: str) -> None:
        pic.line("trace", [(joints[k].x, joints[k].y) for k in keys],
                 [joints[k].key for k in keys], "#dfe2e6", width=3)

    trace("piezo+", "rx:top", "5v")
    pic.line("trace", [(joints["piezo-"].x, joints["piezo-"].y),
                       (joints["rx:low"].x, joints["rx:low"].y),
                       (joints["c"].x, joints["c"].y)],
             [joints[k].key for k in ("piezo-", "rx:low", "c")], "#dfe2e6")
    trace("e", "gnd")
    trace("b", "rb:a")
    trace("rb:b", "sig")
    pic.lead("buzzer", five, joints["5v"])
    pic.lead("buzzer", ground, joints["gnd"])
    pic.lead("buzzer", signal, joints["sig"])
    pic.text(bx, by + h + 20, "Q: BC337, legs C B E with its flat face towards you "
             "(a PN2222A is E B C: turn it round)")
    pic.text(bx, by + h + 36, "A magnetic buzzer: a 1N4148 in place of the 1k across it, "
             "the band to 5 V.")
    return by + h + 50


def _shutdown(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    part = dict(wd.parts(pinmap))["shutdown"]
    cx, cy = 250.0, top + 80
    pic.text(cx, top + 24, "12 mm button, seen from behind", anchor="middle")
    for dy in (-14, 14):
        _lug(pic, cx + 10, cx + 44, cy + dy)
    _button(pic, cx, cy, 21)
    for terminal, dy in (("A", -14), ("B", 14)):
        wire = _wire(part, terminal, "shutdown")
        joint = pic.joint(f"shutdown:{terminal}", "solder", (cx + 44, cy + dy),
                          f"shutdown button lug {terminal}: the lead for "
                          f"{_pin_words(wire['pin'])}")
        pic.lead("shutdown", wire, joint)
    return cy + 60


def _uart(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    part = dict(wd.parts(pinmap))["uart"]
    x0, y0, x1 = 150.0, top + 40, 330.0
    labels = [str(w["terminal"]) for w in part["wires"]] + ["3V3", "5V"]
    y1 = y0 + 30 + 26 * len(labels)
    pic.shapes.append(f'<rect x="{x0 - 40}" y="{(y0 + y1) / 2 - 16}" width="44" height="32" '
                      'fill="url(#steel)" stroke="#555555"/>')
    pic.shapes.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="4" '
                      'fill="#6b2f8f" stroke="#3b1650"/>')
    pic.text(x0 + 12, y0 + 20, "USB-serial adapter", weight="bold")
    pic.text(x0 + 12, y0 + 36, "jumper set to 3.3 V")
    for i, label in enumerate(labels):
        y = y0 + 56 + 26 * i
        pic.shapes.append(f'<rect x="{x1}" y="{y - 2}" width="22" height="4" fill="#d4af37"/>')
        pic.text(x1 - 8, y + 4, label, anchor="end", weight="bold")
        if i >= len(part["wires"]):
            pic.text(x1 + 32, y + 4, "leave free")
            continue
        wire = part["wires"][i]
        joint = pic.joint(f"uart:{label}", "plug", (x1 + 22, y),
                          f"adapter {label}: plug on a lead left whole (female at both ends) "
                          f"for {_pin_words(wire['pin'])}")
        pic.lead("uart", wire, joint)
    return y1 + 20


PANEL_MM = {"ssd1309-spi": (57.0, 29.5, 70.0, 43.0), "ssd1309": (57.0, 29.5, 70.0, 43.0),
            "sh1106": (31.4, 16.7, 35.4, 33.5),
            "ssd1306": (23.7, 12.9, 27.0, 27.0)}  # viewing area and module board (typical)


def _display(pic: Picture, pinmap: Mapping[str, Any], top: float, panel_id: str) -> float:
    panel = dict(wd.panels(pinmap))[panel_id]
    part = dict(wd.parts_for(pinmap, panel_id))["oled"]
    by_terminal = {str(w["terminal"]): w for w in part["wires"]}
    local = {str(k): str(v) for k, v in panel.get("local", {}).items()}
    unknown = set(local) - {"RES", "DC", "CS"}
    if unknown:
        raise wd.PinmapError(f"panels.{panel_id}: no solder picture for {sorted(unknown)}")
    order = [str(t) for t in panel["order"]]
    gw, gh, bw, bh = (v * 4 for v in PANEL_MM[panel_id])
    pitch = 34.0
    width = max(bw, pitch * len(order) + 40)
    links = 80.0 if local else 0.0
    x0, y0 = 110.0, top + 36
    height = max(bh, gh + 70) + links
    y_pad = y0 + height - 14
    pic.shapes.append(f'<rect x="{x0}" y="{y0}" width="{width:g}" height="{height:g}" rx="6" '
                      'fill="#1d4f91" stroke="#0d2a52"/>')
    for hx in (x0 + 10, x0 + width - 10):
        for hy in (y0 + 10, y0 + height - 10 if not local else y0 + gh + 34):
            pic.shapes.append(f'<circle cx="{hx:g}" cy="{hy:g}" r="5" fill="#1d4f91" '
                              'stroke="#d4af37" stroke-width="2.5"/>')
    pic.shapes.append(f'<rect x="{x0 + (width - gw) / 2:g}" y="{y0 + 20}" width="{gw:g}" '
                      f'height="{gh:g}" fill="url(#glass)" stroke="#000000"/>')
    pic.text(x0 + width / 2, y0 - 12, f"{panel['title']}, front", anchor="middle")
    xs = {t: x0 + (width - pitch * (len(order) - 1)) / 2 + pitch * i for i, t in
          enumerate(order)}
    for terminal, x in xs.items():
        pic.shapes.append(f'<rect x="{x - 2:g}" y="{y_pad:g}" width="4" height="22" '
                          'fill="#d4af37"/>')
        pic.text(x, y_pad - 14, terminal, size=10, anchor="middle", weight="bold")
    if local:
        _display_links(pic, xs, y_pad, local)
        words = ("A module sold for SPI: first move the resistor on its back that its seller "
                 "names for I2C. Then the links below the glass: DC and CS to GND, and the RC "
                 "reset on RES.")
        for i, line in enumerate(wd.wrap(words, PLUG_X - (x0 + width) - 40)):
            pic.text(x0 + width + 20, y0 + 20 + wd.LINE * i, line, group="spi")
    wired = [t for t in order if t in by_terminal]
    for terminal in wired:  # the leftmost lead lowest, so no two leads cross
        wire = by_terminal[terminal]
        joint = pic.joint(f"oled:{terminal}", "plug", (xs[terminal], y_pad + 30),
                          f"OLED {terminal}: plug on a lead left whole (female at both ends) "
                          f"for {_pin_words(wire['pin'])}")
        rank = len(wired) - 1 - wired.index(terminal)
        pic.lead("oled", wire, joint, plug_y=y_pad + 80 + PLUG_GAP * rank)
    return y_pad + 80 + PLUG_GAP * len(wired)


def _display_links(pic: Picture, xs: Mapping[str, float], y_pad: float,
                   local: Mapping[str, str]) -> None:
    """The SSD1309's module-side links: DC and CS to GND, the RC reset on RES."""
    bar, high = y_pad - 40, y_pad - 64
    pads = {t: pic.joint(f"oled:{t}:pad", "solder", (xs[t], y_pad), says,
                         local=local.get(t, ""))
            for t, says in (
                ("GND", "OLED GND pad: the insulated link to DC and CS"),
                ("VCC", "OLED VCC pad: the 10 kohm's leg"),
                ("RES", f"OLED RES pad: the 10 kohm's other leg and the 1 uF's leg "
                        f"({local['RES']})"),
                ("DC", f"OLED DC pad: the link from GND, on to CS ({local['DC']})"),
                ("CS", f"OLED CS pad: the link from DC ({local['CS']})"))}
    splice = pic.joint("oled:cap", "solder", (xs["RES"] - 14, bar),
                       "the 1 uF's other leg onto the GND link (strip 3 mm of it)")
    pic.line("link", [(xs["GND"], y_pad), (xs["GND"] + 12, y_pad - 12), (xs["GND"] + 12, bar),
                      (xs["DC"] + 12, bar), (xs["DC"] + 12, y_pad - 12), (xs["DC"], y_pad)],
             [pads["GND"].key, pads["DC"].key, splice.key], "#222222", width=3)
    pic.line("link", [(xs["DC"] + JOINT_R, y_pad - 2), (xs["CS"] - JOINT_R, y_pad - 2)],
             [pads["DC"].key, pads["CS"].key], "#222222", width=3)
    _resistor(pic, (xs["VCC"] + 12, high), (xs["RES"] + 12, high), 10_000)
    for terminal, dx, to in (("VCC", 12, high), ("RES", 12, high), ("RES", -14, bar)):
        x = xs[terminal]
        leg = [(x, y_pad), (x + dx, y_pad - 10), (x + dx, to)]
        pic.runs.append(Run("leg", _dense(leg), frozenset([pads[terminal].key, splice.key]),
                            "", "#b8bcc0"))
        pic.shapes.append('<polyline points="' + " ".join(f"{a:g},{b:g}" for a, b in leg) +
                          '" fill="none" stroke="#b8bcc0" stroke-width="2"/>')
    cx, cy = xs["RES"] - 14, (y_pad - 10 + bar) / 2
    pic.shapes.append(f'<ellipse cx="{cx:g}" cy="{cy:g}" rx="5" ry="8" fill="#d9a441" '
                      'stroke="#8a6420"/>')
    pic.text((xs["VCC"] + xs["RES"]) / 2 + 12, high - 12, "10k", anchor="middle")
    pic.text(xs["CS"] + 24, bar + 4, "insulated link")


# -- layout ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepSpec:
    """One step: its file name, title, the pin map parts it solders, how to draw it."""

    name: str
    title: str
    parts: tuple[str, ...]
    draw: Callable[[Picture, Mapping[str, Any], float], float]
    buzzer: str = ""  # "direct" or "npn": the buzzer choice this step belongs to
    panel: str = ""   # the panel a display step is for


def steps(pinmap: Mapping[str, Any]) -> list[StepSpec]:
    """Every step picture, in build order; the display step once per panel."""
    made = [
        StepSpec("buttons", "the front buttons and their ground bus",
                 ("next", "up", "down", "back", "ground_bus"), _buttons),
        StepSpec("buzzer", "the buzzer, driven directly", ("buzzer",), _buzzer, "direct"),
        StepSpec("buzzer-npn", "the louder buzzer, the 5 V NPN stage on perfboard",
                 ("buzzer",), _buzzer_npn, "npn"),
        StepSpec("led", "the status LED (optional)", ("led",), _led),
        StepSpec("shutdown", "the shutdown button", ("shutdown",), _shutdown),
        StepSpec("uart", "the serial line (optional): no solder", ("uart",), _uart),
    ]
    for panel_id, panel in wd.panels(pinmap):
        def draw(pic: Picture, data: Mapping[str, Any], top: float,
                 panel_id: str = panel_id) -> float:
            return _display(pic, data, top, panel_id)
        made.append(StepSpec(f"display-{panel_id}", f"the display: {panel['title']}",
                             ("oled",), draw, panel=panel_id))
    return made


def _distinct_notes(notes: Iterable[str]) -> list[str]:
    """The parts' notes once each, in order: a note that only repeats the start of another
    ("Momentary switch to the ground bus." beside "Momentary switch to the ground bus; the
    internal pull-up ...") is left out."""
    notes = [note for note in dict.fromkeys(notes) if note]
    return [note for note in notes
            if not any(other != note and other.startswith(note.rstrip(".")) for other in notes)]


def picture(pinmap: Mapping[str, Any], spec: StepSpec) -> Picture:
    """Lay out one step. Raises PinmapError when the pin map is refused."""
    errors = wd.validate(pinmap)
    if errors:
        raise wd.PinmapError("; ".join(errors))
    table = dict(wd.parts_for(pinmap, spec.panel) if spec.panel else wd.parts(pinmap))
    pic = Picture(spec.name, f"Solder step: {spec.title}", spec.parts)
    pic.text(20, 30, pic.title, size=16, weight="bold", fill="#000000")
    y = 52.0
    notes = " ".join(_distinct_notes(str(table[p].get("note", "")) for p in spec.parts
                                     if p != "ground_bus"))
    for line in wd.wrap(notes, WIDTH - 40):
        pic.text(20, y, line, fill="#444444", group="intro")
        y += wd.LINE
    _legend(pic, y + 4)
    top = y + 24
    bottom = spec.draw(pic, pinmap, top)
    bottom = max(bottom, _place_leads(pic), top + 30 + INSET_PITCH * 20 + 50)
    _inset(pic, pinmap, top)
    pic.shapes.insert(0, f'<rect x="10" y="{top:g}" width="{WIDTH - 20}" '
                      f'height="{bottom - top:g}" rx="8" fill="{MAT}"/>' + "".join(
                          f'<line x1="{x}" y1="{top:g}" x2="{x}" y2="{bottom:g}" '
                          'stroke="#457a6a" stroke-width="1"/>' for x in range(50, WIDTH, 40)))
    y = bottom + 24
    for number, joint in enumerate(pic.joints, 1):
        kind = "solder" if joint.kind == "solder" else "push on, no solder"
        lines = wd.wrap(f"{number}. {joint.says} ({kind})", WIDTH - 40)
        for line in lines:
            pic.text(20, y, line, fill="#000000", group=f"says:{joint.key}")
            y += wd.LINE
    leads = sorted((run for run in pic.runs if run.kind == "lead"), key=lambda r: r.pin)
    ends = {joint.key: joint.kind for joint in pic.joints}
    soldered = [run.pin for run in leads if ends[next(iter(run.joints))] == "solder"]
    plugs = ", ".join(f"{run.pin} ({str(table[run.part]['name']).split(' (')[0]} "
                      f"{run.terminal})" for run in leads)
    care = ("Before each soldered lead: thread a 15 mm piece of heat-shrink onto it (it cannot "
            "go on after the joint), solder, slide it over the joint and shrink it. " if soldered
            else "")
    words = (f"{care}Label each lead with its header pin as soon as it is on its part (a tape "
             f"flag: {', '.join(str(run.pin) for run in leads)}): the ribbon's colours are not "
             f"the picture's. At the end (step 9), push each plug onto its pin: {plugs}.")
    for line in wd.wrap(words, WIDTH - 40):
        pic.text(20, y + 4, line, fill="#444444", group="plugs")
        y += wd.LINE
    pic.height = int(y + 14)
    return pic


def _legend(pic: Picture, y: float) -> None:
    pic.shapes.append(f'<circle cx="28" cy="{y:g}" r="7" fill="url(#solder)" stroke="#555555"/>')
    pic.text(40, y + 4, "a joint to solder", fill="#000000")
    pic.shapes.append(f'<rect x="176" y="{y - 7:g}" width="14" height="14" fill="url(#plug)"/>')
    pic.text(196, y + 4, "a plug to push on", fill="#000000")
    pic.text(340, y + 4, "The numbers are the order of the list under the picture.",
             fill="#000000")


def _place_leads(pic: Picture) -> float:
    """Give each pending lead its plug (in the order of their joints, top to bottom, at least
    PLUG_GAP apart) and its curve; answer the lowest plug's y."""
    free = sorted((p for p in pic.pending if p[5] is None), key=lambda p: (p[4][1], -p[4][0]))
    placed: list[tuple[Any, ...]] = [p for p in pic.pending if p[5] is not None]
    y = -1e9
    for item in free:
        y = max(item[4][1], y + PLUG_GAP)
        placed.append((*item[:5], y))
    lowest = 0.0
    for part, terminal, pin, key, (sx, sy), plug_y in placed:
        colour = wd.COLOURS[wd.pin_kind(pin)]
        if abs(plug_y - sy) < 1 and sx < PLUG_X:
            controls = ((sx + 40, sy), (PLUG_X - 40, plug_y))
        elif sy < plug_y - 40 and sx < PLUG_X - 80:  # straight down, then to the right
            controls = ((sx, plug_y), (sx + 40, plug_y))
        else:
            k = max(40.0, (PLUG_X - sx) * 0.45)
            controls = ((sx + k, sy), (PLUG_X - k, plug_y))
        ends = ((sx, sy), *controls, (PLUG_X, plug_y))
        path = (f"M {sx:g},{sy:g} C " + " ".join(f"{x:g},{y:g}" for x, y in ends[1:]))
        pic.runs.append(Run("lead", _bezier(ends), frozenset([key]), path, colour, part,
                            terminal, pin))
        pic.shapes.append(f'<path d="{path}" fill="none" stroke="#000000" stroke-opacity="0.3" '
                          'stroke-width="5" transform="translate(2,3)"/>')
        pic.shapes.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="4.5" '
                          'stroke-linecap="round"/>')
        pic.shapes.append(f'<path d="{path}" fill="none" stroke="#ffffff" stroke-opacity="0.35" '
                          'stroke-width="1.4" transform="translate(0,-1)"/>')
        pic.shapes.append(f'<rect x="{PLUG_X}" y="{plug_y - 7:g}" width="{PLUG_W}" height="14" '
                          'rx="2" fill="url(#plug)"/>')
        pic.text(PLUG_X + PLUG_W + 8, plug_y + 4, f"pin {pin} {wd.HEADER[pin][0]}",
                 weight="bold", group=f"plug:{pin}")
        lowest = max(lowest, plug_y + 24)
    pic.pending.clear()
    return lowest


def _inset(pic: Picture, pinmap: Mapping[str, Any], top: float) -> None:
    """The Pi's header, pin 1 top left: this step's pins filled, other steps' pins grey."""
    mine = {run.pin for run in pic.runs if run.kind == "lead"}
    everyone = {int(w["pin"]) for _, p in wd.parts(pinmap) for w in p["wires"]}
    y0 = top + 30
    pic.text(sum(INSET_X) / 2, top + 18, "Pi header", anchor="middle", weight="bold")
    for i, words in enumerate(("ringed: this step", "grey: other steps", "gold: free")):
        pic.text(sum(INSET_X) / 2, y0 + INSET_PITCH * 20 + 14 + 13 * i, words, size=9,
                 anchor="middle")
    pic.shapes.append(f'<rect x="{INSET_X[0] - 12}" y="{y0 - 12}" width="54" '
                      f'height="{INSET_PITCH * 20 + 10}" rx="4" fill="#111111"/>')
    for pin in wd.HEADER:
        x = INSET_X[(pin + 1) % 2]
        y = y0 + INSET_PITCH * ((pin - 1) // 2)
        fill = (wd.COLOURS[wd.pin_kind(pin)] if pin in mine else
                "#8a8a8a" if pin in everyone else "#d4af37")
        stroke = ' stroke="#ffffff" stroke-width="1.5"' if pin in mine else ""
        pic.shapes.append(f'<rect x="{x - 4}" y="{y - 4}" width="8" height="8" fill="{fill}"'
                          f'{stroke}/>' if pin == 1 else
                          f'<circle cx="{x}" cy="{y}" r="4.5" fill="{fill}"{stroke}/>')
        if pin in mine:
            side = pin % 2 == 1
            pic.text(x - 12 if side else x + 12, y + 4, str(pin), size=10, weight="bold",
                     anchor="end" if side else "start")


# -- the checks --------------------------------------------------------------------------------


def _dense(points: Sequence[tuple[float, float]], step: float = 2.0
           ) -> tuple[tuple[float, float], ...]:
    out: list[tuple[float, float]] = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        out += [(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(1, n + 1)]
    return tuple(out)


def _bezier(ends: Sequence[tuple[float, float]], n: int = 240) -> tuple[tuple[float, float], ...]:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ends
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3
        out.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    return tuple(out)


def problems(pic: Picture) -> list[str]:
    """What would make the picture mislead a builder (empty: nothing)."""
    found: list[str] = []
    keys = [j.key for j in pic.joints]
    found += [f"joint {k} drawn twice" for k in sorted({k for k in keys if keys.count(k) > 1})]
    for i, a in enumerate(pic.joints):
        for b in pic.joints[i + 1:]:
            if math.hypot(a.x - b.x, a.y - b.y) < 2 * JOINT_R - 1:
                found.append(f"joints {a.key} and {b.key} overlap")
    for run in pic.runs:
        name = f"{run.kind} {run.part} {run.terminal}".rstrip()
        for joint in pic.joints:
            if joint.key not in run.joints and any(
                    math.hypot(x - joint.x, y - joint.y) < JOINT_R + 1 for x, y in run.points):
                found.append(f"{name} runs through joint {joint.key}")
        for text in pic.texts:
            x0, y0, x1, y1 = text.extent()
            if any(x0 < x < x1 and y0 < y < y1 for x, y in run.points):
                found.append(f"{name} strikes through {text.text!r}")
    leads = [run for run in pic.runs if run.kind == "lead"]
    for i, one in enumerate(leads):
        for other in leads[i + 1:]:
            close = stretch = 0.0
            for (px, py), (x, y) in itertools.pairwise(one.points):
                near = min(math.hypot(x - u, y - v) for u, v in other.points) < MIN_GAP
                stretch = stretch + math.hypot(x - px, y - py) if near else 0.0
                close = max(close, stretch)
            if close > 2 * MIN_GAP:
                found.append(f"leads to pins {one.pin} and {other.pin} run {close:.0f} px "
                             "side by side")
    for text in pic.texts:
        if "..." in text.text or "\u2026" in text.text:
            found.append(f"text cut: {text.text!r}")
        x0, _, x1, _ = text.extent()
        if x0 < 0 or x1 > WIDTH:
            found.append(f"text runs off the picture: {text.text!r}")
    return found


def render_svg(pic: Picture) -> str:
    """A picture as SVG text: shapes, then the joint markers, then the text."""
    markers = []
    for number, joint in enumerate(pic.joints, 1):
        if joint.kind == "solder":
            markers.append(f'<circle cx="{joint.x:g}" cy="{joint.y:g}" r="{JOINT_R}" '
                           'fill="url(#solder)" stroke="#4a4d52"/>')
            colour = "#111111"
        else:
            markers.append(f'<rect x="{joint.x - 8:g}" y="{joint.y - 8:g}" width="16" '
                           'height="16" rx="2" fill="url(#plug)" stroke="#888888"/>')
            colour = "#ffffff"
        markers.append(wd.Text(joint.x, joint.y + 3.5, str(number), 9, "middle", "bold",
                               colour).svg())
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{pic.height}" '
        f'viewBox="0 0 {WIDTH} {pic.height}" font-family="DejaVu Sans, Verdana, sans-serif">',
        "<!-- Generated by tools/solder_steps.py from hardware/pinmap.toml: do not edit. -->",
        DEFS, f'<rect width="{WIDTH}" height="{pic.height}" fill="#ffffff"/>',
        *pic.shapes, *markers, *(text.svg() for text in pic.texts), "</svg>", ""])


def pictures(pinmap: Mapping[str, Any]) -> dict[str, Picture]:
    """Every step's picture, by file name."""
    return {f"{spec.name}.svg": picture(pinmap, spec) for spec in steps(pinmap)}


# -- the leads to keep whole: hardware/README.md's step 1, written from the pictures ----------

README = ROOT / "hardware" / "README.md"
LEADS_BEGIN = "<!-- leads: written by tools/solder_steps.py from the pin map; do not edit -->"
LEADS_END = "<!-- leads: end -->"


def lead_ends(pic: Picture) -> tuple[list[int], list[int]]:
    """A picture's leads by what happens at the part's end: (whole: a plug pushed on there,
    so the lead keeps both its female ends; half: a bare end soldered), as header pins."""
    kinds = {joint.key: joint.kind for joint in pic.joints}
    whole: list[int] = []
    half: list[int] = []
    for run in sorted((r for r in pic.runs if r.kind == "lead"), key=lambda r: r.pin):
        (start,) = run.joints
        (whole if kinds[start] == "plug" else half).append(run.pin)
    return whole, half


def lead_plan(pinmap: Mapping[str, Any]) -> str:
    """The Markdown of step 1 (indented into its list item): how many leads to keep whole
    before anything is cut, and each step's leads, whole or half, by header pin (which is also
    each lead's label)."""
    specs = steps(pinmap)
    pics = {spec.name: picture(pinmap, spec) for spec in specs}
    ends = {name: lead_ends(pic) for name, pic in pics.items()}
    display = max(len(ends[s.name][0]) for s in specs if s.panel)
    others = sum(len(ends[s.name][0]) for s in specs if not s.panel)
    half = (sum(len(ends[s.name][1]) for s in specs if s.buzzer != "direct" and not s.panel)
            + max(len(ends[s.name][1]) for s in specs if s.panel))
    spi = next(s for s in specs if s.panel and len(ends[s.name][0]) == display)
    rows = ["| picture | for | keep whole (plug at both ends): pins | half (bare end "
            "soldered): pins |", "|---|---|---|---|"]
    for spec in specs:
        whole, cut = ends[spec.name]
        rows.append(f"| `solder/{spec.name}.svg` | {spec.title} | "
                    f"{', '.join(map(str, whole)) or '-'} | {', '.join(map(str, cut)) or '-'} |")
    words = (f"**Before you cut anything, peel {display + others} leads off the ribbon and keep "
             f"them whole** (female at both ends): {display} for the display (the most any panel "
             f"takes: {dict(wd.panels(pinmap))[spi.panel]['title']}) and {others} for the serial "
             f"line. Then cut the rest of the ribbon in half: a build solders at most {half} half "
             "leads. Every lead is labelled with its header pin as soon as its part end is done.")
    body = ["", *wd.wrap_markdown(words, 93), "", *rows, "", LEADS_END]
    return "\n".join([LEADS_BEGIN, *(f"   {line}" if line else "" for line in body)])


def readme_with_leads(readme: str, plan: str) -> str:
    """`readme` with its leads block replaced by `plan` (ValueError if it has no block)."""
    start, end = readme.find(LEADS_BEGIN), readme.find(LEADS_END)
    if start < 0 or end < start:
        raise ValueError(f"{README.name} has no {LEADS_BEGIN!r} ... {LEADS_END!r} block")
    return readme[:start] + plan + readme[end + len(LEADS_END):]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write (or with --check, compare and check) the step pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pinmap", type=Path, default=wd.DEFAULT_PINMAP)
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT_DIR)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a picture is stale or misleading (write nothing)")
    parser.add_argument("--png", type=Path, metavar="DIR",
                        help="also render each picture to DIR/<name>.png (needs chromium)")
    args = parser.parse_args(argv)
    try:
        found = pictures(wd.load_pinmap(args.pinmap))
    except (OSError, tomllib.TOMLDecodeError, wd.PinmapError, KeyError, TypeError) as exc:
        print(f"solder_steps: {args.pinmap}: {exc}", file=sys.stderr)
        return 2
    status = 0
    if not args.check:
        args.out_dir.mkdir(parents=True, exist_ok=True)
    if args.pinmap == wd.DEFAULT_PINMAP:  # step 1 of the project's own README
        current = README.read_text(encoding="utf-8")
        wanted = readme_with_leads(current, lead_plan(wd.load_pinmap(args.pinmap)))
        if wanted != current and args.check:
            print(f"solder_steps: {README}'s leads block is out of date; run python3 "
                  "tools/solder_steps.py", file=sys.stderr)
            status = 1
        elif wanted != current:
            README.write_text(wanted, encoding="utf-8")
            print(f"wrote {README} (its leads block)")
    for name, pic in found.items():
        for problem in problems(pic):
            print(f"solder_steps: {name}: {problem}", file=sys.stderr)
            status = 1
        target = args.out_dir / name
        svg = render_svg(pic)
        if args.check:
            current = target.read_text(encoding="utf-8") if target.exists() else ""
            if current != svg:
                print(f"solder_steps: {target} is out of date with {args.pinmap}; "
                      "run python3 tools/solder_steps.py", file=sys.stderr)
                status = 1
            continue
        target.write_text(svg, encoding="utf-8")
        print(f"wrote {target}")
        if args.png is not None:
            args.png.mkdir(parents=True, exist_ok=True)
            wd.to_png(target, args.png / f"{target.stem}.png", (WIDTH, pic.height))
    return status


if __name__ == "__main__":
    sys.exit(main())
