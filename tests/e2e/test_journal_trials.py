"""Trials of the journal through `companion run` (issue #13): a full disk, a disk full at
start, a clean stop, a damaged write-ahead log.

The disk-full trials run on a 4 MiB tmpfs of their own (the ``small_disk`` fixture, skipped only
where mounting is not permitted). An acknowledged action is one that got ``ok`` on the serial
line; after a SIGKILL and a restart every one of them must be in the journal.
"""

import json
import signal
import sqlite3
import tempfile
from pathlib import Path

import pytest

from companion.adapters.journal import FILE_NAME
from companion.testing.pty_box import PtyBox
from companion.testing.simulated import simulated_controller

pytestmark = pytest.mark.slow

PLAY = ["press up", "press up", "press down", "press up", "press down"]


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
    box = PtyBox(small_disk.path, log=True)
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

    again = PtyBox(small_disk.path, log=True)
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
    box = PtyBox(small_disk.path, log=True)
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
    box = PtyBox(tmp_path, log=True)
    assert box.ask("new timer seconds=60") == "ok"
    for command in PLAY:
        assert box.ask(command) == "ok"
    assert box.stop(stop) == 0
    wal = tmp_path / (FILE_NAME + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    assert stored_actions(tmp_path) == len(PLAY)


def test_journal_a_damaged_write_ahead_log_is_kept_aside_and_the_screen_says_so(tmp_path):
    box = PtyBox(tmp_path, log=True)
    assert box.ask("new timer seconds=60") == "ok"
    for command in PLAY:
        assert box.ask(command) == "ok"
    box.stop(signal.SIGKILL)  # the game now lives in the -wal file
    wal = tmp_path / (FILE_NAME + "-wal")
    damaged = bytearray(wal.read_bytes())
    damaged[:32] = bytes(32)  # the log's header, gone
    wal.write_bytes(bytes(damaged))

    again = PtyBox(tmp_path, log=True)
    try:
        lines = again.screen()
        state = again.state()
    finally:
        again.stop(signal.SIGTERM)
    assert "Journal damaged: kept as" in lines
    kept = list(tmp_path.glob("journal.damaged-*.sqlite3-wal"))
    assert len(kept) == 1 and kept[0].read_bytes() == bytes(damaged)
    assert state["phase"] == "menu"
