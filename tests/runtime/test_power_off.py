"""The menu's "Power off": asked first (core/power.py), performed by the runtime through
adapters/power.py (systemctl poweroff on a Pi; a message and a clean exit on the fake backend).
"""

from __future__ import annotations

import io
import subprocess
import time
from pathlib import Path

import pytest

from companion.adapters.power import FAKE_MESSAGE, POWER_OFF_COMMAND, power_off
from companion.core.app import App, AppState
from companion.core.appstate import Menu, PowerOff
from companion.core.buttons import Button, Gesture
from companion.core.game import Play, RuleError
from companion.core.power import POWER_OFF_ITEM, POWERING_OFF
from companion.games.timer import RoundTimer
from companion.testing.pty_box import PtyBox, read_line
from companion.testing.simulated import simulated_controller


def _press(app: App, state: AppState, *buttons: Button) -> tuple[AppState, list[object]]:
    effects: list[object] = []
    for button in buttons:
        state, effects = app.gesture(state, Gesture("press", button, 0.0), 0.0)
    return state, effects


def _to_power_off(app: App) -> AppState:
    state = AppState()
    items = app.menu_items(state)
    state, _ = _press(app, state, *[Button.DOWN] * items.index(POWER_OFF_ITEM), Button.NEXT)
    return state


def test_power_off_is_a_menu_row_before_the_sound_rows() -> None:
    items = App([RoundTimer()]).menu_items(AppState())
    assert items[-3:] == [POWER_OFF_ITEM, "Volume 3/5", "Sound: on"]


def test_power_off_asks_first_and_back_keeps_it_on() -> None:
    app = App([RoundTimer()])
    state = _to_power_off(app)
    assert state.menu == Menu(page="power-off", cursor=app.menu_items(AppState())
                              .index(POWER_OFF_ITEM))
    assert app.to_json(state, 0.0)["menu"]["page"] == "power-off"
    back, effects = _press(app, state, Button.BACK)
    assert effects == [] and back.menu is not None and back.menu.page == "games"
    assert app.menu_items(back)[back.menu.cursor] == POWER_OFF_ITEM


@pytest.mark.parametrize("button", [Button.UP, Button.DOWN])
def test_power_off_question_refuses_other_buttons(button: Button) -> None:
    app = App([RoundTimer()])
    with pytest.raises(RuleError, match="NEXT powers off, BACK keeps it on"):
        _press(app, _to_power_off(app), button)


def test_power_off_next_answers_the_effect_and_says_so() -> None:
    app = App([RoundTimer()])
    state, effects = _press(app, _to_power_off(app), Button.NEXT)
    assert effects == [Play("end"), PowerOff()]
    assert state.menu is None and state.notice == POWERING_OFF


def test_power_off_the_controller_calls_its_listeners_after_the_journal(tmp_path: Path) -> None:
    controller = simulated_controller(tmp_path)
    calls: list[str] = []
    controller.power_off_listeners.append(
        lambda: calls.append("off" if controller.writer.saved else "unsaved"))
    assert controller.command_line("new timer seconds=60") == "ok"
    controller.command_line("press back")  # the menu over the game
    for _ in range(3):
        controller.command_line("press up")  # wraps past Sound and Volume to Power off
    assert controller.screen().title == "Choose a game"
    controller.command_line("press next")
    assert controller.screen().title == POWER_OFF_ITEM
    assert calls == []
    controller.command_line("press next")
    assert calls == ["off"]


class _Systemctl:
    def __init__(self, status: int = 0, error: Exception | None = None) -> None:
        self.status, self.error, self.calls = status, error, []

    def __call__(self, argv):
        self.calls.append(tuple(argv))
        if self.error is not None:
            raise self.error
        return self.status


@pytest.mark.parametrize(("runner", "done", "logged"), [
    (_Systemctl(0), True, ""),
    (_Systemctl(1), False, "exited 1 (is the polkit rule"),
    (_Systemctl(error=FileNotFoundError(2, "No such file", "systemctl")), False, "failed"),
    (_Systemctl(error=subprocess.TimeoutExpired(["systemctl"], 30)), False, "failed"),
])
def test_power_off_on_a_pi_asks_systemd(runner, done, logged, caplog) -> None:
    stops: list[str] = []
    out = io.StringIO()
    assert power_off(pi=True, stop=stops.append, out=out, run=runner) is done
    assert runner.calls == [POWER_OFF_COMMAND] == [("systemctl", "poweroff")]
    assert stops == [] and out.getvalue() == ""  # systemd stops the service itself
    assert logged in caplog.text


def test_power_off_on_the_fake_backend_says_so_and_stops_cleanly() -> None:
    stops: list[str] = []
    out = io.StringIO()
    runner = _Systemctl()
    assert power_off(pi=False, stop=stops.append, out=out, run=runner) is True
    assert out.getvalue() == FAKE_MESSAGE + "\n"
    assert stops == ["power off (fake backend)"] and runner.calls == []


def test_power_off_from_the_menu_ends_companion_run_with_status_0(tmp_path: Path) -> None:
    box = PtyBox(tmp_path)
    try:
        for line in ("press up", "press up", "press up", "press next"):
            assert box.ask(line) == "ok"
        assert box.screen()[0] == POWER_OFF_ITEM
        box.send("press next")
        assert box.process.stdout is not None
        deadline = time.monotonic() + 30
        seen = [read_line(box.process.stdout.fileno(), deadline)]
        while FAKE_MESSAGE not in seen[-1]:
            seen.append(read_line(box.process.stdout.fileno(), deadline))
        assert box.process.wait(timeout=30) == 0
    finally:
        box.stop()
