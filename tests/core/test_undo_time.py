"""Undo never spends time (core/app.py): the time between an action and its undo is not lost.

Before the fix, undo replayed the kept actions against their recorded instants, so a flight
paused at 12 s left, undone 30 s later, came back running from long ago and ended at once.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.app import App, AppState, JournalAction, JournalUndo
from companion.core.buttons import Button, Gesture
from companion.core.game import Restore, RuleError
from companion.games.now_boarding import NowBoarding
from companion.games.timer import RoundTimer

MOVES = ("next", "next", "next", "up", "down", "hold-next", "wait", "long-wait")


def gesture(app: App, state: AppState, kind: str, button: Button, at: float) -> AppState:
    state, _ = app.gesture(state, Gesture(kind, button, at), at)
    return state


def timer(app: App, state: AppState, at: float) -> dict[str, Any]:
    return dict(app.to_json(state, at)["timer"])


def test_undo_of_a_pause_keeps_the_paused_time() -> None:
    app = App([RoundTimer()])
    state, _ = app.new_game(AppState(), "timer", {"seconds": "15"}, 1, 0.0)
    state = gesture(app, state, "press", Button.NEXT, 0.0)  # start
    state = gesture(app, state, "hold", Button.NEXT, 3.0)  # pause at 12 s left
    state, effects = app.undo(state, 33.0)  # 30 s later
    assert effects[:2] == [JournalUndo(1), JournalAction(Restore(), 3.0)]
    state, _ = app.tick(state, 33.0)
    assert timer(app, state, 33.0) == {"state": "paused", "remaining": 12.0, "duration": 15.0}
    # The timer game has no words of its own; the pause is said with how to go on.
    assert state.notice == "undone: hold NEXT. Paused: hold NEXT."
    state = gesture(app, state, "hold", Button.NEXT, 40.0)  # resume: 12 s from now
    state, _ = app.tick(state, 51.9)
    assert timer(app, state, 51.9)["state"] == "running"


def test_undo_at_the_instant_of_the_action_leaves_the_countdown_running() -> None:
    app = App([RoundTimer()])
    state, _ = app.new_game(AppState(), "timer", {"seconds": "15"}, 1, 0.0)
    state = gesture(app, state, "press", Button.NEXT, 0.0)
    state = gesture(app, state, "hold", Button.NEXT, 3.0)
    state, effects = app.undo(state, 3.0)
    assert effects[0] == JournalUndo(1)
    assert timer(app, state, 3.0) == {"state": "running", "remaining": 12.0, "duration": 15.0}


def test_now_boarding_undo_right_after_an_expiry_says_what_was_undone() -> None:
    app = App([NowBoarding()])
    state, _ = app.new_game(AppState(), "now-boarding", {"players": "3"}, 1, 0.0)
    t = 0.0
    while app.to_json(state, t)["step"] != "ready":
        t += 1.0
        state = gesture(app, state, "press", Button.NEXT, t)
    state = gesture(app, state, "press", Button.NEXT, t)  # flight R1 starts
    state, _ = app.tick(state, t + 15.0)  # and runs out
    assert app.to_json(state, t + 15.0)["step"] == "anger"
    state = gesture(app, state, "hold", Button.BACK, t + 20.0)
    assert state.notice == "undone: flight R1 start"
    assert app.to_json(state, t + 20.0)["step"] == "ready"


@pytest.mark.parametrize(("moves", "notice"), [
    (("press",), "undone: flight R1 end. Paused: hold NEXT."),
    (("hold",), "undone: flight R1 pause. Paused: hold NEXT."),
    (("hold", "hold"), "undone: flight R1 resume"),
    (("press", "press"), "undone: +0 complaints R1"),  # one anger page (issue #35)
    (("press", "press", "press"), "undone: Morning draw R1"),
])
def test_now_boarding_undo_notice_names_the_action(moves: tuple[str, ...], notice: str) -> None:
    app = App([NowBoarding()])
    state, _ = app.new_game(AppState(), "now-boarding", {"players": "3"}, 1, 0.0)
    t = 0.0
    while app.to_json(state, t)["step"] != "flight":
        t += 1.0
        state = gesture(app, state, "press", Button.NEXT, t)
    for kind in moves:
        t += 1.0
        state = gesture(app, state, kind, Button.NEXT, t)
    state = gesture(app, state, "hold", Button.BACK, t + 1.0)
    assert state.notice == notice


@settings(deadline=None)
@given(game=st.sampled_from(["timer", "now-boarding"]),
       moves=st.lists(st.sampled_from(MOVES), max_size=120),
       undo_after=st.floats(0.0, 500.0), undos=st.integers(1, 4))
def test_undo_never_leaves_less_time_than_before_the_undone_action(
        game: str, moves: list[str], undo_after: float, undos: int) -> None:
    app = App([RoundTimer(), NowBoarding()])
    options = {"seconds": "20"} if game == "timer" else {"players": "3", "timer": "20"}
    state, _ = app.new_game(AppState(), game, options, 1, 0.0)
    t = 0.0
    # The timer just before each accepted player action, in order (undo pops them).
    before_actions: list[dict[str, Any]] = []
    for move in moves:
        if move in ("wait", "long-wait"):
            t += 1.5 if move == "wait" else 40.0
            state, _ = app.tick(state, t)
            continue
        t += 0.5
        state, _ = app.tick(state, t)
        kind = "hold" if move == "hold-next" else "press"
        button = {"next": Button.NEXT, "up": Button.UP, "down": Button.DOWN,
                  "hold-next": Button.NEXT}[move]
        seen = timer(app, state, t)
        try:
            state = gesture(app, state, kind, button, t)
        except RuleError:
            continue
        before_actions.append(seen)
    for _ in range(undos):
        t += undo_after
        state, _ = app.tick(state, t)
        try:
            state, _ = app.undo(state, t)
        except RuleError:
            assert not before_actions
            return
        state, _ = app.tick(state, t)  # what the box does next: a countdown due expires
        expected = before_actions.pop()
        now = timer(app, state, t)
        assert state.notice is not None and state.notice.startswith("undone: ")
        if expected["state"] in ("running", "paused"):
            assert now["state"] in ("running", "paused")
            assert now["remaining"] >= expected["remaining"]
