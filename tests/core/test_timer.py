"""The countdown on absolute deadlines (core/timer.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.timer import Countdown, TimerError, TimerState


def test_timer_alarm_fires_exactly_at_the_deadline():
    countdown = Countdown(30).start(100.0)
    assert countdown.deadline == 130.0
    assert not countdown.is_due(129.999999)
    assert countdown.is_due(130.0)
    assert countdown.expire(130.0).state is TimerState.EXPIRED


def test_timer_refuses_to_expire_early():
    countdown = Countdown(30).start(0.0)
    with pytest.raises(TimerError):
        countdown.expire(29.9)


@pytest.mark.parametrize(("pause_at", "resume_at", "look_at", "remaining"), [
    (10.0, 50.0, 50.0, 20.0),
    (10.0, 50.0, 60.0, 10.0),
    (0.5, 0.5, 1.0, 29.0),
    (29.0, 1000.0, 1000.5, 0.5),
])
def test_timer_pause_resume_arithmetic(pause_at, resume_at, look_at, remaining):
    countdown = Countdown(30).start(0.0).pause(pause_at)
    assert countdown.state is TimerState.PAUSED
    assert countdown.remaining(pause_at + 1000) == 30 - pause_at
    resumed = countdown.resume(resume_at)
    assert resumed.remaining(look_at) == pytest.approx(remaining)
    assert resumed.deadline == pytest.approx(resume_at + 30 - pause_at)


def test_timer_warnings_fire_once_each_in_order():
    countdown = Countdown(12, warnings=(10, 5, 3, 2, 1)).start(0.0)
    heard = []
    last = 0.0
    now = 0.0
    while (wake := countdown.next_wake(now)) is not None and not countdown.is_due(now):
        now = wake
        heard += countdown.warnings_between(last, now)
        last = now
    assert heard == [10, 5, 3, 2, 1]
    assert now == 12.0


def test_timer_warnings_at_or_above_the_duration_are_skipped():
    countdown = Countdown(5, warnings=(10, 5, 3)).start(0.0)
    assert countdown.warnings_between(-1.0, 5.0) == [3]


def test_timer_warnings_already_behind_a_resume_are_not_repeated():
    countdown = Countdown(30).start(0.0).pause(22.0).resume(100.0)  # 8 s left
    assert countdown.warnings_between(100.0, 108.0) == [5, 3, 2, 1]


def test_timer_end_early_keeps_what_was_left():
    ended = Countdown(30).start(0.0).end_early(12.5)
    assert ended.state is TimerState.EXPIRED
    assert ended.remaining(99.0) == 17.5
    assert ended.used(99.0) == 12.5


def test_timer_restart_after_expiry_runs_the_full_duration():
    again = Countdown(30).start(0.0).expire(30.0).start(40.0)
    assert again.state is TimerState.RUNNING
    assert again.remaining(40.0) == 30.0


@pytest.mark.parametrize("operation", ["start", "pause", "resume"])
def test_timer_refuses_operations_its_state_does_not_allow(operation):
    running = Countdown(30).start(0.0)
    idle = Countdown(30)
    with pytest.raises(TimerError):
        {"start": lambda: running.start(1.0), "pause": lambda: idle.pause(1.0),
         "resume": lambda: running.resume(1.0)}[operation]()


def test_timer_display_wakes_on_whole_seconds():
    countdown = Countdown(3, warnings=()).start(0.25)
    assert countdown.shown_seconds(0.25) == 3
    assert countdown.next_wake(0.25) == 1.25
    assert countdown.shown_seconds(1.25) == 2
    assert countdown.next_wake(1.25) == 2.25
    assert countdown.next_wake(2.25) == 3.25


@given(st.floats(min_value=1, max_value=600), st.floats(min_value=0, max_value=1e6),
       st.lists(st.floats(min_value=0.001, max_value=50), max_size=60))
def test_timer_never_ends_early_and_never_drifts(duration, start, gaps):
    countdown = Countdown(duration).start(start)
    now = start
    for gap in gaps:
        now += gap
        if countdown.is_due(now):
            assert now >= start + duration
            break
        assert countdown.remaining(now) == pytest.approx(start + duration - now, abs=1e-6)
