"""Overbooked score entry on the box: the button flow, its refusals, undo, and every screen."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import (
    Expire,
    GameAction,
    Hold,
    OptionError,
    Press,
    Restore,
    RuleError,
    resolve_options,
)
from companion.games.overbooked import EVENT_IDS, OverbookedEntry, score
from companion.games.overbooked.game import MAX_COUNT, OverbookedEntryState
from companion.ui.render import render
from companion.ui.screen import (
    LINE_WIDTH,
    SMALL_LINE_WIDTH,
    Screen,
    choice_line,
    reads_from_a_seat,
    screen_problems,
)
from companion.ui.views import screen_for
from companion.ui.views.overbooked import overbooked_screen, plane_lines

GAME = OverbookedEntry()
NEXT, UP, DOWN = Press(Button.NEXT), Press(Button.UP), Press(Button.DOWN)
DONE = Hold(Button.NEXT)


def start(**given: str) -> OverbookedEntryState:
    return GAME.new(resolve_options(GAME.options, given), seed=1)


def run(state: OverbookedEntryState, actions: Iterable[GameAction]) -> OverbookedEntryState:
    for action in actions:
        state, _ = GAME.step(state, action, 0.0)
    return state


def refused(state: OverbookedEntryState, action: GameAction) -> str:
    with pytest.raises(RuleError) as error:
        GAME.step(state, action, 0.0)
    return error.value.message


def counts(overbooked: int = 0, voucher_steps: int = 0, bonus: int | None = None,
           ) -> list[GameAction]:
    """Presses for the counting steps after a plane: overbooked, vouchers (+/-), bonus cards."""
    actions: list[GameAction] = [*[UP] * overbooked, NEXT]
    actions += [UP if voucher_steps > 0 else DOWN] * abs(voucher_steps) + [NEXT]
    if bonus is not None:
        actions += [UP] * bonus + [NEXT]
    return actions


def rows(state: OverbookedEntryState, player: int = 0) -> list[str]:
    players: list[dict[str, Any]] = GAME.to_json(state, 0.0)["entry"]["players"]
    seats: list[str] = players[player]["seats"]
    return seats


# -- options --------------------------------------------------------------------------------------


def test_overbooked_entry_options_defaults_and_board_auto() -> None:
    state = start()
    body = GAME.to_json(state, 0.0)
    assert (body["game"], body["players"], body["phase"], body["step"]) == (
        "overbooked", 2, "entry", "seats")
    assert body["result"] is None and body["board"] == "1-3-player" and body["events"] == []
    assert rows(state) == ["...|....|..."] * 5
    assert start(players="4").board == "4-player"
    assert rows(start(players="4"))[0] == "....|...."
    assert start(players="2", board="4-player").board == "4-player"


def test_overbooked_entry_events_option_takes_a_list_and_refuses_unknown_or_repeated() -> None:
    assert start(events="meteor-shower,full-flight").events == ("meteor-shower", "full-flight")
    for bad in ("meteor", "full-flight,full-flight", ""):
        with pytest.raises(OptionError):
            start(events=bad)
    with pytest.raises(OptionError):
        start(players="5")


def test_overbooked_entry_menu_choice_lines_fit() -> None:
    for spec in GAME.options:
        for choice in spec.choices:
            line = choice_line(spec.label, choice)
            assert len(line) <= LINE_WIDTH and line.startswith(spec.label[:4]), line


# -- seats ----------------------------------------------------------------------------------------


def test_overbooked_entry_up_cycles_occupants_and_down_goes_back() -> None:
    state = start(players="4")
    seen = []
    for _ in range(6):
        state = run(state, [UP])
        seen.append(GAME.to_json(state, 0.0)["cursor"]["occupant"])
    assert seen == ["R", "W", "B", "G", "Y", "."]
    state = run(state, [DOWN])
    assert GAME.to_json(state, 0.0)["cursor"]["occupant"] == "Y"
    state = run(state, [DOWN, DOWN])
    assert rows(state)[0] == "B...|...."


def test_overbooked_entry_next_moves_in_reading_order() -> None:
    state = run(start(players="4"), [UP, NEXT, UP, UP, *[NEXT] * 7, UP, UP, UP])
    assert rows(state)[:2] == ["RW..|....", "B...|...."]
    cursor = GAME.to_json(state, 0.0)["cursor"]
    assert (cursor["index"], cursor["row"], cursor["column"]) == (8, 1, 0)


def test_overbooked_entry_finishing_early_leaves_the_rest_empty() -> None:
    state = run(start(players="4"), [UP, NEXT, DOWN, DONE])
    assert state.step == "overbooked"
    assert rows(state) == ["RY..|....", *["....|...."] * 4]


def test_overbooked_entry_next_on_the_last_seat_finishes_the_plane() -> None:
    state = run(start(players="4"), [*[NEXT] * 39, UP])
    assert state.step == "seats" and rows(state)[4] == "....|...R"
    assert run(state, [NEXT]).step == "overbooked"


# -- counts ---------------------------------------------------------------------------------------


def test_overbooked_entry_counts_cannot_go_negative() -> None:
    state = run(start(), [DONE])
    assert "below 0" in refused(state, DOWN)
    state = run(state, [NEXT])
    assert state.step == "vouchers" and state.sheet.vouchers == 6
    state = run(state, [DOWN] * 6)
    assert state.sheet.vouchers == 0
    before = state
    assert "vouchers cannot go below 0" in refused(state, DOWN)
    assert state == before


def test_overbooked_entry_counts_stop_at_the_top() -> None:
    state = run(start(), [DONE, *[UP] * MAX_COUNT])
    assert state.sheet.overbooked == MAX_COUNT
    assert f"at most {MAX_COUNT}" in refused(state, UP)


def test_overbooked_entry_hold_next_is_refused_in_a_counting_step() -> None:
    state = run(start(), [DONE])
    assert "NEXT confirms" in refused(state, DONE)


def test_overbooked_entry_bonus_cards_only_in_advanced() -> None:
    base = run(start(), [DONE, *counts(1, -1)])
    assert (base.step, base.player) == ("seats", 1)
    advanced = run(start(variant="advanced"), [DONE, *counts(1, -1)])
    assert (advanced.step, advanced.player) == ("bonus-cards", 0)
    advanced = run(advanced, [UP, UP, NEXT])
    assert (advanced.step, advanced.player) == ("seats", 1)
    assert GAME.to_json(advanced, 0.0)["entry"]["players"][0]["bonus_cards"] == 2


# -- whole entries and the result -----------------------------------------------------------------


def test_overbooked_entry_result_is_exactly_the_scorer_of_the_entry() -> None:
    state = run(start(players="3", events="full-flight"), [
        UP, NEXT, UP, DONE, *counts(2, 1),
        UP, UP, NEXT, UP, UP, DONE, *counts(0, -3),
        DONE, *counts(2, 0),
    ])
    body = GAME.to_json(state, 0.0)
    assert (body["phase"], body["step"], body["player"]) == ("over", "result", None)
    entry = body["entry"]
    assert [p["name"] for p in entry["players"]] == ["P1", "P2", "P3"]
    assert entry["players"][0] == {"name": "P1", "seats": ["RR.|....|...", *["...|....|..."] * 4],
                                   "overbooked": 2, "vouchers": 7, "bonus_cards": 0}
    assert body["result"] == score(entry) == GAME.result(state)
    assert entry["events"] == ["full-flight"] and "solo" not in entry


def test_overbooked_entry_result_pages_wrap_and_nothing_more_is_entered() -> None:
    state = run(start(), [DONE, *counts(), DONE, *counts()])
    pages = len(state.pages)
    assert pages >= 3 and state.pages[0].player is None
    assert run(state, [NEXT] * pages).page == 0
    assert run(state, [UP]).page == pages - 1
    assert run(state, [DOWN]).page == 1
    assert "scores are in" in refused(state, DONE)


def test_overbooked_entry_solo_flow() -> None:
    state = start(players="1", scenario="couples", difficulty="hard")
    assert state.solo == ("couples-retreat", "hard")
    state = run(state, [UP, NEXT, UP, DONE, NEXT])
    assert state.step == "vouchers" and state.sheet.vouchers == 2
    state, plays = GAME.step(state, NEXT, 0.0)
    body = GAME.to_json(state, 0.0)
    assert body["entry"]["solo"] == {"scenario": "couples-retreat", "difficulty": "hard"}
    assert body["result"] == score(body["entry"])
    assert body["result"]["solo"]["won"] is False and body["result"]["winners"] == []
    assert [play.tune for play in plays] == ["lose"]
    assert start(players="1", scenario="schools-out").solo == ("schools-out", "easy")
    assert start(players="2", scenario="friends").solo is None


def test_overbooked_entry_events_step() -> None:
    state = start(events="choose")
    assert GAME.to_json(state, 0.0)["phase"] == "setup" and state.step == "events"
    assert "not in play" in refused(state, DOWN)
    state = run(state, [NEXT, NEXT, UP, NEXT, UP, DOWN, NEXT, UP])
    assert state.events == (EVENT_IDS[2], EVENT_IDS[4])
    assert "already in play" in refused(state, UP)
    state = run(state, [DONE])
    assert (state.step, state.cursor) == ("seats", 0)
    state = run(state, [DONE, *counts(), DONE, *counts()])
    assert GAME.result(state) == score(GAME.to_json(state, 0.0)["entry"])
    result = GAME.result(state)
    assert result is not None and result["events"] == [EVENT_IDS[2], EVENT_IDS[4]]


def test_overbooked_entry_restore_changes_nothing_and_expire_is_refused() -> None:
    state = run(start(), [UP])
    assert GAME.step(state, Restore(), 5.0) == (state, ())
    assert "no timer" in refused(state, Expire())
    assert GAME.countdown(state) is None


# -- undo through the App -------------------------------------------------------------------------


def gesture(app: App, state: AppState, kind: str, button: Button) -> AppState:
    state, _ = app.gesture(state, Gesture(kind, button, 0.0), 0.0)  # type: ignore[arg-type]
    return state


def test_overbooked_entry_hold_back_undoes_through_the_app() -> None:
    app = App([GAME])
    state, _ = app.new_game(AppState(), "overbooked", {"players": "4"}, 1, 0.0)
    for kind, button in [("press", Button.UP), ("press", Button.NEXT), ("press", Button.UP),
                         ("press", Button.UP), ("press", Button.NEXT)]:
        state = gesture(app, state, kind, button)
    body = app.to_json(state, 0.0)
    assert body["cursor"]["index"] == 2 and body["entry"]["players"][0]["seats"][0] == "RW..|...."
    state = gesture(app, state, "hold", Button.BACK)
    body = app.to_json(state, 0.0)
    assert body["cursor"]["index"] == 1 and body["cursor"]["occupant"] == "W"
    state = gesture(app, state, "hold", Button.BACK)
    assert app.to_json(state, 0.0)["cursor"]["occupant"] == "R"
    state = gesture(app, state, "hold", Button.BACK)
    assert app.to_json(state, 0.0)["entry"]["players"][0]["seats"][0] == "R...|...."


def test_overbooked_entry_undo_takes_back_the_finished_plane() -> None:
    app = App([GAME])
    state, _ = app.new_game(AppState(), "overbooked", {"players": "2"}, 1, 0.0)
    state = gesture(app, state, "press", Button.UP)
    state = gesture(app, state, "hold", Button.NEXT)
    assert app.to_json(state, 0.0)["step"] == "overbooked"
    state = gesture(app, state, "hold", Button.BACK)
    body = app.to_json(state, 0.0)
    assert body["step"] == "seats" and body["cursor"]["occupant"] == "R"


# -- screens --------------------------------------------------------------------------------------


def within_limits(screen: Screen) -> None:
    assert not screen_problems(screen), screen_problems(screen)
    assert reads_from_a_seat(screen), screen.text_lines()
    assert render(screen).size == (128, 64)


def every_screen(given: Mapping[str, str], buttons: Iterable[tuple[str, Button]],
                 ) -> list[Screen]:
    app = App([GAME])
    state, _ = app.new_game(AppState(), "overbooked", given, 1, 0.0)
    screens = [screen_for(app, state, 0.0)]
    for kind, button in buttons:
        try:
            state = gesture(app, state, kind, button)
        except RuleError as error:
            state = app.refuse(state, error)
        screens.append(screen_for(app, state, 0.0))
    return screens


def presses(actions: Iterable[GameAction]) -> list[tuple[str, Button]]:
    return [("press" if isinstance(a, Press) else "hold", a.button)  # type: ignore[union-attr]
            for a in actions]


def full_plane(seats: int) -> list[GameAction]:
    """Blue in the first half of the seats, yellow in the rest, the last by hold NEXT."""
    half = seats // 2
    return [*[UP, UP, UP, NEXT] * half, *[DOWN, NEXT] * (seats - half - 1), DOWN, DONE]


@pytest.mark.parametrize("given", [
    {"players": "2", "variant": "advanced", "events": "choose"},
    {"players": "4", "variant": "base", "events": ",".join(EVENT_IDS)},
    {"players": "3", "variant": "advanced", "events": "none", "board": "4-player"},
])
def test_overbooked_entry_every_screen_of_a_whole_entry_fits(given: dict[str, str]) -> None:
    players = int(given["players"])
    actions: list[GameAction] = [UP, NEXT, UP, DOWN, DONE] if given["events"] == "choose" else []
    bonus = 3 if given["variant"] == "advanced" else None
    for player in range(players):
        seats = 40 if players == 4 or given.get("board") == "4-player" else 50
        actions += full_plane(seats) if player == 0 else [UP, NEXT, DOWN, DONE]
        actions += [DOWN, *counts(player, 5, bonus)]  # the DOWN at 0 is refused
    screens = every_screen(given, presses([*actions, *[NEXT] * 12, UP, DONE]))
    assert any(screen.alert for screen in screens)
    assert screens[-1].alert and "scores are in" in " ".join(screens[-1].alert)
    for screen in screens:
        within_limits(screen)


def test_overbooked_entry_solo_screens_fit() -> None:
    given = {"players": "1", "scenario": "friends", "difficulty": "medium"}
    for screen in every_screen(given, presses([*full_plane(50), *counts(2, -1), NEXT, NEXT, NEXT])):
        within_limits(screen)


def test_overbooked_entry_plane_shows_every_seat_and_the_cursor() -> None:
    state = run(start(players="4"), [UP, NEXT, UP, UP, NEXT])
    lines = plane_lines(state.sheet.seats, state.cursor)
    assert lines[0] == "    R W[.]. | . . . ."
    assert len(lines) == 5 and all(line.count("|") == 1 for line in lines)
    wide = plane_lines(start().sheet.seats, 11)
    assert wide[1] == " .[.]. | . . . . | . . ." and max(map(len, wide)) <= SMALL_LINE_WIDTH
    screen = overbooked_screen(state, 0.0)
    assert screen.title == "P1 seat 3/40 Empty" and screen.lines == lines[:3]
    assert screen.main == "UP/DN who  NEXT seat"  # the seat screen shows its keys
