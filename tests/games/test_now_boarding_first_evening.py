"""The first evening's smaller things (issue #35), on whole games through the App.

A teach game with the VIP cards, played with every default, is read card by card (the
page's words and the panel): the physical facts a new table guessed before are each said on
a setup card, a step card or a lesson (the setup picture's labels are drawn elsewhere); no
card of the page names a button the page does not have (NEXT is the box's); the boarding
lesson says nothing of anger before the anger lesson; no lesson ends with a filler line; the
first timed flight's card says how long it lasts; the end count names airports and planes;
the coach's margin says why it is what it is.
"""

from __future__ import annotations

import pytest

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.games.now_boarding import NowBoarding
from companion.ui.views.now_boarding import now_boarding_screen

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN

#: A fact the table once had to guess -> words a card or a lesson says it with.
PHYSICAL_FACTS = {
    "what a starting plane is made of": "cockpit, wing (speed 3), one seat, tail",
    "the passenger card with each plane, face up": "passenger card from home face up",
    "the weather card after its token": "then put the cards aside",
    "which dot a token goes on": "a dot of its card's route, never an airport",
    "where a bought route tile goes": "routes by the tail",
    "when a temporary token counts as used": "mark a temporary token used once used",
}


def play_teach_game(players: int = 3) -> list[tuple[str, str, str, str]]:
    """A whole teach game with the VIP cards, NEXT at every step (one complaint in round 3,
    two passengers undelivered, the first card chosen at "which VIP?"): every card shown, as
    (step, heading, words, panel)."""
    app = App([NowBoarding()])
    t = 0.0
    state, _ = app.new_game(AppState(), "now-boarding",
                            {"players": str(players), "vip": "on", "pace": "teach"}, 1, t)
    shown = []
    for _ in range(2000):
        body = app.to_json(state, t)
        screen = now_boarding_screen(state.session.state, t)
        shown.append((body["step"] if body["lesson"] is None else f"lesson:{body['lesson']['id']}",
                      screen.heading, " ".join((screen.say, screen.then, *screen.coach)),
                      " ".join(screen.text_lines())))
        if body["phase"] == "over":
            return shown
        button = NEXT
        if body["lesson"] is None and ((body["step"] == "anger" and body["round"] == 3
                                        and body["pending"] == 0 and body["complaints"] == 0)
                                       or (body["step"] == "exit" and body["pending"] < 2)):
            button = UP
        if body["lesson"] is None and body["ask"] == "which" and body["vip_offer"] is None:
            button = DOWN  # "which VIP?" opens with none chosen: the table chooses the first
        t += 16.0 if body["step"] == "flight" else 1.0
        state, _ = app.gesture(state, Gesture("press", button, t), t)
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def cards() -> list[tuple[str, str, str, str]]:
    return play_teach_game()


@pytest.mark.parametrize("fact", sorted(PHYSICAL_FACTS))
def test_each_physical_fact_is_said_on_a_card_or_in_a_lesson(cards, fact):
    words = PHYSICAL_FACTS[fact]
    assert any(words in said for _, _, said, _ in cards), fact


def test_the_page_names_only_buttons_the_page_has(cards):
    for step, heading, said, _ in cards:
        assert "NEXT" not in said, (step, heading, said)


def test_lessons_come_in_the_order_the_rules_build_and_end_without_filler(cards):
    lessons = [step.removeprefix("lesson:") for step, *_ in cards if step.startswith("lesson:")]
    assert lessons.index("boarding") < lessons.index("vip") < lessons.index("anger")
    boarding = next(said for step, _, said, _ in cards if step == "lesson:boarding")
    assert "anger" not in boarding.lower() and "cube" not in boarding
    for step, _, said, _ in cards:
        assert "where it stood" not in said, step


def test_the_first_timed_flight_says_how_long_it_lasts(cards):
    readies = [(heading, said, panel) for step, heading, said, panel in cards
               if step == "ready"]
    practice, first_timed = readies[0], readies[1]
    assert "lasts" not in practice[1]
    assert "This flight lasts 15 seconds." in first_timed[1]
    assert first_timed[2].startswith("NEXT: 15 s flight")


def test_the_end_count_names_airports_and_planes_and_the_margin_says_why(cards):
    exit_card = next(said for step, _, said, _ in cards if step == "exit")
    assert "waiting at airports or still on planes" in exit_card
    final = next(said for step, _, said, _ in cards if step == "ready" and "Final round" in said)
    assert "2 undelivered file 1 complaint; 1 of 3 filed" in final
    assert "every two at the end file a complaint, and you have 1" in final


def test_a_game_journaled_before_the_short_flow_replays_its_full_pages():
    """Options without ``flow`` (every game journaled before issue #35) keep the full pages,
    so an old journal replays press for press; a game started now is short."""
    game = NowBoarding()
    old = game.new({"players": "3", "pace": "steps", "vip": "off", "timer": "official",
                    "strict": "off", "weather": "cards", "coach": "on", "seed": "1"}, 1)
    assert old.full_flow and dict(old.options)["flow"] == "full"
    app = App([NowBoarding()])
    state, _ = app.new_game(AppState(), "now-boarding", {"players": "3"}, 1, 0.0)
    assert app.to_json(state, 0.0)["options"]["flow"] == "short"
    assert not state.session.state.full_flow


@pytest.mark.parametrize(("players", "vip", "weather"), [
    (2, "on", "cards"), (3, "off", "cards"), (4, "on", "digital"), (5, "off", "cards")])
def test_the_panel_shows_the_table_picture_first_and_up_switches_to_the_words(players, vip,
                                                                              weather):
    """The setup's table page on the panel is the picture of the table set up (the same
    drawing as the golden panel pictures); UP (or DOWN) shows its words and back, and only
    the panel changes: the page's words, the books and the next NEXT stay as they were."""
    from companion.ui.pictures.now_boarding import table_panel_scene

    app = App([NowBoarding()])
    state, _ = app.new_game(AppState(), "now-boarding",
                            {"players": str(players), "vip": vip, "weather": weather}, 1, 0.0)
    before = app.to_json(state, 0.0)
    screen = now_boarding_screen(state.session.state, 0.0)
    assert screen.picture == table_panel_scene(players, vip == "on", weather == "cards")
    assert "UP words NEXT pg" in screen.status
    words = (screen.heading, screen.say, screen.keys)
    for button, shows_picture in ((UP, False), (DOWN, True), (DOWN, False)):
        state, _ = app.gesture(state, Gesture("press", button, 1.0), 1.0)
        assert state.notice is None
        screen = now_boarding_screen(state.session.state, 1.0)
        assert (screen.picture is not None) is shows_picture
        assert (screen.heading, screen.say, screen.keys) == words
        assert f"Board: {'2-3' if players < 4 else '4-5'} side up" in screen.text_lines()[1]
    after = app.to_json(state, 1.0)
    assert {key: value for key, value in after.items() if key != "elapsed"} == \
        {key: value for key, value in before.items() if key != "elapsed"}
    state, _ = app.gesture(state, Gesture("press", NEXT, 2.0), 2.0)
    assert app.to_json(state, 2.0)["setup_page"]["key"] == "planes"
