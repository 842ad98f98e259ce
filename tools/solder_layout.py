"""The solder steps in build order, and each step's whole picture (tools/solder_steps.py):
its parts, the leads placed to their plugs, the header inset, the legend, and the checks.

Promises: `steps` lists every step once (the display step once per panel); `picture` lays one
out; `problems` lists what would mislead a builder (markers overlapping, a wire through a
joint or text, leads side by side, text out of the picture); `render_svg` is the same bytes
for the same picture.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import wiring_diagram as wd  # the tools are scripts beside each other
from solder_parts import (
    draw_buttons,
    draw_buzzer,
    draw_buzzer_npn,
    draw_display,
    draw_led,
    draw_shutdown,
    draw_uart,
)
from solder_picture import (
    DEFS,
    INSET_PITCH,
    INSET_X,
    JOINT_R,
    MAT,
    MIN_GAP,
    PLUG_GAP,
    PLUG_W,
    PLUG_X,
    WIDTH,
    Picture,
    Run,
    bezier,
)


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
                 ("next", "up", "down", "back", "ground_bus"), draw_buttons),
        StepSpec("buzzer", "the buzzer, driven directly", ("buzzer",), draw_buzzer, "direct"),
        StepSpec("buzzer-npn", "the louder buzzer, the 5 V NPN stage on perfboard",
                 ("buzzer",), draw_buzzer_npn, "npn"),
        StepSpec("led", "the status LED (optional)", ("led",), draw_led),
        StepSpec("shutdown", "the shutdown button", ("shutdown",), draw_shutdown),
        StepSpec("uart", "the serial line (optional): no solder", ("uart",), draw_uart),
    ]
    for panel_id, panel in wd.panels(pinmap):
        def draw(pic: Picture, data: Mapping[str, Any], top: float,
                 panel_id: str = panel_id) -> float:
            return draw_display(pic, data, top, panel_id)
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
        pic.runs.append(Run("lead", bezier(ends), frozenset([key]), path, colour, part,
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
