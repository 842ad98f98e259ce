"""Timing and CPU: the real event loop against the naive ``sleep(1)`` loop.

What is measured (full run; ``--short`` in brackets):

- ``timer_end_error_ms``: 20 [3] round-timer flights of 5 s, started by a NEXT press on a mock
  pin, through the real event loop, with the display drawn every second: alarm start (the
  buzzer's first ``tone`` call of the ``alarm`` tune) minus the countdown's deadline.
- ``naive_sleep_loop_end_error_ms``: the same phases timed by ``sleep(1)`` per second and
  drawing the same frames through the same display, in a worker process at the same time.
- ``work_countdown_end_error_ms``: a 120 s [8 s] countdown through the real event loop whose
  display blocks 30 ms on every frame (``time.sleep``, as an I2C transfer blocks), in a worker
  process; ``naive_sleep_loop_work_end_error_ms`` is the naive loop doing the same work.
- ``input_to_frame_ms``: 200 [40] button releases (``MockPin.drive_high``; a short press fires
  on release) in the menu, from the edge to the end of the new frame's ``show``.
- ``idle_cpu_percent``: process CPU time / wall time over 10 s [2 s] in the menu and 10 s
  [2 s] after a flight (the worse one is ``value``); ``flight_cpu_percent``: the same over the
  flights of ``timer_end_error_ms``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.bench.display_bus import CountingBus, partial_ssd1306
from companion.bench.figures import WORK_PER_FRAME
from companion.bench.rig import Rig


def run_loop_scenario(state_dir: Path, plan: dict[str, Any]) -> dict[str, Any]:
    """Idle in the menu, button presses, flights, idle after a flight (see the docstring)."""
    rig = Rig(state_dir)
    figures: dict[str, Any] = {}

    def script(rig: Rig) -> None:
        time.sleep(0.5)  # the first frame and the journal settle
        figures["menu_cpu_percent"] = rig.cpu_percent(plan["idle_window"])
        latencies = []
        for index in range(plan["presses"]):
            latencies.append(rig.click("down" if index % 2 == 0 else "up") * 1000)
            time.sleep(0.04)
        figures["input_ms"] = latencies
        rig.display.frame.clear()
        rig.line(f"new timer seconds={plan['phase_seconds']}")
        if not rig.display.frame.wait(2.0):
            raise RuntimeError("the round timer did not start")
        time.sleep(0.2)
        cpu = wall = 0.0
        for _ in range(plan["phases"]):
            used, elapsed = rig.flight(plan["phase_seconds"])
            cpu += used
            wall += elapsed
            time.sleep(0.3)
        figures["flight_cpu_percent"] = 100 * cpu / wall
        time.sleep(1.5)  # the alarm tune ends
        figures["between_cpu_percent"] = rig.cpu_percent(plan["idle_window"])
        figures["end_errors_ms"] = list(rig.buzzer.errors_ms)
        figures["wake_ms"] = list(rig.buzzer.wake_ms)
        figures["journal_write_ms"] = list(rig.buzzer.journal_write_ms)

    rig.run(script)
    return figures


def naive_countdown(seconds: int, show: Callable[[Any], Any], work: float) -> float:
    """The naive way: draw, ``sleep(1)``, count down; seconds late at the 'alarm'."""
    from companion.ui.render import render
    from companion.ui.screen import Screen
    from companion.ui.views.timer import clock_text

    started = time.monotonic()
    for left in range(seconds, 0, -1):
        show(render(Screen("Round timer", big=clock_text(left),
                           caption="NEXT end  hold NEXT pause", status="Round 1  BACK menu")))
        if work:
            time.sleep(work)
        time.sleep(1)
    return time.monotonic() - (started + seconds)


def naive_worker(phases: int, seconds: int, work: float) -> dict[str, Any]:
    from companion.adapters.oled import Display

    display = Display(partial_ssd1306(CountingBus()))
    errors = []
    for _ in range(phases):
        errors.append(naive_countdown(seconds, display.show, work) * 1000)
        time.sleep(0.3)
    return {"errors_ms": errors}


def work_worker(seconds: int, state_dir: Path) -> dict[str, Any]:
    rig = Rig(state_dir, work=WORK_PER_FRAME)
    figures: dict[str, Any] = {}

    def script(rig: Rig) -> None:
        time.sleep(0.5)
        rig.display.frame.clear()
        rig.line(f"new timer seconds={seconds}")
        if not rig.display.frame.wait(2.0):
            raise RuntimeError("the round timer did not start")
        time.sleep(0.2)
        used, elapsed = rig.flight(seconds)
        figures["cpu_percent"] = round(100 * used / elapsed, 3)
        figures["errors_ms"] = list(rig.buzzer.errors_ms)
        figures["journal_write_ms"] = list(rig.buzzer.journal_write_ms)

    rig.run(script)
    return figures
