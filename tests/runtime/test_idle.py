"""Idle dimming and the screen saver (core/idle.py, runtime/idle_screen.py), on a fake clock.

The panel dims after `dim_after_s` with no press, command or new screen, and switches off
after `saver_after_s`; never while a countdown runs; a press that finds it dim or off only
wakes it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.adapters.journal import Journal
from companion.core.app import App
from companion.core.buttons import Button
from companion.core.idle import AWAKE, DIM, SAVER, IdlePolicy, level_at, next_change
from companion.games.registry import playable_games, scorers
from companion.runtime import Controller
from companion.testing.clock import FakeClock
from companion.testing.recording import RecordingBuzzer, RecordingDisplay

POLICY = IdlePolicy(dim_after_s=10, saver_after_s=30)


@pytest.mark.parametrize(("idle_for", "busy", "level", "change"), [
    (0, False, AWAKE, 10),
    (9.9, False, AWAKE, 10),
    (10, False, DIM, 30),
    (29, False, DIM, 30),
    (30, False, SAVER, None),
    (500, False, SAVER, None),
    (500, True, AWAKE, None),   # a running countdown keeps it bright
])
def test_idle_policy_levels(idle_for: float, busy: bool, level: str,
                            change: float | None) -> None:
    assert level_at(POLICY, 100.0, 100.0 + idle_for, busy) == level
    expected = None if change is None else 100.0 + change
    assert next_change(POLICY, 100.0, 100.0 + idle_for, busy) == expected


@pytest.mark.parametrize(("policy", "levels"), [
    (IdlePolicy(0, 30), [AWAKE, SAVER]),      # never dim, only the saver
    (IdlePolicy(10, 0), [AWAKE, DIM]),        # dim, never off
    (IdlePolicy(0, 0), [AWAKE]),
])
def test_idle_policy_zero_switches_a_stage_off(policy: IdlePolicy, levels: list[str]) -> None:
    seen = []
    for second in range(0, 100):
        level = level_at(policy, 0.0, float(second), busy=False)
        if not seen or seen[-1] != level:
            seen.append(level)
    assert seen == levels


def test_idle_policy_refuses_negative_times() -> None:
    with pytest.raises(ValueError, match="idle times"):
        IdlePolicy(-1, 30)


def _box(tmp_path: Path) -> tuple[Controller, RecordingDisplay]:
    display = RecordingDisplay()
    controller = Controller(App(playable_games()), Journal.in_directory(tmp_path), FakeClock(),
                            display, RecordingBuzzer(), rng=random.Random(1),
                            scorers=scorers(), simulated=True, idle=POLICY)
    controller.refresh()
    return controller, display


def _tap(controller: Controller, button: Button, held: float = 0.05) -> None:
    controller.edge(button, True)
    controller.advance(held)
    controller.edge(button, False)


def _timer(controller: Controller) -> str:
    return str(controller.app.to_json(controller.state, controller.now())["timer"]["state"])


def test_idle_dims_then_switches_off_and_wakes_on_the_loop_s_deadline(tmp_path: Path) -> None:
    controller, display = _box(tmp_path)
    assert controller.next_wake() == pytest.approx(10)  # the loop sleeps until then
    controller.advance(10)
    assert display.idle == [DIM]
    controller.advance(20)
    assert display.idle == [DIM, SAVER]
    assert controller.next_wake() is None  # nothing more to do: the loop sleeps


def test_idle_a_press_on_a_dim_panel_only_wakes_it(tmp_path: Path) -> None:
    controller, display = _box(tmp_path)
    assert controller.command_line("new timer seconds=60") == "ok"
    controller.advance(11)
    assert display.idle == [DIM]
    _tap(controller, Button.NEXT)
    assert display.idle == [DIM, AWAKE]
    assert _timer(controller) == "idle"  # NEXT did not start the timer
    _tap(controller, Button.NEXT)
    assert _timer(controller) == "running"


def test_idle_a_hold_on_a_sleeping_panel_does_nothing_but_wake(tmp_path: Path) -> None:
    controller, display = _box(tmp_path)
    controller.command_line("new timer seconds=60")
    _tap(controller, Button.NEXT)
    controller.advance(1)
    controller.command_line("press next")  # end early: the timer stops, the panel may rest
    controller.advance(31)
    assert display.idle[-1] == SAVER
    state_before = controller.app.to_json(controller.state, controller.now())
    _tap(controller, Button.BACK, held=2.0)  # a hold of BACK would undo
    assert display.idle[-1] == AWAKE
    assert controller.app.to_json(controller.state, controller.now()) == state_before


def test_idle_never_dims_while_a_countdown_runs(tmp_path: Path) -> None:
    controller, display = _box(tmp_path)
    controller.command_line("new timer seconds=45")
    _tap(controller, Button.NEXT)
    controller.advance(44)
    assert _timer(controller) == "running"
    assert display.idle == []
    controller.advance(1)  # time is up: the alarm's screen is new, the idle time starts
    assert _timer(controller) == "expired"
    controller.advance(9.5)
    assert display.idle == []
    controller.advance(1)
    assert display.idle == [DIM]


def test_idle_a_protocol_command_acts_and_wakes(tmp_path: Path) -> None:
    controller, display = _box(tmp_path)
    controller.command_line("new timer seconds=60")
    controller.advance(31)
    assert display.idle == [DIM, SAVER]
    assert controller.command_line("press next") == "ok"  # a program cannot see the panel
    assert _timer(controller) == "running"
    assert display.idle[-1] == AWAKE


def test_idle_off_when_no_policy_is_given(tmp_path: Path) -> None:
    display = RecordingDisplay()
    controller = Controller(App(playable_games()), Journal.in_directory(tmp_path), FakeClock(),
                            display, RecordingBuzzer(), rng=random.Random(1),
                            scorers=scorers(), simulated=True)
    controller.advance(10_000)
    assert display.idle == []


class _Panel:
    """Records what the Display adapter asks of a luma device."""

    mode = "1"

    def __init__(self) -> None:
        self.calls: list[tuple[str, int | None]] = []

    def show(self) -> None:
        self.calls.append(("show", None))

    def hide(self) -> None:
        self.calls.append(("hide", None))

    def contrast(self, level: int) -> None:
        self.calls.append(("contrast", level))


def test_idle_display_adapter_dims_with_contrast_and_saves_by_switching_off() -> None:
    from companion.adapters.oled import BRIGHT_CONTRAST, DIM_CONTRAST, Display

    panel = _Panel()
    display = Display(panel)
    for level in (DIM, SAVER, AWAKE):
        display.set_idle(level)
    assert panel.calls == [("show", None), ("contrast", DIM_CONTRAST), ("hide", None),
                           ("show", None), ("contrast", BRIGHT_CONTRAST)]
