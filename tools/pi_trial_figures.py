"""tools/pi-trial's figures: an idle machine first, three short benches, their medians, and
the verdict against the targets for emulation.

What it promises (standard library only, like the trial):

- :func:`wait_for_idle` waits until the machine's one-minute load average falls to
  ``idle_load`` (checking every ``every`` seconds, at most ``patience`` seconds) and answers
  what it saw: whether it got there, and the load at the start and at the end. It never fails
  the trial: a machine that stays busy is said to be busy, and the figures carry the load.
- :func:`median_report` folds several ``companion bench --json`` reports into one: every
  number is the median of that number over the runs (a figure's ``p50`` is the median of the
  runs' ``p50``, its ``p99`` the median of their ``p99``), anything else is the first run's,
  and ``met`` is judged again on the medians against the bench's own targets.
- :data:`EMULATION_TARGETS` are the targets under emulation (issue #29: the proxy until a Pi
  measures them); :func:`emulation_verdict` sets each beside the medians.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

IDLE_LOAD = 1.0
"""One-minute load average at or under which the machine counts as idle (2 CPUs here)."""

# (figure, key, bound) under emulation, with what each bound is.
EMULATION_TARGETS: tuple[tuple[str, str, float, str], ...] = (
    ("startup_to_ready_no_web_s", "value", 3.0, "start-up (as a Pi starts) <= 3 s"),
    ("timer_end_error_ms", "p99", 5.0, "timer end p99 <= 5 ms"),
    ("game_press_to_frame_ms", "p99", 30.0, "game press -> frame p99 <= 30 ms, SD model"),
    ("web_event_to_client_ms", "p99", 100.0, "web event p99 <= 100 ms, 20 clients"),
)


def load_average() -> float:
    import os

    return os.getloadavg()[0]


def wait_for_idle(*, idle_load: float = IDLE_LOAD, patience: float = 900.0,
                  every: float = 15.0, load: Callable[[], float] = load_average,
                  sleep: Callable[[float], None] = time.sleep,
                  say: Callable[[str], None] = print) -> dict[str, Any]:
    """Wait for the load to fall (module docstring); what was seen, as a figure."""
    first = current = load()
    waited = 0.0
    while current > idle_load and waited < patience:
        sleep(every)
        waited += every
        current = load()
    idle = current <= idle_load
    if idle:
        say(f"machine idle: load {current:.2f} (was {first:.2f}; waited {waited:.0f} s)")
    else:
        say(f"could not get an idle machine: load {current:.2f} after {waited:.0f} s "
            f"(was {first:.2f}; idle means <= {idle_load}); the figures are measured under "
            f"that load")
    return {"idle": idle, "load_at_start": round(first, 2), "load": round(current, 2),
            "waited_s": waited, "idle_load": idle_load}


def median_report(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The runs' medians (module docstring)."""
    merged = _median(list(reports))
    for figure in merged.values():
        if isinstance(figure, dict) and "target" in figure:
            figure["met"] = _met(figure, figure["target"])
    merged["targets_met"] = all(figure["met"] for figure in merged.values()
                                if isinstance(figure, dict) and "met" in figure)
    merged["runs"] = len(reports)
    return merged


def _median(values: list[Any]) -> Any:
    first = values[0]
    if isinstance(first, bool) or not isinstance(first, (int, float, dict)):
        return first
    if isinstance(first, dict):
        return {key: (_median([value[key] for value in values])
                      if key != "target" and all(isinstance(v, dict) and key in v
                                                 for v in values)
                      else value)
                for key, value in first.items()}
    numbers = [value for value in values if isinstance(value, (int, float))]
    return round(statistics.median(numbers), 3)


def _met(figure: dict[str, Any], target: Any) -> bool:
    if not isinstance(target, dict):
        return bool(figure.get("value", 0) <= target)
    return all(figure[key] >= bound if key == "min" else figure[key] <= bound
               for key, bound in target.items() if key in figure)


def emulation_verdict(report: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(what, the median, ``met`` / ``MISSED`` / ``not measured``) for each emulation target."""
    rows = []
    for name, key, bound, what in EMULATION_TARGETS:
        figure = report.get(name)
        value = figure.get(key) if isinstance(figure, dict) else None
        if value is None:
            rows.append((what, None, "not measured"))
        else:
            rows.append((what, value, "met" if value <= bound else "MISSED"))
    return rows
