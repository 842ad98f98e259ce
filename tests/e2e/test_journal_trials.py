"""Trials of the journal through `companion run` (issue #13): a full disk, a disk full at
start, a clean stop, a damaged write-ahead log.

The disk-full trials run on a 4 MiB tmpfs of their own (the ``small_disk`` fixture, skipped only
where mounting is not permitted). An acknowledged action is one that got ``ok`` on the serial
line; after a SIGKILL and a restart every one of them must be in the journal.
"""

import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from companion.adapters.journal import FILE_NAME
from companion.testing.simulated import simulated_controller

pytestmark = pytest.mark.slow

PLAY = ["press up", "press up", "press down", "press up", "press down"]


def read_line(fd, deadline):
    data = b""
    while not data.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no complete line in time; got {data!r}"
        if select.select([fd], [], [], remaining)[0]:
            chunk = os.read(fd, 1)
            assert chunk, "end of stream"
            data += chunk
    return data.decode(errors="replace").rstrip("\r\n")


class Box:
    """`companion run` on a pty, with its log readable (stderr)."""

    def __init__(self, state_dir):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "pty",
             "--state-dir", str(state_dir)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        path = read_line(self.process.stdout.fileno(), deadline).removeprefix("serial=")
        assert read_line(self.process.stdout.fileno(), deadline) == "ready"
        self.peer = os.open(path, os.O_RDWR | os.O_NOCTTY)

    def ask(self, line):
        os.write(self.peer, line.encode() + b"\n")
        return read_line(self.peer, time.monotonic() + 15)

    def screen(self):
        return json.loads(self.ask("screen").removeprefix("ok "))["lines"]

    def state(self):
        return json.loads(self.ask("state").removeprefix("ok "))

    def wait_for_log(self, text, seconds=90):
        """Read the box's log until a line holds ``text`` (the box retries on its own)."""
        deadline = time.monotonic() + seconds
        while True:
            line = read_line(self.process.stderr.fileno(), deadline)
            if text in line:
                return line

    def stop(self, how):
        if self.process.poll() is None:
            self.process.send_signal(how)
            self.process.wait(timeout=15)
        if self.peer is not None:
            os.close(self.peer)
            self.peer = None
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()
        return self.process.returncode


def stored_actions(state_dir):
    """How many actions of the current game the journal holds after the box is gone (read
    with SQLite alone, which replays the write-ahead log as the box would)."""
    db = sqlite3.connect(state_dir / FILE_NAME)
    try:
        return db.execute("SELECT COUNT(*) FROM actions a JOIN games g ON g.id = a.game_id"
                          " WHERE g.current = 1").fetchone()[0]
    finally:
        db.close()


def model_state(commands):
    with tempfile.TemporaryDirectory() as folder:
        controller = simulated_controller(Path(folder))
        for command in commands:
            controller.command_line(command)
        controller.journal.close()
        controller = simulated_controller(Path(folder))
        state = json.loads(controller.command_line("state").removeprefix("ok "))
        controller.journal.close()
        return state


def test_journal_trial_killed_on_a_full_disk_loses_no_acknowledged_action(small_disk, capsys):
    box = Box(small_disk.path)
    try:
        assert box.ask("new timer seconds=600") == "ok"
        small_disk.fill()
        acknowledged = 0
        for index in range(65):
            assert box.ask(PLAY[index % len(PLAY)]) == "ok"
            acknowledged += 1
        assert box.screen()[0].endswith("[FULL!]")  # saving on the reserve, and saying so
        assert not (small_disk.path / "reserve.bin").exists()
    finally:
        box.stop(signal.SIGKILL)
    small_disk.free()
    stored = stored_actions(small_disk.path)

    again = Box(small_disk.path)
    try:
        after = again.state()
    finally:
        again.stop(signal.SIGTERM)
    commands = ["new timer seconds=600", *(PLAY[index % len(PLAY)] for index in range(65))]
    assert after == model_state(commands)
    with capsys.disabled():
        print(f"\ndisk-full trial: {acknowledged} actions acknowledged on a full disk, "
              f"SIGKILL, {stored} in the journal after, {acknowledged - stored} lost")
    assert stored == acknowledged


def test_journal_trial_full_at_start_the_journal_opens_later_and_keeps_the_game(
        small_disk, capsys):
    small_disk.fill()
    box = Box(small_disk.path)
    try:
        assert box.screen()[0].endswith("[SAVE!]")  # playing in memory, and saying so
        assert box.ask("new timer seconds=600") == "ok"
        for index in range(31):
            assert box.ask(PLAY[index % len(PLAY)]) == "ok"
        small_disk.free()
        box.wait_for_log("journal opened in")
        assert box.ask("press up") == "ok"
        assert "[SAVE!]" not in box.screen()[0]
    finally:
        box.stop(signal.SIGKILL)
    stored = stored_actions(small_disk.path)
    with capsys.disabled():
        print(f"\nfull-at-start trial: 32 actions acknowledged (31 before the disk had room),"
              f" SIGKILL, {stored} in the journal after, {32 - stored} lost")
    assert stored == 32


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_journal_a_clean_stop_leaves_nothing_only_in_the_write_ahead_log(tmp_path, stop):
    box = Box(tmp_path)
    assert box.ask("new timer seconds=60") == "ok"
    for command in PLAY:
        assert box.ask(command) == "ok"
    assert box.stop(stop) == 0
    wal = tmp_path / (FILE_NAME + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    assert stored_actions(tmp_path) == len(PLAY)


def test_journal_a_damaged_write_ahead_log_is_kept_aside_and_the_screen_says_so(tmp_path):
    box = Box(tmp_path)
    assert box.ask("new timer seconds=60") == "ok"
    for command in PLAY:
        assert box.ask(command) == "ok"
    box.stop(signal.SIGKILL)  # the game now lives in the -wal file
    wal = tmp_path / (FILE_NAME + "-wal")
    damaged = bytearray(wal.read_bytes())
    damaged[:32] = bytes(32)  # the log's header, gone
    wal.write_bytes(bytes(damaged))

    again = Box(tmp_path)
    try:
        lines = again.screen()
        state = again.state()
    finally:
        again.stop(signal.SIGTERM)
    assert "Journal damaged: kept as" in lines
    kept = list(tmp_path.glob("journal.damaged-*.sqlite3-wal"))
    assert len(kept) == 1 and kept[0].read_bytes() == bytes(damaged)
    assert state["phase"] == "menu"
