"""Planes on the box: the boarding track, the end triggers, score entry and every screen."""

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
from companion.games import planes
from companion.games.planes.game import PlanesGame, PlanesState
from companion.ui.render import HEIGHT, WIDTH, render
from companion.ui.screen import (
    Screen,
    reads_from_a_seat,
    screen_problems,
)
from companion.ui.views import screen_for
from companion.ui.views.planes import SCENES, planes_screen

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN
GAME = PlanesGame()
RED, BLUE, GREEN, YELLOW, GREY = range(5)


def new(**options: str) -> PlanesState:
    resolved = {"players": "2", "short": "12", "grey": "2", **options}
    return GAME.new(resolved, 0)


def act(state: PlanesState, *actions: GameAction) -> tuple[PlanesState, list[Play]]:
    plays: list[Play] = []
    for action in actions:
        state, effects = GAME.step(state, action, 0.0)
        plays.extend(effects)
    return state, plays


def press(button: Button) -> Press:
    return Press(button)


def board(state: PlanesState, colour: int, cubes: int = 1) -> tuple[PlanesState, list[Play]]:
    """Move the cursor to ``colour`` and board ``cubes`` cubes of it."""
    steps = (colour - state.cursor) % 5
    return act(state, *([press(NEXT)] * steps), *([press(UP)] * cubes))


def check_fits(screen: Screen) -> None:
    assert not screen_problems(screen), screen_problems(screen)
    assert reads_from_a_seat(screen), screen.text_lines()
    assert render(screen).size == (WIDTH, HEIGHT)


# -- options -------------------------------------------------------------------------------------


def test_planes_game_options_default_to_two_players_and_track_12() -> None:
    state = new()
    assert (state.players, state.mark, state.grey_planes) == (2, 12, 2)
    assert GAME.to_json(state, 0.0)["phase"] == "play"


@pytest.mark.parametrize("options", [{"players": "5"}, {"players": "1"}, {"short": "0"},
                                     {"short": "13"}, {"players": "x"}])
def test_planes_game_refuses_bad_options(options: dict[str, str]) -> None:
    with pytest.raises(OptionError):
        new(**options)


def test_planes_game_options_through_the_app_accept_any_mark_1_to_12() -> None:
    app = App([GAME])
    state, _ = app.new_game(AppState(), "planes", {"players": "4", "short": "5"}, 1, 0.0)
    assert state.session is not None
    assert app.to_json(state, 0.0)["mark"] == 5
    with pytest.raises(RuleError):
        app.new_game(AppState(), "planes", {"short": "20"}, 1, 0.0)


# -- boarding and the end triggers --------------------------------------------------------------


def test_planes_game_up_boards_a_cube_of_the_cursor_colour_and_moves_the_track() -> None:
    state, plays = board(new(), BLUE, 2)
    body = GAME.to_json(state, 0.0)
    assert body["colour"] == "blue"
    assert body["cubes"]["blue"] == 2 and body["track"] == 2
    assert plays == [Play("click"), Play("click")]
    state, _ = act(state, press(DOWN))
    assert GAME.to_json(state, 0.0)["track"] == 1


def test_planes_game_end_trigger_at_12_on_the_track() -> None:
    state = new(players="4")
    for colour in (RED, BLUE, GREEN):
        state, _ = board(state, colour, 4)  # 12 cubes, no plane full (4 of 5 slots)
        if colour != GREEN:
            assert state.step == "board"
    assert state.step == "trigger"
    assert GAME.to_json(state, 0.0)["trigger"] == planes.TRIGGER_BOARDING_TRACK


def test_planes_game_the_11th_cube_does_not_trigger_the_end() -> None:
    state, _ = board(new(players="4"), RED, 4)
    state, _ = board(state, BLUE, 4)
    state, plays = board(state, GREY, 3)
    assert state.step == "board" and GAME.to_json(state, 0.0)["track"] == 11
    state, plays = act(state, press(UP))
    assert state.step == "trigger" and plays == [Play("final-round")]


def test_planes_game_end_trigger_at_a_shorter_mark() -> None:
    state, _ = board(new(short="8"), RED, 4)
    state, _ = board(state, GREY, 3)
    assert state.step == "board"
    state, plays = act(state, press(UP))
    assert state.step == "trigger" and plays == [Play("final-round")]
    body = GAME.to_json(state, 0.0)
    assert (body["track"], body["mark"], body["trigger"]) == (8, 8, "boarding-track")


def test_planes_game_end_trigger_by_a_full_plane() -> None:
    state, _ = board(new(), YELLOW, 4)  # a neutral colour's plane counts too
    assert state.step == "board"
    state, plays = act(state, press(UP))
    body = GAME.to_json(state, 0.0)
    assert state.step == "trigger" and plays == [Play("final-round")]
    assert body["trigger"] == planes.TRIGGER_PLANE_FULL and body["full"] == ["yellow"]
    assert body["track"] == 5


def test_planes_game_grey_planes_are_full_only_when_all_are() -> None:
    state, _ = board(new(grey="2"), GREY, 5)
    assert state.step == "board"
    state, _ = board(state, GREY, 5)
    assert state.step == "trigger" and GAME.to_json(state, 0.0)["full"] == ["grey"]
    one, _ = board(new(grey="1"), GREY, 5)
    assert one.step == "trigger"
    none = new(grey="0")
    with pytest.raises(RuleError, match="no Grey plane"):
        board(none, GREY, 1)


def test_planes_game_refusals_leave_the_state_alone() -> None:
    state, _ = board(new(), RED, 4)
    with pytest.raises(RuleError, match="no Blue cube"):
        act(state, press(NEXT), press(DOWN))
    full, _ = board(new(short="12"), GREEN, 5)
    full, _ = act(full, press(NEXT))  # trigger step: confirm seat 1
    before = full
    with pytest.raises(RuleError, match="Green plane is full"):
        act(full, press(UP))
    assert full == before
    with pytest.raises(RuleError, match="no end trigger"):
        act(state, Hold(NEXT))
    with pytest.raises(RuleError):
        act(state, Expire())
    assert act(state, Restore())[0] == state


def test_planes_game_the_trigger_asks_whose_turn_and_counts_the_turns_left() -> None:
    state, _ = board(new(players="4", short="3"), RED, 3)
    assert state.step == "trigger"
    state, _ = act(state, press(UP))  # it was Blue's turn (seat 2)
    body = GAME.to_json(state, 0.0)
    assert body["turn"] is None  # not confirmed yet
    state, _ = act(state, press(NEXT))
    body = GAME.to_json(state, 0.0)
    assert state.step == "last-round"
    assert body["turn"] == "Blue" and body["turns_left"] == 2
    assert planes_screen(state, 0.0).title == "Finish round: 2 turns"
    state2, _ = act(state, press(DOWN))  # UP / DOWN wrap around the seats in the question
    assert state2.cubes[RED] == 2 and state2.step == "board"  # a correction undoes the trigger


def test_planes_game_cubes_keep_boarding_in_the_last_round() -> None:
    state, _ = board(new(short="2"), RED, 2)
    state, _ = act(state, press(DOWN), press(NEXT))  # it was Blue's turn: 0 turns left
    assert GAME.to_json(state, 0.0)["turns_left"] == 0
    state, _ = board(state, BLUE, 2)
    assert state.step == "last-round" and GAME.to_json(state, 0.0)["track"] == 4
    state, _ = act(state, Hold(NEXT))
    assert state.step == "goals" and GAME.to_json(state, 0.0)["phase"] == "score"


# -- score entry ---------------------------------------------------------------------------------


def finish_play(state: PlanesState) -> PlanesState:
    """Fire the end trigger and go to score entry."""
    state, _ = board(state, GREY, state.mark - sum(state.cubes))
    state, _ = act(state, press(NEXT), Hold(NEXT))
    return state


def enter(state: PlanesState, goals: list[int], boarded: int) -> PlanesState:
    """One player's entry: each goal card set with UP, NEXT between cards, hold NEXT ends."""
    actions: list[GameAction] = []
    for position, value in enumerate(goals):
        if position:
            actions.append(press(NEXT))
        actions.extend([press(UP)] * value)
    actions.append(Hold(NEXT))
    state, _ = act(state, *actions)
    change = boarded - state.boarded
    state, _ = act(state, *([press(UP if change > 0 else DOWN)] * abs(change)), press(NEXT))
    return state


def test_planes_game_entry_gives_exactly_the_scorer_result() -> None:
    state = finish_play(new(players="3", short="6"))
    data = [([1, 1, 2, 3], 4), ([], 0), ([3, 2], 5)]
    for goals, boarded in data:
        assert GAME.result(state) is None
        state = enter(state, goals, boarded)
    expected = planes.score({"players": [
        {"name": name, "goals": goals, "boarded": boarded}
        for name, (goals, boarded) in zip(("Red", "Blue", "Green"), data, strict=True)]})
    assert state.step == "result"
    assert GAME.result(state) == expected
    body = GAME.to_json(state, 0.0)
    assert body["result"] == expected and body["phase"] == "over"
    assert expected["players"][0]["total"] == 27


def test_planes_game_boarded_starts_from_the_box_count_of_the_own_plane() -> None:
    state, _ = board(new(short="4"), BLUE, 3)
    state, _ = board(state, RED, 1)
    state, _ = act(state, press(NEXT), Hold(NEXT), Hold(NEXT))  # Red: no goal cards
    assert state.step == "boarded" and state.boarded == 1
    state, _ = act(state, press(NEXT), Hold(NEXT))
    assert state.boarded == 3


def test_planes_game_entry_refusals() -> None:
    state = finish_play(new())
    with pytest.raises(RuleError, match="set this card's VP"):
        act(state, press(NEXT))
    with pytest.raises(RuleError, match="no card"):
        act(state, press(DOWN))
    state, _ = act(state, *([press(UP)] * 10))
    with pytest.raises(RuleError, match="at most 10"):
        act(state, press(UP))
    state, _ = act(state, Hold(NEXT))
    assert state.cards == (10,)
    state, _ = act(state, *([press(UP)] * 5))
    with pytest.raises(RuleError, match="5 party cubes"):
        act(state, press(UP))


def test_planes_game_a_held_list_end_with_no_value_adds_no_card() -> None:
    state = finish_play(new())
    state, _ = act(state, press(UP), press(UP), press(NEXT), Hold(NEXT))
    assert state.cards == (2,)


def test_planes_game_result_pages_cycle() -> None:
    state = finish_play(new())
    state = enter(enter(state, [2], 1), [1], 0)
    assert state.page == 0
    state, _ = act(state, press(NEXT), press(NEXT))
    assert state.page == 2
    state, _ = act(state, press(NEXT))
    assert state.page == 0
    state, _ = act(state, press(DOWN))
    assert state.page == 2


# -- undo (App replay) and screens --------------------------------------------------------------


class Shown:
    """A game on the App whose every screen is checked after every input."""

    def __init__(self, **options: str) -> None:
        self.app = App([GAME])
        self.t = 0.0
        self.state, _ = self.app.new_game(AppState(), "planes", options, 1, 0.0)
        self.steps: set[str] = set()
        self.look()

    def look(self) -> None:
        assert self.state.session is not None
        check_fits(screen_for(self.app, self.state, self.t))
        check_fits(planes_screen(self.state.session.state, self.t))
        self.steps.add(str(self.json()["step"]))

    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, self.t)

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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_planes_game_every_screen_of_a_whole_game_fits(players: int) -> None:
    shown = Shown(players=str(players))
    shown.do(DOWN)  # refused: the alert shows
    for _ in range(5):
        shown.do(UP, times=2)
        shown.do(NEXT)
    shown.do(UP)  # red at 3: track 11
    assert shown.json()["step"] == "board"
    shown.do(NEXT)
    shown.do(UP)  # blue at 3: track 12 -> trigger
    assert shown.json()["step"] == "trigger"
    shown.do(UP, times=players)
    shown.do(NEXT)
    shown.do(NEXT, times=4)
    shown.do(UP)  # the last round still boards
    shown.do(NEXT, "hold")
    for seat in range(players):
        shown.do(UP, times=3 + seat)
        shown.do(NEXT)
        shown.do(UP, times=10)  # the 11th is refused
        shown.do(NEXT)
        shown.do(UP, times=2)
        shown.do(NEXT, "hold")
        shown.do(DOWN, times=6)  # down to 0, then refused
        shown.do(UP, times=seat + 1)
        shown.do(NEXT)
    assert shown.json()["phase"] == "over"
    shown.do(NEXT, times=players + 2)
    shown.do(DOWN, times=2)
    assert shown.steps == {"board", "trigger", "last-round", "goals", "boarded", "result"}
    result = shown.json()["result"]
    assert result == planes.score(shown.json()["entry"]["input"])
    assert shown.json()["entry"]["input"]["players"][0]["goals"] == [3, 10, 2]


def test_planes_game_undo_replays_to_the_same_track() -> None:
    shown = Shown(players="2", short="3")
    shown.do(UP, times=3)
    assert shown.json()["step"] == "trigger"
    shown.state, _ = shown.app.undo(shown.state, shown.t)
    body = shown.json()
    assert body["step"] == "board" and body["track"] == 2


@pytest.mark.parametrize("name", sorted(SCENES))
def test_planes_game_scenes_play_without_a_refusal(name: str) -> None:
    app = App([GAME])
    lines = SCENES[name]
    assert lines[0].startswith("new planes")
    options = dict(part.split("=") for part in lines[0].split()[2:])
    state, _ = app.new_game(AppState(), "planes", options, 1, 0.0)
    t = 0.0
    for line in lines[1:]:
        kind, button = line.split()
        t += 0.5
        state, _ = app.gesture(state, Gesture(kind, Button(button), t), t)  # type: ignore[arg-type]
    check_fits(screen_for(app, state, t))
