"""`companion run` says what happened: its run record, and STATUS= to systemd when it is ready.

The notify socket is a real AF_UNIX datagram socket in a temporary folder, as systemd's is.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from companion.adapters.last_run import FILE_NAME, KILLED

pytestmark = pytest.mark.slow


@pytest.fixture
def notify_socket():
    with tempfile.TemporaryDirectory(prefix="sdn") as folder:  # short: AF_UNIX paths are short
        path = Path(folder) / "notify"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(str(path))
        sock.settimeout(30)
        try:
            yield sock, str(path)
        finally:
            sock.close()


def _start(state_dir: Path, notify_path: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "none",
         "--state-dir", str(state_dir), "--no-web"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={**_environ(), "NOTIFY_SOCKET": notify_path})


def _environ() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}


def _ready_message(sock: socket.socket) -> str:
    while True:
        message = sock.recv(4096).decode()
        if message.startswith("READY=1"):
            return message


def _record(state_dir: Path) -> dict:
    return json.loads((state_dir / FILE_NAME).read_text())


def test_run_status_after_a_kill_says_it_recovered_and_a_clean_stop_clears_it(tmp_path,
                                                                               notify_socket):
    sock, path = notify_socket
    first = _start(tmp_path, path)
    try:
        assert _ready_message(sock) == "READY=1\nSTATUS=ready"
        assert _record(tmp_path)["state"] == "running"
    finally:
        first.kill()  # as the watchdog or the OOM killer would: no chance to write anything
        first.wait(timeout=30)
        first.stdout.close()
    second = _start(tmp_path, path)
    try:
        assert _ready_message(sock) == \
            f"READY=1\nSTATUS=ready; recovered after 1 crash, last: {KILLED}"
        second.send_signal(signal.SIGTERM)
        assert second.wait(timeout=30) == 0
    finally:
        if second.poll() is None:
            second.kill()
            second.wait()
        second.stdout.close()
    assert _record(tmp_path)["state"] == "stopped"
    assert _record(tmp_path)["crashes"] == 0


@pytest.mark.parametrize(("raised", "state", "reason"), [
    ("ValueError('the display said no')", "crashed", "ValueError: the display said no"),
    ("KeyboardInterrupt()", "stopped", ""),  # Ctrl-C while starting is a stop, not a crash
])
def test_run_status_a_crash_at_the_top_of_run_is_recorded_and_exits_non_zero(tmp_path, raised,
                                                                             state, reason):
    program = textwrap.dedent(f"""
        import sys
        import companion.cli as cli

        def crash(*args, **kwargs):
            raise {raised}

        cli._run_box = crash
        sys.exit(cli.main(["run", "--backend", "fake", "--serial", "none",
                           "--state-dir", {str(tmp_path)!r}]))
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=60, check=False, env=_environ())
    assert done.returncode != 0
    record = _record(tmp_path)
    assert record["state"] == state
    assert record["last_crash"] == reason
    assert record["crashes"] == (1 if state == "crashed" else 0)
