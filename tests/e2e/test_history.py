"""`companion history`: the listing and the export (JSON, CSV, PNG chart)."""

import csv
import json
import subprocess
import sys

from PIL import Image

COMPANION = [sys.executable, "-m", "companion"]


def run(*arguments, stdin=""):
    return subprocess.run([*COMPANION, *arguments], input=stdin, text=True,
                          capture_output=True, timeout=120, check=False)


def test_history_lists_and_exports_a_won_game_and_a_timer(tmp_path):
    state = tmp_path / "state"
    # Enough NEXTs for the whole game: the ready screen, the anger cubes and upgrades player by
    # player add steps to every round (issue 14); presses after the end are refused.
    script = ["new now-boarding players=2 seed=3"] + ["press next", "wait 16"] * 200
    script += ["new timer seconds=20", "press next", "wait 25"]
    run("simulate", "--state-dir", str(state), stdin="\n".join(script) + "\n")

    listing = run("history", "--state-dir", str(state))
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.splitlines()
    assert lines[0].split()[:3] == ["#", "started", "game"]
    assert lines[1].split()[3] == "timer"          # newest first (the date has a space)
    assert lines[2].split()[3] == "now-boarding" and lines[2].endswith("win")

    out = tmp_path / "export"
    exported = run("history", "--state-dir", str(state), "--export", str(out))
    assert exported.returncode == 0, exported.stderr
    document = json.loads((out / "game-1-now-boarding.json").read_text())
    assert document["record"]["result"] == "win"
    assert document["record"]["flights"] == 18
    with (out / "game-1-now-boarding.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 18
    assert rows[0]["stage"] == "morning" and rows[-1]["final"] == "True"
    assert Image.open(out / "game-1-now-boarding.png").size == (640, 320)
    with (out / "game-2-timer.csv").open() as handle:
        assert [row["kind"] for row in csv.DictReader(handle)] == ["press", "expire"]


def test_history_without_a_journal_is_bad_usage(tmp_path):
    result = run("history", "--state-dir", str(tmp_path))
    assert result.returncode == 2
    assert "no journal" in result.stderr
