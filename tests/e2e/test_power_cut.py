"""The crash harness: `companion run` killed with SIGKILL at 50 random points.

After every restart, ``state`` must equal the state a model computes from the commands that
were acknowledged with a reply (plus, possibly, the one command in flight at the kill, which
may or may not have been journaled). The model is the same program on a fake clock, over its
own journal, restarted at the same points, so a running timer comes back paused in both.
A running timer's time left is checked apart: after the cut it is never less than what was
left, and at most one checkpoint interval (5 s) more.
"""

import json
import random
import tempfile
import time
from pathlib import Path

import pytest

from companion.testing.pty_box import PtyBox
from companion.testing.simulated import simulated_controller

# 50 real restarts of `companion run`: about 2.5 minutes on an idle 2-core machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

KILLS = 50
COMMANDS = ["press up", "press down", "press next", "press next", "hold next", "hold next",
            "hold back", "press back", "press back", "new timer seconds=600",
            "new timer seconds=300 warnings=10,5"]


def comparable(state):
    """The state without what depends on real time (a running timer's time left)."""
    state = json.loads(json.dumps(state))
    if isinstance(state.get("timer"), dict):
        state["timer"].pop("remaining", None)
    return state


def model_state(history):
    """Replay ``history`` (commands and restarts) on the simulated program."""
    with tempfile.TemporaryDirectory() as folder:
        controller = simulated_controller(Path(folder))
        for event in history:
            if event == "RESTART":
                controller.journal.close()
                controller = simulated_controller(Path(folder))
            else:
                controller.command_line(event)
        state = json.loads(controller.command_line("state").removeprefix("ok "))
        controller.journal.close()
        return state


def test_power_cut_fifty_kills_lose_nothing(tmp_path):
    chooser = random.Random(20261122)
    history = []
    mismatches = []
    resumed_checks = []
    box = PtyBox(tmp_path)
    try:
        for kill in range(KILLS):
            for _ in range(chooser.randint(0, 5)):
                command = chooser.choice(COMMANDS)
                box.ask(command)
                history.append(command)
            before = json.loads(box.ask("state").removeprefix("ok "))
            answered_at = time.monotonic()
            in_flight = chooser.choice(COMMANDS) if chooser.random() < 0.5 else None
            if in_flight is not None:
                box.send(in_flight)  # and kill at once: it may or may not have been journaled
            cut_at = time.monotonic()
            box.kill()

            box = PtyBox(tmp_path)
            after = json.loads(box.ask("state").removeprefix("ok "))
            without = model_state([*history, "RESTART"])
            candidates = [without]
            if in_flight is not None:
                candidates.append(model_state([*history, in_flight, "RESTART"]))
            matches = [c for c in candidates if comparable(c) == comparable(after)]
            if not matches:
                mismatches.append((kill, history[-6:], in_flight, after, candidates))
                break
            if in_flight is not None and comparable(matches[0]) != comparable(without):
                history.append(in_flight)
            history.append("RESTART")

            timer_before = before.get("timer") or {}
            if timer_before.get("state") == "running" and in_flight is None:
                # What was left when the power went: the last reading minus the time since.
                left_at_cut = timer_before["remaining"] - (cut_at - answered_at)
                resumed = after["timer"]["remaining"]
                assert after["timer"]["state"] == "paused"
                assert left_at_cut - 0.05 <= resumed <= left_at_cut + 5.0, (left_at_cut, resumed)
                resumed_checks.append(resumed - left_at_cut)
    finally:
        box.kill()
    print(f"\npower-cut harness: {KILLS} kills, {len(mismatches)} mismatches, "
          f"{len(resumed_checks)} running timers restored with "
          f"{max(resumed_checks, default=0):.3f} s extra at most")
    assert not mismatches, mismatches[0]
    # The seeded draw cuts the power under a running countdown several times; a change that
    # made it never do so would leave the time-left check above unrun, silently.
    assert len(resumed_checks) >= 3, f"the running-timer check ran {len(resumed_checks)} times"
