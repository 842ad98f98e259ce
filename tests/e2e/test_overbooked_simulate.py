"""A whole 2-player Overbooked entered with the buttons through ``companion simulate``.

The planes go in seat by seat (UP / DOWN cycle the occupant, NEXT moves on, hold NEXT ends a
plane after its last passenger), then the counts; the box's result must be the very object
``companion score overbooked FILE --json`` gives for the entry the box exposes in ``state``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.overbooked import score
from tests.e2e.simulate_support import simulate_script

COMPANION = Path(sys.executable).with_name("companion")
CYCLE = ".RWBGY"
"""UP steps a seat through these (DOWN the other way round)."""

# The 1-3-player side (3 | 4 | 3 seats across, 5 rows) for the base game; row 4 stays empty
# for Bo, whose plane then ends early (hold NEXT after the last passenger).
BASE_PLANES = {
    "P1": ["RRB|BBGG|YYW", "WRR|BGGW|YYY", "BBB|RRGG|W.Y", "GWG|YYRR|BBB", "RR.|WWGB|.YY"],
    "P2": ["YYY|RRWB|GGG", "YWY|BBBB|RWR", "RRG|..GG|BBB", "W..|Y.Y.|...", "...|....|..."],
}
# The 4-player side (4 | 4 seats across, 5 rows) for the advanced game with events.
ADVANCED_PLANES = {
    "P1": ["RRBB|BBGG", "WYYB|RRGW", "GGGW|YYY.", "RRWB|BWRR", "YYYY|GGG."],
    "P2": ["BBBB|RWR.", "GGWY|RWRY", "GGYY|YYYW", "RR..|BBBW", "W.GG|GGRR"],
}


def seat_presses(rows: list[str]) -> list[str]:
    """The lines entering one plane: the shorter way round the cycle for each seat."""
    seats = [seat for row in rows for seat in row if seat != "|"]
    last = max((index for index, seat in enumerate(seats) if seat != "."), default=0)
    lines: list[str] = []
    for index, seat in enumerate(seats[: last + 1]):
        steps = CYCLE.index(seat)
        lines += ["press up"] * steps if steps <= 3 else ["press down"] * (len(CYCLE) - steps)
        if index < last:
            lines.append("press next")
    return [*lines, "hold next"]


def count_presses(value: int, start: int) -> list[str]:
    button = "press up" if value >= start else "press down"
    return [*[button] * abs(value - start), "press next"]


def entry_script(new: str, planes: dict[str, list[str]], sheets: dict[str, dict[str, int]],
                 advanced: bool) -> list[str]:
    lines = [new]
    for name, rows in planes.items():
        sheet = sheets[name]
        lines += [f"expect player={name}", "expect step=seats", *seat_presses(rows)]
        lines += ["expect step=overbooked", *count_presses(sheet["overbooked"], 0)]
        lines += count_presses(sheet["vouchers"], 6)
        if advanced:
            lines += ["expect step=bonus-cards", *count_presses(sheet["bonus_cards"], 0)]
    return [*lines, "expect phase=over", "expect step=result", "state",
            "press next", "screen", "press up", "screen"]


def simulate(lines: list[str], tmp_path: Path) -> list[str]:
    replies = simulate_script(lines, tmp_path, "entry.txt", timeout=120)
    assert all(reply.startswith("ok") for reply in replies), replies
    return replies


def companion_score(entry: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    score_file = tmp_path / "planes.json"
    score_file.write_text(json.dumps(entry), encoding="utf-8")
    done = subprocess.run([str(COMPANION), "score", "overbooked", str(score_file), "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


CASES = {
    "base": ("new overbooked players=2", BASE_PLANES,
             {"P1": {"overbooked": 1, "vouchers": 9, "bonus_cards": 0},
              "P2": {"overbooked": 3, "vouchers": 2, "bonus_cards": 0}}, False),
    "advanced": ("new overbooked players=2 variant=advanced board=4-player "
                 "events=full-flight,lonely-christmas,corner-seats", ADVANCED_PLANES,
                 {"P1": {"overbooked": 0, "vouchers": 6, "bonus_cards": 2},
                  "P2": {"overbooked": 2, "vouchers": 3, "bonus_cards": 1}}, True),
}


@pytest.mark.parametrize("case", CASES)
def test_overbooked_simulate_entry_scores_like_companion_score(case: str,
                                                               tmp_path: Path) -> None:
    new, planes, sheets, advanced = CASES[case]
    lines = entry_script(new, planes, sheets, advanced)
    replies = simulate(lines, tmp_path)
    state = json.loads(replies[lines.index("state")].removeprefix("ok "))
    entry = state["entry"]
    assert [player["seats"] for player in entry["players"]] == list(planes.values())
    for player in entry["players"]:
        expected = sheets[player["name"]]
        assert {key: player[key] for key in expected} == expected
    assert state["result"] == score(entry)
    assert state["result"]["players"][0]["breakdown"]  # a real result, not an empty one
    breakdown_screen = json.loads(replies[-3].removeprefix("ok "))["lines"]
    ranking_screen = json.loads(replies[-1].removeprefix("ok "))["lines"]
    # Result pages: the page keys in the title, the headline as the main line.
    assert breakdown_screen[1].startswith("P1 ") and "pts" in ranking_screen[2]
    assert companion_score(entry, tmp_path) == state["result"]
