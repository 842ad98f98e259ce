"""Now Boarding's screens: every step of whole games renders and keeps to the Screen limits."""

from __future__ import annotations

import pytest

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import Restore, RuleError
from companion.games.now_boarding import NowBoarding
from companion.ui.render import HEIGHT, WIDTH, render
from companion.ui.screen import (
    Screen,
    reads_from_a_seat,
    screen_problems,
)
from companion.ui.views import LESSON_STATUS, LESSON_STATUS_PAGE, screen_for
from companion.ui.views.now_boarding import SCENES, now_boarding_screen

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN


def check_fits(screen: Screen) -> None:
    assert not screen_problems(screen), screen_problems(screen)
    assert reads_from_a_seat(screen), screen.text_lines()
    # The complaints always show, in the status bar or (upgrades) the title; a lesson
    # (pace=teach) is the issue's own panel: a heading, its lines, "NEXT got it".
    if screen.status not in (LESSON_STATUS, LESSON_STATUS_PAGE):
        assert "C:" in screen.status or "C:" in screen.title, (screen.title, screen.status)
    image = render(screen)
    assert image.size == (WIDTH, HEIGHT)


class Shown:
    """A game whose every screen is checked after every input."""

    def __init__(self, box_seed: int = 3, **options: str) -> None:
        self.app = App([NowBoarding()])
        self.t = 0.0
        self.state, _ = self.app.new_game(AppState(), "now-boarding", options, box_seed, 0.0)
        self.seen: set[str] = set()
        self.look()

    @property
    def step(self) -> str:
        return str(self.app.to_json(self.state, self.t)["step"])

    def look(self) -> Screen:
        assert self.state.session is not None
        screen = screen_for(self.app, self.state, self.t)
        check_fits(screen)
        check_fits(now_boarding_screen(self.state.session.state, self.t))
        self.seen.add(self.step)
        return screen

    def gesture(self, button: Button, kind: str = "press") -> None:
        self.t += 0.3
        try:
            self.state, _ = self.app.gesture(
                self.state, Gesture("hold" if kind == "hold" else "press", button, self.t),
                self.t)
        except RuleError as error:
            self.state = self.app.refuse(self.state, error)  # the notice shows in the status
        self.look()

    def tick(self, seconds: float) -> None:
        self.t += seconds
        self.state, _ = self.app.tick(self.state, self.t)
        self.look()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize(("vip", "weather", "timer"),
                         [("on", "cards", "official"), ("on", "digital", "off"),
                          ("off", "digital", "relaxed")])
def test_now_boarding_every_screen_of_a_whole_game_fits(players: int, vip: str, weather: str,
                                                        timer: str) -> None:
    shown = Shown(players=str(players), vip=vip, weather=weather, timer=timer)
    shown.gesture(UP)  # refused on the first checklist page: notice in the status bar
    flights = 0
    for _ in range(3000):
        step = shown.step
        if step == "over":
            break
        page = shown.app.to_json(shown.state, shown.t)["setup_page"]
        if step == "setup" and page["key"] == "planes":  # a free tile swapped
            shown.gesture(DOWN)
            shown.gesture(NEXT, "hold")
        if step == "vip":
            shown.gesture(UP)  # serve every VIP
        if step == "flight":
            flights += 1
            if timer == "off":
                shown.tick(5.0)
                shown.gesture(NEXT)
            else:
                shown.gesture(NEXT, "hold")
                shown.tick(3.0)
                shown.gesture(NEXT, "hold")
                for _ in range(100):
                    shown.tick(1.0)
                    if shown.step != "flight":
                        break
            continue
        if step == "anger" and flights == 2:
            shown.gesture(UP)
            shown.gesture(UP)
            shown.gesture(DOWN)
        if step == "upgrades":
            for _ in range(5 * players):
                shown.gesture(NEXT, "hold")
                shown.gesture(DOWN)
        if step == "exit":
            for _ in range(5):
                shown.gesture(UP)
            shown.gesture(DOWN)
        shown.gesture(NEXT)
    assert shown.step == "over"
    assert shown.seen >= {"setup", "passengers", "weather", "ready", "flight", "anger", "upgrades",
                          "exit", "over"}
    assert ("vip" in shown.seen) is (vip == "on")


def test_now_boarding_screens_show_the_flight_and_the_end() -> None:
    shown = Shown(players="3")
    while shown.step != "flight":
        shown.gesture(NEXT)
    screen = shown.look()
    assert screen.big == "0:15"
    assert screen.caption == "NEXT end  hold NEXT pause"
    assert screen.status == "R1/17 4 cards C:0/3"  # round of all, deck, complaints
    shown.tick(4.2)
    assert shown.look().big == "0:11"
    shown.state, _ = shown.app.act(shown.state, Restore(), shown.t)
    assert shown.look().caption == "PAUSED  hold NEXT resume"
    shown.gesture(NEXT)
    for _ in range(2):
        shown.gesture(UP)
    assert shown.look().caption == "ONE MORE LOSES  NEXT ok"
    shown.gesture(UP)
    assert shown.look().caption == "that is out of business!"
    shown.gesture(NEXT)
    screen = shown.look()
    assert (screen.title, screen.big) == ("Out of business", "LOSE")


def test_now_boarding_screens_of_a_long_exit_and_a_win() -> None:
    shown = Shown(players="2", timer="off")
    while shown.step != "exit":
        shown.gesture(NEXT)
    for _ in range(42):
        shown.gesture(UP)
    shown.gesture(UP)  # refused: at most 42 passengers
    screen = shown.look()  # the count being set is the main line, its effect under it
    assert (screen.main, screen.lines[0]) == ("Airports+planes: 42", "+21 complaints = 21/3")
    for _ in range(42):
        shown.gesture(DOWN)
    shown.gesture(NEXT)
    screen = shown.look()
    assert (screen.big, screen.caption) == ("WIN!", "18 flights, 0 compl.")


@pytest.mark.parametrize("name", sorted(SCENES))
def test_now_boarding_scenes_play_without_a_refusal(name: str) -> None:
    """Each README scene is a legal protocol script, and its last screen fits."""
    app = App([NowBoarding()])
    state, t = AppState(), 0.0
    for line in SCENES[name]:
        word, *rest = line.split()
        if word == "new":
            options = dict(item.split("=", 1) for item in rest[1:])
            state, _ = app.new_game(state, rest[0], options, 1, t)
        elif word == "wait":
            t += float(rest[0])
            state, _ = app.tick(state, t)
        else:
            t += 0.3
            gesture = Gesture("hold" if word == "hold" else "press", Button(rest[0]), t)
            state, _ = app.gesture(state, gesture, t)
    assert name.startswith("now-boarding-")
    check_fits(screen_for(app, state, t))
