"""The SD card checks' long tool runs, shown live in pytest's own output.

tools/build-image and tools/pi-boot take from about a minute (cached layers) to most of an hour
(cold Debian layers built under emulation). Captured until they end, pytest would show the test
file's name and nothing else for that long; these helpers name the step first, then pass each
line the tool prints (its steps, and its progress lines every half minute: layer, packages set
up, elapsed) straight to the terminal, around pytest's capture, and keep the output for the
test's asserts. The tests import this as ``tests.deploy.card_support``.
"""

import subprocess
import threading
import time


def _terminal(config):
    """A write_line for the real terminal, past pytest's capture."""
    reporter = config.pluginmanager.getplugin("terminalreporter")
    capture = config.pluginmanager.getplugin("capturemanager")

    def write_line(text):
        if reporter is None:
            return
        if capture is None:
            reporter.write_line(text)
            return
        with capture.global_and_fixture_disabled():
            reporter.write_line(text)
    return write_line


def run_live(config, title, argv, *, timeout):
    """Run ``argv`` (a list, no shell), printing ``title`` then its output line by line as it
    comes; its exit status and whole output (standard error folded in). Killed, and -9
    returned, after ``timeout`` seconds."""
    write_line = _terminal(config)
    started = time.monotonic()
    write_line("")
    write_line(f"== {title}")
    write_line(f"   $ {' '.join(str(a) for a in argv)}")
    process = subprocess.Popen(argv, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    lines = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            write_line(f"   | {line.rstrip()}")
        status = process.wait()
    finally:
        timer.cancel()
    write_line(f"== {title}: exit {status} after {time.monotonic() - started:.0f} s")
    return status, "".join(lines)
