"""tools/case renders every case variant headless; its holes agree with the parts they hold.

Each variant is rendered to STL with OpenSCAD (Debian's `openscad`; tools/test installs it as
root). Without it these tests fail with the command to install it: they are never skipped.
The numbers checked come from outside the .scad: the Raspberry Pi mechanical drawings (board
sizes, hole spacing), where each board's microSD card sits (open CAD models of the boards),
the display viewing areas of hardware/README.md, the pin map's buttons, the BOM's inserts.
The print figures are PrusaSlicer's (tools/case_print.py), checked against the rendered parts.
"""

import csv
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
PRINT = importlib.import_module("case_print")
# Raspberry Pi mechanical drawings: outline and mounting-hole spacing (mm).
BOARDS = {"pi4": ((85, 56), (58, 49)), "pi5": ((85, 56), (58, 49)), "zero2": ((65, 30), (58, 23))}
# The tallest part on each board above its top face (drawing): the Pi 4/5's USB and Ethernet
# block, the Zero 2 W's connectors; the Pi 4/5's block also stands about 3 mm out of the board.
TALLEST = {"pi4": 16, "pi5": 16, "zero2": 3}
OVERHANG = {"pi4": 3, "pi5": 3, "zero2": 0}
# The microSD card: its centre's distance up the short edge at the far end from the USB
# sockets (drawing orientation, from the power edge), which face it is on (-1 under), how far
# it stands out of the edge. Open CAD models of the boards (not Raspberry Pi's drawings).
CARD_W, CARD_T = 11.0, 1.0  # the microSD card's width and thickness (SD Association)
SD_CARD = {"pi4": (28.0, -1, 2.5), "pi5": (28.0, -1, 2.5), "zero2": (16.9, 1, 2.5)}
BOARD_T = 1.6
# hardware/README.md: the viewing area of each panel, the window to cut.
WINDOWS = {"ssd1309": (57.0, 29.5), "sh1106": (31.4, 16.7), "ssd1306": (23.7, 12.9)}
SOUNDER_D = {"speaker": 40.0, "piezo": 17.0}  # BOM items 21 and 6
PINMAP = tomllib.loads((ROOT / "hardware" / "pinmap.toml").read_text(encoding="utf-8"))
BOM = {row["item"]: row for row in csv.DictReader(
    (ROOT / "hardware" / "bom.csv").open(encoding="utf-8"))}
FRONT_BUTTONS = [part_id.upper() for part_id in ("back", "up", "down", "next")]
IDS = [CASE.variant_name(*v) for v in CASE.VARIANTS]
# The speaker's clash check is a CGAL intersection, about a minute each on 2 cores: the default
# run checks the recommended build, and every other speaker variant runs with the card's long
# checks (@pytest.mark.card: `sudo tools/test --card`, CI's third step), so that `tools/test`
# keeps to its 15 minutes (issue #39) and CI still checks all 18.
SPEAKER_VARIANTS = [pytest.param(v, marks=() if v == CASE.RECOMMENDED else pytest.mark.card,
                                 id=CASE.variant_name(*v))
                    for v in CASE.VARIANTS if v[3] == "speaker"]


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


def _shell(r):
    return dict(zip(("wall", "floor", "lid", "post"), _nums(_rows(r.table, "shell")[0], 1),
                    strict=True))


def _stack(r):
    return dict(zip(("standoff", "pi_tall", "module_hang", "in_h"),
                    _nums(_rows(r.table, "stack")[0], 1), strict=True))


def _board(r, board):
    """The board's outline (x0, y0, x1, y1) from its bosses: the holes are 3.5 mm in from the
    microSD end (turned half round, the right) and from both long edges (drawing)."""
    bosses = [_nums(row, 2) for row in _rows(r.table, "boss", "pi")]
    xs, ys = [x for x, _ in bosses], [y for _, y in bosses]
    (length, _), _ = BOARDS[board]
    return max(xs) + 3.5 - length, min(ys) - 3.5, max(xs) + 3.5, max(ys) + 3.5


def _rect_gap(point, centre, size):
    """The distance from a point to an axis-aligned rectangle (0 inside it)."""
    dx = max(abs(point[0] - centre[0]) - size[0] / 2, 0)
    dy = max(abs(point[1] - centre[1]) - size[1] / 2, 0)
    return math.hypot(dx, dy)


def test_case_variants_are_every_board_panel_button_size_and_sounder():
    assert {v[0] for v in CASE.VARIANTS} == set(BOARDS)
    assert {v[1] for v in CASE.VARIANTS} == set(WINDOWS)
    assert {v[2] for v in CASE.VARIANTS} == {16, 12}
    assert {v[3] for v in CASE.VARIANTS} == set(SOUNDER_D)
    # Every combination, each once: no builder's choice is left unrendered.
    assert len(set(CASE.VARIANTS)) == len(CASE.VARIANTS) == 3 * 3 * 2 * 2
    assert CASE.VARIANTS[0] == ("pi5", "ssd1309", 16, "speaker")  # the recommended build


@pytest.mark.parametrize("variant", CASE.VARIANTS, ids=IDS)
def test_case_renders_and_its_holes_fit_the_parts(rendered, variant):
    board, panel, button_d, sounder = variant
    r = rendered[CASE.variant_name(*variant)]
    width, depth, height = _nums(_rows(r.table, "outer")[0], 1)
    shell = _shell(r)

    # The STL files are what the table says: tray and lid side by side in x and y.
    (bx0, by0, bz0), (bx1, by1, bz1) = CASE.bounding_box(r.box)
    (lx0, ly0, _), (lx1, ly1, lz1) = CASE.bounding_box(r.lid)
    assert (bx0, by0, bz0) == pytest.approx((0, 0, 0), abs=0.01)
    assert (bx1, by1) == pytest.approx((width, depth), abs=0.01)
    assert (lx0, ly0, lx1, ly1) == pytest.approx((0, 0, width, depth), abs=0.01)
    assert bz1 + lz1 == pytest.approx(height, abs=0.01)

    # Room for the board inside the walls, and for the plugs on its header under the lid.
    (_, wide), (hole_x, hole_y) = BOARDS[board]
    x0, y0, x1, y1 = _board(r, board)
    assert y1 - y0 == pytest.approx(wide)
    assert x0 - OVERHANG[board] > shell["wall"] and y1 < depth - shell["wall"]
    stack = _stack(r)
    assert stack["in_h"] >= stack["standoff"] + BOARD_T + 8.5 + 14
    assert stack["in_h"] >= stack["module_hang"]

    # The Pi's four bosses on its mounting holes, inside the tray.
    bosses = [_nums(row, 2) for row in _rows(r.table, "boss", "pi")]
    xs, ys = sorted({round(x, 2) for x, _ in bosses}), sorted({round(y, 2) for _, y in bosses})
    assert len(bosses) == 4 and xs[1] - xs[0] == pytest.approx(hole_x)
    assert ys[1] - ys[0] == pytest.approx(hole_y)

    # Nothing hangs from the lid over the Pi: the display module and the sounder lie in front
    # of the board, so the tray is only as tall as the Pi with its plugs.
    _, my, _, mh, _ = _nums(_rows(r.table, "module", "oled")[0], 2)
    _, kind, sx, sy, sd, _ = _rows(r.table, "sounder")[0]
    assert kind == sounder and float(sd) == SOUNDER_D[sounder]
    assert my + mh / 2 < y0 and float(sy) + SOUNDER_D["speaker"] / 2 < y0

    # The display window is the panel's viewing area; its screws sit outside it.
    wx, wy, ww, wh = _nums(_rows(r.table, "hole", "window")[0], 2)
    assert (ww, wh) == WINDOWS[panel]
    screws = [_nums(row, 2) for row in _rows(r.table, "hole", "oled-screw")]
    assert len(screws) == 4
    for sx_, sy_, sd_ in screws:
        assert abs(sx_ - wx) > ww / 2 + sd_ / 2 or abs(sy_ - wy) > wh / 2 + sd_ / 2

    # Four front buttons, BACK on the left and NEXT on the right, the size asked for, with room
    # for their nuts, and one for each front button of the pin map.
    buttons = _rows(r.table, "hole", "button")
    assert [row[2] for row in buttons] == FRONT_BUTTONS
    assert {name.lower() for name in FRONT_BUTTONS} <= set(PINMAP["parts"])
    centres = [_nums(row, 3) for row in buttons]
    assert all(d == pytest.approx(button_d + 0.3) for _, _, d in centres)
    assert [x for x, _, _ in centres] == sorted(x for x, _, _ in centres)
    assert all(b[0] - a[0] >= button_d + 8 for a, b in itertools.pairwise(centres))

    # The sound holes lie within the sounder fitted (its pin-map part is the buzzer).
    assert "buzzer" in PINMAP["parts"]
    sound = [_nums(row, 2) for row in _rows(r.table, "hole", "sound")]
    assert len(sound) >= (9 if sounder == "piezo" else 25)
    centre, radius = (float(sx), float(sy)), SOUNDER_D[sounder] / 2
    assert all(math.dist((x, y), centre) + d / 2 < radius for x, y, d in sound)

    # Every lid hole is inside the lid, clear of the edge, and no two overlap.
    wall, post = shell["wall"], shell["post"]
    holes = [(x, y, d / 2) for x, y, d in centres + screws + sound]
    holes.append((wx, wy, math.hypot(ww, wh) / 2))  # the window, generously as a circle
    for x, y, radius_ in holes:
        assert x - radius_ > wall + 1 and x + radius_ < width - wall - 1
        assert y - radius_ > wall + 1 or (x, y, radius_) == holes[-1]
    small = [(x, y, d / 2) for x, y, d in centres + screws]
    for i, (x, y, radius_) in enumerate(small):
        for x2, y2, radius2 in small[i + 1:]:
            assert math.dist((x, y), (x2, y2)) > radius_ + radius2 + 1
        # and clear of the corner posts the lid screws into
        for cx in (wall + post / 2, width - wall - post / 2):
            for cy in (wall + post / 2, depth - wall - post / 2):
                assert math.dist((x, y), (cx, cy)) > radius_ + post / 2

    # The power cable leaves through the back wall where the board's power connector is.
    cable_x, cable_z, cable_w, _ = _nums(_rows(r.table, "hole", "cable")[0], 2)
    assert x0 < cable_x < x1
    assert cable_z > shell["floor"] and cable_w >= 12
    assert cable_x + cable_w / 2 < width - wall - post  # clear of the back-right post


@pytest.mark.parametrize("variant", CASE.VARIANTS, ids=IDS)
def test_case_holds_the_shutdown_button_led_and_oled_and_clears_the_nuts(rendered, variant):
    """The holes the README relies on are there, and what goes through them fits: the
    shutdown button in the back wall (its nut clear of the posts, the cable slot, the lid and
    the Pi, its body clear of the display module), the LED through the lid clear of everything
    else, the OLED's standoffs under each of its screws as tall as its glass, and each front
    button's nut clear of the posts, the walls, the display and its neighbours however it is
    turned (its corners sweep a circle)."""
    board = variant[0]
    r = rendered[CASE.variant_name(*variant)]
    width, depth, height = _nums(_rows(r.table, "outer")[0], 1)
    shell = _shell(r)
    wall, post = shell["wall"], shell["post"]
    tray_h = height - shell["lid"]
    posts = [(x, y) for x in (wall + post / 2, width - wall - post / 2)
             for y in (wall + post / 2, depth - wall - post / 2)]
    mx, my, mw, mh, m_hang = _nums(_rows(r.table, "module", "oled")[0], 2)

    # The shutdown button through the back wall, beside the board or above its tallest part.
    sx, sz, sd, s_nut, s_body = _nums(_rows(r.table, "hole", "shutdown")[0], 2)
    assert sd == pytest.approx(12.3)  # BOM item 10: a 12 mm button
    assert wall + post < sx - s_nut / 2 < sx + s_nut / 2 < width - wall - post  # the posts
    cable_x, _, cable_w, _ = _nums(_rows(r.table, "hole", "cable")[0], 2)
    assert abs(sx - cable_x) > cable_w / 2 + s_nut / 2
    stack = _stack(r)
    board_top = shell["floor"] + stack["standoff"] + BOARD_T
    x0, _, _, _ = _board(r, board)
    assert sx + s_nut / 2 < x0 - OVERHANG[board] or sz - s_nut / 2 >= board_top + TALLEST[board]
    assert sz - s_nut / 2 > shell["floor"] and sz + s_nut / 2 < tray_h  # the floor, the lid
    body_y = (depth - wall - s_body, depth - wall)
    module_y = (my - mh / 2, my + mh / 2)
    beside = abs(sx - mx) > mw / 2 + s_nut / 2 or body_y[0] > module_y[1]
    assert beside or sz + s_nut / 2 < tray_h - m_hang

    # The status LED through the lid: not over the display module or the sounder's ring, clear
    # of the other holes.
    lx, ly, ld = _nums(_rows(r.table, "hole", "led")[0], 2)
    assert ld == pytest.approx(5.2)
    assert _rect_gap((lx, ly), (mx, my), (mw, mh)) > ld / 2 + 1
    _, _, ring_x, ring_y, ring_d, _ = _rows(r.table, "sounder")[0]
    assert math.dist((lx, ly), (float(ring_x), float(ring_y))) > float(ring_d) / 2 + 1.6 + ld
    others = [_nums(row, 3) for row in _rows(r.table, "hole", "button")]
    others += [_nums(row, 2) for row in _rows(r.table, "hole", "oled-screw")]
    others += [_nums(row, 2) for row in _rows(r.table, "hole", "sound")]
    for x, y, d in others:
        assert math.dist((x, y), (lx, ly)) > d / 2 + ld / 2 + 1
    assert all(_rect_gap((lx, ly), p, (post, post)) > ld / 2 + 1 for p in posts)
    wx, wy, ww, wh = _nums(_rows(r.table, "hole", "window")[0], 2)
    assert _rect_gap((lx, ly), (wx, wy), (ww, wh)) > ld / 2 + 1
    assert lx - ld / 2 > wall + 1 and lx + ld / 2 < width - wall - 1
    assert ly + ld / 2 < depth - wall - 1

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
        assert all(_rect_gap((x, y), p, (post, post)) > nut / 2 for p in posts), (x, y)
        assert x - nut / 2 > wall and x + nut / 2 < width - wall and y - nut / 2 > wall
        assert _rect_gap((x, y), (mx, my), (mw, mh)) > nut / 2
        for x2, y2 in centres[i + 1:]:
            assert math.dist((x, y), (x2, y2)) > nut


@pytest.mark.parametrize("variant", CASE.VARIANTS, ids=IDS)
def test_case_sd_slot_lines_up_with_the_boards_card(rendered, variant):
    """The card is reachable with the lid on: the board's microSD end lies against the right
    wall, the card's end just inside it, and the wall's slot spans the card with room for a
    fingernail (and for boards whose socket sits a little off the models' figure)."""
    board = variant[0]
    r = rendered[CASE.variant_name(*variant)]
    width, _, _ = _nums(_rows(r.table, "outer")[0], 1)
    shell = _shell(r)
    _, _, x1, y1 = _board(r, board)
    up_edge, side, stands_out = SD_CARD[board]
    card_y = y1 - up_edge  # the board is turned half round: its power edge faces the back
    face = shell["floor"] + _stack(r)["standoff"] + (BOARD_T if side > 0 else 0)
    card_z = face + side * (CARD_T / 2 + 0.2)
    card_end = x1 + stands_out
    inner = width - shell["wall"]
    assert inner - 2.0 <= card_end < inner  # within 2 mm of the slot, never in the wall
    slot_x, slot_y, slot_z, slot_w, slot_h = _nums(_rows(r.table, "hole", "sd")[0], 2)
    assert slot_x == pytest.approx(inner)
    assert abs(card_y - slot_y) + CARD_W / 2 + 2 <= slot_w / 2
    assert abs(card_z - slot_z) + CARD_T / 2 + 1 <= slot_h / 2
    assert slot_z - slot_h / 2 > shell["floor"]


@pytest.mark.parametrize("variant", CASE.VARIANTS, ids=IDS)
def test_case_has_a_grommet_for_the_serial_leads_and_bosses_for_the_boms_inserts(rendered,
                                                                                   variant):
    r = rendered[CASE.variant_name(*variant)]
    _, depth, height = _nums(_rows(r.table, "outer")[0], 1)
    shell = _shell(r)
    # The serial leads' grommet: a 10 mm hole in the left wall, thinned to the grommet's
    # panel, clear of the floor, the lid and the back-left post (which hangs from the top).
    _, gy, gz, gd, panel = _nums(_rows(r.table, "hole", "grommet")[0], 2)
    assert gd == 10 and 1.0 <= panel <= shell["wall"]
    assert gz - gd / 2 - 3 > shell["floor"] and gz + gd / 2 + 3 < height - shell["lid"]
    post_len = _nums(_rows(r.table, "insert", "lid")[0], 2)[3]
    assert gy + gd / 2 + 3 < depth - shell["wall"] - shell["post"] or \
        gz + gd / 2 + 3 < height - shell["lid"] - post_len
    # The Pi's bosses and the lid's posts take the BOM's heat-set inserts, with a wall round
    # each and room below it for the melt.
    boss_d, boss_top, pi_hole, pi_depth = _nums(_rows(r.table, "insert", "pi")[0], 2)
    assert "3.6 mm" in BOM["16"]["notes"] and pi_hole == 3.6 and pi_depth >= 4 + 1
    assert boss_d - pi_hole >= 2 * 1.6 and boss_top - pi_hole >= 2 * 1.2
    post, lid_hole, lid_depth, _ = _nums(_rows(r.table, "insert", "lid")[0], 2)
    assert "4.0 mm" in BOM["19"]["notes"] and lid_hole == 4.0 and lid_depth >= 5.7 + 1
    assert post - lid_hole >= 2 * 1.6


@pytest.mark.parametrize("variant", SPEAKER_VARIANTS)
def test_case_speaker_clears_every_wall_post_boss_and_part(variant, tmp_path):
    """OpenSCAD intersects the 40 mm speaker's body (40 x 22 mm, under the lid in its ring)
    with the tray, the lid and the other parts inside (the Pi with its plugs, the display
    module with its plugs, the buttons, the shutdown button, the LED): empty."""
    assert CASE.speaker_clear(variant, tmp_path)


def test_case_speaker_clash_check_sees_a_clash(tmp_path):
    """The check above can fail: the speaker moved 20 mm towards the front or 30 mm right
    runs into the buttons and the right wall, and OpenSCAD's intersection is not empty."""
    assert not CASE.speaker_clear(CASE.RECOMMENDED, tmp_path, shift=(0, -20))
    assert not CASE.speaker_clear(CASE.RECOMMENDED, tmp_path, shift=(30, 0))


def test_case_print_figures_are_for_these_parts(rendered):
    """The recorded slicer figures belong to the parts rendered now: the same parts, each
    with the geometry it was sliced with (when this OpenSCAD is the one that rendered them;
    with another OpenSCAD, the same .scad and profile). `tools/case --slice` renews them."""
    figures = PRINT.load()
    parts = PRINT.parts_of(list(rendered.values()))
    assert set(figures["parts"]) == set(parts), "run tools/case --slice"
    assert figures["inputs"] == PRINT.inputs_hash(), "run tools/case --slice"
    if figures["openscad"] == PRINT.openscad_version():
        stale = [name for name, (stl, _) in parts.items()
                 if PRINT.geometry_hash(stl) != figures["parts"][name]["geometry"]]
        assert stale == [], "run tools/case --slice"


def test_case_readme_states_the_slicers_print_time_and_filament():
    figures = PRINT.load()
    readme = PRINT.README.read_text(encoding="utf-8")
    table = PRINT.print_table(figures)
    assert table in readme, "run tools/case --slice"
    assert figures["slicer"].startswith("PrusaSlicer ")
    assert figures["profile"] == "hardware/case/print-profile.ini"
    for name, part in figures["parts"].items():
        assert 10 < part["grams"] < 300, name
        assert 15 * 60 < part["seconds"] < 12 * 3600, name


def test_case_recommended_build_prints_in_six_hours_lid_first():
    """Tray and lid of the recommended build at the profile: at most 6 hours. The lid (what
    step 2 needs) is the shorter print, so it goes first and the tray prints while the maker
    solders."""
    parts = PRINT.load()["parts"]
    tray = parts[CASE.tray_name(*CASE.RECOMMENDED[:3]) + "-box"]
    lid = parts[CASE.variant_name(*CASE.RECOMMENDED) + "-lid"]
    assert tray["seconds"] + lid["seconds"] <= PRINT.TARGET_S
    assert lid["seconds"] < tray["seconds"]


def test_case_slicer_measures_the_recommended_lid_as_recorded(rendered):
    """PrusaSlicer, run now on the recommended lid, says what the record says: within a
    minute and half a gram with the slicer that made the record (its estimate moves by a
    second or two from run to run: 6067 s, then 6069 s, for the same STL), within 15 % with
    another version."""
    if shutil.which("prusa-slicer") is None:
        pytest.fail("prusa-slicer is not installed: sudo apt-get install -y "
                    "--no-install-recommends prusa-slicer; the print figures cannot be checked")
    figures = PRINT.load()
    lid = rendered[CASE.variant_name(*CASE.RECOMMENDED)].lid
    measured = PRINT.slice_part(lid, face_down=True)
    recorded = figures["parts"][lid.stem]
    if measured["slicer"] == figures["slicer"]:
        assert abs(measured["seconds"] - recorded["seconds"]) <= 60
        assert abs(measured["grams"] - recorded["grams"]) <= 0.5
    else:
        assert measured["seconds"] == pytest.approx(recorded["seconds"], rel=0.15)
        assert measured["grams"] == pytest.approx(recorded["grams"], rel=0.15)


@pytest.mark.parametrize(("text", "seconds"), [("4h 14m 52s", 15292), ("52s", 52),
                                               ("1d 2h 0m 5s", 93605), ("1h 41m 9s", 6069)])
def test_case_reads_prusaslicers_durations(text, seconds):
    assert PRINT.parse_duration(text) == seconds


@pytest.mark.parametrize("bad", ["", "4 hours", "4h 14x", "h"])
def test_case_refuses_what_is_not_a_duration(bad):
    with pytest.raises(PRINT.SliceError, match="not a PrusaSlicer duration"):
        PRINT.parse_duration(bad)


def test_case_reads_the_figures_from_the_gcode_comments():
    gcode = ("; generated by PrusaSlicer 2.5.0+UNKNOWN on 2026-12-02 at 11:48:59 UTC\n"
             "G1 X1\n; filament used [mm] = 27116.84\n; total filament used [g] = 80.88\n"
             "; estimated printing time (normal mode) = 4h 14m 52s\n")
    assert PRINT.parse_gcode(gcode) == {"slicer": "PrusaSlicer 2.5.0+UNKNOWN",
                                        "seconds": 15292, "grams": 80.88}
    with pytest.raises(PRINT.SliceError, match="'grams'"):
        PRINT.parse_gcode(gcode.replace("total filament used [g]", "filament used"))
