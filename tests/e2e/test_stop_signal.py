"""SIGTERM and SIGINT always stop the box, whichever thread the kernel hands the signal to.

gpiozero's buttons run threads of their own; a stop signal delivered to one of them used to
leave the loop asleep on its queue forever (seen once in a few dozen starts)."""

import signal
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

STARTS = 20


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_stop_signal_right_after_ready_always_stops_the_box(tmp_path, stop):
    hung = 0
    for _ in range(STARTS):
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "none",
             "--state-dir", str(tmp_path), "--no-web"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            while (line := process.stdout.readline()) and line.strip() != b"ready":
                pass
            process.send_signal(stop)
            try:
                assert process.wait(timeout=10) == 0
            except subprocess.TimeoutExpired:
                hung += 1
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()
    assert hung == 0, f"{hung} of {STARTS} starts did not stop on {stop.name}"
