"""Planes and the Now Boarding v3 prototype through ``companion simulate`` (a subprocess).

Score entry on the box must give exactly what ``companion score GAME FILE --json`` gives for
the same data; the end triggers, the schedule, the timer and the loss are checked with
``expect`` lines and ``state`` replies.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

COMPANION = [sys.executable, "-m", "companion"]


def simulate(lines: list[str], tmp_path: Path) -> list[str]:
    """Run ``lines`` through ``companion simulate`` (stdin); one reply per command, all ok."""
    done = subprocess.run([*COMPANION, "simulate", "--state-dir", str(tmp_path / "state")],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    replies = done.stdout.splitlines()
    commands = [line for line in lines if line.strip() and not line.startswith("#")]
    assert len(replies) == len(commands)
    for command, reply in zip(commands, replies, strict=True):
        assert reply.startswith("ok"), (command, reply)
    return replies


def run_script(lines: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``companion simulate SCRIPT``: stops at the first err with exit 1."""
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return subprocess.run([*COMPANION, "simulate", str(script), "--state-dir",
                           str(tmp_path / "state")], capture_output=True, text=True,
                          timeout=120, check=False)


def last_state(replies: list[str]) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(replies[-1][3:])
    return state


def score_cli(game: str, data: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run([*COMPANION, "score", game, str(path), "--json"],
                          capture_output=True, text=True, timeout=60, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# -- Planes --------------------------------------------------------------------------------------


def board(colour_steps: int, cubes: int) -> list[str]:
    """Move the colour cursor on ``colour_steps`` times, then board ``cubes`` cubes."""
    return ["press next"] * colour_steps + ["press up"] * cubes


def test_planes_simulate_end_trigger_at_12(tmp_path: Path) -> None:
    lines = ["new planes players=4",
             *board(0, 4), *board(1, 4), *board(1, 3),
             "expect step=board", "expect track=11", "expect trigger=null",
             *board(1, 1),
             "expect step=trigger", "expect trigger=boarding-track", "expect track=12",
             "press next", "expect step=last-round", "expect turns_left=3"]
    simulate(lines, tmp_path)


def test_planes_simulate_end_trigger_at_a_shorter_mark(tmp_path: Path) -> None:
    lines = ["new planes players=3 short=8",
             *board(0, 4), *board(4, 3),
             "expect step=board", "expect track=7",
             "press up", "expect step=trigger", "expect mark=8", "expect track=8",
             "press down", "press down", "press next",
             "expect turn=Blue", "expect turns_left=1", "screen"]
    replies = simulate(lines, tmp_path)
    assert json.loads(replies[-1][3:])["lines"][0] == "Finish round: 1 turn"


def test_planes_simulate_end_trigger_by_a_full_plane(tmp_path: Path) -> None:
    lines = ["new planes players=2",
             *board(2, 4), "expect step=board",
             "press up", "expect step=trigger", "expect trigger=plane-full",
             'expect full=["green"]', "expect track=5",
             "press next", "hold next", "expect phase=score", "expect step=goals"]
    simulate(lines, tmp_path)


def test_planes_simulate_refuses_to_end_before_a_trigger(tmp_path: Path) -> None:
    done = run_script(["new planes players=2", "press up", "hold next"], tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1].startswith("err not-allowed no end trigger")
    assert "3" in done.stderr


def entry_lines(goals: list[int], boarded_from: int, boarded: int) -> list[str]:
    lines: list[str] = []
    for position, value in enumerate(goals):
        if position:
            lines.append("press next")
        lines.extend(["press up"] * value)
    lines.append("hold next")
    change = boarded - boarded_from
    lines.extend(["press up" if change > 0 else "press down"] * abs(change))
    lines.append("press next")
    return lines


def test_planes_simulate_entry_equals_companion_score(tmp_path: Path) -> None:
    players = [("Red", [1, 1, 2, 3], 4), ("Blue", [3, 4], 3), ("Green", [2, 2, 1], 4)]
    # On the box: red 2, blue 3, green 1 cubes boarded, then the track reaches 6 (short=6).
    lines = ["new planes players=3 short=6", *board(0, 2), *board(1, 3), *board(1, 1),
             "expect step=trigger", "press next", "expect step=last-round", "hold next"]
    on_box = {"Red": 2, "Blue": 3, "Green": 1}
    for name, goals, boarded in players:
        lines.append(f"expect entry.name={name}")
        lines.extend(entry_lines(goals, on_box[name], boarded))
    lines += ["expect phase=over", "expect step=result", "state"]
    state = last_state(simulate(lines, tmp_path))
    data = {"players": [{"name": name, "goals": goals, "boarded": boarded}
                        for name, goals, boarded in players]}
    assert state["entry"]["input"] == data
    expected = score_cli("planes", data, tmp_path)
    assert state["result"] == expected
    assert expected["winners"] == ["Red"]  # 27 vs 22 vs 25


def test_planes_simulate_tie_break_by_cubes_matches_the_scorer(tmp_path: Path) -> None:
    players = [("Red", [5, 5], 2), ("Blue", [2, 3, 5], 2)]
    lines = ["new planes players=2 short=1", "press up", "press next", "hold next"]
    lines += entry_lines([5, 5], 1, 2) + entry_lines([2, 3, 5], 0, 2) + ["state"]
    state = last_state(simulate(lines, tmp_path))
    data = {"players": [{"name": n, "goals": g, "boarded": b} for n, g, b in players]}
    assert state["result"] == score_cli("planes", data, tmp_path)
    assert state["result"]["ranking"] == [["Blue"], ["Red"]]


# -- Now Boarding v3 -----------------------------------------------------------------------------


def v3_whole_game(variant: str, players: int) -> list[str]:
    """A whole game with ``expect`` lines on the schedule, the draw and the timer."""
    timed = variant == "advanced"
    lines = [f"new now-boarding-v3 players={players} variant={variant}",
             "expect phase=setup", "press next"]
    for day in (1, 2, 3):
        for rnd in range(1, 7):
            redeye = rnd == 6
            draw = 0 if redeye else (day + 1) * players
            lines += ["expect step=departure", f"expect day={day}", f"expect round={rnd}",
                      f"expect redeye={'true' if redeye else 'false'}", f"expect draw={draw}"]
            if timed:
                lines += ["expect timer.state=idle", "expect timer.duration=60",
                          "press next", "expect timer.state=running"]
                if rnd % 2:
                    lines += ["wait 59.5", "expect step=departure", "wait 0.5",
                              "expect timer.state=expired", "expect ended=time"]
                else:
                    lines += ["wait 20", "hold next", "expect timer.state=paused", "wait 100",
                              "expect timer.remaining=40", "hold next", "press next",
                              "expect ended=next"]
            else:
                lines += ["expect timer.state=idle", "expect timer.duration=0", "wait 300",
                          "expect step=departure", "press next"]
            lines += ["expect step=arrival"]
            if rnd == 3:
                lines += ["press up"]  # a passenger lost each day
            lines += ["press next"]
            if redeye:
                ends = ["redeye-lost", "final-purchase"]
                ends += ["shuffle-score-piles", "new-city"] if day < 3 else ["game-over"]
                for step in ends:
                    lines += [f"expect step={step}", "press next"]
            else:
                lines += ["expect step=purchase", "press next"]
    lines += ["expect phase=score", "expect step=entry", "expect departures=18",
              "expect lost=3"]
    return lines


def test_v3_simulate_whole_advanced_4_player_game(tmp_path: Path) -> None:
    lines = v3_whole_game("advanced", 4)
    totals = [17, 20, 12, 9]
    for total in totals:
        lines += ["press up"] * total + ["press next"]
    lines += ["expect phase=over", "state"]
    state = last_state(simulate(lines, tmp_path))
    data = {"variant": "advanced", "lost": 3,
            "players": [{"name": f"P{seat + 1}", "total": total}
                        for seat, total in enumerate(totals)]}
    assert state["entry"]["input"] == data
    assert state["result"] == score_cli("now-boarding-v3", data, tmp_path)
    assert state["result"]["score"] == 15 and state["result"]["lost_game"] is False


def test_v3_simulate_whole_basic_4_player_game_has_no_timer(tmp_path: Path) -> None:
    lines = v3_whole_game("basic", 4)
    totals = [30, 31, 32, 33]
    for total in totals:
        lines += ["press up"] * total + ["press next"]
    lines += ["state"]
    state = last_state(simulate(lines, tmp_path))
    data = {"variant": "basic", "lost": 3,
            "players": [{"name": f"P{seat + 1}", "total": total}
                        for seat, total in enumerate(totals)]}
    assert state["result"] == score_cli("now-boarding-v3", data, tmp_path)
    assert state["result"]["rating"] == "Legendary"


def test_v3_simulate_advanced_loss_exactly_past_twice_the_players(tmp_path: Path) -> None:
    lines = ["new now-boarding-v3 players=4 variant=advanced", "press next", "press next",
             "wait 60", "expect step=arrival", *["press up"] * 8,
             "expect lost=8", "expect result=null", "expect phase=day",
             "press next", "press next", "press next", "wait 60",  # round 2's Arrival
             "press up", "expect lost=9", "expect result=lose", "expect phase=over",
             "screen"]
    replies = simulate(lines, tmp_path)
    assert json.loads(replies[-1][3:])["lines"][0] == "GAME LOST"


def test_v3_score_cli_gives_a_lost_advanced_game_no_rating(tmp_path: Path) -> None:
    players = [{"name": f"P{seat}", "total": 60} for seat in range(1, 4)]
    lost = score_cli("now-boarding-v3", {"variant": "advanced", "lost": 7,
                                         "players": players}, tmp_path)
    assert (lost["lost_game"], lost["rating"], lost["winners"]) == (True, None, [])
    kept = score_cli("now-boarding-v3", {"variant": "advanced", "lost": 6,
                                         "players": players}, tmp_path)
    assert kept["rating"] == "PERFECT"


def test_v3_simulate_basic_never_loses(tmp_path: Path) -> None:
    lines = ["new now-boarding-v3 players=3", "press next", "press next",
             *["press up"] * 10, "expect lost=10", "expect result=null", "expect phase=day"]
    simulate(lines, tmp_path)


def test_v3_simulate_timer_option_overrides_the_variant(tmp_path: Path) -> None:
    simulate(["new now-boarding-v3 players=3 timer=45", "press next",
              "expect timer.duration=45", "new now-boarding-v3 players=3 variant=advanced "
              "timer=off", "press next", "expect timer.duration=0", "press next",
              "expect step=arrival"], tmp_path)
