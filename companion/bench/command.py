"""``companion bench``'s command: its options, the run that gathers every figure, the exit.

The run, in order: start-up and idle wakeups (each its own ``companion run`` process, before
anything else loads the machine), the display bus, the table page (a ``companion run --web``
process and 20 event-stream clients), the timer under an unpaired web flood (a worker and a
flood process, alone), a paired phone's answers among guests holding the page's slots (the
same), then the event-loop scenario in this
process while three workers run beside it (the naive loop, the naive loop with work, the
countdown with work), then NEXT presses through a journaled game on the modelled SD card
(alone), then the long session in a worker of its own.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.bench.display_bus import measure_display_bus
from companion.bench.figures import (
    FULL,
    SHORT,
    WORK_PER_FRAME,
    distribution,
    machine,
    peak_rss_mb,
    percentile,
    scalar,
    with_target,
)
from companion.bench.game_press import run_game_press_scenario
from companion.bench.idle import measure_idle_wakeups
from companion.bench.report import format_report
from companion.bench.startup import measure_startup
from companion.bench.timing import run_loop_scenario
from companion.bench.workers import finish_worker, start_worker


def main(args: argparse.Namespace) -> int:
    """Run the bench; 0 when it ran (targets met or not), 1 when the bench itself broke."""
    try:
        report = run(short=bool(args.short), progress=None if args.json else _progress)
    except Exception as error:  # the bench broke: say so, exit 1
        import traceback

        traceback.print_exc()
        print(f"companion bench: failed: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report))
    else:
        print(format_report(report))
    return 0


def measure_timer_under_web_flood(flights: int) -> dict[str, Any]:
    """``timer_end_error_ms_under_web_flood`` (companion/bench/web_flood.py), in a worker
    process of its own, alone: nothing else of the bench runs beside it."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="companion-bench-flood-") as temporary:
        result = finish_worker(start_worker(["web-flood", str(flights), temporary]))
    return {"timer_end_error_ms_under_web_flood": with_target(
        {**distribution(result["errors_ms"]), "flights": flights,
         "wake_p99_ms": round(percentile(result["wake_ms"], 0.99), 3),
         "flood_answers": result["flood_answers"]}, "timer_end_error_ms_under_web_flood")}


def measure_paired_phone_under_guest_flood(requests: int) -> dict[str, Any]:
    """``paired_phone_under_guest_flood`` (companion/bench/guest_flood.py), in a worker
    process of its own, alone."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="companion-bench-guests-") as temporary:
        result = finish_worker(start_worker(["guest-flood", str(requests), temporary]))
    answered = sum(result["statuses"].values())
    return {"paired_phone_under_guest_flood": with_target(
        {**distribution(result["latencies_ms"]),
         "non_200": answered - result["statuses"].get("200", 0),
         "statuses": result["statuses"], "guest_answers": result["guest_answers"]},
        "paired_phone_under_guest_flood")}


def _progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def run(*, short: bool, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every figure, as the JSON object ``--json`` prints."""
    import tempfile

    say = progress or (lambda _message: None)
    plan = SHORT if short else FULL
    report: dict[str, Any] = {"mode": "short" if short else "full", "machine": machine()}
    started = time.perf_counter()

    say("start-up")
    report.update(measure_startup(plan["startups"]))

    say(f"idle wakeups ({plan['wakeup_window']} s)")
    report.update(measure_idle_wakeups(plan["wakeup_window"]))

    say("display bus")
    report.update(measure_display_bus())

    say(f"table page: {plan['web_events']} presses to 20 event-stream clients")
    from companion.bench.web import measure_web

    report.update(measure_web(plan["web_events"]))

    say(f"the timer under a web flood: {plan['flood_flights']} flights")
    report.update(measure_timer_under_web_flood(plan["flood_flights"]))

    say(f"a paired phone among guests: {plan['phone_requests']} requests")
    report.update(measure_paired_phone_under_guest_flood(plan["phone_requests"]))

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as temporary:
        workers = {
            "naive_phases": start_worker(["naive", str(plan["phases"]),
                                          str(plan["phase_seconds"]), "0"]),
            "naive_work": start_worker(["naive", "1", str(plan["work_seconds"]),
                                        str(WORK_PER_FRAME)]),
            "work": start_worker(["work", str(plan["work_seconds"]),
                                  str(Path(temporary) / "work")]),
        }
        say(f"event loop: idle, {plan['presses']} presses, {plan['phases']} flights "
            f"(workers: naive loop, {plan['work_seconds']} s countdown with work)")
        loop_figures = run_loop_scenario(Path(temporary) / "loop", plan)
        say("waiting for the workers")
        results = {name: finish_worker(process) for name, process in workers.items()}
        say(f"game presses: {plan['presses']} NEXT in Now Boarding on a modelled SD card, "
            f"{plan['presses'] // 2} serial press lines")
        game_presses = run_game_press_scenario(Path(temporary) / "game", plan)
        say(f"long session: {plan['games']} games on a fake clock")
        session = finish_worker(start_worker(["session", str(plan["games"]),
                                              str(Path(temporary) / "session")]))

    report["timer_end_error_ms"] = with_target(
        {**distribution(loop_figures["end_errors_ms"]),
         "of_which_p50": {"wake_ms": round(percentile(loop_figures["wake_ms"], 0.5), 3),
                          "journal_write_ms": round(
                              percentile(loop_figures["journal_write_ms"], 0.5), 3)},
         "journal_dir": tempfile.gettempdir()}, "timer_end_error_ms")
    report["naive_sleep_loop_end_error_ms"] = distribution(results["naive_phases"]["errors_ms"])
    report["work_countdown_end_error_ms"] = with_target(
        {**distribution(results["work"]["errors_ms"]), "seconds": plan["work_seconds"],
         "journal_write_ms": round(max(results["work"]["journal_write_ms"]), 3),
         "work_per_frame_ms": WORK_PER_FRAME * 1000}, "work_countdown_end_error_ms")
    report["naive_sleep_loop_work_end_error_ms"] = distribution(results["naive_work"]["errors_ms"])
    report["input_to_frame_ms"] = with_target(
        distribution(loop_figures["input_ms"]), "input_to_frame_ms")
    report.update(game_presses)
    idle = max(loop_figures["menu_cpu_percent"], loop_figures["between_cpu_percent"])
    report["idle_cpu_percent"] = scalar(idle, "idle_cpu_percent",
                                        menu=loop_figures["menu_cpu_percent"],
                                        between_phases=loop_figures["between_cpu_percent"],
                                        window_s=plan["idle_window"])
    report["flight_cpu_percent"] = scalar(loop_figures["flight_cpu_percent"],
                                          "flight_cpu_percent",
                                          work_countdown=results["work"]["cpu_percent"])
    report["rss_mb"] = scalar(session["rss_mb"], "rss_mb", games=plan["games"],
                              bench_process=round(peak_rss_mb(), 1))
    report["memory_growth"] = scalar(
        session["rss_growth_mb"], "memory_growth_mb", unit="MB",
        allocated_blocks_per_game=session["blocks_per_game"],
        from_game=session["from_game"], to_game=plan["games"])
    report["bench_seconds"] = round(time.perf_counter() - started, 1)
    report["targets_met"] = all(
        figure["met"] for figure in report.values()
        if isinstance(figure, dict) and "met" in figure)
    return report
