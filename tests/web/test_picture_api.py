"""GET /api/picture/<name>.svg over real HTTP (companion/web/pictures_api.py, docs/web.md)."""

import pytest

from companion.games.now_boarding.pictures import parse
from companion.ui.pictures.now_boarding import scene_for
from companion.ui.pictures.svg import scene_svg


@pytest.mark.parametrize("name", ["table-3p-vip-seat", "table-2p-digital-speed-full",
                                  "table-5p-seat", "plane", "plane-full"])
def test_a_picture_the_state_names_is_its_svg(web_box, name):
    answer = web_box.get(f"/api/picture/{name}.svg")
    assert answer.status == 200
    assert answer.headers["content-type"] == "image/svg+xml; charset=utf-8"
    assert answer.body.decode("utf-8") == scene_svg(scene_for(parse(name)))


def test_the_state_names_a_picture_the_box_serves(web_box):
    assert web_box.line("new now-boarding players=4 vip=on").json == {"reply": "ok"}
    picture = web_box.get("/api/state").json["picture"]
    for path in (picture["src"], picture["full"]):
        answer = web_box.get(path)
        assert answer.status == 200 and answer.body.startswith(b"<svg")


@pytest.mark.parametrize("path", ["/api/picture/", "/api/picture/table-9p-seat.svg",
                                  "/api/picture/plane.png", "/api/picture/../state",
                                  "/api/picture/table-3p-seat.svg.svg"])
def test_a_name_the_box_did_not_make_is_404(web_box, path):
    answer = web_box.get(path)
    assert answer.status == 404
    assert answer.json["error"] == "not-found"
