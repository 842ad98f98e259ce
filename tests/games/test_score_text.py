"""``companion score``'s text says everything its ``--json`` does (issue #13)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.games.registry import scorers
from companion.games.score_formats import EXAMPLES
from companion.games.scoring import format_table

SCORERS = scorers()


def text_of(game: str, data: dict[str, Any]) -> list[str]:
    return format_table(SCORERS[game](data)).splitlines()


@pytest.mark.parametrize(("complaints", "total_line", "result_line"), [
    (1, "complaints total: 2", "result: WIN"),
    (2, "complaints total: 3", "result: LOSE"),
])
def test_score_text_now_boarding_says_the_complaints_total_and_win_or_lose(
        complaints: int, total_line: str, result_line: str) -> None:
    # Issue #13: the text printed an empty table and nothing else.
    lines = text_of("now-boarding", {"players": 3, "complaints": complaints, "undelivered": 3,
                                     "unserved_vips": 0})
    assert total_line in lines and result_line in lines


def test_score_text_now_boarding_v3_says_the_final_score_rating_and_lost() -> None:
    data = copy.deepcopy(EXAMPLES["now-boarding-v3"])
    data["lost"] = 7
    lines = text_of("now-boarding-v3", data)
    assert "final score: 9" in lines
    assert "rating: Keep trying!" in lines
    assert "lost passengers: 7" in lines
    assert "game lost: yes" in lines
    assert "winners: none" in lines


@pytest.mark.parametrize(("vouchers", "outcome"), [(3, "WON"), (0, "LOST")])
def test_score_text_overbooked_solo_says_won_or_lost_and_each_condition(vouchers: int,
                                                                        outcome: str) -> None:
    rows = ["WRWRW", "RWRWR", "WRWRW", "RWRWR", "BBBBB"]  # schools-out met but for vouchers
    data = {"players": [{"name": "Sam", "seats": rows, "overbooked": 0, "vouchers": vouchers}],
            "solo": {"scenario": "schools-out", "difficulty": "hard"}}
    result = SCORERS["overbooked"](data)
    lines = format_table(result).splitlines()
    assert f"solo: schools-out (hard): {outcome}" in lines
    for condition, met in result["solo"]["conditions"].items():
        assert f"  {condition}: {'yes' if met else 'no'}" in lines


def test_score_text_overbooked_warns_about_bonus_cards_under_base_rules() -> None:
    data = copy.deepcopy(EXAMPLES["overbooked"])
    data["players"][0]["bonus_cards"] = 2
    lines = text_of("overbooked", data)
    assert any(line.startswith("warning: player 'Ann': bonus_cards 2 ignored")
               for line in lines)


def _leaves(value: Any) -> list[str]:
    """Every scalar of a JSON value, as the text would show it."""
    if isinstance(value, dict):
        return [leaf for inner in value.values() for leaf in _leaves(inner)]
    if isinstance(value, list):
        return [leaf for inner in value for leaf in _leaves(inner)]
    if isinstance(value, bool):
        return ["yes" if value else "no"]
    return [str(value)]


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_score_text_carries_every_fact_of_the_json(game: str) -> None:
    result = SCORERS[game](copy.deepcopy(EXAMPLES[game]))
    text = format_table(result)
    for key, value in result.items():
        if key in ("game", "ranking"):
            continue
        for leaf in _leaves(value):
            if key == "winners" or leaf not in ("yes", "no"):
                assert leaf.lower() in text.lower(), (key, leaf)
