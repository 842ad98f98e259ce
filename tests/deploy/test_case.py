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
# The tallest part on each board above its top face (drawing): the Pi 4/5's USB and Ethernet
# block, the Zero 2 W's connectors.
TALLEST = {"pi4": 16, "pi5": 16, "zero2": 3}
WALL, POST, LID_T, FLOOR, BOARD_T = 2.4, 8, 3.0, 2.4, 1.6
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


def _rect_gap(point, centre, size):
    """The distance from a point to an axis-aligned rectangle (0 inside it)."""
    dx = max(abs(point[0] - centre[0]) - size[0] / 2, 0)
    dy = max(abs(point[1] - centre[1]) - size[1] / 2, 0)
    return math.hypot(dx, dy)


@pytest.mark.parametrize("variant", CASE.VARIANTS, ids=[CASE.variant_name(*v)
                                                         for v in CASE.VARIANTS])
def test_case_holds_the_shutdown_button_led_and_oled_and_clears_the_nuts(rendered, variant):
    """The holes the README relies on are there, and what goes through them fits: the
    shutdown button in the back wall (its nut clear of the posts, the cable slot, the lid and
    the Pi's tallest part, its body clear of the display module), the LED through the lid clear
    of everything else, the OLED's standoffs under each of its screws as tall as its glass, and
    each front button's nut clear of the posts, the walls, the display and its neighbours
    however it is turned (its corners sweep a circle)."""
    board, _panel, _buttons = variant
    r = rendered[CASE.variant_name(*variant)]
    width, depth, height = _nums(_rows(r.table, "outer")[0], 1)
    tray_h = height - LID_T
    posts = [(x, y) for x in (WALL + POST / 2, width - WALL - POST / 2)
             for y in (WALL + POST / 2, depth - WALL - POST / 2)]
    mx, my, mw, mh, m_hang = _nums(_rows(r.table, "module", "oled")[0], 2)

    # The shutdown button through the back wall.
    sx, sz, sd, s_nut, s_body = _nums(_rows(r.table, "hole", "shutdown")[0], 2)
    assert sd == pytest.approx(12.3)  # BOM item 10: a 12 mm button
    assert WALL + POST < sx - s_nut / 2 < sx + s_nut / 2 < width - WALL - POST  # the posts
    cable_x, _, cable_w, _ = _nums(_rows(r.table, "hole", "cable")[0], 2)
    assert abs(sx - cable_x) > cable_w / 2 + s_nut / 2
    stack = dict(zip(("standoff", "pi_tall", "module_hang", "in_h"),
                     _nums(_rows(r.table, "stack")[0], 1), strict=True))
    board_top = FLOOR + stack["standoff"] + BOARD_T
    assert sz - s_nut / 2 >= board_top + TALLEST[board]
    assert sz + s_nut / 2 < tray_h  # the nut clears the lid
    body_y = (depth - WALL - s_body, depth - WALL)
    module_y = (my - mh / 2, my + mh / 2)
    beside = abs(sx - mx) > mw / 2 + s_nut / 2 or body_y[0] > module_y[1]
    assert beside or sz + s_nut / 2 < tray_h - m_hang

    # The status LED through the lid: not over the display module, clear of the other holes.
    lx, ly, ld = _nums(_rows(r.table, "hole", "led")[0], 2)
    assert ld == pytest.approx(5.2)
    assert _rect_gap((lx, ly), (mx, my), (mw, mh)) > ld / 2 + 1
    others = [_nums(row, 3) for row in _rows(r.table, "hole", "button")]
    others += [_nums(row, 2) for row in _rows(r.table, "hole", "oled-screw")]
    others += [_nums(row, 2) for row in _rows(r.table, "hole", "sound")]
    for x, y, d in others:
        assert math.dist((x, y), (lx, ly)) > d / 2 + ld / 2 + 1
    assert all(_rect_gap((lx, ly), post, (POST, POST)) > ld / 2 + 1 for post in posts)
    wx, wy, ww, wh = _nums(_rows(r.table, "hole", "window")[0], 2)
    assert _rect_gap((lx, ly), (wx, wy), (ww, wh)) > ld / 2 + 1
    assert lx - ld / 2 > WALL + 1 and lx + ld / 2 < width - WALL - 1
    assert ly + ld / 2 < depth - WALL - 1

    # The OLED's standoffs: one under each screw, on the module's board, glass-high.
    screws = sorted((round(x, 2), round(y, 2)) for x, y, _ in
                    (_nums(row, 2) for row in _rows(r.table, "hole", "oled-screw")))
    standoffs = [_nums(row, 2) for row in _rows(r.table, "standoff", "oled")]
    assert sorted((round(x, 2), round(y, 2)) for x, y, _, _ in standoffs) == screws
    screw_d = _nums(_rows(r.table, "hole", "oled-screw")[0], 2)[2]
    for x, y, d, tall in standoffs:
        assert d >= screw_d + 2.4  # a wall of at least 1.2 mm round the screw
        assert 1.0 <= tall <= 3.0  # a module's glass (typical), well under its hang
        assert _rect_gap((x, y), (mx, my), (mw, mh)) == 0  # the board rests on it

    # The front buttons' nuts, whichever way they are turned.
    (nut,) = _nums(_rows(r.table, "nut", "button")[0], 2)
    centres = [_nums(row, 3)[:2] for row in _rows(r.table, "hole", "button")]
    for i, (x, y) in enumerate(centres):
        assert all(_rect_gap((x, y), post, (POST, POST)) > nut / 2 for post in posts), (x, y)
        assert x - nut / 2 > WALL and x + nut / 2 < width - WALL and y - nut / 2 > WALL
        assert _rect_gap((x, y), (mx, my), (mw, mh)) > nut / 2
        for x2, y2 in centres[i + 1:]:
            assert math.dist((x, y), (x2, y2)) > nut


def test_case_readme_states_each_variants_print_time_and_filament(rendered):
    readme = CASE.README.read_text(encoding="utf-8")
    table = CASE.print_table([rendered[CASE.variant_name(*v)] for v in CASE.VARIANTS])
    assert table in readme, "run tools/case --readme"
    for variant in CASE.VARIANTS:
        row = next(line for line in table.splitlines()
                   if line.startswith(f"| {CASE.variant_name(*variant)} |"))
        grams, time = row.split("|")[3:5]
        assert 50 < int(grams.strip().removesuffix(" g")) < 400
        assert " h " in time and time.strip().endswith(" min")


def test_case_volume_of_a_known_solid(tmp_path):
    """The filament estimate rests on the STL's volume: a 10 mm cube is 1000 mm3."""
    cube = tmp_path / "cube.stl"
    corners = [(x, y, z) for x in (0, 10) for y in (0, 10) for z in (0, 10)]
    faces = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
             (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    cube.write_text("solid c\n" + "".join(
        "facet normal 0 0 0\nouter loop\n" + "".join(
            f"vertex {corners[i][0]} {corners[i][1]} {corners[i][2]}\n" for i in face)
        + "endloop\nendfacet\n" for face in faces) + "endsolid c\n")
    assert CASE.volume_mm3(cube) == pytest.approx(1000)
    grams, hours = CASE.print_estimate([cube])
    assert grams == pytest.approx(1000 * 0.9 / 1000 * 1.24)
    assert hours == pytest.approx(900 / 4 / 3600)
