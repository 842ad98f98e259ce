"""Lay out one panel's wiring diagram (tools/wiring_diagram.py) and check its geometry.

Promises: `layout` places the header, each part's box and each wire in its own lane, every
wire ending at its pin's label tag; `geometry_problems` lists what would mislead a builder
(wires side by side, through text or a box, text out of the picture); `render_svg` is the
same bytes for the same layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from wiring_pinmap import (
    CHAR_EM,
    COLOURS,
    HEADER,
    LINE,
    PinmapError,
    panels,
    parts_for,
    pin_kind,
    setting_words,
    validate,
    wrap,
)

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
