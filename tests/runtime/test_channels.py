"""Channels never let a peer stall the loop: the outbox is bounded and drops the oldest
replies, and a client that writes a flood and reads nothing cannot delay a countdown."""

import json
import logging
import os
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from companion.runtime.channels import Outbox, SerialChannel


def test_outbox_put_never_blocks_and_drops_the_oldest(caplog):
    outbox = Outbox("test client", limit=3)
    with caplog.at_level(logging.WARNING):
        for number in range(5):
            outbox.put(b"%d" % number)
    assert len(outbox) == 3
    assert outbox.dropped == 2
    assert [outbox.take() for _ in range(3)] == [b"2", b"3", b"4"]
    assert "test client is not reading" in caplog.text


def test_outbox_take_returns_none_once_closed():
    outbox = Outbox("test client")
    taker = threading.Thread(target=lambda: results.append(outbox.take()))
    results: list[bytes | None] = []
    taker.start()
    outbox.close()
    taker.join(timeout=10)
    assert results == [None]


class StuckLink:
    """A peer that never reads: every write finds no room."""

    description = "stuck"

    def __init__(self):
        self.cancelled = threading.Event()

    def read(self, timeout):
        self.cancelled.wait(timeout)
        return b""

    def write(self, data):
        return 0

    def cancel(self):
        self.cancelled.set()

    def close(self):
        pass


def test_serial_channel_send_does_not_block_on_a_peer_that_never_reads():
    channel = SerialChannel(StuckLink(), queued_replies=10)
    channel.start(lambda event: None)
    try:
        for number in range(100):
            channel.send(f"ok {number}")
        # The writer holds at most one reply; the outbox keeps the newest ten.
        assert len(channel.outbox) <= 10
        assert channel.outbox.dropped >= 89
    finally:
        channel.close()
    assert not any(thread.is_alive() for thread in channel._threads)



@pytest.mark.slow
def test_a_countdown_expires_on_time_while_a_pty_client_floods_and_never_reads(tmp_path):
    """600 lines in, none of the replies read: the loop still ends the countdown on time."""
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "pty",
         "--state-dir", str(tmp_path)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out = process.stdout.fileno()
        path = _line(out).removeprefix("serial=")
        assert _line(out) == "ready"
        peer = os.open(path, os.O_RDWR | os.O_NOCTTY)
        lines = ["new timer seconds=5", "press next"] + ["state"] * 600
        os.write(peer, ("\n".join(lines) + "\n").encode())
        # Each `state` reply is ~200 bytes: 600 of them are far more than a pty buffers, so
        # a loop that waited for the client would never reach the expiry.
        started = time.monotonic()
        expired_after = _wait_for_expiry(tmp_path / "journal.sqlite3", started, limit=30)
        assert process.poll() is None
        assert expired_after < 15, f"the expiry came {expired_after:.1f} s after the start"
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
    assert b"not reading; oldest replies dropped" in process.stderr.read()


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
