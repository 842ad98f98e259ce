"""tools/pi-trial (tools/pi_trial.py), without running the trial: its runner on stand-in steps
(in order, the first failure stops the rest and fails the run), its summary (each step's result
and time, the medians beside the targets), the root it asks for, its refusal without root, its
compiler wrapper, and the whole game it plays, through `companion simulate` on this machine.

The trial itself (tools/install.py on an emulated arm64 trixie, then `companion doctor`, the
game and `bench --short` there, about half an hour) runs only by hand, as root: `sudo
tools/pi-trial`; README's "What no CI run checks" says when it last passed."""

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


def test_pi_trial_runner_runs_stand_in_steps_in_order_and_passes(tmp_path):
    trial = _trial(tmp_path)
    ran = []
    steps = [(name, lambda t, name=name: ran.append(name)) for name in ("a", "b", "c")]
    assert pt.run_trial(trial, steps) == 0
    assert ran == ["a", "b", "c"]
    assert [(name, result) for name, result, _ in trial.rows] == [
        ("a", "ok"), ("b", "ok"), ("c", "ok")]


@pytest.mark.parametrize("error", [pt.StepFailed("replies other than ok"),
                                   pt.RootError("debootstrap exited 1"), OSError("disk full")])
def test_pi_trial_runner_stops_at_the_first_failing_stand_in_step_and_fails(tmp_path,
                                                                             error):
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


def _cc_tool():
    spec = importlib.util.spec_from_file_location("companion_pi_trial_cc",
                                                  ROOT / "tools" / "pi_trial_cc.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pi_trial_cc_compiles_with_cc1_then_as_and_links_with_ld(monkeypatch):
    cc = _cc_tool()
    ran = []

    class Done:
        returncode = 0

    monkeypatch.setattr(cc.subprocess, "run", lambda argv, check: ran.append(argv) or Done())
    monkeypatch.setattr(cc.sys, "argv", [
        "pi-trial-cc", "-fno-strict-overflow", "-DNDEBUG", "-g", "-O2", "-Wall", "-fPIC",
        "-Isrc", "-I/usr/include/python3.13", "-c", "src/lgCfg.c", "-o", "build/lgCfg.o",
        "-O3", "-pthread"])
    assert cc.main() == 0
    cc1, as_ = ran
    assert cc1[0] == cc.CC1 and "src/lgCfg.c" in cc1 and "-D_REENTRANT" in cc1
    assert "-Isrc" in cc1 and "-O3" in cc1 and "-c" not in cc1
    assert as_[0] == "as" and as_[-2:] == ["-o", "build/lgCfg.o"]
    ran.clear()
    monkeypatch.setattr(cc.sys, "argv", ["pi-trial-cc", "-shared", "build/a.o", "build/b.o",
                                         "-lrt", "-ldl", "-o", "build/_lgpio.so"])
    assert cc.main() == 0
    assert ran == [["ld", "-shared", "-o", "build/_lgpio.so", "build/a.o", "build/b.o",
                    "-lrt", "-ldl", "-lpthread", "-lc"]]


def _figures_tool():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import pi_trial_figures
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return pi_trial_figures


ptf = _figures_tool()


@pytest.mark.parametrize(("loads", "idle", "waited"), [
    ([0.4], True, 0.0),                 # idle already: no wait
    ([6.0, 3.0, 0.9], True, 30.0),      # falls within the patience
    ([6.0, 5.0, 5.5, 4.0, 4.2], False, 60.0),  # stays busy: said, not failed
])
def test_pi_trial_waits_for_an_idle_machine_or_says_it_could_not(loads, idle, waited):
    readings = iter(loads)
    slept, said = [], []
    seen = ptf.wait_for_idle(idle_load=1.0, patience=60.0, every=15.0,
                             load=lambda: next(readings), sleep=slept.append, say=said.append)
    assert seen["idle"] is idle and seen["waited_s"] == waited
    assert seen["load_at_start"] == loads[0]
    assert sum(slept) == waited
    assert ("could not" in said[0]) is (not idle)


def test_pi_trial_reports_the_median_of_each_figure_and_judges_the_medians():
    def run(p99, startup, met):
        return {"mode": "short", "machine": {"machine": "aarch64"},
                "timer_end_error_ms": {"p50": p99 / 2, "p99": p99, "min": 0.1,
                                       "target": {"min": 0.0, "p99": 2.0}, "met": met},
                "startup_to_ready_s": {"value": startup, "target": 0.25, "met": met},
                "startup_heaviest_imports": [{"module": "x", "ms": startup}],
                "targets_met": met}

    merged = ptf.median_report([run(1.0, 0.2, True), run(9.0, 3.0, False),
                                run(1.5, 0.24, True)])
    assert merged["timer_end_error_ms"]["p99"] == 1.5
    assert merged["timer_end_error_ms"]["p50"] == 0.75
    assert merged["timer_end_error_ms"]["met"] is True
    assert merged["startup_to_ready_s"]["value"] == 0.24
    assert merged["startup_to_ready_s"]["target"] == 0.25
    assert merged["targets_met"] is True and merged["runs"] == 3
    assert merged["machine"] == {"machine": "aarch64"}


def test_pi_trial_sets_the_medians_beside_the_targets_for_emulation():
    report = {"startup_to_ready_no_web_s": {"value": 2.1},
              "timer_end_error_ms": {"p99": 7.5},
              "web_event_to_client_ms": {"p99": 99.0}}
    verdicts = {what: (value, verdict) for what, value, verdict
                in ptf.emulation_verdict(report)}
    assert verdicts["start-up (as a Pi starts) <= 3 s"] == (2.1, "met")
    assert verdicts["timer end p99 <= 5 ms"] == (7.5, "MISSED")
    assert verdicts["game press -> frame p99 <= 30 ms, SD model"] == (None, "not measured")
    assert verdicts["web event p99 <= 100 ms, 20 clients"] == (99.0, "met")


def test_pi_trial_summary_names_the_load_and_the_slowest_imports(tmp_path):
    trial = _trial(tmp_path)
    trial.figures["bench"] = {"timer_end_error_ms": {"p99": 3.0}}
    trial.figures["load_before_bench"] = {"idle": False, "load": 7.5}
    trial.figures["bench_load"] = [{"run": 1, "load_before": 7.5, "load_after": 8.0}]
    trial.figures["run_import_times"] = (
        "import time: self [us] | cumulative | imported package\n"
        "import time:       100 |       5000 | companion.run_command\n"
        "import time:        50 |         60 |   json\n")
    text = pt.summary(trial)
    assert '"load": 7.5' in text and "load during run 1: 7.5 -> 8.0" in text
    assert "timer end p99 <= 5 ms" in text
    assert pt.slowest_imports(trial.figures["run_import_times"], 1) == [
        "import time:       100 |       5000 | companion.run_command"]
