"""Time only moves forward in the app's ticks (DESIGN rule 18): a tick at an instant earlier
than the last one is taken as the last one, so a warning already heard never sounds again,
whatever order the instants come in."""

from hypothesis import given
from hypothesis import strategies as st

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import Play
from companion.games.timer import RoundTimer

MARKS = ("warning-10", "warning-5", "warning-3", "warning-2", "warning-1")


@given(st.lists(st.floats(min_value=0.0, max_value=16.0, allow_nan=False), max_size=40))
def test_app_tick_sounds_each_warning_at_most_once_for_instants_in_any_order(instants):
    app = App([RoundTimer()])
    state, _ = app.new_game(AppState(), "timer", {"seconds": "15"}, 1, 0.0)
    state, _ = app.gesture(state, Gesture("press", Button.NEXT, 0.0), 0.0)
    heard: list[str] = []
    last_tick = state.last_tick
    for instant in instants:
        state, effects = app.tick(state, instant)
        heard.extend(effect.tune for effect in effects
                     if isinstance(effect, Play) and effect.tune.startswith("warning"))
        assert state.last_tick >= last_tick  # never moved back
        last_tick = state.last_tick
    assert len(heard) == len(set(heard))
    # The marks heard are exactly those whose instant lies at or before the latest tick.
    latest = max(instants, default=0.0)
    assert heard == [tune for tune, mark in zip(MARKS, (10, 5, 3, 2, 1), strict=True)
                     if 15 - mark <= latest]


def test_app_tick_in_the_past_sounds_nothing_again():
    app = App([RoundTimer()])
    state, _ = app.new_game(AppState(), "timer", {"seconds": "15"}, 1, 0.0)
    state, _ = app.gesture(state, Gesture("press", Button.NEXT, 0.0), 0.0)
    state, effects = app.tick(state, 12.5)
    assert effects == [Play("warning-10"), Play("warning-5"), Play("warning-3")]
    state, effects = app.tick(state, 8.0)  # a wake-up instant already past
    assert effects == []
    assert state.last_tick == 12.5
    state, effects = app.tick(state, 13.0)
    assert effects == [Play("warning-2")]
