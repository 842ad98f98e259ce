"""``companion bench``: the box's performance figures, each beside its target (CONTRACT.md 5).

What it promises:

- One run measures everything, on the real code paths: the real :class:`EventLoop` on the
  real monotonic clock, gpiozero ``MockFactory`` pins, and the real luma ``ssd1306`` driver
  with partial updates on a recording I2C bus (the bus takes no time), and real
  ``companion run`` processes for start-up and idle wakeups.
- ``--json`` prints one object. A figure with a target is an object holding the figure
  (``value``, or the percentiles ``p50``/``p99``/``max``/``min``), ``target`` (the same
  shape: a number is an upper bound; for a distribution, a dict of bounds on its keys, where
  ``min`` is a lower bound) and ``met`` (true/false). ``targets_met`` is true when every
  target is met. Figures without a target (the naive loop, the machine) carry none.
- Exit status 0 when the bench ran, whatever the figures; 1 only if the bench itself broke.
- ``--short`` scales the real-time parts down (fewer and shorter phases, shorter windows) to
  run in well under a minute (about 45 s), for CI; the full run takes about four minutes.

The package, one module per concern (each says what it measures and how):

- :mod:`.command`: the options, the run that gathers every figure, the exit status;
- :mod:`.figures`: the targets, the run plans, and the shape of a figure;
- :mod:`.report`: the text report;
- :mod:`.startup`: ``startup_to_ready_s``, ``run_rss_mb``, ``startup_heaviest_imports``;
- :mod:`.idle`: ``idle_wakeups_per_s``;
- :mod:`.display_bus`: ``frame_bytes_*``, ``panel_matches_full_redraw``;
- :mod:`.rig`: the real wiring, instrumented, that the event-loop figures run on;
- :mod:`.timing`: ``timer_end_error_ms`` and the naive loop beside it,
  ``work_countdown_end_error_ms``, ``input_to_frame_ms``, ``idle_cpu_percent``,
  ``flight_cpu_percent``;
- :mod:`.session`: ``rss_mb``, ``memory_growth``;
- :mod:`.workers`: the processes that run beside the event-loop scenario.

Every module imports only the standard library at the top (the command line imports this
package to build its parser); the companion's adapters, luma and gpiozero load when measured.
"""

from companion.bench.command import add_arguments, main, run
from companion.bench.display_bus import measure_display_bus
from companion.bench.figures import (
    TARGETS,
    distribution,
    machine,
    percentile,
    scalar,
    with_target,
)
from companion.bench.report import format_report
from companion.bench.workers import worker

__all__ = ["TARGETS", "add_arguments", "distribution", "format_report", "machine", "main",
           "measure_display_bus", "percentile", "run", "scalar", "with_target", "worker"]
