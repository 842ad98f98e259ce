"""``companion run`` imports only what its first screen needs (issue #12).

A Pi Zero 2 W imports 15-20 times slower than a desktop, so every module loaded before
``ready`` is felt at power-on. The games' rules and scorers load when a game is chosen or
scored, the bench when it runs; the fonts load with Pillow's PNG reader alone, not the five
image plugins ``Image.open`` imports first. Read from a real start with
``python -X importtime``, which lists every module imported; no timing is asserted (speed
belongs to ``companion bench``). The list is the one a Pi's start loads, where the table page
is off unless configured, so the fake backend runs with ``--no-web`` (off a Pi it is on by
default, and that start is checked below: the web and nothing heavier).
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
    "h11",  # the page's server (asyncio + h11, issue #38): only with the page on
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
        line = process.stdout.readline().strip()
        if line.startswith(b"web="):  # the default page off a Pi says where it is first
            line = process.stdout.readline().strip()
        assert line == b"ready"
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
                                         "--serial", "none", "--no-web")


def test_run_fake_backend_import_list_is_read(fake_backend_imports):
    assert {"companion.cli", "companion.bootstrap", "companion.core.app"} <= fake_backend_imports


@pytest.mark.parametrize("module", NOT_BEFORE_READY)
def test_run_fake_backend_reaches_ready_without_importing(fake_backend_imports, module):
    assert not {name for name in fake_backend_imports
                if name == module or name.startswith(module + ".")}


#: What the default start off a Pi (the page on, on loopback) still must not load before ready.
NOT_BEFORE_READY_WITH_THE_PAGE = tuple(module for module in NOT_BEFORE_READY
                                       if module not in ("companion.web", "h11", "_hashlib"))


@pytest.fixture(scope="module")
def default_start_imports(tmp_path_factory):
    return modules_imported_before_ready(tmp_path_factory.mktemp("state"), "--backend", "fake",
                                         "--serial", "none")


def test_the_default_start_off_a_pi_serves_the_page(default_start_imports):
    assert {"companion.web.service", "h11"} <= default_start_imports


@pytest.mark.parametrize("module", NOT_BEFORE_READY_WITH_THE_PAGE)
def test_the_default_start_with_the_page_imports_nothing_heavier(default_start_imports, module):
    assert not {name for name in default_start_imports
                if name == module or name.startswith(module + ".")}
