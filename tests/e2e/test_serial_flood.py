"""A large random byte stream through a real pseudo-terminal: the box answers every line,
stays within bounded memory, and still plays afterwards."""

import contextlib
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

STREAM_BYTES = 4 << 20


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_serial_flood_of_random_bytes(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "pty",
         "--state-dir", str(tmp_path)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        out = process.stdout.fileno()
        path = _line(out).removeprefix("serial=")
        assert _line(out) == "ready"
        peer = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        rng = random.Random(7)
        # Random bytes, with a long line (over the limit) and NULs mixed in.
        blob = bytearray(rng.randbytes(STREAM_BYTES))
        blob[1000:1000 + 200_000] = b"y" * 200_000
        replies = bytearray()
        sent = 0
        deadline = time.monotonic() + 120
        peak = 0.0
        while sent < len(blob):
            assert time.monotonic() < deadline, "the box stopped reading"
            readable, writable, _ = select.select([peer], [peer], [], 1.0)
            if readable:
                replies += _drain(peer)
            if writable:
                with contextlib.suppress(BlockingIOError):  # the box is busy: try again
                    sent += os.write(peer, bytes(blob[sent:sent + 4096]))
            peak = max(peak, rss_mb(process.pid))
        os.write(peer, b"\nstate\n")
        answer = bytearray()
        while b'"phase"' not in answer:
            assert time.monotonic() < deadline, "no answer to state after the flood"
            if select.select([peer], [], [], 1.0)[0]:
                answer += _drain(peer)
        replies += answer
        assert process.poll() is None
        assert b"err " in replies
        assert peak < 120, f"RSS peaked at {peak:.1f} MB"
        os.close(peer)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0


def _drain(fd):
    data = bytearray()
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return data
        if not chunk:
            return data
        data += chunk


def _line(fd):
    data = b""
    deadline = time.monotonic() + 30
    while not data.endswith(b"\n"):
        assert time.monotonic() < deadline
        if select.select([fd], [], [], 1.0)[0]:
            data += os.read(fd, 1)
    return data.decode().strip()
