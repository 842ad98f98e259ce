"""Undo's pause survives a restart: the journal holds the Restore that undo adds.

Undo of a pause 30 s later leaves the flight paused with what it had (core/app.py); the
journal gets that pause as an action, so the box restarted over the same folder shows the
same countdown, not one that ran on from before the undone pause.
"""

import json

from companion.testing.clock import FakeClock
from companion.testing.simulated import simulated_controller


def state(controller):
    return json.loads(controller.command_line("state").removeprefix("ok "))


def test_undo_of_a_pause_is_journaled_and_comes_back_after_a_restart(tmp_path):
    clock = FakeClock()
    box = simulated_controller(tmp_path, clock=clock)
    assert box.command_line("new timer seconds=15") == "ok"
    assert box.command_line("press next") == "ok"  # start
    box.command_line("wait 3")
    assert box.command_line("hold next") == "ok"  # paused at 12 s left
    box.command_line("wait 30")
    assert box.command_line("undo") == "ok"
    box.command_line("wait 1")
    assert state(box)["timer"] == {"state": "paused", "remaining": 12.0, "duration": 15.0}
    screen = json.loads(box.command_line("screen").removeprefix("ok "))["lines"]
    assert screen[-2:] == ["undone: hold NEXT.", "Paused: hold NEXT."]
    box.journal.close()

    again = simulated_controller(tmp_path, clock=clock)
    assert state(again)["timer"] == {"state": "paused", "remaining": 12.0, "duration": 15.0}
    again.journal.close()
