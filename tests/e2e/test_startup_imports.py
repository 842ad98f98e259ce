"""``companion run`` imports only what its first screen needs (issue #12).

A Pi Zero 2 W imports 15-20 times slower than a desktop, so every module loaded before
``ready`` is felt at power-on. The games' rules and scorers load when a game is chosen or
scored, the bench when it runs; the fonts load with Pillow's PNG reader alone, not the five
image plugins ``Image.open`` imports first. Read from a real start with
``python -X importtime``, which lists every module imported; no timing is asserted (speed
belongs to ``companion bench``).
"""

import subprocess
import sys

import pytest

NOT_BEFORE_READY = (
    "companion.games.flight_plan",
    "companion.games.now_boarding",
    "companion.games.now_boarding_v3",
    "companion.games.now_boarding_v3_game",
    "companion.games.overbooked",
    "companion.games.planes",
    "companion.games.planes_game",
    "companion.bench.command",
    "companion.scenes",
    "companion.history",
    "companion.doctor",
    "companion.web",
    "http.server",
    "_hashlib",  # OpenSSL: about 4 MB of RSS (bench rss_mb), needed only by the web's tokens
    "PIL.JpegImagePlugin",
    "PIL.TiffImagePlugin",
    "PIL.BmpImagePlugin",
    "PIL.GifImagePlugin",
    "PIL.PpmImagePlugin",
)


def modules_imported_before_ready(state_dir, *arguments: str) -> set[str]:
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "companion", "run", "--state-dir",
         str(state_dir), *arguments],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout.readline().strip() == b"ready"
        process.terminate()
        _, errors = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return {line.rsplit("|", 1)[1].strip() for line in errors.decode().splitlines()
            if line.startswith("import time:") and "self [us]" not in line}


@pytest.fixture(scope="module")
def fake_backend_imports(tmp_path_factory):
    return modules_imported_before_ready(tmp_path_factory.mktemp("state"), "--backend", "fake",
                                         "--serial", "none")


def test_run_fake_backend_import_list_is_read(fake_backend_imports):
    assert {"companion.cli", "companion.bootstrap", "companion.core.app"} <= fake_backend_imports


@pytest.mark.parametrize("module", NOT_BEFORE_READY)
def test_run_fake_backend_reaches_ready_without_importing(fake_backend_imports, module):
    assert not {name for name in fake_backend_imports
                if name == module or name.startswith(module + ".")}
