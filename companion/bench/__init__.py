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
  run in well under a minute (about 35 s), for CI; the full run takes under three minutes.

The package, one module per concern (each says what it measures and how):

- this module: the options; :mod:`.command`: the run that gathers every figure, and the
  exit status;
- :mod:`.figures`: the targets, the run plans, and the shape of a figure;
- :mod:`.report`: the text report;
- :mod:`.startup`: ``startup_to_ready_s``, ``run_rss_mb``, ``startup_heaviest_imports``;
- :mod:`.idle`: ``idle_wakeups_per_s``;
- :mod:`.display_bus`: ``frame_bytes_*``, ``panel_matches_full_redraw``;
- :mod:`.rig`: the real wiring, instrumented, that the event-loop figures run on;
- :mod:`.timing`: ``timer_end_error_ms`` and the naive loop beside it,
  ``work_countdown_end_error_ms``, ``input_to_frame_ms``, ``idle_cpu_percent``,
  ``flight_cpu_percent``;
- :mod:`.game_press`: ``game_press_to_frame_ms`` and ``serial_ack_ms`` (NEXT through a
  journaled Now Boarding game on the bench's modelled SD card, :mod:`.sd_card`);
- :mod:`.session`: ``rss_mb``, ``memory_growth``;
- :mod:`.web`: ``web_event_to_client_ms``, ``web_rss_mb`` (the table page);
- :mod:`.web_flood`: ``timer_end_error_ms_under_web_flood`` (the alarm while unpaired
  clients flood the page);
- :mod:`.workers`: the processes that run beside the event-loop scenario.

The command line imports this package on every start to build its parser, ``companion run``
included, so this module holds only the options and loads the rest when the bench runs (or
when one of the names below is first used): nothing here may slow the box's start-up.
"""

from __future__ import annotations

import argparse
from typing import Any

# Name -> the module that defines it, loaded on first use (PEP 562).
_LAZY = {
    "TARGETS": "figures", "distribution": "figures", "machine": "figures",
    "percentile": "figures", "scalar": "figures", "with_target": "figures",
    "format_report": "report", "measure_display_bus": "display_bus", "run": "command",
    "worker": "workers",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``bench`` subcommand's options."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--short", action="store_true",
                        help="a scaled-down run (well under a minute) that checks the bench "
                             "works; its figures are rougher")


def main(args: argparse.Namespace) -> int:
    """Run the bench; 0 when it ran (targets met or not), 1 when the bench itself broke."""
    from companion.bench.command import main as run_bench

    return run_bench(args)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)
