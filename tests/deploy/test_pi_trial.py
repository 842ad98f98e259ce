"""tools/pi-trial (tools/pi_trial.py): its steps run in order, the first failure stops the rest
and fails the run, the summary says each step's result and time; and the game it plays."""

import importlib.util
import io
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        spec = importlib.util.spec_from_file_location("companion_pi_trial",
                                                      ROOT / "tools" / "pi_trial.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return module


pt = _tool()


def _trial(tmp_path):
    return pt.Trial(cache=tmp_path, out=io.StringIO())


def test_pi_trial_runs_every_step_and_passes(tmp_path):
    trial = _trial(tmp_path)
    ran = []
    steps = [(name, lambda t, name=name: ran.append(name)) for name in ("a", "b", "c")]
    assert pt.run_trial(trial, steps) == 0
    assert ran == ["a", "b", "c"]
    assert [(name, result) for name, result, _ in trial.rows] == [
        ("a", "ok"), ("b", "ok"), ("c", "ok")]


@pytest.mark.parametrize("error", [pt.StepFailed("replies other than ok"),
                                   pt.RootError("debootstrap exited 1"), OSError("disk full")])
def test_pi_trial_stops_at_the_first_failure_and_fails(tmp_path, error):
    trial = _trial(tmp_path)
    ran = []

    def broken(t):
        ran.append("b")
        raise error

    steps = [("a", lambda t: ran.append("a")), ("b", broken), ("c", lambda t: ran.append("c"))]
    assert pt.run_trial(trial, steps) == 1
    assert ran == ["a", "b"]
    assert [(name, result) for name, result, _ in trial.rows] == [
        ("a", "ok"), ("b", "FAILED"), ("c", "not run")]
    assert f"FAILED: b: {error}" in trial.out.getvalue()


def test_pi_trial_summary_is_a_table_with_the_bench_marked_emulated(tmp_path):
    trial = _trial(tmp_path)
    trial.rows = [("root: arm64 trixie", "ok", 12.4), ("tools/install.py", "FAILED", 3.0)]
    trial.figures["bench"] = {"startup_to_ready_s": {"value": 1.5}, "machine": "aarch64"}
    text = pt.summary(trial)
    lines = text.splitlines()
    assert lines[0].split() == ["step", "result", "seconds"]
    assert lines[1].split()[-2:] == ["ok", "12.4"]
    assert "FAILED" in lines[2]
    assert lines[3].split() == ["total", "15.4"]
    assert pt.EMULATED in text and "startup_to_ready_s" in text
    assert "slower than a Pi 4, comparable order to a Zero 2 W" in pt.EMULATED


def test_pi_trial_root_is_arm64_trixie_from_debian_packages_with_what_the_installer_needs():
    assert (pt.SPEC.suite, pt.SPEC.arch) == ("trixie", "arm64")
    assert pt.SPEC.foreign or pt.SPEC.arch == "arm64"
    assert {"python3", "python3-venv", "python3-pip", "systemd"} <= set(pt.SPEC.include)


def test_pi_trial_refuses_without_root(monkeypatch, capsys):
    monkeypatch.setattr(pt.os, "geteuid", lambda: 1000)
    with pytest.raises(SystemExit) as exit_:
        pt.main([])
    assert exit_.value.code == 2
    assert "sudo tools/pi-trial" in capsys.readouterr().err


def test_now_boarding_script_plays_a_whole_game_through_simulate(tmp_path):
    """tools/now_boarding_script.py, the game tools/pi-trial plays on the emulated Pi."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "now_boarding_script.py"),
                           "--players", "2"], capture_output=True, text=True, timeout=300,
                          check=True)
    lines = done.stdout.splitlines()
    assert lines[0] == "new now-boarding players=2 seed=11"
    assert lines[-3:] == ["expect phase=over", "expect result=win", "expect complaints=0"]
    assert lines.count("wait 60") >= 10  # every flight runs out on the fake clock
    script = tmp_path / "game.txt"
    script.write_text(done.stdout)
    played = subprocess.run([sys.executable, "-m", "companion", "simulate", str(script)],
                            capture_output=True, text=True, timeout=300, check=False)
    assert played.returncode == 0, played.stderr
    assert played.stdout.splitlines() == ["ok"] * len(lines)
