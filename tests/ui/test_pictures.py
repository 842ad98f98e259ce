"""Now Boarding's pictures drawn from data (companion/ui/pictures, DESIGN.md rule 17, issue #35).

Golden PNGs per player count, with and without VIP cards (regenerate on purpose:
pytest --regen-golden, then look at them), drawn with Pillow and the shipped Spleen fonts so
every machine draws the same pixels; the page's SVG pinned by a golden text; every scene
inside its edges; what the pictures draw is the game's data (deck counts, the chart's column,
the board's side, the VIP count); the picture names round-trip and a bad one is refused.
"""

from pathlib import Path

import pytest
from PIL import Image

from companion.games.now_boarding import data
from companion.games.now_boarding.pictures import PictureRequest, parse
from companion.games.now_boarding.setup_facts import LABEL_WIDTH, SETUP_FACTS
from companion.ui.pictures.now_boarding import (
    plane_scene,
    scene_for,
    table_panel_scene,
    table_scene,
)
from companion.ui.pictures.raster import scene_image, scene_panel
from companion.ui.pictures.scene import Label, Scene, fact_labels, scene_problems
from companion.ui.pictures.svg import scene_svg

GOLDEN = Path(__file__).parent / "golden" / "pictures"
SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
README_PICTURE = "now-boarding-table-3p-vip"
"""The golden the README shows (docs/screens/<name>.png, written with the goldens)."""
COUNTS = [(players, vip) for players in range(2, 6) for vip in (False, True)]
NAMES = [f"{players}p{'-vip' if vip else ''}" for players, vip in COUNTS]


def check_golden(image, name, request):
    golden = GOLDEN / f"{name}.png"
    if request.config.getoption("--regen-golden"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        image.save(golden, optimize=True)
        return
    assert golden.exists(), f"no golden for {name}: run pytest --regen-golden and look at it"
    expected = Image.open(golden).convert(image.mode)
    assert image.size == expected.size, name
    assert image.tobytes() == expected.tobytes(), f"{name} differs from {golden}"


@pytest.mark.parametrize(("players", "vip"), COUNTS, ids=NAMES)
def test_the_table_picture_matches_its_golden(players, vip, request):
    free = "speed" if players % 2 else "seat"
    check_golden(scene_image(table_scene(players, vip, free)),
                 f"now-boarding-table-{players}p{'-vip' if vip else ''}", request)


@pytest.mark.parametrize(("players", "vip"), COUNTS, ids=NAMES)
def test_the_panel_picture_matches_its_golden(players, vip, request):
    image = scene_panel(table_panel_scene(players, vip))
    assert (image.size, image.mode) == ((128, 64), "1")
    check_golden(image, f"now-boarding-panel-{players}p{'-vip' if vip else ''}", request)


def test_the_readme_shows_the_golden_table_picture(request):
    golden = GOLDEN / f"{README_PICTURE}.png"
    shown = SCREENS / f"{README_PICTURE}.png"
    if request.config.getoption("--regen-golden"):
        shown.write_bytes(golden.read_bytes())
    assert shown.read_bytes() == golden.read_bytes()
    readme = (SCREENS.parents[1] / "README.md").read_text(encoding="utf-8")
    assert f"(docs/screens/{README_PICTURE}.png)" in readme


def test_the_plane_picture_matches_its_golden(request):
    check_golden(scene_image(plane_scene()), "now-boarding-plane", request)


def test_the_page_svg_matches_its_golden_text(request):
    svg = scene_svg(table_scene(3, True, "seat", full=False))
    golden = GOLDEN / "now-boarding-table-3p-vip-seat.svg"
    if request.config.getoption("--regen-golden"):
        golden.write_text(svg, encoding="utf-8")
        return
    assert svg == golden.read_text(encoding="utf-8")


def every_scene():
    for players, vip in COUNTS:
        for free in ("seat", "speed"):
            for full in (False, True):
                yield table_scene(players, vip, free, full=full)
        yield table_scene(players, vip, "seat", weather_cards=False)
        yield table_panel_scene(players, vip)
        yield table_panel_scene(players, vip, weather_cards=False)
    yield plane_scene()
    yield plane_scene(full=False)


@pytest.mark.parametrize("scene", list(every_scene()), ids=lambda scene: scene.title)
def test_every_scene_stays_inside_its_edges(scene):
    assert scene_problems(scene) == []
    assert scene.alt and scene.title


def test_a_scene_that_leaves_its_edges_is_named():
    scene = Scene(20, 20, "t", "a", (Label(15, 0, "too long"),))
    assert len(scene_problems(scene)) == 1


def texts(scene):
    return [label.text for label in scene.labels()]


@pytest.mark.parametrize(("players", "vip"), COUNTS, ids=NAMES)
def test_the_table_draws_the_games_data(players, vip):
    scene = table_scene(players, vip, "seat")
    said = texts(scene)
    chart = data.PREFLIGHT[players]
    assert f"Board: {data.board_side(players)} side up" in said
    assert f"Preflight chart: {players}P" in said
    for stage, count in zip(data.STAGES, chart.in_pile, strict=True):
        assert f"{count} cards" in said, stage
    assert said.count(str(chart.weather[0])) >= 3  # the chart's column and each weather pile
    assert str(chart.weather[0] // 2) in said  # each kind of weather token a stage uses
    assert ("SEA" in said) == (players >= 4)  # the board's side
    shown = data.SMALL_SIDE_AIRPORTS if players <= 3 else data.ALL_AIRPORTS
    gone = [code for code in data.REMOVED_AIRPORTS[players] if code in shown]
    assert said.count("no cards") == len(gone)  # its cards leave the game (JFK with 2)
    assert all(code in said for code in gone)
    vip_line = f"{data.vip_count(players)} VIP face down, by their back"
    assert (vip_line in said) == vip
    assert said.count("VIP") == (3 if vip else 0)
    for item in ("seat", "speed", "route"):
        assert str(data.SUPPLY[item]) in said


@pytest.mark.parametrize("free", ["seat", "speed"])
def test_the_plane_shown_wears_the_free_tile_the_player_chose(free):
    said = texts(table_scene(3, False, free))
    assert said.count("free") == 1
    assert said.count("seat") >= (3 if free == "seat" else 2)  # the supply's, the plane's
    assert ("+1" in said) == (free == "speed")


def test_with_two_players_the_plane_has_its_free_route_tile():
    assert texts(table_scene(2, False, "seat")).count("free") == 2
    assert texts(table_scene(3, False, "seat")).count("free") == 1


def test_without_weather_cards_no_weather_pile_is_drawn():
    # the chart's column header only, then with the three piles too
    assert texts(table_scene(3, False, "seat", weather_cards=False)).count("wthr") == 1
    assert texts(table_scene(3, False, "seat")).count("wthr") == 4


def test_the_whole_picture_writes_every_fact_and_the_compact_one_leaves_room():
    whole = fact_labels(table_scene(3, True, "seat"))
    assert set(whole) == {item.key for item in SETUP_FACTS}
    compact = table_scene(3, True, "seat", full=False)
    assert compact.height < table_scene(3, True, "seat").height
    assert compact.height <= 320  # a phone's setup card shows it beside the words
    for item in SETUP_FACTS:
        assert len(item.label) <= LABEL_WIDTH, item.key


def test_the_plane_picture_says_where_upgrades_go():
    said = " ".join(texts(plane_scene()))
    assert f"up to {data.MAX_SEATS}" in said and f"up to {data.MAX_SPEED}" in said
    assert {"route-tile", "temp-used"} <= set(fact_labels(plane_scene()))


def test_the_svg_is_one_document_with_its_title_and_escaped_text():
    scene = Scene(40, 20, "A <b> & c", "alt & more", (Label(0, 0, "x<y"),))
    svg = scene_svg(scene)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"')
    assert "<title>A &lt;b&gt; &amp; c</title>" in svg and "x&lt;y" in svg


def test_the_panel_refuses_a_scene_of_another_size():
    with pytest.raises(ValueError, match="128x64"):
        scene_panel(plane_scene())
    with pytest.raises(ValueError, match="scale"):
        scene_image(plane_scene(), scale=3)


REQUESTS = [PictureRequest("table", players, vip, cards, free, full)
            for players in range(2, 6) for vip in (False, True) for cards in (False, True)
            for free in ("seat", "speed") for full in (False, True)]


PLANES = [PictureRequest(kind="plane"), PictureRequest(kind="plane", full=True)]


@pytest.mark.parametrize("wanted", [*REQUESTS, *PLANES], ids=lambda wanted: wanted.name)
def test_a_picture_name_reads_back_as_its_request(wanted):
    assert parse(wanted.name) == wanted
    assert scene_problems(scene_for(parse(wanted.name))) == []


@pytest.mark.parametrize("name", ["", "table", "table-6p-seat", "table-1p-seat",
                                  "table-3p-route", "table-3p-seat-full-full", "../etc",
                                  "table-3p-digital-vip-seat", "plane-seat", "TABLE-3P-SEAT"])
def test_a_name_it_did_not_make_is_refused(name):
    with pytest.raises(ValueError, match=r"no such picture|players"):
        parse(name)


@pytest.mark.parametrize(("field", "value"), [("players", 6), ("free_tile", "route")])
def test_a_request_out_of_range_says_why(field, value):
    with pytest.raises(ValueError, match=field.split("_")[0]):
        PictureRequest(**{field: value})
