"""tools/case renders every case variant headless; its holes agree with the parts they hold.

Each variant is rendered to STL with OpenSCAD (Debian's `openscad`; tools/test installs it as
root). Without it these tests fail with the command to install it: they are never skipped.
The numbers checked come from outside the .scad: the Raspberry Pi mechanical drawings (board
sizes, hole spacing), the display viewing areas of hardware/README.md, the pin map's buttons.
"""

import importlib
import itertools
import math
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


sys.path.insert(0, str(ROOT / "tools"))  # the tools are scripts beside each other
CASE = importlib.import_module("case")
# Raspberry Pi mechanical drawings: outline and mounting-hole spacing (mm).
BOARDS = {"pi4": ((85, 56), (58, 49)), "pi5": ((85, 56), (58, 49)), "zero2": ((65, 30), (58, 23))}
# hardware/README.md: the viewing area of each panel, the window to cut.
WINDOWS = {"ssd1309": (57.0, 29.5), "sh1106": (31.4, 16.7), "ssd1306": (23.7, 12.9)}
PINMAP = tomllib.loads((ROOT / "hardware" / "pinmap.toml").read_text(encoding="utf-8"))
FRONT_BUTTONS = [part_id.upper() for part_id in ("back", "up", "down", "next")]


# OpenSCAD renders every variant (two at a time, each bounded at 10 minutes by tools/case.py);
# the module's first test pays for it.
pytestmark = pytest.mark.timeout(3600)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    if shutil.which("openscad") is None:
        pytest.fail("openscad is not installed: sudo apt install openscad (tools/test installs "
                    "it when run as root); the case cannot be rendered or checked without it")
    out = tmp_path_factory.mktemp("case")
    return {r.name: r for r in CASE.render_all(CASE.VARIANTS, out, jobs=2)}


def _rows(table, kind, what=None):
    return [row for row in table if row[0] == kind and (what is None or row[1] == what)]


def _nums(row, start):
    return [float(v) for v in row[start:]]


def test_case_variants_are_every_board_panel_and_button_size():
    boards = {v[0] for v in CASE.VARIANTS}
    panels = {v[1] for v in CASE.VARIANTS}
    buttons = {v[2] for v in CASE.VARIANTS}
    assert boards == set(BOARDS) and panels == set(WINDOWS) and buttons == {16, 12}
    # Every combination, each once: no builder's choice is left unrendered.
    assert len(set(CASE.VARIANTS)) == len(CASE.VARIANTS) == len(boards) * len(panels) * 2
    assert CASE.VARIANTS[0] == ("pi5", "ssd1309", 16)  # the recommended build


@pytest.mark.parametrize("variant", CASE.VARIANTS, ids=[CASE.variant_name(*v)
                                                         for v in CASE.VARIANTS])
def test_case_renders_and_its_holes_fit_the_parts(rendered, variant):
    board, panel, button_d = variant
    r = rendered[CASE.variant_name(*variant)]
    width, depth, height = _nums(_rows(r.table, "outer")[0], 1)

    # The STL files are what the table says: tray and lid side by side in x and y.
    (bx0, by0, bz0), (bx1, by1, bz1) = CASE.bounding_box(r.box)
    (lx0, ly0, _), (lx1, ly1, lz1) = CASE.bounding_box(r.lid)
    assert (bx0, by0, bz0) == pytest.approx((0, 0, 0), abs=0.01)
    assert (bx1, by1) == pytest.approx((width, depth), abs=0.01)
    assert (lx0, ly0, lx1, ly1) == pytest.approx((0, 0, width, depth), abs=0.01)
    assert bz1 + lz1 == pytest.approx(height, abs=0.01)

    # Room for the board inside the walls, and for its plugs under the lid.
    (length, wide), (hole_x, hole_y) = BOARDS[board]
    assert width - 2 * 2.4 >= length and depth - 2 * 2.4 >= wide
    stack = dict(zip(("standoff", "pi_tall", "module_hang", "in_h"),
                     _nums(_rows(r.table, "stack")[0], 1), strict=True))
    assert stack["in_h"] >= stack["standoff"] + 1.6 + 8.5 + 14 + stack["module_hang"]

    # The Pi's four bosses on its mounting holes, inside the tray.
    bosses = [_nums(row, 2) for row in _rows(r.table, "boss", "pi")]
    xs, ys = sorted({round(x, 2) for x, _ in bosses}), sorted({round(y, 2) for _, y in bosses})
    assert len(bosses) == 4 and xs[1] - xs[0] == pytest.approx(hole_x)
    assert ys[1] - ys[0] == pytest.approx(hole_y)

    # The display window is the panel's viewing area; its screws sit outside it.
    wx, wy, ww, wh = _nums(_rows(r.table, "hole", "window")[0], 2)
    assert (ww, wh) == WINDOWS[panel]
    screws = [_nums(row, 2) for row in _rows(r.table, "hole", "oled-screw")]
    assert len(screws) == 4
    for sx, sy, sd in screws:
        assert abs(sx - wx) > ww / 2 + sd / 2 or abs(sy - wy) > wh / 2 + sd / 2

    # Four front buttons, BACK on the left and NEXT on the right, the size asked for, with room
    # for their nuts, and one for each front button of the pin map.
    buttons = _rows(r.table, "hole", "button")
    assert [row[2] for row in buttons] == FRONT_BUTTONS
    assert {name.lower() for name in FRONT_BUTTONS} <= set(PINMAP["parts"])
    centres = [_nums(row, 3) for row in buttons]
    assert all(d == pytest.approx(button_d + 0.3) for _, _, d in centres)
    assert [x for x, _, _ in centres] == sorted(x for x, _, _ in centres)
    assert all(b[0] - a[0] >= button_d + 8 for a, b in itertools.pairwise(centres))

    # The buzzer's sound holes lie within the buzzer (its pin-map part is the piezo).
    assert "buzzer" in PINMAP["parts"]
    bx, by, bd = _nums(_rows(r.table, "buzzer")[0], 1)
    sound = [_nums(row, 2) for row in _rows(r.table, "hole", "sound")]
    assert sound and all(math.dist((x, y), (bx, by)) + d / 2 < bd / 2 for x, y, d in sound)

    # Every lid hole is inside the lid, clear of the edge, and no two overlap.
    holes = [(x, y, d / 2) for x, y, d in centres + screws + sound]
    holes.append((wx, wy, math.hypot(ww, wh) / 2))  # the window, generously as a circle
    for x, y, radius in holes:
        assert x - radius > 2.4 + 1 and x + radius < width - 2.4 - 1
        assert y - radius > 2.4 + 1 or (x, y, radius) == holes[-1]
    small = [(x, y, d / 2) for x, y, d in centres + screws]
    for i, (x, y, radius) in enumerate(small):
        for x2, y2, radius2 in small[i + 1:]:
            assert math.dist((x, y), (x2, y2)) > radius + radius2 + 1
        # and clear of the corner posts the lid screws into (8 mm square in each corner)
        for cx in (2.4 + 4, width - 2.4 - 4):
            for cy in (2.4 + 4, depth - 2.4 - 4):
                assert math.dist((x, y), (cx, cy)) > radius + 4

    # The power cable leaves through the back wall where the board's power connector is.
    cable_x, cable_z, cable_w, _ = _nums(_rows(r.table, "hole", "cable")[0], 2)
    assert min(xs) - 3.5 < cable_x < min(xs) - 3.5 + length
    assert cable_z > 2.4 and cable_w >= 12
