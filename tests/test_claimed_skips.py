"""A trial the README presents as checked never passes CI by skipping (tests/conftest.py).

The real disk-full trials skip only where a tmpfs cannot be mounted (not root). Here a
``mount`` that refuses, first on PATH, makes one of them skip for real: with ``CI=true`` the
run fails and says why; without it the run passes and the summary gives the skip's reason.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRIAL = ("tests/e2e/test_journal_trials.py::"
         "test_journal_trial_killed_on_a_full_disk_loses_no_acknowledged_action")


def run_trial(tmp_path, ci):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    refusing = bin_dir / "mount"
    refusing.write_text("#!/bin/sh\necho 'mount: only root can do that' >&2\nexit 1\n")
    refusing.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    env.pop("CI", None)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", TRIAL],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
                          check=False)


@pytest.mark.parametrize("ci", ["true", "1"])
def test_a_claimed_trial_that_skips_fails_under_ci(tmp_path, ci):
    done = run_trial(tmp_path, ci)
    assert done.returncode == 1, done.stdout[-3000:]
    # the skip came in the fixture's setup, so pytest counts it an error: the run is red
    assert "1 error" in done.stdout and "skipped" not in done.stdout.splitlines()[-1]
    assert "skipped under CI=true, but the README presents this trial as checked" in done.stdout
    assert "mount: only root can do that" in done.stdout


@pytest.mark.parametrize("ci", [None, "false"])
def test_outside_ci_a_claimed_trial_skips_with_its_reason(tmp_path, ci):
    done = run_trial(tmp_path, ci)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "1 skipped" in done.stdout
    assert "SKIPPED" in done.stdout and "cannot mount a small tmpfs here" in done.stdout


FINGERPRINTS_CHECK = ("tests/games/test_now_boarding_lessons.py::"
                      "test_the_kept_fingerprints_are_the_rulebooks")


@pytest.mark.parametrize(("ci", "status"), [("true", 1), (None, 0)])
def test_the_rulebook_fingerprints_check_without_the_rulebooks_fails_in_ci_and_skips_elsewhere(
        tmp_path, ci, status):
    """A user's clone has no ../shared/rules: the check that the kept fingerprints are the
    rulebooks' skips and says why (the lessons are still checked against the fingerprints);
    CI has the rulebooks, so there the same skip fails the run (issue #36, 11)."""
    env = {**os.environ, "COMPANION_RULES_DIR": str(tmp_path / "no-rules")}
    env.pop("CI", None)
    if ci is not None:
        env["CI"] = ci
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-ra",
                           FINGERPRINTS_CHECK], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=240, check=False)
    assert done.returncode == status, done.stdout[-3000:]
    assert "is not beside this clone" in done.stdout
    last = done.stdout.splitlines()[-1]
    if ci:
        assert "2 failed" in last and "skipped" not in last
        assert "skipped under CI=true, but the README presents this trial as checked" in \
            done.stdout
    else:
        assert "2 skipped" in last and "failed" not in last
