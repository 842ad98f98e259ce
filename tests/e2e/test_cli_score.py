"""The command line never shows a traceback (issue #13): bad input exits 2 and a failed write
exits 1, each with one line on standard error; ``score`` explains its format and examples."""

import json
import os
import pty
import subprocess
import sys

import pytest

from companion.games.score_formats import EXAMPLES

COMPANION = [sys.executable, "-m", "companion"]
GAMES = sorted(EXAMPLES)


def companion(*arguments, stdin="", **options):
    return subprocess.run([*COMPANION, *arguments], input=stdin, text=True,
                          capture_output=True, timeout=60, check=False, **options)


def assert_one_line_no_traceback(result, status, fragment):
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert fragment in result.stderr


@pytest.mark.parametrize(("name", "text", "fragment"), [
    ("deep.json", "[" * 1000, "nested deeper than 32"),
    ("big.json", '{"players":[{"name":"a","goals":[' + "5" * 5000 + '],"boarded":1}]}',
     "5000 digits"),
    ("inf.json", '{"players": 1e999}', "finite"),
    ("deep.toml", "players = " + "[" * 1000, "nested deeper than 32"),
    ("big.toml", "players = " + "5" * 5000, "more than 30 digits"),
    ("twice.json", '{"players": 3, "players": 4}', "appears twice"),
])
def test_cli_score_bounds_depth_and_numbers_exit_2_naming_the_file(tmp_path, name, text,
                                                                     fragment):
    path = tmp_path / name
    path.write_text(text)
    result = companion("score", "planes", str(path))
    assert_one_line_no_traceback(result, 2, fragment)
    assert str(path) in result.stderr


def test_cli_score_to_a_full_disk_exits_1_with_one_line(tmp_path):
    path = tmp_path / "planes.json"
    path.write_text(json.dumps(EXAMPLES["planes"]))
    with open("/dev/full", "w") as full:
        result = subprocess.run([*COMPANION, "score", "planes", str(path)], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    assert_one_line_no_traceback(result, 1, "No space left on device")


def test_cli_score_with_a_terminal_on_stdin_prints_usage_instead_of_waiting():
    controller, terminal = pty.openpty()
    try:
        result = subprocess.run([*COMPANION, "score", "planes"], stdin=terminal,
                                capture_output=True, text=True, timeout=60, check=False)
    finally:
        os.close(controller)
        os.close(terminal)
    assert result.returncode == 2
    assert "usage: companion score" in result.stderr
    assert "--example" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("game", GAMES)
def test_cli_score_example_scores_cleanly(game):
    example = companion("score", game, "--example")
    assert example.returncode == 0, example.stderr
    assert json.loads(example.stdout) == EXAMPLES[game]
    scored = companion("score", game, "--json", stdin=example.stdout)
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["game"] == game


@pytest.mark.parametrize("game", GAMES)
def test_cli_score_game_help_shows_its_format_and_example(game):
    result = companion("score", game, "--help")
    assert result.returncode == 0
    assert "usage: companion score" in result.stdout
    assert f"{game}:" in result.stdout
    example = result.stdout.split("example:\n", 1)[1].split("\n\n", 1)[0]
    assert json.loads(example) == EXAMPLES[game]
    others = [other for other in GAMES if other != game and not other.startswith(game)]
    assert not any(f"\n{other}:" in result.stdout for other in others)


def test_cli_score_help_shows_every_format():
    result = companion("score", "--help")
    assert result.returncode == 0
    for game in GAMES:
        assert f"\n{game}:" in result.stdout


def test_cli_render_out_at_an_existing_file_is_bad_usage(tmp_path):
    blocker = tmp_path / "screens"
    blocker.write_text("not a folder")
    result = companion("render", "--out", str(blocker), "menu")
    assert_one_line_no_traceback(result, 2, "exists and is not a folder")


def test_cli_render_out_at_an_impossible_path_is_bad_usage(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = companion("render", "--out", str(blocker / "below"), "menu")
    assert_one_line_no_traceback(result, 2, "cannot make the folder")


@pytest.fixture(scope="module")
def state_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("state")
    made = companion("simulate", "--state-dir", str(folder), stdin="new timer\npress next\n")
    assert made.returncode == 0, made.stderr
    return folder


def test_cli_history_export_at_an_existing_file_is_bad_usage(tmp_path, state_dir):
    blocker = tmp_path / "export"
    blocker.write_text("not a folder")
    result = companion("history", "--state-dir", str(state_dir), "--export", str(blocker))
    assert_one_line_no_traceback(result, 2, "exists and is not a folder")


def test_cli_history_export_at_an_impossible_path_is_bad_usage(tmp_path, state_dir):
    result = companion("history", "--state-dir", str(state_dir), "--export",
                       "/dev/null/export")
    assert_one_line_no_traceback(result, 2, "/dev/null/export")


def test_cli_history_export_still_writes_into_a_new_folder(tmp_path, state_dir):
    result = companion("history", "--state-dir", str(state_dir), "--export",
                       str(tmp_path / "new" / "export"))
    assert result.returncode == 0, result.stderr
    assert any(path.suffix == ".png" for path in (tmp_path / "new" / "export").iterdir())


def test_cli_score_route_guide_path_of_an_endless_file_is_refused(tmp_path):
    path = tmp_path / "fp.json"
    path.write_text(json.dumps({"routes": "/dev/zero", "players": []}))
    result = companion("score", "flight-plan", str(path))
    assert_one_line_no_traceback(result, 2, "longer than 1000000 characters")


def test_cli_score_file_of_an_endless_stream_is_refused():
    result = companion("score", "planes", "/dev/zero")
    assert_one_line_no_traceback(result, 2, "/dev/zero")
