"""``companion run --web``: the line it prints, the address it binds, and a clear refusal."""

import http.client
import json
import socket
import subprocess
import sys
from urllib.parse import urlsplit

import pytest


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


def test_run_web_prints_the_url_before_ready_and_serves_the_box(tmp_path):
    process = start(tmp_path, "--web", "127.0.0.1:0")
    try:
        first = process.stdout.readline().strip()
        assert first.startswith("web=http://127.0.0.1:")
        assert process.stdout.readline().strip() == "ready"
        url = urlsplit(first[len("web="):])
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
        connection.request("POST", "/api/line", body=b"new now-boarding players=2")
        assert json.load(connection.getresponse()) == {"reply": "ok"}
        connection.request("GET", "/api/state")
        assert json.load(connection.getresponse())["players"] == 2
        connection.close()
    finally:
        stop(process)
    assert process.returncode == 0


def test_web_on_a_port_in_use_exits_2_naming_it(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "none",
             "--state-dir", str(tmp_path), "--web", f"127.0.0.1:{port}"],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
            check=False)
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("listen", ["nope", "127.0.0.1:99999", "host name:80", ":x"])
def test_a_bad_web_address_exits_2(tmp_path, listen):
    result = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--backend", "fake", "--serial", "none",
         "--state-dir", str(tmp_path), "--web", listen],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
            check=False)
    assert result.returncode == 2
    assert "--web" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(("listen", "message"), [
    ("8080x", "port"),
    ("a b:80", "host"),
])
def test_the_config_refuses_a_bad_listen_address(tmp_path, listen, message):
    from companion.config import ConfigError, load

    path = tmp_path / "companion.toml"
    path.write_text(f'[web]\nlisten = "{listen}"\n')
    with pytest.raises(ConfigError, match=f"web.listen.*{message}"):
        load(path)


def test_the_web_is_off_by_default():
    from companion.config import defaults

    assert defaults()["web"] == {"listen": "", "pair_loopback": False, "public_mirror": False}


def test_web_listen_in_the_config_turns_it_on(tmp_path):
    config = tmp_path / "companion.toml"
    config.write_text('[web]\nlisten = "127.0.0.1:0"\n')
    process = start(tmp_path / "state", "--config", str(config))
    try:
        assert process.stdout.readline().startswith("web=http://127.0.0.1:")
        assert process.stdout.readline().strip() == "ready"
    finally:
        stop(process)
    assert process.returncode == 0
