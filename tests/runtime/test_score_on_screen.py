"""A game scored on the line protocol or the table page shows its result on the box too
(issue #15: "The box's screen shows the result too"), in the alert box until the next input;
a refused score shows why instead."""

import json
from pathlib import Path

import pytest

from companion.games.scoring import SUMMARY_LIMIT, score_summary
from companion.testing.simulated import simulated_controller

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.mark.parametrize(("game", "example", "said"), [
    ("now-boarding", "now-boarding.json", "Scored now-boarding: WIN, 2 complaints in all"),
    ("now-boarding-v3", "now-boarding-v3-advanced.json", "Scored now-boarding-v3: 11, Notable"),
    ("overbooked", "overbooked-base.json", "Scored overbooked: Ann 45 wins"),
    ("overbooked", "overbooked-solo.json", "Scored overbooked solo: WON"),
    ("planes", "planes.json", "Scored planes: Bo 27 wins"),
    ("flight-plan", "flight-plan.json", "Scored flight-plan: Ann, Bo win"),
])
def test_a_scored_game_shows_on_the_box(tmp_path, game, example, said):
    controller = simulated_controller(tmp_path)
    data = json.loads((EXAMPLES / example).read_text())
    reply = controller.command_line(f"score {game} {json.dumps(data)}")
    assert reply is not None and reply.startswith("ok {")
    assert " ".join(controller.screen().alert) == said
    controller.command_line("press down")  # the next input clears it
    assert controller.screen().alert == ()


def test_a_refused_score_shows_why_not_a_result(tmp_path):
    controller = simulated_controller(tmp_path)
    reply = controller.command_line('score planes {"players": [{"name": "Ann"}]}')
    assert reply is not None and reply.startswith("err bad-argument")
    assert "Scored" not in " ".join(controller.screen().alert)


def test_a_lost_v3_game_is_said_unrated():
    result = {"game": "now-boarding-v3", "score": 9, "rating": None, "lost_game": True}
    assert score_summary(result) == "Scored now-boarding-v3: 9, no rating: game lost"


def test_a_summary_of_many_long_names_stays_within_the_alert_box():
    players = [{"name": "N" * 40 + str(index), "total": 10} for index in range(6)]
    result = {"game": "planes", "players": players,
              "winners": [player["name"] for player in players]}
    assert len(score_summary(result)) <= SUMMARY_LIMIT
