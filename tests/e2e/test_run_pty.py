"""`companion run --backend fake --serial pty` driven through its real pseudo-terminal."""

import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.slow


def read_line(fd, deadline):
    """One LF-terminated line from ``fd``, waiting at most until ``deadline`` (monotonic)."""
    data = b""
    while not data.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no complete line in time; got {data!r}"
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 1)
            assert chunk, "end of stream"
            data += chunk
    return data.decode().rstrip("\r\n")


@pytest.fixture
def running_box(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "pty",
         "--state-dir", str(tmp_path), "--no-web"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    serial_line = read_line(process.stdout.fileno(), deadline)
    assert serial_line.startswith("serial="), serial_line
    assert read_line(process.stdout.fileno(), deadline) == "ready"
    peer = os.open(serial_line.removeprefix("serial="), os.O_RDWR | os.O_NOCTTY)
    yield process, peer
    os.close(peer)
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)


def ask(peer, line):
    os.write(peer, line.encode() + b"\n")
    return read_line(peer, time.monotonic() + 15)


def test_run_pty_answers_state_and_press_then_exits_0_on_sigterm(running_box):
    process, peer = running_box
    state = json.loads(ask(peer, "state").removeprefix("ok "))
    assert state["phase"] == "menu"
    assert ask(peer, "new timer seconds=30") == "ok"
    assert ask(peer, "press next") == "ok"
    state = json.loads(ask(peer, "state").removeprefix("ok "))
    assert state["timer"]["state"] == "running"
    assert 0 < state["timer"]["remaining"] <= 30
    assert ask(peer, "wait 1").startswith("err unsupported")
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=15) == 0


def test_run_pty_resumes_the_game_after_a_restart(running_box, tmp_path):
    process, peer = running_box
    assert ask(peer, "new timer seconds=45") == "ok"
    assert ask(peer, "press up") == "ok"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=15) == 0

    again = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "pty",
         "--state-dir", str(tmp_path), "--no-web"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        path = read_line(again.stdout.fileno(), deadline).removeprefix("serial=")
        assert read_line(again.stdout.fileno(), deadline) == "ready"
        second = os.open(path, os.O_RDWR | os.O_NOCTTY)
        state = json.loads(ask(second, "state").removeprefix("ok "))
        os.close(second)
        assert state["game"] == "timer"
        assert state["timer"]["duration"] == 50.0  # UP from 45 s
    finally:
        again.send_signal(signal.SIGTERM)
        assert again.wait(timeout=15) == 0
