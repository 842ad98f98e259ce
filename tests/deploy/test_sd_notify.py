"""SystemdNotifier speaks sd_notify over a real AF_UNIX datagram socket; silent without one."""

import logging
import os
import socket
import tempfile
from pathlib import Path

import pytest

from companion.adapters.sd_notify import SystemdNotifier


@pytest.fixture
def listener():
    with tempfile.TemporaryDirectory(prefix="sdn") as folder:  # short: AF_UNIX paths are short
        path = Path(folder) / "notify"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(str(path))
        sock.settimeout(5)
        try:
            yield sock, str(path)
        finally:
            sock.close()


def test_sd_notify_sends_ready_watchdog_stopping_status(listener):
    sock, path = listener
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready()
    assert sock.recv(4096) == b"READY=1"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.status("flight 2:\n  12 s left")
    assert sock.recv(4096) == b"STATUS=flight 2: 12 s left"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    notifier.close()


def test_sd_notify_ready_with_status(listener):
    sock, path = listener
    SystemdNotifier({"NOTIFY_SOCKET": path}).ready("first frame drawn")
    assert sock.recv(4096) == b"READY=1\nSTATUS=first frame drawn"


@pytest.mark.skipif(os.uname().sysname != "Linux", reason="abstract sockets are Linux-only")
def test_sd_notify_abstract_namespace():
    name = f"companion-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        assert SystemdNotifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(4096) == b"READY=1"
    finally:
        sock.close()


def test_sd_notify_is_a_no_op_without_notify_socket():
    notifier = SystemdNotifier({"WATCHDOG_USEC": "20000000"})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog() is False
    assert notifier.stopping() is False
    assert notifier.status("x") is False
    assert notifier.watchdog_interval() is None


def test_sd_notify_reads_the_process_environment(monkeypatch, listener):
    sock, path = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    assert SystemdNotifier().ready()
    assert sock.recv(4096) == b"READY=1"
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert SystemdNotifier().ready() is False


def test_sd_notify_watchdog_interval_from_env():
    base = {"NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "20000000"}
    assert SystemdNotifier(base).watchdog_interval() == 10.0
    mine = {**base, "WATCHDOG_PID": str(os.getpid())}
    assert SystemdNotifier(mine).watchdog_interval() == 10.0
    other = {**base, "WATCHDOG_PID": str(os.getpid() + 1)}
    assert SystemdNotifier(other).watchdog_interval() is None
    assert SystemdNotifier({**base, "WATCHDOG_USEC": "0"}).watchdog_interval() is None
    assert SystemdNotifier({**base, "WATCHDOG_USEC": "soon"}).watchdog_interval() is None
    assert SystemdNotifier({"NOTIFY_SOCKET": "/x"}).watchdog_interval() is None


def test_sd_notify_send_failure_never_raises_and_logs_once(tmp_path, caplog):
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")})
    with caplog.at_level(logging.DEBUG, logger="companion.adapters.sd_notify"):
        assert notifier.ready() is False
        assert notifier.watchdog() is False
        assert notifier.watchdog() is False
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    notifier.close()


def test_sd_notify_ready_sends_the_ready_status_given_at_creation(listener):
    sock, path = listener
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path},
                               ready_status="ready; recovered after 2 crashes, last: X")
    assert notifier.ready()
    assert sock.recv(4096) == b"READY=1\nSTATUS=ready; recovered after 2 crashes, last: X"
    assert notifier.ready("first frame drawn")  # a status of its own wins
    assert sock.recv(4096) == b"READY=1\nSTATUS=first frame drawn"
    notifier.close()
