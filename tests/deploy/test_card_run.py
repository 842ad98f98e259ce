"""The SD card's checks are a run of their own (issue #39), and its long steps say they are alive.

`tools/test` (pytest's default run) builds no operating system image: every test that needs a
built card carries @pytest.mark.card and is left out at collection (deselected, never skipped),
with a line naming them and the command that runs them; `pytest --card` (`sudo tools/test
--card`, CI's third step) runs those and nothing else. A run that collects nothing still exits
5, which tools/test and .ci/run treat as a failure. tools/pi_image's long steps print a progress
line (layer, packages set up, elapsed) while they run.
"""

import ast
import io
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from pi_image import debian, progress  # noqa: E402

from tests.deploy.card_support import run_live  # noqa: E402

IMAGE_TESTS = "tests/deploy/test_image.py"


def collect(*args):
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--co", "-q",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=240,
                          check=False)
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    return done, ids


def test_default_run_collects_no_test_that_builds_the_card_and_names_what_it_left_out():
    done, ids = collect(IMAGE_TESTS)
    assert done.returncode == 0, done.stdout[-3000:]
    assert ids, done.stdout[-3000:]
    # the static checks on made-up facts stay in the default run
    assert any("test_static_checks_accept_a_good_card" in i for i in ids)
    assert any("test_parse_config_txt_reads_sections_and_settings" in i for i in ids)
    # nothing that reads back a built image
    assert not [i for i in ids if "::test_image_" in i or "::test_full_image" in i]
    # the quick card's 12 read-back tests and the flashable card's one
    assert "13 long build checks are not in this run" in done.stdout
    assert "`sudo tools/test --card` runs them" in done.stdout
    assert "SKIP" not in done.stdout.upper().replace("--SKIP", "")


def test_card_run_collects_only_the_card_checks():
    done, ids = collect("--card", IMAGE_TESTS)
    assert done.returncode == 0, done.stdout[-3000:]
    assert len(ids) in (12, 13), ids  # the flashable card's test when its layer is ready
    assert all("::test_image_" in i or "::test_full_image" in i for i in ids), ids
    assert "long build checks are not in this run" not in done.stdout


def test_a_card_run_that_collects_nothing_still_fails_with_exit_5():
    done, ids = collect("--card", "tests/deploy/test_doctor.py")
    assert ids == []
    assert done.returncode == pytest.ExitCode.NO_TESTS_COLLECTED == 5


@pytest.mark.parametrize("path", ["tools/test", ".ci/run"])
def test_tools_test_and_ci_pass_pytests_exit_status_on(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert "|| true\n\"$venv/bin/pytest\"" not in text
    if path == ".ci/run":
        # the card's step runs after both suites, and its status counts
        assert text.index("./tools/test\n") < text.index("./tools/test --python3.13") < \
            text.index("./tools/test --card")
        assert '[ "$status_card" -eq 0 ]' in text
    else:
        assert 'exec "$venv/bin/pytest" --card "$@"' in text
        assert text.rstrip().endswith('"$venv/bin/pytest" "$@"')


def test_log_progress_counts_the_packages_set_up_since_the_step_began(tmp_path):
    log_path = tmp_path / "build.log"
    with log_path.open("w", encoding="utf-8") as log:
        log.write("Setting up old (1.0) ...\n")  # before the step: not counted
        counted = progress.LogProgress(log, total=3)
        assert counted() == "0/3 packages set up; log: (no output yet)"
        log.write("Unpacking systemd (257) ...\nSetting up libc6 (2.41) ...\n"
                  "I: Configuring systemd...\nProcessing triggers for man-db ...\n")
        log.flush()
        assert counted() == "2/3 packages set up; log: Processing triggers for man-db ..."


def test_log_progress_counts_the_packages_installed_in_the_root_being_built(tmp_path):
    root = tmp_path / "root"
    (root / "var/lib/dpkg").mkdir(parents=True)
    log_path = tmp_path / "build.log"
    with log_path.open("w", encoding="utf-8") as log:
        counted = progress.LogProgress(log, total=3, root=root)
        # before dpkg has a status file: the log's count
        assert counted() == "0/3 packages set up; log: (no output yet)"
        (root / "var/lib/dpkg/status").write_text(
            "Package: libc6\nStatus: install ok installed\n\n"
            "Package: systemd\nStatus: install ok unpacked\n\n"
            "Package: udev\nStatus: install ok not-installed\n", encoding="utf-8")
        log.write("I: Unpacking the base system...\n")
        log.flush()
        assert counted() == ("1/3 packages installed in the root; "
                             "log: I: Unpacking the base system...")
        # set up since dpkg last rewrote its status file: in its journal
        (root / "var/lib/dpkg/updates").mkdir()
        (root / "var/lib/dpkg/updates/0000").write_text(
            "Package: systemd\nStatus: install ok installed\nVersion: 257\n", encoding="utf-8")
        assert counted().startswith("2/3 packages installed in the root; ")


def test_heartbeat_line_names_the_step_its_progress_and_the_time_so_far():
    beat = progress.Heartbeat(lambda _text: None, "base: debootstrap --second-stage",
                              lambda: "40/212 packages set up", every=30)
    beat.began -= 754
    assert beat.line() == ("   ... base: debootstrap --second-stage: 40/212 packages set up, "
                           "12 min 34 s so far")


def test_a_step_that_ends_within_the_beat_prints_no_progress_line():
    out = io.StringIO()
    clock = debian.Clock(out=out)
    with clock.step("OS layer: a quick step"):
        pass
    lines = out.getvalue().splitlines()
    assert lines[0] == "-- OS layer: a quick step ..."
    assert lines[1].endswith("OS layer: a quick step")
    assert len(lines) == 2


def test_a_long_step_prints_progress_lines_until_it_ends():
    said = []
    beats = iter([False, False, True])  # two beats pass, then the step ends

    class Stopped:
        def wait(self, _timeout):
            return next(beats)

        def set(self):
            pass
    beat = progress.Heartbeat(said.append, "companion layer: install.py", lambda: "7 packages")
    beat.stopped = Stopped()
    beat._run()
    assert len(said) == 2
    assert all(s.startswith("   ... companion layer: install.py: 7 packages, 0 min ") for s in said)


class Terminal:
    """A stand-in for pytest's terminal reporter (no capture manager): the lines it wrote."""

    def __init__(self):
        self.lines = []

    def write_line(self, text):
        self.lines.append(text)


def config_with(terminal):
    plugins = {"terminalreporter": terminal, "capturemanager": None}
    return SimpleNamespace(pluginmanager=SimpleNamespace(getplugin=plugins.get))


def test_run_live_names_the_step_and_passes_each_line_on_as_it_comes():
    terminal = Terminal()
    status, out = run_live(config_with(terminal), "the quick SD card",
                           [sys.executable, "-c", "print('-- base ...'); print('[ 1.0 s] base')"],
                           timeout=60)
    assert (status, out) == (0, "-- base ...\n[ 1.0 s] base\n")
    assert terminal.lines[1] == "== the quick SD card"
    assert terminal.lines[3:5] == ["   | -- base ...", "   | [ 1.0 s] base"]
    assert terminal.lines[5].startswith("== the quick SD card: exit 0 after ")


def test_run_live_kills_a_tool_that_outlives_its_bound():
    status, _ = run_live(config_with(Terminal()), "a hung build",
                         [sys.executable, "-c", "import time; time.sleep(120)"], timeout=0.2)
    assert status == -9


def test_every_image_test_is_a_card_test_so_the_default_run_never_builds_one():
    """A test that asks for a built card (the image, facts or full_image fixtures) must carry
    the card mark, or the default run would build the card's Debian layers again."""
    tree = ast.parse((ROOT / IMAGE_TESTS).read_text(encoding="utf-8"))
    needing = {"image", "facts", "full_image"}
    unmarked = [node.name for node in tree.body
                if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
                and needing & {arg.arg for arg in node.args.args}
                and "needs_card" not in {ast.unparse(d) for d in node.decorator_list}]
    assert unmarked == []
