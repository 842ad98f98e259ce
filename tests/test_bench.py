"""``companion bench``: the report's shape (fast), and one real ``--short --json`` run (slow).

No timing is asserted here: the bench is the judge of the figures, these tests only keep it
working and its output complete.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion import bench
from companion.bench import idle

REQUIRED = ("timer_end_error_ms", "naive_sleep_loop_end_error_ms", "input_to_frame_ms",
            "frame_bytes_full", "frame_bytes_timer_tick", "idle_cpu_percent",
            "flight_cpu_percent", "rss_mb", "startup_to_ready_s", "idle_wakeups_per_s", "machine",
            "web_event_to_client_ms", "web_rss_mb", "timer_end_error_ms_under_web_flood",
            "game_press_to_frame_ms", "serial_ack_ms", "paired_phone_under_guest_flood")


def test_percentile_is_nearest_rank() -> None:
    values = [float(value) for value in range(1, 21)]
    assert bench.percentile(values, 0.5) == 10.0
    assert bench.percentile(values, 0.99) == 20.0
    assert bench.percentile([3.0], 0.99) == 3.0


def test_distribution_target_checks_upper_bounds_and_a_lower_min() -> None:
    early = bench.with_target(bench.distribution([-0.1, 0.5, 0.7]), "timer_end_error_ms")
    assert early["met"] is False  # one alarm early
    on_time = bench.with_target(bench.distribution([0.2, 0.5, 1.9]), "timer_end_error_ms")
    assert on_time["met"] is True
    assert on_time["target"] == {"min": 0.0, "p99": 2.0, "max": 5.0}
    late = bench.with_target(bench.distribution([0.2, 0.5, 6.0]), "timer_end_error_ms")
    assert late["met"] is False


def test_scalar_carries_value_target_and_met() -> None:
    assert bench.scalar(0.25, "idle_cpu_percent") == {"value": 0.25, "target": 0.5,
                                                      "met": True}
    assert bench.scalar(41.0, "rss_mb")["met"] is False


def test_display_bus_figures_meet_their_targets() -> None:
    figures = bench.measure_display_bus()
    assert figures["frame_bytes_full"]["value"] == 1034
    assert figures["frame_bytes_timer_tick"]["met"] is True
    assert figures["frame_bytes_unchanged"]["value"] == 0
    assert figures["panel_matches_full_redraw"]["value"] is True


def test_text_report_names_every_figure() -> None:
    report = {"mode": "short", "machine": bench.machine(), "targets_met": False,
              "rss_mb": bench.scalar(41.0, "rss_mb"), "bench_seconds": 1.0}
    text = bench.format_report(report)
    assert "rss_mb" in text and "MISSED" in text


@pytest.mark.parametrize(("before", "after", "seconds", "expected"), [
    ({1: 10, 2: 5}, {1: 10, 2: 5}, 2.0, 0.0),    # nobody woke
    ({1: 10, 2: 5}, {1: 14, 2: 9}, 2.0, 4.0),    # both threads, summed
    ({1: 10}, {1: 10, 3: 6}, 3.0, 2.0),          # a thread that started counts from zero
    ({1: 10, 2: 50}, {1: 12}, 1.0, 2.0),         # one that ended is not counted
])
def test_wakeups_per_second_sums_the_threads(before, after, seconds, expected):
    assert idle.wakeups_per_second(before, after, seconds) == expected


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux /proc")
def test_a_worker_reports_its_own_peak_memory_not_its_starters() -> None:
    """A process started by subprocess inherits its starter's peak in ``ru_maxrss``: the
    bench's workers (``rss_mb``) and boxes (``web_rss_mb``) must report their own."""
    ballast = b"\x01" * (96 * 1024 * 1024)  # written, so resident: the starter's peak grows
    assert bench.figures.process_peak_rss_mb(os.getpid()) >= 96
    code = "from companion.bench.figures import peak_rss_mb; print(peak_rss_mb())"
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert float(child.stdout) < 64, child.stdout  # a bare Python: some 10-20 MB
    assert len(ballast) == 96 * 1024 * 1024


@pytest.mark.parametrize("pid", [0, 2**22 + 1])
def test_peak_memory_of_a_process_without_one_is_none(pid) -> None:
    assert bench.figures.process_peak_rss_mb(pid) is None


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_context_switches_reads_every_thread_of_a_process() -> None:
    release = threading.Event()
    waiter = threading.Thread(target=release.wait, daemon=True)
    waiter.start()
    try:
        switches = idle.context_switches(os.getpid())
        assert threading.get_native_id() in switches
        assert waiter.native_id in switches
        assert all(count >= 0 for count in switches.values())
    finally:
        release.set()
        waiter.join()


@pytest.mark.slow
# companion bench --short: about 70 s on 2 cores, and it measures on purpose under load
@pytest.mark.timeout(900)
def test_bench_short_json_prints_every_required_key() -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "bench", "--short", "--json"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    for key in REQUIRED:
        assert key in report, key
    for key in ("p50", "p99", "max"):
        assert key in report["timer_end_error_ms"]
        assert key in report["naive_sleep_loop_end_error_ms"]
    for key in ("p50", "p99"):
        assert key in report["input_to_frame_ms"]
    for key in ("platform", "python", "cpu_count"):
        assert key in report["machine"]
    presses = report["game_press_to_frame_ms"]
    assert presses["target"] == {"p99": 10.0, "ratio_p50": 1.5}
    assert presses["sd_sync_ms"] == 30.0 and "p99" in presses["without_sd_model"]
    acks = report["serial_ack_ms"]
    # The ok waits for the (modelled) sync: a promise, not a timing, so it is checked here.
    assert acks["min"] >= acks["sd_sync_ms"]
    assert acks["acks_after_write"] == f"{acks['n']}/{acks['n']}"
    assert report["idle_wakeups_per_s"]["target"] == 2.0
    for name, figure in report.items():
        if isinstance(figure, dict) and "target" in figure:
            assert isinstance(figure["met"], bool), name


def test_sd_card_model_is_the_real_journal_and_notes_each_commit(tmp_path: Path) -> None:
    from companion.bench.sd_card import SdCard
    from companion.core.app import Recorded
    from companion.core.buttons import Button
    from companion.core.game import Press

    card = SdCard(sync_seconds=0.0)  # the wait itself is the bench's to time, not a test's
    journal = card.opener()(tmp_path)
    try:
        game = journal.begin_game("timer", {}, 1, 0.0, "2026-01-01")
        card.on = False
        journal.append(game, Recorded(Press(Button.NEXT), 1.0), "2026-01-01")
        card.wait_for_commit(1)
        assert len(card.commits) == 2
        stored = journal.current()
        assert stored is not None and len(stored.history) == 1
    finally:
        journal.close()
