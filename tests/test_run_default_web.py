"""``companion run`` with no flags: the table page on loopback off a Pi, nothing on a Pi.

Issue #20 item 1 (docs/web.md, "Turning it on"): with the fake backend the page is served on
127.0.0.1 (trusted, nothing exposed), ``web=<url>`` is printed on its own line before ``ready``
and standard error says "Open <url> on this computer"; a busy port 8080 gives way to a free
one when no port was named. On the Pi backend nothing changes: no page, no ``web=`` line,
unless the config or ``--web`` asks for one. ``--no-web`` turns the default off.
"""

import contextlib
import http.client
import socket
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

from companion import cli
from companion.runtime import EventLoop


def start(state_dir, *arguments):
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "none",
         "--state-dir", str(state_dir), *arguments],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stop(process):
    process.terminate()
    try:
        return process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


@contextlib.contextmanager
def port_8080_busy():
    """127.0.0.1:8080 held for the block: by this test, or already by something else."""
    holder = socket.socket()
    try:
        with contextlib.suppress(OSError):  # taken already: busy either way
            holder.bind(("127.0.0.1", 8080))
            holder.listen()
        yield
    finally:
        holder.close()


def test_run_with_no_flags_serves_the_page_on_loopback(tmp_path):
    process = start(tmp_path)
    try:
        first = process.stdout.readline().strip()
        assert first.startswith("web=http://127.0.0.1:")
        assert process.stdout.readline().strip() == "ready"
        url = urlsplit(first.removeprefix("web="))
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
        connection.request("GET", "/")
        answer = connection.getresponse()
        assert answer.status == 200
        assert b"Table companion" in answer.read()
        connection.close()
    finally:
        _, errors = stop(process)
    assert process.returncode == 0
    assert f"Open {first.removeprefix('web=')} on this computer" in errors


@pytest.mark.parametrize("arguments", [(), ("--web",)], ids=["default", "web-alone"])
def test_a_busy_8080_gives_way_to_a_free_port(tmp_path, arguments):
    with port_8080_busy():
        process = start(tmp_path, *arguments)
        try:
            first = process.stdout.readline().strip()
            assert process.stdout.readline().strip() == "ready"
        finally:
            stop(process)
    url = urlsplit(first.removeprefix("web="))
    assert url.hostname == "127.0.0.1"
    assert url.port != 8080
    assert process.returncode == 0


def test_no_web_turns_the_default_page_off(tmp_path):
    process = start(tmp_path, "--no-web")
    try:
        assert process.stdout.readline().strip() == "ready"
    finally:
        _, errors = stop(process)
    assert "Open " not in errors


def test_no_web_and_web_together_are_bad_usage(tmp_path):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["run", "--no-web", "--web", "127.0.0.1:0", "--state-dir", str(tmp_path)])
    assert stopped.value.code == 2


@pytest.fixture
def on_a_pi(monkeypatch):
    """``--backend auto`` on a Raspberry Pi, as the doctor's tests fake one: the probe says
    Pi, and the Pi's devices are the fake backend's (this machine has no GPIO chip)."""
    import companion.bootstrap
    from companion.adapters import pi_probe

    monkeypatch.setattr(pi_probe, "is_raspberry_pi", lambda *_, **__: True)
    build = companion.bootstrap.build_hardware
    backends = []

    def pi_hardware(config, backend, **options):
        backends.append(backend)
        return build(config, "fake", **options)

    monkeypatch.setattr(companion.bootstrap, "build_hardware", pi_hardware)
    monkeypatch.setattr(EventLoop, "run", lambda _loop: 0)  # as if stopped by SIGTERM at once
    return backends


def test_on_a_pi_run_with_no_flags_serves_no_page(on_a_pi, tmp_path, capsys):
    assert cli.main(["run", "--serial", "none", "--state-dir", str(tmp_path)]) == 0
    assert on_a_pi == ["pi"]
    printed = capsys.readouterr()
    assert "web=" not in printed.out
    assert "Open " not in printed.err


def test_on_a_pi_the_config_still_turns_the_page_on(on_a_pi, tmp_path, capsys):
    config = tmp_path / "companion.toml"
    config.write_text('[web]\nlisten = "127.0.0.1:0"\n')
    assert cli.main(["run", "--serial", "none", "--state-dir", str(tmp_path / "state"),
                     "--config", str(config)]) == 0
    assert on_a_pi == ["pi"]
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if line.startswith("web=http://127.0.0.1:")]
