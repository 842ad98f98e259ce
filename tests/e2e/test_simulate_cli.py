"""`companion simulate` driven through a subprocess, from a script file and standard input."""

import json
import subprocess
import sys

COMPANION = [sys.executable, "-m", "companion"]


def simulate(*arguments, stdin=""):
    return subprocess.run([*COMPANION, "simulate", *arguments], input=stdin.encode(),
                          capture_output=True, timeout=60, check=False)


def test_simulate_stdin_timer_example_from_the_issue():
    result = simulate(stdin="new timer seconds=30\npress next\nwait 10\nstate\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert lines[:3] == ["ok", "ok", "ok"]
    assert len(lines) == 4
    state = json.loads(lines[3].removeprefix("ok "))
    assert state["timer"]["remaining"] == 20.0
    assert state["timer"]["state"] == "running"


def test_simulate_stdin_goes_on_after_errors_one_reply_per_command():
    result = simulate(stdin="bogus\n# comment\n\npress next\nstate\npress up\n")
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith("err unknown-command")
    assert len(lines) == 4  # the comment and the blank line get no reply


def test_simulate_script_runs_to_the_end(tmp_path):
    script = tmp_path / "timer.txt"
    script.write_text("# a round timer\nnew timer seconds=20\npress next\nwait 19.999\n"
                      "expect timer.state=running\nwait 0.001\nexpect timer.state=expired\n"
                      "expect timer.remaining=0\nhold back\nexpect timer.state=idle\n")
    result = simulate(str(script))
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines() == ["ok"] * 9


def test_simulate_script_stops_at_the_first_error_with_its_line_number(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("new timer seconds=20\n\nexpect timer.state=running\nstate\n")
    result = simulate(str(script))
    assert result.returncode == 1
    assert result.stdout.decode().splitlines()[-1].startswith(
        "err expect-failed timer.state is \"idle\", expected \"running\"")
    assert f"{script}:3:" in result.stderr.decode()


def test_simulate_missing_script_is_bad_usage(tmp_path):
    result = simulate(str(tmp_path / "nope.txt"))
    assert result.returncode == 2
    assert "nope.txt" in result.stderr.decode()


def test_simulate_survives_a_one_mebibyte_line_and_invalid_utf8():
    stdin = "x" * (1 << 20) + "\nstate\n"
    result = subprocess.run([*COMPANION, "simulate"],
                            input=stdin.encode() + b"press \xff\xfe\nhelp\n",
                            capture_output=True, timeout=60, check=False)
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith("err too-long")
    assert lines[1].startswith("ok {")
    assert lines[2].startswith("err bad-encoding")
    assert lines[3].startswith("ok {")
    assert len(lines) == 4


def test_simulate_stays_up_after_a_deep_or_huge_score_line():
    # Issue #13: each of these lines once ended the process with a traceback.
    deep = "score x " + "[" * 1000
    huge = 'score planes {"players":[{"name":"a","goals":[' + "5" * 5000 + '],"boarded":1}]}'
    result = subprocess.run([*COMPANION, "simulate"], input=f"{deep}\n{huge}\nhelp\n".encode(),
                            capture_output=True, timeout=60, check=False)
    lines = result.stdout.decode().splitlines()
    assert result.returncode == 0, result.stderr.decode()
    assert lines[0].startswith("err bad-argument") and "nested deeper" in lines[0]
    assert lines[1].startswith("err bad-argument") and "digits" in lines[1]
    assert lines[2].startswith("ok {")
    assert len(lines) == 3
