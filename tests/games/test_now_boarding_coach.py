"""The coach (issue #26, item 4): warnings as pure functions of the state, in every pace.

On the page's step card (the screen's ``coach`` sentences), in the panel's bottom line (the
most urgent one, in place of the cards left) and in the state JSON (``coach``); never a step
or a question, and ``coach=off`` silences it without changing anything else.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.games.now_boarding import NowBoarding
from companion.ui.views.now_boarding import now_boarding_screen

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN


class Game:
    def __init__(self, **options: str) -> None:
        self.app = App([NowBoarding()])
        self.t = 0.0
        self.state, _ = self.app.new_game(AppState(), "now-boarding",
                                          {"timer": "off", "flow": "full", **options}, 1,
                                          self.t)

    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, self.t)

    def keys(self) -> list[str]:
        return [advice["key"] for advice in self.json()["coach"]]

    def press(self, button: Button, times: int = 1) -> None:
        for _ in range(times):
            self.t += 1.0
            self.state, _ = self.app.gesture(self.state, Gesture("press", button, self.t),
                                             self.t)

    def got_it(self) -> None:
        """NEXT on every lesson showing (pace=teach), so the next press reaches the step."""
        while self.json()["lesson"] is not None:
            self.press(NEXT)

    def onward(self) -> None:
        body = self.json()
        self.press(DOWN if body["step"] == "vip" and body["ask"] == "serve?" else NEXT)

    def screen(self) -> Any:
        return now_boarding_screen(self.state.session.state, self.t)


@pytest.mark.parametrize("pace", ["steps", "brisk", "teach"])
def test_one_complaint_from_losing_is_said_on_the_card_and_the_panel(pace: str) -> None:
    game = Game(players="3", pace=pace)
    while game.json()["step"] != "flight":
        game.onward()
    assert game.json()["coach"] == []
    game.press(NEXT)  # the flight ends
    game.got_it()
    if game.json()["step"] == "anger":
        game.press(NEXT)
    game.got_it()
    game.press(UP, 2)
    game.press(NEXT)
    while game.json()["step"] != "flight":
        game.onward()
    assert game.keys() == ["one-complaint-left"]
    screen = game.screen()
    assert screen.status == "R2/17 1 MORE LOSES C:2/3"
    assert screen.coach == ("One more complaint loses.",)
    assert screen.full_text()["coach"] == list(screen.coach)


def test_coach_off_says_nothing_and_changes_nothing_else() -> None:
    on, off = Game(players="3", vip="on"), Game(players="3", vip="on", coach="off")
    said = False
    for _ in range(60):
        said = said or bool(on.json()["coach"])
        assert off.json()["coach"] == [] and off.screen().coach == ()
        one, two = on.json(), off.json()
        for body in (one, two):
            body.pop("coach")
            body["options"].pop("coach")
        assert one == two
        if on.json()["step"] == "flight":
            on.press(NEXT)
            off.press(NEXT)
        else:
            on.onward()
            off.onward()
    assert said


def test_vips_left_when_their_deck_runs_out_within_two_draws() -> None:
    game = Game(players="3", vip="on")  # 2 Morning VIP cards; 6 Morning cards, 2 a draw
    while game.json()["step"] != "vip":
        game.press(NEXT)
    assert game.keys() == []  # setup says nothing; "Serve a VIP?" says how many are left
    game.press(DOWN)  # none served at setup
    while game.json()["step"] != "ready":
        game.press(NEXT)
    assert game.json()["deck_left"] == 4  # two draws left
    assert game.keys() == ["vips-left"]
    assert game.json()["coach"][0]["text"] == "2 Morning VIPs left, 2 draws: then complaints."
    assert game.screen().status == "R1/17 2VIP 2draw C:0/3"
    while game.json()["step"] != "vip":
        game.press(NEXT)
    game.press(NEXT)
    game.press(NEXT)  # one served: one left
    assert game.keys() == ["vips-left"] and game.json()["vip"]["morning"] == 1


def test_the_final_round_says_how_many_may_stay_undelivered() -> None:
    game = Game(players="2")
    while not game.json()["final_round"]:
        game.press(NEXT)
    assert game.keys() == ["final-round"]
    assert game.json()["coach"][0]["text"] == (
        "Final round: at most 5 undelivered to win (2 undelivered file 1 complaint; "
        "0 of 3 filed).")
    while game.json()["step"] != "flight":
        game.press(NEXT)
    assert game.screen().status == "R18/18 FINAL <=5 C:0/3"
    game.press(NEXT)
    game.press(NEXT)  # the cubes page
    game.press(NEXT)
    assert game.json()["step"] == "exit" and game.keys() == ["final-round"]
    game.press(UP, 6)
    game.press(NEXT)
    assert game.json()["result"] == "lose" and game.json()["coach"] == []
