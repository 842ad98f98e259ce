"""The command line's contract: exit codes, messages, help (CONTRACT.md section 1)."""

import json
import subprocess
import sys

import pytest

COMPANION = [sys.executable, "-m", "companion"]


def companion(*arguments, stdin=""):
    return subprocess.run([*COMPANION, *arguments], input=stdin, text=True,
                          capture_output=True, timeout=60, check=False)


@pytest.mark.parametrize("command", ["run", "simulate", "render", "score", "doctor"])
def test_cli_every_subcommand_has_help(command):
    result = companion(command, "--help")
    assert result.returncode == 0
    assert "usage: companion" in result.stdout


def test_cli_score_json_from_a_file(tmp_path):
    path = tmp_path / "planes.json"
    path.write_text(json.dumps({"players": [{"name": "Ann", "goals": [4], "boarded": 1},
                                            {"name": "Bo", "goals": [9], "boarded": 0}]}))
    result = companion("score", "planes", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["winners"] == ["Ann"]


def test_cli_score_table_from_toml(tmp_path):
    path = tmp_path / "planes.toml"
    path.write_text('[[players]]\nname = "Ann"\ngoals = [4]\nboarded = 1\n'
                    '[[players]]\nname = "Bo"\ngoals = [2]\nboarded = 0\n')
    result = companion("score", "planes", str(path))
    assert result.returncode == 0, result.stderr
    assert "Ann" in result.stdout and "winners: Ann" in result.stdout


@pytest.mark.parametrize(("arguments", "stdin", "fragment"), [
    (("score", "chess", "-"), "{}", "no scorer for 'chess'"),
    (("score", "planes", "-"), "{not json", "standard input: not valid JSON"),
    (("score", "planes", "/nonexistent/x.json"), "", "/nonexistent/x.json"),
    (("score", "planes", "-"),
     '{"players": [{"name": "A", "goals": [1], "boarded": -1}, {"name": "B", "goals": [],'
     ' "boarded": 0}]}', "boarded"),
    (("run", "--config", "/nonexistent/c.toml"), "", "/nonexistent/c.toml"),
])
def test_cli_bad_input_exits_2_with_a_message_naming_it(arguments, stdin, fragment):
    result = companion(*arguments, stdin=stdin)
    assert result.returncode == 2
    assert fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_cli_render_writes_pngs(tmp_path):
    result = companion("render", "--out", str(tmp_path), "timer-running", "menu")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["menu.png", "timer-running.png"]


def test_cli_render_unknown_scene_is_bad_usage(tmp_path):
    assert companion("render", "--out", str(tmp_path), "nope").returncode == 2


def test_cli_doctor_off_a_pi_says_what_it_would_check_and_exits_0():
    result = companion("doctor")
    assert result.returncode == 0
    assert "not a Raspberry Pi" in result.stdout


def test_cli_owner_route_guide_from_the_config_is_offered(tmp_path):
    from companion.games.flight_plan import example_guide_text

    guide = tmp_path / "guide.toml"
    guide.write_text(example_guide_text())
    config = tmp_path / "companion.toml"
    config.write_text(f'[flight_plan]\nguide = "{guide}"\n')
    result = companion("simulate", "--config", str(config),
                       stdin="new flight-plan players=3 guide=owner\nexpect guide=owner\n")
    assert result.stdout.splitlines() == ["ok", "ok"], result.stderr


def test_cli_broken_owner_route_guide_stops_start_up_naming_it(tmp_path):
    guide = tmp_path / "guide.toml"
    guide.write_text("[[routes]]\nnumber = 500\n")
    config = tmp_path / "companion.toml"
    config.write_text(f'[flight_plan]\nguide = "{guide}"\n')
    result = companion("simulate", "--config", str(config))
    assert result.returncode == 2
    assert "guide.toml" in result.stderr and "number" in result.stderr
