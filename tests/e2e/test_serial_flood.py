"""Floods through a real pseudo-terminal: a large random byte stream gets an answer to every
line within bounded memory, and a client that writes 600 lines and reads none cannot delay a
countdown (the reader waits for the writer instead; replies drop only past 5 s of no reading)."""

import contextlib
import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

# 4 MiB through a pty, and a wait of up to 240 s for the expiry under a flood.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

STREAM_BYTES = 4 << 20


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_serial_flood_of_random_bytes(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "pty",
         "--state-dir", str(tmp_path), "--no-web"],
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


def test_a_countdown_expires_on_time_while_a_pty_client_floods_and_never_reads(tmp_path):
    """600 lines in, none of the replies read: the loop still ends the countdown, before the
    client has read a byte. (When it ends is the timer's own tests' business, on the fake
    clock; here the wait for it is only a bound against a hang, never a timing assertion.)"""
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "pty",
         "--state-dir", str(tmp_path), "--no-web"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out = process.stdout.fileno()
        path = _line(out).removeprefix("serial=")
        assert _line(out) == "ready"
        peer = os.open(path, os.O_RDWR | os.O_NOCTTY)
        lines = ["new timer seconds=5", "press next"] + ["state"] * 600
        os.write(peer, ("\n".join(lines) + "\n").encode())
        # Each `state` reply is ~200 bytes: 600 of them are far more than a pty buffers, so
        # a loop that waited for the client would never reach the expiry: it is journaled
        # while the client still has read nothing.
        _wait_for_expiry(tmp_path / "journal.sqlite3", time.monotonic(), limit=240)
        assert process.poll() is None
        # The client reads at last: the box still answers, newest replies first kept.
        os.set_blocking(peer, False)
        _drain(peer)
        os.write(peer, b"state\n")
        # Replies still queued from the flood come first (the countdown was running then).
        answer = _read_until(peer, b'"state": "expired"')
        assert json.loads(answer[3:].splitlines()[0])["timer"]["state"] == "expired"
        os.close(peer)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    # Whether any reply was dropped depends on how long the writer found no room (5 s of no
    # progress means "not reading", issue #19, 7): tests/runtime/test_serial_replies.py
    # checks both sides of that rule on a pty without a race.
    process.stderr.read()


def _wait_for_expiry(journal, started, limit):
    while time.monotonic() - started < limit:
        if journal.exists():
            with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
                try:
                    rows = db.execute("SELECT action FROM actions").fetchall()
                except sqlite3.OperationalError:  # the schema is being written
                    rows = []
            if any('"expire"' in action for (action,) in rows):
                return time.monotonic() - started
        select.select([], [], [], 0.1)  # a bounded wait between polls of another process
    raise AssertionError("the countdown never expired")


def _read_until(fd, marker):
    data = bytearray()
    deadline = time.monotonic() + 20
    while marker not in data:
        assert time.monotonic() < deadline, f"no {marker!r} in {bytes(data[-200:])!r}"
        if select.select([fd], [], [], 1.0)[0]:
            data += _drain(fd)
    return bytes(data[data.rfind(b"ok {", 0, data.find(marker)):])


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
