"""The bench picture of one solder step (tools/solder_steps.py): its joints, runs and text,
and the drawn parts every step uses (a resistor with its colour bands, a button, a lug, the
piezo, a leg).

Promises: a `Picture` holds everything `solder_layout.render_svg` draws and
`solder_layout.problems` checks; `bands` gives a resistor's colour code.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import wiring_diagram as wd  # the tools are scripts beside each other

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
        self.runs.append(Run(kind, dense(points), frozenset(joints), path, colour))
        self.shapes.append(f'<path d="{path}" fill="none" stroke="{colour}" '
                           f'stroke-width="{width}" stroke-linejoin="round" '
                           'stroke-linecap="round"/>')

    def lead(self, part: str, wire: Mapping[str, Any], joint: Joint,
             plug_y: float | None = None) -> None:
        """A Dupont lead from `joint` to a plug for the wire's header pin (placed later)."""
        self.pending.append((part, str(wire["terminal"]), int(wire["pin"]), joint.key,
                             (joint.x, joint.y), plug_y))


def bands(ohms: int) -> tuple[str, str, str]:
    """A resistor's first three colour bands: two digits and the multiplier (10 ohm and up)."""
    digits = f"{ohms:d}"
    if ohms < 10 or digits[2:].strip("0"):
        raise ValueError(f"{ohms} ohm is not two significant digits")
    return BANDS[int(digits[0])], BANDS[int(digits[1])], BANDS[len(digits) - 2]


def resistor(pic: Picture, start: tuple[float, float], end: tuple[float, float],
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


def button_shape(pic: Picture, cx: float, cy: float, r: float) -> None:
    """A panel button seen from behind: the hex nut and the body."""
    hexagon = " ".join(f"{cx + (r + 8) * math.cos(math.radians(30 + 60 * k)):.1f},"
                       f"{cy + (r + 8) * math.sin(math.radians(30 + 60 * k)):.1f}"
                       for k in range(6))
    pic.shapes.append(f'<polygon points="{hexagon}" fill="url(#steel)" stroke="#555555"/>')
    pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="url(#body)" '
                      'stroke="#000000"/>')


def lug_shape(pic: Picture, x0: float, x1: float, y: float) -> None:
    pic.shapes.append(f'<rect x="{min(x0, x1)}" y="{y - 4}" width="{abs(x1 - x0)}" height="8" '
                      'rx="2" fill="url(#steel)" stroke="#666666"/>')


def piezo_shape(pic: Picture, cx: float, cy: float, r: float) -> None:
    pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="url(#body)" '
                      'stroke="#000000"/>')
    pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="{r / 5:g}" fill="#000000" '
                      'stroke="#444444"/>')


def leg_shape(pic: Picture, x0: float, y0: float, x1: float, y1: float) -> None:
    pic.shapes.append(f'<line x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y1:g}" '
                      'stroke="#b8bcc0" stroke-width="2"/>')


def pin_words(pin: int) -> str:
    return f"pin {pin} ({wd.HEADER[pin][0]})"


def wire_of(part: Mapping[str, Any], terminal: str, part_id: str) -> Mapping[str, Any]:
    for wire in part["wires"]:
        if wire["terminal"] == terminal or str(wire["terminal"]).startswith(terminal + " "):
            return wire  # type: ignore[no-any-return]
    raise wd.PinmapError(f"parts.{part_id}: no wire {terminal!r} for the solder steps")


def dense(points: Sequence[tuple[float, float]], step: float = 2.0
           ) -> tuple[tuple[float, float], ...]:
    out: list[tuple[float, float]] = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        out += [(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(1, n + 1)]
    return tuple(out)


def bezier(ends: Sequence[tuple[float, float]], n: int = 240) -> tuple[tuple[float, float], ...]:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ends
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3
        out.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    return tuple(out)
