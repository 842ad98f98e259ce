"""Which picture a Now Boarding state shows (companion/games/now_boarding/pictures.py).

The table set up at every setup page, with the game's player count, VIP variant and weather
cards, and the free tile of the player whose page it is; a plane with the lessons that
explain one; nothing once play has begun, nor with a lesson that has no picture. The state
JSON's ``picture`` says the same, with the page's paths.
"""

from dataclasses import replace

import pytest

from companion.games.now_boarding import NowBoarding
from companion.games.now_boarding.pictures import LESSON_PICTURES, picture_for, picture_json
from companion.games.now_boarding.record import state_json
from companion.games.now_boarding.rules import setup_page, setup_pages

GAME = NowBoarding()


@pytest.mark.parametrize(("options", "name"), [
    ({"players": "2"}, "table-2p-seat"),
    ({"players": "3", "vip": "on"}, "table-3p-vip-seat"),
    ({"players": "4", "weather": "digital"}, "table-4p-digital-seat"),
    ({"players": "5", "vip": "on", "weather": "digital"}, "table-5p-vip-digital-seat"),
])
def test_every_setup_page_shows_the_table_for_the_games_options(options, name):
    state = GAME.new(options, 1)
    for page in range(len(setup_pages(state))):
        shown = picture_for(replace(state, page=page))
        assert shown is not None and shown.name == name  # every free tile a seat at first


def test_a_free_tile_page_shows_that_players_choice():
    state = GAME.new({"players": "3"}, 1)
    pages = setup_pages(state)
    speedy = replace(state, free_tiles=("seat", "speed", "seat"),
                     page=pages.index("free-1"))
    assert setup_page(speedy) == "free-1"
    assert picture_for(speedy).free_tile == "speed"
    assert picture_for(replace(speedy, page=pages.index("free-2"))).free_tile == "seat"


def test_the_pitch_lesson_hides_the_table_and_the_plane_lessons_show_the_plane():
    teach = GAME.new({"pace": "teach"}, 1)
    assert state_json(teach, 0.0)["lesson"]["id"] == "pitch"
    assert picture_for(teach) is None
    after_pitch = replace(teach, lessons_seen=("pitch",))
    assert picture_for(after_pitch).kind == "table"
    assert set(LESSON_PICTURES) == {"upgrades", "moving"}
    ready = replace(after_pitch, step="ready", phase="flight",
                    lessons_seen=("pitch", "vip", "weather"))
    assert state_json(ready, 0.0)["lesson"]["id"] == "moving"
    assert picture_for(ready).kind == "plane"


def test_no_picture_once_play_has_begun():
    state = replace(GAME.new({}, 1), step="ready", phase="flight")
    assert picture_for(state) is None
    assert state_json(state, 0.0)["picture"] is None


def test_the_state_json_names_the_compact_and_the_whole_picture():
    state = GAME.new({"players": "3", "vip": "on"}, 1)
    assert state_json(state, 0.0)["picture"] == picture_json(state) == {
        "src": "/api/picture/table-3p-vip-seat.svg",
        "full": "/api/picture/table-3p-vip-seat-full.svg",
        "alt": picture_for(state).alt}
    assert "3 players" in picture_json(state)["alt"]
