"""Whole games of Now Boarding through `companion simulate`, for 2, 3, 4 and 5 players.

The button script is found by playing the game in-process (NEXT at every step, the flight
timer left to run out, no complaints; at "which VIP?" DOWN chooses the first card first); the
assertions are ``expect`` lines computed from the rulebook's Preflight chart and
CLARIFICATIONS.md, independently of the game's code, and checked by the simulate subprocess
itself at every stage boundary. The in-process play also
reads the screen at the steps the rulebook names (``REMINDERS``): the anger cubes with
the complaints, the flip of every face-down passenger card before each flight, the Preflight
chart's flip before round 1, the upgrades, and the progress on every screen.
"""

import json
import subprocess
import sys

import pytest

from companion.games.now_boarding.data import VIP_CARDS
from companion.testing.simulated import simulated_controller

# players: (rounds per stage, "In pile", "Draw per round", weather cards per stage)
CHART = {
    2: ((3, 5, 9), (3, 10, 27), (1, 2, 3), 2),
    3: ((3, 5, 8), (6, 15, 32), (2, 3, 4), 4),
    4: ((4, 5, 7), (12, 20, 35), (3, 4, 5), 6),
    5: ((3, 6, 4), (12, 30, 24), (4, 5, 6), 6),
}
STAGES = ("morning", "afternoon", "evening")

# (step, ask) -> words the screen must show there (rules/now-boarding.txt).
REMINDERS = {  # the short flow: the anger cubes said on the one anger page (issue #35)
    ("anger", "count"): ("Anger", "1 ", "4th cube?"),
    ("ready", None): ("Flip every face-down", "passenger card."),
}
VIP_REMINDERS = {("vip", "serve?"): ("Serve a VIP?", "NEXT yes   DOWN no"),
                 ("vip", "which"): ("by the last card drawn",)}
VIP_NAMES = {card.name for card in VIP_CARDS}


def screen_text(model):
    return " ".join(json.loads(model.command_line("screen").removeprefix("ok "))["lines"])


def check_screen(model, state, players):
    """The reminders the rulebook names, and the progress, on the screen of ``state``."""
    text = screen_text(model)
    for words in {**REMINDERS, **VIP_REMINDERS}.get((state["step"], state.get("ask")), ()):
        assert words in text, (state["step"], words, text)
    # The Crying Baby's 2 cubes are said after its first flight, not on every card after
    # (issue #36: rules.crying_baby_waiting); the short flow's anger page says it.
    baby = any(row["card"] == "Crying Baby" and state["round"] - row["round"] <= 1
               for row in state["vips_served"])
    if (state["step"], state.get("ask")) == ("anger", "count"):
        assert ("Baby 2" in text) is baby, text
    if state["step"] == "vip":  # face-down until the table says yes, then the card chosen
        served = {row["card"] for row in state["vips_served"]}
        # "Which VIP?" opens with no card chosen (issue #36): then the panel names none.
        chosen = {state["vip_offer"]} - {None} if state["ask"] in ("which", "named") else set()
        named = {card for card in VIP_NAMES if card in text}
        assert chosen <= named <= chosen | served, text
    if state["step"] not in ("setup", "over"):
        assert f"R{state['round']}/{state['flights_total']}" in text, text
        assert f"C:{state['complaints']}/3" in text, text
    if state["step"] == "ready":
        assert state["timer"]["state"] == "idle"  # no flight starts unannounced
        first_round = state["round"] == 1
        assert ("Preflight chart: flip to its Upgrades side." in text) is first_round, text
        assert first_round or f"Win: <= {state['to_win']} undelivered" in text, text
    if state["step"] == "upgrades":
        player = state["upgrade"]["player"]
        following = "fly"  # one upgrades page for every player
        assert f"P{player} buys" in text and f"hold NEXT buys  NEXT: {following}" in text
    if state["step"] not in ("setup", "over", "upgrades") and not state["final_round"] \
            and not state["coach"]:  # the coach's warning takes the cards' place
        left = state["decks"][state["stage"]]
        assert f"{left} card" in text, text


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


def game_script(players, tmp_path, vip="off"):
    expectations, final_round = boundary_expectations(players)
    model = simulated_controller(tmp_path)
    lines = [f"new now-boarding players={players} vip={vip} seed=11"]
    model.command_line(lines[0])
    flights = 0
    seen = set()
    while True:
        state = json.loads(model.command_line("state").removeprefix("ok "))
        check_screen(model, state, players)
        seen.add((state["step"], state.get("ask")))
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
            # "Which VIP?" opens with none chosen: the table chooses its card (DOWN: the
            # first) before NEXT says it.
            press = ("press down" if state.get("ask") == "which" and state["vip_offer"] is None
                     else "press next")
            lines.append(press)
            assert model.command_line(press) == "ok", state
    assert not expectations, f"stage boundaries never reached: {expectations}"
    assert set(REMINDERS) <= seen
    assert (set(VIP_REMINDERS) <= seen) is (vip == "on")
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


def test_now_boarding_vip_game_through_simulate_asks_before_naming(tmp_path):
    lines, flights, _ = game_script(3, tmp_path / "model", vip="on")  # NEXT: serve every VIP
    assert flights == 17
    script = tmp_path / "now-boarding-vip.txt"
    script.write_text("\n".join(lines) + "\n")
    result = subprocess.run([sys.executable, "-m", "companion", "simulate", str(script)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr + result.stdout[-500:]
    assert set(result.stdout.splitlines()) == {"ok"}


def test_now_boarding_three_players_is_seventeen_flights(tmp_path):
    _, flights, _ = game_script(3, tmp_path)
    assert flights == 17
