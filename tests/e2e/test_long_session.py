"""A simulated 10-hour evening under the fake clock: memory and the journal stay bounded, and
start-up replay stays fast. Run with -s to see the figures."""

import json
import time
import tracemalloc

import pytest

from companion.adapters.journal import FILE_NAME, Journal
from companion.testing.simulated import simulated_controller

# A 10-hour evening on the fake clock: many thousands of journaled actions.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

EVENING_SECONDS = 10 * 3600


class CountingJournal:
    """The real journal, counting the writes (SD-card wear)."""

    def __init__(self, journal):
        self.inner = journal
        self.writes = 0

    def __getattr__(self, name):
        attribute = getattr(self.inner, name)
        if name in ("begin_game", "append", "drop_last", "set_result", "checkpoint",
                    "set_aside"):
            def counted(*arguments):
                self.writes += 1
                return attribute(*arguments)
            return counted
        return attribute


def state(controller):
    return json.loads(controller.command_line("state").removeprefix("ok "))


def play_now_boarding(controller):
    """A whole 3-player game at the official 15 s timer, no complaints: NEXT through every
    step, the flight timer left to run out. Returns the number of flight phases."""
    assert controller.command_line("new now-boarding players=3") == "ok"
    flights = 0
    while (current := state(controller))["phase"] != "over":
        if current["step"] == "flight":
            controller.command_line("wait 15")
            flights += 1
        else:
            assert controller.command_line("press next") == "ok", current
    assert current["result"] == "win"
    return flights


def play_timer_rounds(controller, rounds):
    controller.command_line("new timer seconds=60")
    for _ in range(rounds):
        controller.command_line("press next")
        controller.command_line("wait 61")


def test_long_session_ten_hours(tmp_path):
    journal = CountingJournal(Journal.in_directory(tmp_path))
    controller = simulated_controller(tmp_path, journal=journal)
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    games = flights = timer_rounds = 0
    while controller.now() < EVENING_SECONDS:
        flights += play_now_boarding(controller)
        play_timer_rounds(controller, 20)
        timer_rounds += 20
        games += 2
        controller.command_line("wait 300")  # a pause between games
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    journal.inner.close()

    size_kib = (tmp_path / FILE_NAME).stat().st_size / 1024
    wal = tmp_path / (FILE_NAME + "-wal")
    size_kib += wal.stat().st_size / 1024 if wal.exists() else 0
    started = time.perf_counter()
    restarted = simulated_controller(tmp_path)
    replay_ms = (time.perf_counter() - started) * 1000
    restarted.journal.close()
    writes_per_round = journal.writes / (flights + timer_rounds)
    print(f"\nlong session: {controller.now() / 3600:.1f} h, {games} games, {flights} flights, "
          f"{timer_rounds} timer rounds; memory {baseline / 1e6:.1f} MB at start, "
          f"{current / 1e6:.1f} MB at the end, {peak / 1e6:.1f} MB peak (tracemalloc); "
          f"journal {size_kib:.0f} KiB, {journal.writes} writes "
          f"({writes_per_round:.1f} per round); replay at start-up {replay_ms:.1f} ms")
    assert (current - baseline) < 5e6, "memory grew over the evening"
    assert size_kib < 8 * 1024
    assert writes_per_round < 20
