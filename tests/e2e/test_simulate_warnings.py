"""Each warning of a flight sounds exactly once in ``companion simulate``, whatever the size
of the ``wait`` steps and across a pause (issue #36, item 3; DESIGN rule 18).

The box is the one ``companion simulate`` builds (:func:`companion.bootstrap.simulation_box`),
driven by protocol lines through the same :func:`companion.runtime.simulate`; the tunes are
read off the box's tune player, which stdout does not show. The simulator once re-sounded
every warning after ``wait`` crossed a journal checkpoint (10, 7, 5, 3, 3, 3, 3, 2, 1 s left for
a 15 s flight), because it ticked at a wake-up instant already past.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bootstrap import simulation_box
from companion.config import defaults
from companion.core.timer import DEFAULT_WARNINGS
from companion.core.tunes import warning_tune
from companion.runtime import simulate

MAX_PRESSES_TO_THE_FLIGHT = 80


class Simulation:
    """One ``companion simulate`` box, a line at a time, with every tune it starts."""

    def __init__(self, state_dir: Path) -> None:
        self.box = simulation_box(defaults(), state_dir, seed=1)
        self.tunes: list[str] = []
        self.ticks: list[float] = []
        self.box.controller.tunes.listeners.append(lambda name, muted: self.tunes.append(name))
        controller = self.box.controller
        real_tick = controller.tick

        def recording_tick(now: float | None = None) -> None:
            self.ticks.append(controller.now() if now is None else now)
            real_tick(now)

        controller.tick = recording_tick  # type: ignore[method-assign]

    def line(self, text: str) -> str:
        out = io.StringIO()
        failed = simulate(self.box.controller, io.BytesIO(text.encode() + b"\n"), out,
                          stop_on_error=True)
        reply = out.getvalue().strip()
        assert failed is None, f"{text!r} -> {reply}"
        return reply

    def state(self) -> dict[str, Any]:
        return json.loads(self.line("state").removeprefix("ok "))

    def to_the_first_flight(self) -> float:
        """NEXT until the first countdown runs; its length in seconds."""
        for _ in range(MAX_PRESSES_TO_THE_FLIGHT):
            timer = self.state()["timer"]
            if timer is not None and timer["state"] == "running":
                return float(timer["duration"])
            self.line("press next")
        raise AssertionError("no countdown after 80 presses of NEXT")

    def warnings(self) -> list[str]:
        return [tune for tune in self.tunes if tune.startswith("warning")]

    def close(self) -> None:
        self.box.close()


def expected_warnings(duration: float, marks: tuple[float, ...] = DEFAULT_WARNINGS) -> list[str]:
    return [warning_tune(mark) for mark in sorted(marks, reverse=True) if mark < duration]


def fly(simulation: Simulation, duration: float, step: float) -> None:
    """``wait step`` until past the deadline."""
    waited = 0.0
    while waited <= duration + step:
        simulation.line(f"wait {step}")
        waited += step


GAMES = [f"new now-boarding players={players} timer={preset}"
         for players in (2, 3, 4, 5) for preset in ("official", "relaxed", "doubled")]
GAMES += ["new now-boarding players=3 timer=12", "new now-boarding-v3 players=4 timer=30",
          "new now-boarding-v3 players=6 variant=advanced", "new timer seconds=15"]


@pytest.mark.parametrize("step", [0.1, 0.25, 1.0, 3.7])
@pytest.mark.parametrize("game", GAMES)
def test_simulate_sounds_each_warning_once(tmp_path, game, step):
    simulation = Simulation(tmp_path)
    try:
        simulation.line(game)
        duration = simulation.to_the_first_flight()
        fly(simulation, duration, step)
        assert simulation.warnings() == expected_warnings(duration)
        assert simulation.state()["timer"]["state"] in {"expired", "idle"}
        assert simulation.ticks == sorted(simulation.ticks)
    finally:
        simulation.close()


@pytest.mark.parametrize("game", ["new now-boarding players=3", "new now-boarding players=5",
                                  "new timer seconds=15"])
def test_simulate_sounds_each_warning_once_across_a_pause(tmp_path, game):
    simulation = Simulation(tmp_path)
    try:
        simulation.line(game)
        duration = simulation.to_the_first_flight()
        simulation.line(f"wait {duration - 4.5}")  # between the 5 s and the 3 s marks
        simulation.line("hold next")  # pause
        assert simulation.state()["timer"]["state"] == "paused"
        for _ in range(12):
            simulation.line("wait 0.5")
        simulation.line("hold next")  # resume
        fly(simulation, 4.5, 0.25)
        assert simulation.warnings() == expected_warnings(duration)
        assert simulation.ticks == sorted(simulation.ticks)
    finally:
        simulation.close()


def test_simulate_custom_marks_sound_once(tmp_path):
    simulation = Simulation(tmp_path)
    try:
        simulation.line("new timer seconds=20 warnings=15,7,4,1")
        duration = simulation.to_the_first_flight()
        fly(simulation, duration, 0.3)
        assert simulation.warnings() == expected_warnings(duration, (15, 7, 4, 1))
    finally:
        simulation.close()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.floats(min_value=0.01, max_value=9.0, allow_nan=False),
                          st.just("pause")), min_size=1, max_size=30))
def test_advance_never_ticks_earlier_than_the_last(tmp_path_factory, moves):
    simulation = Simulation(tmp_path_factory.mktemp("advance"))
    try:
        simulation.line("new timer seconds=30")
        simulation.line("press next")
        for move in moves:
            if move == "pause":
                if simulation.state()["timer"]["state"] in {"running", "paused"}:
                    simulation.line("hold next")
            else:
                simulation.line(f"wait {move}")
        assert simulation.ticks == sorted(simulation.ticks)
        heard = simulation.warnings()
        assert len(heard) == len(set(heard))
    finally:
        simulation.close()
