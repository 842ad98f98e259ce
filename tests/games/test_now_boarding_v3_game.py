"""The Now Boarding v3 prototype on the box: the schedule, the timer, the Lost pile, scoring."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import (
    Expire,
    GameAction,
    Hold,
    OptionError,
    Play,
    Press,
    Restore,
    RuleError,
)
from companion.core.timer import TimerState
from companion.games import now_boarding_v3 as v3
from companion.games.now_boarding_v3.game import NowBoardingV3Game
from companion.games.now_boarding_v3.state import V3State
from companion.ui.render import HEIGHT, WIDTH, render
from companion.ui.screen import (
    Screen,
    reads_from_a_seat,
    screen_problems,
)
from companion.ui.views import screen_for
from companion.ui.views.now_boarding_v3 import SCENES, TO_ENTRY, now_boarding_v3_screen

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN
GAME = NowBoardingV3Game()


def new(**options: str) -> V3State:
    return GAME.new({"players": "4", "variant": "basic", "timer": "auto", **options}, 0)


def act(state: V3State, *actions: GameAction, at: float = 0.0) -> tuple[V3State, list[Play]]:
    plays: list[Play] = []
    for action in actions:
        state, effects = GAME.step(state, action, at)
        plays.extend(effects)
    return state, plays


def check_fits(screen: Screen) -> None:
    assert not screen_problems(screen), screen_problems(screen)
    assert reads_from_a_seat(screen), screen.text_lines()
    assert render(screen).size == (WIDTH, HEIGHT)


# -- options -------------------------------------------------------------------------------------


def test_v3_game_timer_follows_the_variant_unless_given() -> None:
    assert new().duration is None
    assert new(variant="advanced").duration == v3.ADVANCED_DEPARTURE_SECONDS
    assert new(variant="advanced", timer="off").duration is None
    assert new(timer="45").duration == 45


@pytest.mark.parametrize("options", [{"players": "2"}, {"players": "7"}, {"variant": "x"},
                                     {"timer": "3"}, {"timer": "soon"}])
def test_v3_game_refuses_bad_options(options: dict[str, str]) -> None:
    with pytest.raises(OptionError):
        new(**options)


# -- the schedule --------------------------------------------------------------------------------


def walk(state: V3State) -> list[tuple[str, int, int]]:
    """Press NEXT (ending timed Departures early) until score entry; every (step, day, round)."""
    seen = [(state.step, state.day, state.round)]
    t = 0.0
    while state.step != "entry":
        t += 1.0
        state, _ = act(state, Press(NEXT), at=t)
        seen.append((state.step, state.day, state.round))
    return seen


def test_v3_game_whole_schedule_3_days_of_6_rounds_with_the_redeye() -> None:
    seen = walk(new())
    departures = [(day, rnd) for step, day, rnd in seen if step == "departure"]
    assert departures == [(day, rnd) for day in (1, 2, 3) for rnd in range(1, 7)]
    day_one = [step for step, day, _ in seen if day == 1]
    assert day_one == ["setup", *["departure", "arrival", "purchase"] * 5,
                       "departure", "arrival", "redeye-lost", "final-purchase",
                       "shuffle-score-piles", "new-city"]
    day_three_end = [step for step, day, rnd in seen if day == 3 and rnd == 6]
    assert day_three_end == ["departure", "arrival", "redeye-lost", "final-purchase",
                             "game-over", "entry"]


def test_v3_game_draws_one_passenger_per_airport_per_player_none_in_the_redeye() -> None:
    state, _ = act(new(players="5"), Press(NEXT))
    draws: dict[tuple[int, int], int] = {}
    while state.step != "entry":
        if state.step == "departure":
            body = GAME.to_json(state, 0.0)
            draws[(body["day"], body["round"])] = body["draw"]
            assert body["redeye"] is (body["round"] == 6)
        state, _ = act(state, Press(NEXT))
    assert {draws[(day, 1)] for day in (1, 2, 3)} == {10, 15, 20}
    assert [draws[(day, 6)] for day in (1, 2, 3)] == [0, 0, 0]


def test_v3_game_basic_has_no_timer() -> None:
    state, _ = act(new(), Press(NEXT))
    assert GAME.countdown(state) is None
    assert GAME.to_json(state, 0.0)["timer"] == {"state": "idle", "remaining": 0.0,
                                                 "duration": 0.0}
    with pytest.raises(RuleError):
        act(state, Expire())
    state, plays = act(state, Press(NEXT))
    assert state.step == "arrival" and plays == [Play("click")]


def test_v3_game_advanced_departure_timer_start_pause_expire() -> None:
    state, _ = act(new(variant="advanced"), Press(NEXT))
    countdown = GAME.countdown(state)
    assert countdown is not None and countdown.state is TimerState.IDLE
    state, _ = act(state, Press(NEXT), at=10.0)  # passengers drawn: the minute starts
    assert GAME.to_json(state, 30.0)["timer"] == {"state": "running", "remaining": 40.0,
                                                  "duration": 60.0}
    state, _ = act(state, Hold(NEXT), at=30.0)
    state, _ = act(state, Hold(NEXT), at=100.0)  # resumed with 40 s left: ends at 140
    with pytest.raises(RuleError):
        act(state, Expire(), at=139.9)
    state, plays = act(state, Expire(), at=140.0)
    assert plays == [Play("alarm")]
    body = GAME.to_json(state, 141.0)
    assert body["step"] == "arrival" and body["ended"] == "time"
    assert body["timer"]["state"] == "expired"
    assert GAME.countdown(state) is None


def test_v3_game_next_ends_a_timed_departure_early() -> None:
    state, _ = act(new(variant="advanced"), Press(NEXT), Press(NEXT))
    state, plays = act(state, Press(NEXT), at=25.0)
    assert state.step == "arrival" and plays == [Play("end")]
    assert GAME.to_json(state, 25.0)["ended"] == "next"


def test_v3_game_restore_pauses_a_running_departure() -> None:
    state, _ = act(new(variant="advanced"), Press(NEXT), Press(NEXT))
    state, _ = act(state, Restore(), at=20.0)
    assert GAME.to_json(state, 99.0)["timer"]["state"] == "paused"
    assert GAME.to_json(state, 99.0)["timer"]["remaining"] == 40.0
    idle, _ = act(new(), Restore())
    assert idle == new()


def test_v3_game_the_timer_restarts_at_every_departure() -> None:
    state, _ = act(new(timer="30"), Press(NEXT), Press(NEXT), Press(NEXT, ), at=1.0)
    state, _ = act(state, Press(NEXT), Press(NEXT))  # arrival -> purchase -> round 2
    assert state.step == "departure" and state.round == 2
    assert GAME.to_json(state, 5.0)["timer"] == {"state": "idle", "remaining": 30.0,
                                                 "duration": 30.0}


def test_v3_game_supply_short_is_a_choice_on_the_departure_screen() -> None:
    state, _ = act(new(), Press(NEXT))
    screen = now_boarding_v3_screen(state, 0.0)
    assert "DOWN: too few tiles left" in screen.lines  # the choice is said, not hidden
    with pytest.raises(RuleError, match="DOWN asks"):
        act(state, Hold(NEXT))  # no hidden hold ends the game any more
    state, _ = act(state, Press(DOWN))
    assert state.short and GAME.to_json(state, 0.0)["short"] is True
    asked = now_boarding_v3_screen(state, 0.0)
    assert asked.title == "Too few tiles?"
    check_fits(asked)
    back, _ = act(state, Press(UP))
    assert (back.step, back.short) == ("departure", False)
    state, plays = act(state, Press(NEXT))
    assert state.step == "game-over" and state.reason == "supply" and plays == [Play("end")]
    state, _ = act(state, Press(NEXT))
    assert state.step == "entry"


def test_v3_game_supply_short_is_refused_once_the_timer_runs() -> None:
    state, _ = act(new(variant="advanced"), Press(NEXT), Press(NEXT), at=1.0)
    with pytest.raises(RuleError, match="before the timer starts"):
        act(state, Press(DOWN), at=2.0)


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_v3_game_redeye_never_ends_for_too_few_tiles(variant: str) -> None:
    state = new(variant=variant, timer="off")
    state, _ = act(state, Press(NEXT))
    while not (state.step == "departure" and state.round == v3.REDEYE_ROUND):
        state, _ = act(state, Press(NEXT))
    for action in (Hold(NEXT), Press(DOWN)):
        with pytest.raises(RuleError, match="the Redeye draws no tiles"):
            act(state, action)
    assert "too few" not in " ".join(now_boarding_v3_screen(state, 0.0).text_lines())


def test_v3_game_departure_says_to_redraw_a_passenger_at_its_own_destination() -> None:
    for state in (act(new(), Press(NEXT))[0], act(new(variant="advanced"), Press(NEXT))[0]):
        text = " ".join(now_boarding_v3_screen(state, 0.0).text_lines())
        assert "Drawn at its destination? Put back, draw another." in text


# -- the Lost pile -------------------------------------------------------------------------------


def to_arrival(state: V3State) -> V3State:
    state, _ = act(state, Press(NEXT))
    while state.step != "arrival":
        state, _ = act(state, Press(NEXT))
    return state


def test_v3_game_advanced_loss_exactly_when_the_lost_pile_passes_twice_the_players() -> None:
    state = to_arrival(new(variant="advanced", players="4"))
    state, plays = act(state, *[Press(UP)] * 7)
    assert plays == [Play("click")] * 7
    state, plays = act(state, Press(UP))
    assert state.lost == 8 and plays == [Play("danger")] and GAME.result(state) is None
    state, plays = act(state, Press(UP))
    assert plays == [Play("lose")]
    assert state.lost == 9 and GAME.result(state) == "lose"
    body = GAME.to_json(state, 0.0)
    assert (body["phase"], body["step"], body["result"]) == ("over", "over", "lose")
    with pytest.raises(RuleError, match="game over"):
        act(state, Press(NEXT))


def test_v3_game_basic_has_no_loss_and_the_pile_goes_into_the_score() -> None:
    state = to_arrival(new(players="3"))
    state, _ = act(state, *[Press(UP)] * 12, Press(DOWN))
    assert state.lost == 11 and GAME.result(state) is None


def test_v3_game_lost_pile_changes_only_where_passengers_are_lost() -> None:
    state, _ = act(new(), Press(NEXT))
    with pytest.raises(RuleError, match="Lost pile"):
        act(state, Press(UP))
    arrival = to_arrival(new())
    with pytest.raises(RuleError, match="empty"):
        act(arrival, Press(DOWN))
    purchase, _ = act(arrival, Press(NEXT))
    with pytest.raises(RuleError):
        act(purchase, Press(UP))


# -- score entry ---------------------------------------------------------------------------------


def enter_totals(state: V3State, totals: list[int]) -> V3State:
    for total in totals:
        state, _ = act(state, *[Press(UP)] * total, Press(NEXT))
    return state


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_v3_game_entry_gives_exactly_the_scorer_result(variant: str) -> None:
    state = to_arrival(new(variant=variant, players="4", timer="off"))
    state, _ = act(state, *[Press(UP)] * 5)
    while state.step != "entry":
        state, _ = act(state, Press(NEXT))
    state = enter_totals(state, [17, 20, 12])
    assert GAME.result(state) is None
    state, _ = act(state, *[Press(UP)] * 30, *[Press(DOWN)] * 2)
    state, plays = act(state, Press(NEXT))
    assert plays == [Play("win")]
    expected = v3.score({"variant": variant, "lost": 5, "players": [
        {"name": "P1", "total": 17}, {"name": "P2", "total": 20}, {"name": "P3", "total": 12},
        {"name": "P4", "total": 28}]})
    assert GAME.result(state) == expected
    assert expected["score"] == 20 and expected["rating"] == "Great"
    assert GAME.to_json(state, 0.0)["result"] == expected


def test_v3_game_entry_refuses_below_zero() -> None:
    state, _ = act(new(), Press(NEXT), Press(DOWN), Press(NEXT), Press(NEXT))
    with pytest.raises(RuleError, match="0 or more"):
        act(state, Press(DOWN))
    state, _ = act(state, Hold(UP))  # a held UP acts as a press
    assert state.draft == 1


# -- screens -------------------------------------------------------------------------------------


class Shown:
    """A game on the App, driven by gestures and ticks, whose every screen is checked."""

    def __init__(self, **options: str) -> None:
        self.app = App([GAME])
        self.t = 0.0
        self.state, _ = self.app.new_game(AppState(), "now-boarding-v3", options, 1, 0.0)
        self.steps: set[str] = set()
        self.look()

    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, self.t)

    def look(self) -> None:
        assert self.state.session is not None
        check_fits(screen_for(self.app, self.state, self.t))
        check_fits(now_boarding_v3_screen(self.state.session.state, self.t))
        self.steps.add(str(self.json()["step"]))

    def do(self, button: Button, kind: str = "press", times: int = 1) -> None:
        for _ in range(times):
            self.t += 0.5
            try:
                self.state, _ = self.app.gesture(
                    self.state, Gesture("hold" if kind == "hold" else "press", button, self.t),
                    self.t)
            except RuleError as error:
                self.state = self.app.refuse(self.state, error)
            self.look()

    def wait(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t < end:
            self.t = min(end, self.t + 7.3)
            self.state, _ = self.app.tick(self.state, self.t)
            self.look()


@pytest.mark.parametrize(("players", "variant"), [(3, "advanced"), (4, "basic"),
                                                  (6, "advanced")])
def test_v3_game_every_screen_of_a_whole_game_fits(players: int, variant: str) -> None:
    shown = Shown(players=str(players), variant=variant)
    shown.do(UP)  # refused at setup
    shown.do(NEXT)
    timed = variant == "advanced"
    for _ in range(500):
        body = shown.json()
        if body["step"] == "entry":
            break
        if body["step"] == "departure" and timed:
            shown.do(NEXT)
            if body["round"] % 2:
                shown.wait(25)
                shown.do(NEXT, "hold")
                shown.do(NEXT, "hold")
                shown.wait(40)  # runs out: Arrival
            else:
                shown.do(NEXT)
        elif body["step"] in ("arrival", "redeye-lost"):
            if body["round"] == 3 or not timed:  # advanced: stay under 2 x players lost
                shown.do(UP, times=1 if timed else 3)
            shown.do(NEXT)
        else:
            shown.do(NEXT)
    assert shown.json()["step"] == "entry"
    for seat in range(players):
        shown.do(UP, times=20 + 7 * seat)
        shown.do(NEXT)
    body = shown.json()
    assert body["phase"] == "over" and body["result"]["players"][-1]["total"] == 20 + 7 * (
        players - 1)
    assert shown.steps >= {"setup", "departure", "arrival", "purchase", "redeye-lost",
                           "final-purchase", "shuffle-score-piles", "new-city", "game-over",
                           "entry", "over"}


def test_v3_game_the_loss_screen_fits() -> None:
    shown = Shown(players="6", variant="advanced")
    shown.do(NEXT, times=3)
    shown.do(UP, times=13)
    assert shown.json()["result"] == "lose"
    assert now_boarding_v3_screen(shown.state.session.state, 0.0).title == "GAME LOST"  # type: ignore[union-attr]


def test_v3_game_to_entry_counts_the_presses_of_a_whole_untimed_game() -> None:
    state = new()
    for _ in range(TO_ENTRY):
        state, _ = act(state, Press(NEXT))
    assert state.step == "entry"


@pytest.mark.parametrize("name", sorted(SCENES))
def test_v3_game_scenes_play_without_a_refusal(name: str) -> None:
    app = App([GAME])
    lines = SCENES[name]
    options = dict(part.split("=") for part in lines[0].split()[2:])
    state, _ = app.new_game(AppState(), "now-boarding-v3", options, 1, 0.0)
    t = 0.0
    for line in lines[1:]:
        words = line.split()
        if words[0] == "wait":
            t += float(words[1])
            state, _ = app.tick(state, t)
            continue
        t += 0.5
        state, _ = app.gesture(state, Gesture(words[0], Button(words[1]), t), t)  # type: ignore[arg-type]
    check_fits(screen_for(app, state, t))


@pytest.mark.parametrize(("variant", "lost", "first", "last"), [
    ("basic", 20, "Rating: PERFECT", "Lost pile: 20"),
    ("advanced", 8, "Rating: PERFECT", "Lost 8: table wins!"),
    ("advanced", 9, "No rating: game lost", "Lost 9: table loses."),
])
def test_v3_result_screen_rates_basic_and_never_rates_a_lost_game(
        variant: str, lost: int, first: str, last: str) -> None:
    state = V3State(players=4, variant=variant, duration=None, phase="over", step="over",
                    day=3, round=6, lost=lost, reason="day-3", totals=(50, 50, 50, 50))
    screen = now_boarding_v3_screen(state, 0.0)
    check_fits(screen)
    assert (screen.main, screen.lines[-1]) == (first, last)  # the rating reads from a seat
