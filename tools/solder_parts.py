"""Each part's step picture (tools/solder_steps.py): the buttons and their ground bus, the
buzzer (direct or on the NPN stage), the LED, the shutdown button, the serial line, each panel.

Promises: each drawer takes the pin map's wires for its part (tools/wiring_diagram.py's
reading of hardware/pinmap.toml) and adds one joint per part end and one lead per header wire
to the picture, answering the lowest y it drew at.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import wiring_diagram as wd  # the tools are scripts beside each other
from solder_picture import (
    JOINT_R,
    PLUG_GAP,
    PLUG_X,
    Picture,
    Run,
    button_shape,
    dense,
    leg_shape,
    lug_shape,
    piezo_shape,
    pin_words,
    resistor,
    wire_of,
)


def _lid_order(part_id: str) -> int:
    """Where a front button sits in the lid, left to right seen from the front (the case's
    order: BACK, UP, DOWN, NEXT)."""
    return ("back", "up", "down", "next").index(part_id)


def draw_buttons(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    table = dict(wd.parts(pinmap))
    buttons = [p for p in pic.parts if p != "ground_bus"]
    buttons.sort(key=lambda p: wire_of(table[p], "A", p)["pin"])
    cx, r, row = 250.0, 27.0, 92.0
    pic.text(cx, top + 20, "16 mm buttons, seen from behind", anchor="middle")
    bus: list[tuple[float, float]] = []
    keys: list[str] = []
    cy = top + 80
    for i, part_id in enumerate(buttons):
        part = table[part_id]
        onward = ("on to the next button" if i < len(buttons) - 1 else
                  "on down to its end")
        wire = wire_of(part, "A", part_id)
        lug_shape(pic, cx + 12, cx + 48, cy - 12)
        lug_shape(pic, cx - 48, cx - 12, cy + 12)
        button_shape(pic, cx, cy, r)
        label = str(part["name"]).removeprefix("Button ")
        pic.text(cx - 68, cy + 5, label, size=14, anchor="end", weight="bold")
        a = pic.joint(f"{part_id}:A", "solder", (cx + 48, cy - 12),
                      f"{label} lug A: the lead for {pin_words(wire['pin'])}")
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
                    f"the ground bus's end: the lead for {pin_words(wire['pin'])}")
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
    plus_wire, minus_wire = wire_of(part, plus, part_id), wire_of(part, minus, part_id)
    series = plus_wire.get("series")
    if not isinstance(series, Mapping) or not isinstance(series.get("ohms"), int):
        raise wd.PinmapError(f"parts.{part_id} {plus}: give its series = {{ ohms, says }}")
    cx, cy = 190.0, top + 100
    body(cx, cy)
    leg_shape(pic, cx + 30, cy - 20, 300, cy - 20)
    leg_shape(pic, cx + 30, cy + 20, 300, cy + 20)
    pic.text(cx + 44, cy - 28, legs[0])
    pic.text(cx + 44, cy + 40, legs[1])
    resistor(pic, (300, cy - 20), (440, cy - 20), int(series["ohms"]))
    pic.shapes.append(f'<rect x="{336}" y="{cy - 31}" width="68" height="22" rx="5" '
                      'fill="#000000" fill-opacity="0.3" stroke="#000000" stroke-opacity="0.5"/>')
    pic.text(370, cy - 46, str(series["says"]), anchor="middle")
    pic.text(370, cy + 4, "heat-shrink over it", size=10, anchor="middle")
    name = str(part["name"]).split(" (")[0]
    pic.joint(f"{part_id}:{plus}", "solder", (300, cy - 20),
                    f"{name} {legs[0]}: one leg of the {series['says']} resistor")
    far = pic.joint(f"{part_id}:{plus}:series", "solder", (440, cy - 20),
                    f"the resistor's other leg: the lead for {pin_words(plus_wire['pin'])}; "
                    "slide heat-shrink over the resistor and both joints")
    low = pic.joint(f"{part_id}:{minus}", "solder", (300, cy + 20),
                    f"{name} {legs[1]}: the lead for {pin_words(minus_wire['pin'])}")
    pic.lead(part_id, plus_wire, far)
    pic.lead(part_id, minus_wire, low)
    return cy + 70


def draw_buzzer(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    part = dict(wd.parts(pinmap))["buzzer"]

    def body(cx: float, cy: float) -> None:
        piezo_shape(pic, cx, cy, 46)
        pic.text(cx, cy + 66, "PKM17EPPH4001-B0", anchor="middle")

    return _series_part(pic, "buzzer", top, part=part, body=body, legs=("+ leg", "- leg"),
                        plus="signal", minus="GND")


def draw_led(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    part = dict(wd.parts(pinmap))["led"]

    def body(cx: float, cy: float) -> None:
        pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="30" fill="#7a0b0b"/>')
        pic.shapes.append(f'<circle cx="{cx}" cy="{cy}" r="25" fill="url(#led)"/>')
        pic.text(cx, cy + 52, "5 mm LED", anchor="middle")

    return _series_part(pic, "led", top, part=part, body=body,
                        legs=("anode (long leg)", "cathode (short leg)"), plus="anode",
                        minus="cathode")


def draw_buzzer_npn(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    """The optional 5 V stage of hardware/buzzer-5v.svg on a scrap of perfboard."""
    part = dict(wd.parts(pinmap))["buzzer"]
    five, signal, ground = (wire_of(part, t, "buzzer") for t in ("5V", "signal", "GND"))
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
        "5v": ((10, 1), f"the lead for {pin_words(five['pin'])}"),
        "piezo-": ((1, 4), "piezo - wire"),
        "rx:low": ((4, 4), "1 kohm across the piezo, lower leg"),
        "c": ((4, 6), "transistor C leg"),
        "b": ((5, 6), "transistor B leg"),
        "e": ((6, 6), "transistor E leg"),
        "gnd": ((10, 6), f"the lead for {pin_words(ground['pin'])}"),
        "rb:a": ((5, 8), "1 kohm base resistor, left leg"),
        "rb:b": ((9, 8), "1 kohm base resistor, right leg"),
        "sig": ((10, 8), f"the lead for {pin_words(signal['pin'])}"),
    }
    resistor(pic, g(4, 1), g(4, 4), 1000)
    resistor(pic, g(5, 8), g(9, 8), 1000)
    qx, qy = g(5, 6)
    pic.shapes.append(f'<path d="M {qx - 18:g},{qy - 12:g} L {qx + 18:g},{qy - 12:g} '
                      f'A 18 16 0 0 0 {qx - 18:g},{qy - 12:g} Z" transform="translate(0,-10)" '
                      'fill="url(#body)"/>')
    for col in (4, 5, 6):
        leg_shape(pic, qx + (col - 5) * 10, qy - 16, *g(col, 6))
    pic.text(g(6.6, 2.5)[0], g(6.6, 2.5)[1] + 4, "1k across the piezo")
    pic.text(g(7, 7.35)[0], g(7, 7.35)[1] + 4, "1k", anchor="middle")
    piezo = g(-4.5, 2.5)
    piezo_shape(pic, piezo[0], piezo[1], 40)
    leg_shape(pic, piezo[0] + 28, piezo[1] - 20, *g(1, 1))
    leg_shape(pic, piezo[0] + 28, piezo[1] + 20, *g(1, 4))
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


def draw_shutdown(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
    part = dict(wd.parts(pinmap))["shutdown"]
    cx, cy = 250.0, top + 80
    pic.text(cx, top + 24, "12 mm button, seen from behind", anchor="middle")
    for dy in (-14, 14):
        lug_shape(pic, cx + 10, cx + 44, cy + dy)
    button_shape(pic, cx, cy, 21)
    for terminal, dy in (("A", -14), ("B", 14)):
        wire = wire_of(part, terminal, "shutdown")
        joint = pic.joint(f"shutdown:{terminal}", "solder", (cx + 44, cy + dy),
                          f"shutdown button lug {terminal}: the lead for "
                          f"{pin_words(wire['pin'])}")
        pic.lead("shutdown", wire, joint)
    return cy + 60


def draw_uart(pic: Picture, pinmap: Mapping[str, Any], top: float) -> float:
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
                          f"for {pin_words(wire['pin'])}")
        pic.lead("uart", wire, joint)
    return y1 + 20


PANEL_MM = {"ssd1309-spi": (57.0, 29.5, 70.0, 43.0), "ssd1309": (57.0, 29.5, 70.0, 43.0),
            "sh1106": (31.4, 16.7, 35.4, 33.5),
            "ssd1306": (23.7, 12.9, 27.0, 27.0)}  # viewing area and module board (typical)


def draw_display(pic: Picture, pinmap: Mapping[str, Any], top: float, panel_id: str) -> float:
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
                          f"for {pin_words(wire['pin'])}")
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
    resistor(pic, (xs["VCC"] + 12, high), (xs["RES"] + 12, high), 10_000)
    for terminal, dx, to in (("VCC", 12, high), ("RES", 12, high), ("RES", -14, bar)):
        x = xs[terminal]
        leg = [(x, y_pad), (x + dx, y_pad - 10), (x + dx, to)]
        pic.runs.append(Run("leg", dense(leg), frozenset([pads[terminal].key, splice.key]),
                            "", "#b8bcc0"))
        pic.shapes.append('<polyline points="' + " ".join(f"{a:g},{b:g}" for a, b in leg) +
                          '" fill="none" stroke="#b8bcc0" stroke-width="2"/>')
    cx, cy = xs["RES"] - 14, (y_pad - 10 + bar) / 2
    pic.shapes.append(f'<ellipse cx="{cx:g}" cy="{cy:g}" rx="5" ry="8" fill="#d9a441" '
                      'stroke="#8a6420"/>')
    pic.text((xs["VCC"] + xs["RES"]) / 2 + 12, high - 12, "10k", anchor="middle")
    pic.text(xs["CS"] + 24, bar + 4, "insulated link")
