"""Idle wakeups: how often a ``companion run`` process with nothing to do is woken.

What is measured (full run; ``--short`` in brackets): ``idle_wakeups_per_s``, the context
switches a second, voluntary and involuntary, summed over every thread
(``/proc/<pid>/task/*/status``), of ``python -m companion run --backend fake --serial none
--no-web`` (the box as a Pi runs it: the page off)
sitting in the menu for 5 s [2 s], after its ``ready`` line and a second to settle.

Why it matters: the loop sleeps until the next deadline the core asks for (DESIGN.md rule 2),
so an idle box should not wake at all; every thread that polls with a timeout shows up here
(gpiozero's ``Button`` ran a hold-watching thread per button at 10 Hz, about 50 switches a
second for four buttons). On a Pi each wakeup costs power and, on a Zero, CPU. Needs Linux's
``/proc``; elsewhere the figure has no value and no target.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from companion.bench.figures import scalar
from companion.bench.startup import RunningBox, box_environment, run_command

SETTLE_SECONDS = 1.0
"""After ``ready``: the first frame is drawn and the journal opened before that, but give the
interpreter's own start-up work (a late import, the garbage collector) a moment to finish."""


def context_switches(pid: int) -> dict[int, int]:
    """Voluntary + involuntary context switches so far, per thread id of process ``pid``."""
    switches: dict[int, int] = {}
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        try:
            text = status.read_text()
        except OSError:  # the thread ended meanwhile
            continue
        switches[int(status.parent.name)] = sum(
            int(line.split()[1]) for line in text.splitlines()
            if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")))
    return switches


def wakeups_per_second(before: dict[int, int], after: dict[int, int], seconds: float) -> float:
    """Switches a second between two :func:`context_switches` readings; a thread that started
    in between counts from zero, one that ended is not counted."""
    return sum(count - before.get(thread, 0) for thread, count in after.items()) / seconds


def measure_idle_wakeups(window: float) -> dict[str, Any]:
    """``idle_wakeups_per_s`` of a real ``companion run`` over ``window`` seconds."""
    import tempfile

    if not Path("/proc/self/task").is_dir():
        return {"idle_wakeups_per_s": {"value": None,
                                       "unavailable": "needs Linux /proc/<pid>/task"}}
    with tempfile.TemporaryDirectory(prefix="companion-bench-idle-") as temporary:
        box = RunningBox(run_command(str(Path(temporary) / "state"), web=False),
                         box_environment(str(Path(temporary) / "pycache")))
        try:
            time.sleep(SETTLE_SECONDS)
            before, started = context_switches(box.pid), time.perf_counter()
            time.sleep(window)
            after, elapsed = context_switches(box.pid), time.perf_counter() - started
        finally:
            box.stop()
    rate = wakeups_per_second(before, after, elapsed)
    return {"idle_wakeups_per_s": scalar(rate, "idle_wakeups_per_s", threads=len(after),
                                         window_s=round(elapsed, 2))}
