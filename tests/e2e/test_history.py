"""`companion history`: the listing and the export (JSON, CSV, PNG chart) of every game.

One journal holds a game of each kind, played in-process with the simulated controller (the
same journal the box writes); the listing and the export then run as the real command. Every
CSV must have one row per round, turn or meaningful step (never one per button press), with
the values the script made, and every chart must be a drawn picture of the right size.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion.testing.simulated import simulated_controller

COMPANION = [sys.executable, "-m", "companion"]
HERE = Path(__file__).resolve().parent


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMPANION, *arguments], text=True, capture_output=True,
                          timeout=120, check=False)


def flight_plan_script() -> list[str]:
    """The whole 3-player Flight Plan game of test_flight_plan_simulate (P3 wins, turn 18)."""
    spec = importlib.util.spec_from_file_location("flight_plan_e2e",
                                                  HERE / "test_flight_plan_simulate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lines: list[str] = module.script()
    return lines


def play(controller: Any, lines: list[str]) -> None:
    for line in lines:
        reply = controller.command_line(line)
        assert reply is not None and reply.startswith("ok"), (line, reply)


def state(controller: Any) -> dict[str, Any]:
    reply: str = controller.command_line("state")
    return dict(json.loads(reply.removeprefix("ok ")))


def now_boarding(controller: Any) -> int:
    """A 2-player game: NEXT at every step, each flight ended after 5 + round seconds (the
    last two run out), one complaint in rounds 4 and 9. Returns the presses sent."""
    play(controller, ["new now-boarding players=2 seed=3"])
    presses = 0
    while (current := state(controller))["phase"] != "over":
        if current["step"] == "flight" and current["timer"]["state"] == "running":
            if current["round"] >= 17:
                play(controller, ["wait 16"])
                continue
            play(controller, [f"wait {5 + current['round']}"])
        elif current["step"] == "anger" and current["round"] in (4, 9) and \
                current["pending"] == 0:
            play(controller, ["press up"])
            presses += 1
            continue
        play(controller, ["press next"])
        presses += 1
    return presses


def now_boarding_v3() -> list[str]:
    """An advanced 3-player game: Departures of 17..52 s, a passenger lost every 3rd round."""
    lines = ["new now-boarding-v3 players=3 variant=advanced", "press next"]
    for day in (1, 2, 3):
        for number in range(1, 7):
            lines += ["expect step=departure", "press next", f"wait {10 + 7 * number}",
                      "press next", "expect step=arrival"]
            lines += ["press up"] * (number % 3 == 0)
            lines += ["press next"] * (1 + ((4 if day < 3 else 3) if number == 6 else 1))
    return [*lines, "expect phase=score"]


PLANES = ["new planes players=3",
          "press up", "press up", "press up",              # red 3
          "press next", "press up", "press up", "press down",  # blue 1 (one taken back)
          "press next", *["press up"] * 4,                 # green 4
          "press next", "press next", "press up",          # grey 1
          "press next", "press up", "press up",            # red 5: full, the trigger
          "expect trigger=\"plane-full\""]

OVERBOOKED = ["new overbooked players=2",
              "press up", "press next", "press up", "press next", "press down", "hold next",
              "press up", "press next", "press next",
              "press up", "press up", "press next", "press up", "hold next",
              "press next", "press next", "expect phase=over"]

TIMER = ["new timer seconds=20", "press next", "wait 25", "press next", "wait 8", "press next",
         "press next", "wait 12", "press next"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, int]]:
    """The journal of one game of each kind, and its export. Returns (state dir, export dir,
    button presses per game)."""
    folder = tmp_path_factory.mktemp("history")
    state_dir, out = folder / "state", folder / "export"
    controller = simulated_controller(state_dir)
    presses = {"now-boarding": now_boarding(controller)}
    scripts = {"now-boarding-v3": now_boarding_v3(), "planes": PLANES,
               "flight-plan": flight_plan_script(), "overbooked": OVERBOOKED, "timer": TIMER}
    for game, lines in scripts.items():
        play(controller, lines)
        presses[game] = sum(line.startswith(("press", "hold")) for line in lines)
    controller.journal.close()
    result = run("history", "--state-dir", str(state_dir), "--export", str(out))
    assert result.returncode == 0, result.stderr
    return state_dir, out, presses


GAMES = {  # game -> (id in the journal, CSV columns, rows)
    "now-boarding": (1, ["round", "stage", "time_used_s", "ended", "final", "complaints",
                         "complaints_anger", "complaints_vip", "complaints_exit",
                         "complaints_total", "complaints_anger_total", "complaints_vip_total",
                         "complaints_exit_total"], 18),
    "now-boarding-v3": (2, ["day", "round", "redeye", "departure_s", "ended", "lost",
                            "lost_added"], 18),
    "planes": (3, ["move", "at_s", "colour", "change", "track", "red", "blue", "green",
                   "yellow", "grey", "trigger"], 13),
    "flight-plan": (4, ["turn", "round", "player", "cash_P1", "cash_P2", "cash_P3",
                        "routes_P1", "routes_P2", "routes_P3", "bankrupt"], 19),
    "overbooked": (5, ["player", "place", "total", "couples", "children", "friends-blue",
                       "friends-blue-majority", "friends-green", "friends-green-majority",
                       "friends-yellow", "friends-yellow-majority", "vouchers",
                       "empty-seats", "overbooked", "most-overbooked"], 2),
    "timer": (6, ["run", "duration_s", "time_used_s", "ended"], 3),
}


def rows_of(out: Path, game: str) -> tuple[list[str], list[dict[str, str]]]:
    with (out / f"game-{GAMES[game][0]}-{game}.csv").open(encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
        return list(reader.fieldnames or []), rows


def test_history_lists_every_game_newest_first(exported: tuple[Path, Path, dict[str, int]]
                                               ) -> None:
    state_dir, _, _ = exported
    listing = run("history", "--state-dir", str(state_dir))
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.splitlines()
    assert lines[0].split()[:3] == ["#", "started", "game"]
    # Newest first; the date has a space, so the game is the 4th word.
    assert [line.split()[3] for line in lines[1:]] == list(reversed(GAMES))
    # Now Boarding's result says its complaints by source (issue #36, item 9).
    assert lines[-1].endswith("win, 2 complaints: waiting passengers 2, unserved VIPs 0, "
                              "undelivered at the end 0")


@pytest.mark.parametrize("game", GAMES)
def test_history_csv_has_one_row_per_round_turn_or_step(
        game: str, exported: tuple[Path, Path, dict[str, int]]) -> None:
    _, out, presses = exported
    columns, rows = rows_of(out, game)
    assert columns == GAMES[game][1]
    assert len(rows) == GAMES[game][2]
    assert len(rows) < presses[game]          # not one row per button press


@pytest.mark.parametrize("game", GAMES)
def test_history_chart_is_drawn_with_a_title_and_axes(
        game: str, exported: tuple[Path, Path, dict[str, int]]) -> None:
    _, out, _ = exported
    image = Image.open(out / f"game-{GAMES[game][0]}-{game}.png").convert("RGB")
    assert image.width == 760
    panels = 1 if game in ("overbooked", "timer") else 2
    assert image.height == 66 + panels * 180 + 44
    # Ink in the title line, on the y axis and along the x axis of the last panel.
    assert any(image.getpixel((x, 12)) != (255, 255, 255) for x in range(8, 200))
    assert all(image.getpixel((64, y)) == (0, 0, 0) for y in range(90, 220))
    bottom = image.height - 44 - 12
    assert all(image.getpixel((x, bottom)) == (0, 0, 0) for x in range(64, 660))


def test_history_now_boarding_rounds(exported: tuple[Path, Path, dict[str, int]]) -> None:
    _, out, _ = exported
    _, rows = rows_of(out, "now-boarding")
    assert [row["time_used_s"] for row in rows[:3]] == ["6.0", "7.0", "8.0"]
    assert [(row["ended"], row["time_used_s"]) for row in rows[-2:]] == [("time", "15.0")] * 2
    assert {row["round"]: row["complaints"] for row in rows if row["complaints"] != "0"} == \
        {"4": "1", "9": "1"}
    assert rows[-1]["complaints_total"] == "2" and rows[-1]["final"] == "true"
    # The whole game's complaints by source: two waiting passengers, no VIP, no exit.
    assert [rows[-1][f"complaints_{source}_total"] for source in ("anger", "vip", "exit")] == \
        ["2", "0", "0"]
    assert [row["complaints_anger_total"] for row in rows[2:5]] == ["0", "1", "1"]
    document = json.loads((out / "game-1-now-boarding.json").read_text(encoding="utf-8"))
    assert document["record"]["result"] == "win" and document["record"]["flights"] == 18
    assert document["record"]["complaints_by_source"] == {"anger": 2, "vip": 0, "exit": 0}


def test_history_v3_rounds(exported: tuple[Path, Path, dict[str, int]]) -> None:
    _, out, _ = exported
    _, rows = rows_of(out, "now-boarding-v3")
    assert [(row["day"], row["round"]) for row in rows[:7]] == \
        [("1", str(n)) for n in range(1, 7)] + [("2", "1")]
    assert [row["departure_s"] for row in rows[:6]] == ["17.0", "24.0", "31.0", "38.0",
                                                       "45.0", "52.0"]
    assert [row["lost"] for row in rows] == [str(n // 3) for n in range(1, 19)]
    assert rows[5]["redeye"] == "true" and rows[4]["redeye"] == "false"


def test_history_planes_moves(exported: tuple[Path, Path, dict[str, int]]) -> None:
    _, out, _ = exported
    _, rows = rows_of(out, "planes")
    assert [row["track"] for row in rows] == ["1", "2", "3", "4", "5", "4", "5", "6", "7",
                                              "8", "9", "10", "11"]
    assert [(row["colour"], row["change"]) for row in rows[4:6]] == [("blue", "1"),
                                                                     ("blue", "-1")]
    assert rows[-1]["red"] == "5" and rows[-1]["trigger"] == "plane-full"


def test_history_flight_plan_cash_per_turn(exported: tuple[Path, Path, dict[str, int]]
                                           ) -> None:
    _, out, _ = exported
    _, rows = rows_of(out, "flight-plan")
    assert rows[0]["player"] == "deal" and rows[0]["cash_P1"] == "750"
    assert [row["player"] for row in rows[1:4]] == ["P1", "P2", "P3"]
    # The cash the flight-plan script expects at the end of the first moves.
    assert (rows[1]["cash_P1"], rows[2]["cash_P2"], rows[3]["cash_P3"]) == ("590", "620", "470")
    assert [row["turn"] for row in rows] == [str(n) for n in range(19)]


def test_history_overbooked_per_player(exported: tuple[Path, Path, dict[str, int]]) -> None:
    _, out, _ = exported
    _, rows = rows_of(out, "overbooked")
    document = json.loads((out / "game-5-overbooked.json").read_text(encoding="utf-8"))
    totals = {player["name"]: player["total"] for player in document["result"]["players"]}
    assert {row["player"]: int(row["total"]) for row in rows} == totals
    assert sorted(row["place"] for row in rows) == ["1", "2"]


def test_history_timer_runs(exported: tuple[Path, Path, dict[str, int]]) -> None:
    _, out, _ = exported
    _, rows = rows_of(out, "timer")
    assert [(row["time_used_s"], row["ended"]) for row in rows] == [
        ("20.0", "time"), ("8.0", "next"), ("12.0", "next")]


def test_history_without_a_journal_is_bad_usage(tmp_path: Path) -> None:
    result = run("history", "--state-dir", str(tmp_path))
    assert result.returncode == 2
    assert "no journal" in result.stderr


def test_history_replays_a_flight_plan_game_played_with_the_owners_guide(tmp_path: Path
                                                                         ) -> None:
    """A game with guide=owner replays only with that guide: the export must read it from
    the config, or the game falls back to one row per button press."""
    guide = tmp_path / "guide.toml"
    guide.write_text((Path(__file__).resolve().parents[2] / "companion" / "games" /
                      "flight_plan" / "example_guide.toml").read_text(encoding="utf-8"),
                     encoding="utf-8")
    config = tmp_path / "companion.toml"
    config.write_text(f'[flight_plan]\nguide = "{guide}"\n', encoding="utf-8")
    state_dir, out = tmp_path / "state", tmp_path / "export"
    script = "new flight-plan players=2 guide=owner\n" + "press next\n" * 3
    played = subprocess.run([*COMPANION, "simulate", "--config", str(config), "--state-dir",
                             str(state_dir)], input=script, text=True, capture_output=True,
                            timeout=120, check=False)
    assert played.stdout.split() == ["ok"] * 4, played.stdout
    result = run("history", "--config", str(config), "--state-dir", str(state_dir),
                 "--export", str(out))
    assert result.returncode == 0, result.stderr
    document = json.loads((out / "game-1-flight-plan.json").read_text(encoding="utf-8"))
    assert "record_error" not in document
    with (out / "game-1-flight-plan.csv").open(encoding="utf-8") as handle:
        assert next(csv.reader(handle))[:3] == ["turn", "round", "player"]
