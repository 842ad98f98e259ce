"""``companion score``'s table (scoring.format_table) says how every game ended.

The rows hold the players' points; a cooperative game has none, and the v3 score, its rating
and a solo scenario's outcome are not points, so the table must print them after the rows.
"""

from __future__ import annotations

from companion.games import now_boarding, now_boarding_v3, overbooked
from companion.games.scoring import format_table


def test_score_table_now_boarding_shows_the_outcome() -> None:
    text = format_table(now_boarding.score({"players": 3, "complaints": 1, "undelivered": 3,
                                            "unserved_vips": 1}))
    assert text.splitlines() == ["breakdown: complaints 1, undelivered 1, unserved-vips 1",
                                 "complaints in all: 3", "result: lose"]


def test_score_table_v3_shows_the_score_rating_and_a_lost_game() -> None:
    result = now_boarding_v3.score({"variant": "advanced", "lost": 7, "players": [
        {"name": "Ann", "total": 17}, {"name": "Bo", "total": 12}, {"name": "Cy", "total": 9}]})
    assert format_table(result).splitlines()[-2:] == [
        "score: 13 (Notable)", "the game is lost: too many passengers in the Lost pile"]


def test_score_table_overbooked_solo_says_whether_the_scenario_was_won() -> None:
    rows = ["WBW|WBBW|WBW", "BBB|BBBB|GGG", "WGW|WRRW|WGW", "YYY|YYYY|RRY", "RRY|GGGG|YYR"]
    result = overbooked.score({
        "variant": "base", "events": [],
        "solo": {"scenario": "schools-out", "difficulty": "hard"},
        "players": [{"name": "Sam", "seats": rows, "overbooked": 0, "vouchers": 1,
                     "bonus_cards": 0}]})
    assert format_table(result).splitlines()[-1] == (
        "solo schools-out (hard): won; 8-protected-children yes, "
        "friend-group-of-5-or-3-couples yes, vouchers-left yes")
