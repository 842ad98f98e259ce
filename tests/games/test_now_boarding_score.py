"""``companion score now-boarding``: complaints at the end, win / lose edges, bad input."""

from __future__ import annotations

import re
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
        (9, 40, 5, 34, "lose"),
    ],
)
def test_now_boarding_score_edges(complaints: int, undelivered: int, vips: int, total: int,
                                  result: str) -> None:
    scored = score(_game(complaints, undelivered, vips))
    assert (scored["complaints_total"], scored["result"]) == (total, result)


@pytest.mark.parametrize("missing", ["undelivered", "unserved_vips"])
def test_now_boarding_score_every_count_is_required(missing: str) -> None:
    # Issue #13: a missing count was read as 0, which can turn a loss into a win.
    data = _game(1, 4, 1)
    del data[missing]
    with pytest.raises(ScoreInputError, match=f"input: missing field '{missing}'"):
        score(data)


@pytest.mark.parametrize(("key", "nearest"), [("undelivred", "undelivered"),
                                              ("unserved_vip", "unserved_vips"),
                                              ("complaint", "complaints")])
def test_now_boarding_score_refuses_a_misspelt_key_naming_the_nearest(key: str,
                                                                      nearest: str) -> None:
    # Issue #13: "undelivred": 9 was ignored silently.
    data = {**_game(0, 0, 0), key: 9}
    with pytest.raises(ScoreInputError) as refusal:
        score(data)
    assert f"unknown key {key!r} (did you mean {nearest!r}?)" in str(refusal.value)


@pytest.mark.parametrize(("players", "undelivered", "vips", "message"), [
    (2, 0, 5, "unserved_vips: at most 4 (the VIP cards dealt with 2 players), got 5"),
    (5, 0, 8, "unserved_vips: at most 7"),
    (2, 43, 0, "undelivered: at most 42 (the passengers a 2-player game deals), got 43"),
    (4, 72, 0, "undelivered: at most 71"),
])
def test_now_boarding_score_refuses_impossible_counts(players: int, undelivered: int,
                                                      vips: int, message: str) -> None:
    with pytest.raises(ScoreInputError, match=re.escape(message)):
        score(_game(0, undelivered, vips, players))


def test_now_boarding_score_takes_the_largest_possible_counts() -> None:
    assert score(_game(0, 42, 4, players=2))["complaints_total"] == 25


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
        ({"players": 3, "complaints": 0, "undelivered": 0, "unserved_vips": -2},
         "unserved_vips: must be"),
    ],
)
def test_now_boarding_score_bad_input(data: Any, message: str) -> None:
    with pytest.raises(ScoreInputError, match=message):
        score(data)
