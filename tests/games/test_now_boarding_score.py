"""``companion score now-boarding``: complaints at the end, win / lose edges, bad input."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.now_boarding import score
from companion.games.scoring import ScoreInputError


def _game(complaints: int = 0, undelivered: int = 0, unserved_vips: int = 0,
          players: int = 3) -> dict[str, Any]:
    return {"players": players, "complaints": complaints, "undelivered": undelivered,
            "unserved_vips": unserved_vips}


def test_now_boarding_score_contract_example() -> None:
    result = score(_game(2, 3, 0))
    assert result["game"] == "now-boarding"
    assert result["complaints_total"] == 3
    assert result["result"] == "lose"
    assert (result["players"], result["ranking"], result["winners"]) == ([], [], [])
    assert result["breakdown"] == {"complaints": 2, "undelivered": 1, "unserved-vips": 0}


@pytest.mark.parametrize(
    ("complaints", "undelivered", "vips", "total", "result"),
    [
        (0, 0, 0, 0, "win"),
        (2, 0, 0, 2, "win"),
        (3, 0, 0, 3, "lose"),
        (2, 1, 0, 2, "win"),
        (1, 2, 0, 2, "win"),
        (2, 2, 0, 3, "lose"),
        (0, 5, 0, 2, "win"),
        (0, 6, 0, 3, "lose"),
        (1, 0, 1, 2, "win"),
        (1, 0, 2, 3, "lose"),
        (0, 1, 2, 2, "win"),
        (9, 40, 7, 36, "lose"),
    ],
)
def test_now_boarding_score_edges(complaints: int, undelivered: int, vips: int, total: int,
                                  result: str) -> None:
    scored = score(_game(complaints, undelivered, vips))
    assert (scored["complaints_total"], scored["result"]) == (total, result)


def test_now_boarding_score_optional_counts_default_to_zero() -> None:
    assert score({"players": 4, "complaints": 1})["complaints_total"] == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "input: expected a JSON object"),
        ({"complaints": 0}, "input: missing field 'players'"),
        ({"players": 3}, "input: missing field 'complaints'"),
        ({"players": 1, "complaints": 0}, "players: must be at least 2"),
        ({"players": 6, "complaints": 0}, "players: at most 5"),
        ({"players": "3", "complaints": 0}, "players: expected a whole number"),
        ({"players": 3, "complaints": -1}, "complaints: must be at least 0"),
        ({"players": 3, "complaints": True}, "complaints: expected a whole number"),
        ({"players": 3, "complaints": 0, "undelivered": 1.5}, "undelivered: expected"),
        ({"players": 3, "complaints": 0, "unserved_vips": -2}, "unserved_vips: must be"),
    ],
)
def test_now_boarding_score_bad_input(data: Any, message: str) -> None:
    with pytest.raises(ScoreInputError, match=message):
        score(data)
