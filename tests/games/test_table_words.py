"""games/table_words.py: a history table's headings in words (issue #36, item 7)."""

import re

import pytest

from companion.games.table_words import heading, shown_columns

GAMES = {  # each game's CSV columns (tests/e2e/test_history.py checks the export has them)
    "now-boarding": ["round", "stage", "time_used_s", "ended", "final", "complaints",
                     "complaints_anger", "complaints_vip", "complaints_exit",
                     "complaints_total", "complaints_anger_total", "complaints_vip_total",
                     "complaints_exit_total"],
    "now-boarding-v3": ["day", "round", "redeye", "departure_s", "ended", "lost",
                        "lost_added"],
    "planes": ["move", "at_s", "colour", "change", "track", "red", "blue", "green",
               "yellow", "grey", "trigger"],
    "flight-plan": ["turn", "round", "player", "cash_P1", "cash_P2", "cash_P3",
                    "routes_P1", "routes_P2", "routes_P3", "bankrupt"],
    "overbooked": ["player", "place", "total", "couples", "children", "friends-blue",
                   "friends-blue-majority", "vouchers", "empty-seats", "overbooked",
                   "most-overbooked"],
    "timer": ["run", "duration_s", "time_used_s", "ended"],
}


@pytest.mark.parametrize(("column", "words"), [
    ("time_used_s", "Time used (s)"), ("complaints_anger_total", "Waiting passengers in all"),
    ("duration_s", "Duration (s)"), ("cash_P1", "Cash P1"),
    ("friends-blue-majority", "Friends blue majority"), ("round", "Round"),
])
def test_a_column_is_said_in_words(column, words):
    assert heading(column) == words


@pytest.mark.parametrize("game", GAMES)
def test_no_heading_of_any_game_is_a_raw_field_name(game):
    for column in GAMES[game]:
        words = heading(column)
        assert not re.search(r"[_-]", words) and words[:1] == words[:1].upper(), words


def test_now_boarding_shows_four_columns_on_the_page():
    columns = GAMES["now-boarding"]
    assert [columns[i] for i in shown_columns("now-boarding", columns)] == [
        "round", "time_used_s", "complaints", "complaints_total"]
    assert shown_columns("planes", GAMES["planes"]) == list(range(11))
