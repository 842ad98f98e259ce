"""tools/wiring_diagram.py: one drawing per panel that a first-time builder can copy.

The geometry is checked on the layout the SVG is written from: no two wires share an end or run
side by side, every pin is reached from its own column, no wire strikes through text, no text
is cut or runs off the picture, and each part's note is there in full.
"""

import importlib
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PINMAP = ROOT / "hardware" / "pinmap.toml"


sys.path.insert(0, str(ROOT / "tools"))  # the tools are scripts beside each other
TOOL = importlib.import_module("wiring_diagram")
PINMAP_DATA = tomllib.loads(PINMAP.read_text(encoding="utf-8"))
PANELS = list(PINMAP_DATA["panels"])


def test_wiring_there_is_one_drawing_per_recommended_panel():
    assert PANELS == ["ssd1309-spi", "ssd1309", "sh1106", "ssd1306"]
    for panel in PANELS:
        assert (ROOT / "hardware" / f"wiring-{panel}.svg").exists()


@pytest.mark.parametrize("panel", PANELS)
def test_wiring_geometry_is_clean(panel):
    drawing = TOOL.layout(PINMAP_DATA, panel)
    assert TOOL.geometry_problems(drawing) == []
    # Every header wire of the pin map is drawn, each once.
    drawn = sorted(wire.pin for wire in drawing.wires)
    assert drawn == sorted(w["pin"] for _, p in TOOL.parts_for(PINMAP_DATA, panel)
                           for w in p["wires"])


@pytest.mark.parametrize("panel", PANELS)
def test_wiring_notes_and_names_are_whole(panel):
    drawing = TOOL.layout(PINMAP_DATA, panel)
    for part_id, part in TOOL.parts_for(PINMAP_DATA, panel):
        for kind, text in (("note", part["note"]), ("name", part["name"])):
            lines = [t.text for t in drawing.texts if t.group == f"{kind}:{part_id}"]
            assert " ".join(lines) == " ".join(text.split()), (part_id, kind)


@pytest.mark.parametrize("panel", PANELS)
def test_wiring_oled_terminals_follow_the_module_print(panel):
    drawing = TOOL.layout(PINMAP_DATA, panel)
    order = PINMAP_DATA["panels"][panel]["order"]
    oled = sorted((wire.points[0][1], wire.terminal) for wire in drawing.wires
                  if wire.part == "oled")
    wired = [terminal for terminal in order if terminal in {t for _, t in oled}]
    assert [terminal for _, terminal in oled] == wired
    for local in PINMAP_DATA["panels"][panel].get("local", {}).values():
        assert any(text.text == local for text in drawing.texts)


def _moved(**changes):
    data = tomllib.loads(PINMAP.read_text(encoding="utf-8"))
    for part, wires in changes.items():
        data["parts"][part]["wires"] = wires
    return data


@pytest.mark.parametrize(("data", "says"), [
    (_moved(oled=[{"terminal": "VCC", "pin": 1}, {"terminal": "SDA", "pin": 3, "bcm": 2},
                  {"terminal": "SCL", "pin": 5, "bcm": 3}, {"terminal": "GND", "pin": 6}]),
     "wires to both header columns"),
    (_moved(up=[{"terminal": "A", "pin": 13, "bcm": 27}, {"terminal": "B", "pin": 25}]),
     "pin 25 already has a wire"),
    (_moved(next=[{"terminal": "A", "pin": 11, "bcm": 18}]), "bcm 18 is not on pin 11"),
])
def test_wiring_refuses_a_pin_map_that_would_mislead(data, says):
    with pytest.raises(TOOL.PinmapError, match=says):
        TOOL.layout(data, "ssd1306")


def test_wiring_geometry_check_finds_shared_ends_and_close_runs():
    drawing = TOOL.layout(PINMAP_DATA, "ssd1306")
    first, second = drawing.wires[0], drawing.wires[1]
    # Move the second wire onto the first: same end, same run.
    drawing.wires[1] = TOOL.Wire(second.part, second.terminal, first.pin, first.points,
                                 second.colour)
    problems = TOOL.geometry_problems(drawing)
    assert any("share the end point" in p for p in problems)
    assert any("px beside" in p for p in problems)
    drawing.texts.append(TOOL.Text(10, 10, "cut short..."))
    assert any("text cut" in p for p in TOOL.geometry_problems(drawing))


@pytest.mark.parametrize(("text", "width"), [
    ("never connect 5 V TTL or RS-232 directly to the Pi", 120),
    ("a magnetic buzzer needs an NPN transistor", 60),
    ("supercalifragilistic", 10),
])
def test_wiring_wrap_never_cuts(text, width):
    lines = TOOL.wrap(text, width)
    assert " ".join(lines) == text
    assert all(len(line) * 11 * TOOL.CHAR_EM["normal"] <= width or " " not in line
               for line in lines)
