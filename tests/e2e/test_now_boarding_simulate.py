"""Whole games of Now Boarding through `companion simulate`, for 2, 3, 4 and 5 players.

The button script is found by playing the game in-process (NEXT at every step, the flight
timer left to run out, no complaints); the assertions are ``expect`` lines computed from the
rulebook's Preflight chart and CLARIFICATIONS.md, independently of the game's code, and
checked by the simulate subprocess itself at every stage boundary.
"""

import json
import subprocess
import sys

import pytest

from companion.testing.simulated import simulated_controller

# players: (rounds per stage, "In pile", "Draw per round", weather cards per stage)
CHART = {
    2: ((3, 5, 9), (3, 10, 27), (1, 2, 3), 2),
    3: ((3, 5, 8), (6, 15, 32), (2, 3, 4), 4),
    4: ((4, 5, 7), (12, 20, 35), (3, 4, 5), 6),
    5: ((3, 6, 4), (12, 30, 24), (4, 5, 6), 6),
}
STAGES = ("morning", "afternoon", "evening")


def boundary_expectations(players):
    """Expected state at the first flight of each stage and of the final round."""
    rounds, piles, draws, weather = CHART[players]
    expectations = {}
    first_round = 1
    for index, stage in enumerate(STAGES):
        expected = {"stage": stage, "round": first_round, "final_round": False,
                    f"decks.{stage}": piles[index] - draws[index], f"weather.{stage}": 0}
        for earlier in STAGES[:index]:
            expected[f"decks.{earlier}"] = 0
        for later in STAGES[index + 1:]:
            expected[f"decks.{later}"] = piles[STAGES.index(later)]
            expected[f"weather.{later}"] = weather
        expectations[first_round] = expected
        first_round += rounds[index]
    expectations[first_round] = {"stage": "evening", "round": first_round, "final_round": True,
                                 "decks.morning": 0, "decks.afternoon": 0, "decks.evening": 0}
    return expectations, first_round


def game_script(players, tmp_path):
    expectations, final_round = boundary_expectations(players)
    model = simulated_controller(tmp_path)
    lines = [f"new now-boarding players={players} seed=11"]
    model.command_line(lines[0])
    flights = 0
    while True:
        state = json.loads(model.command_line("state").removeprefix("ok "))
        if state["phase"] == "over":
            break
        if state["step"] == "flight":
            flights += 1
            if state["timer"]["state"] == "running" and state["round"] in expectations:
                for path, value in expectations.pop(state["round"]).items():
                    lines.append(f"expect {path}={json.dumps(value)}")
            lines.append("expect step=flight")
            lines.append("wait 60")
            model.command_line("wait 60")
        else:
            lines.append("press next")
            assert model.command_line("press next") == "ok", state
    assert not expectations, f"stage boundaries never reached: {expectations}"
    lines += ["expect phase=over", "expect result=win", f"expect round={final_round}",
              "expect complaints=0"]
    model.journal.close()
    return lines, flights, final_round


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_now_boarding_whole_game_through_simulate(players, tmp_path):
    lines, flights, final_round = game_script(players, tmp_path / "model")
    rounds = CHART[players][0]
    assert flights == final_round == sum(rounds) + 1
    script = tmp_path / f"now-boarding-{players}p.txt"
    script.write_text("\n".join(lines) + "\n")
    result = subprocess.run([sys.executable, "-m", "companion", "simulate", str(script)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr + result.stdout[-500:]
    replies = result.stdout.splitlines()
    assert len(replies) == len(lines)
    assert set(replies) == {"ok"}


def test_now_boarding_three_players_is_seventeen_flights(tmp_path):
    _, flights, _ = game_script(3, tmp_path)
    assert flights == 17
