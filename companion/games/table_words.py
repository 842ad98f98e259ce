"""A history table's columns in words, and the ones a phone's page shows (pure).

The export's CSV keeps its columns' names (``time_used_s``, ``complaints_anger_total``: the
stable names scripts read); the table page's History shows each column's heading in words
(issue #36, item 7) and, for a game whose table is wide, only the columns that fit a 360 px
phone (:data:`PAGE_COLUMNS`: Now Boarding's round, time used and complaints, the round's and
in all; its complaints by source are said once above the table and the stages in its chart,
so the other columns stay in the CSV). :func:`heading` words any column.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Headings that a rule below would not say well.
HEADINGS = {
    "time_used_s": "Time used (s)", "ended": "Ended by", "final": "Final round",
    "complaints": "Complaints", "complaints_total": "In all",
    "complaints_anger": "Waiting passengers", "complaints_vip": "Unserved VIPs",
    "complaints_exit": "Undelivered", "complaints_anger_total": "Waiting passengers in all",
    "complaints_vip_total": "Unserved VIPs in all", "complaints_exit_total": "Undelivered in all",
    "at_s": "At (s)", "lost_added": "Lost this round", "redeye": "Redeye",
}

#: The columns the page shows of a game's table, where it shows fewer than the CSV has.
PAGE_COLUMNS = {
    "now-boarding": ("round", "time_used_s", "complaints", "complaints_total"),
}


def heading(column: str) -> str:
    """``column`` in words: ``duration_s`` -> "Duration (s)", ``cash_P1`` -> "Cash P1",
    ``friends-blue-majority`` -> "Friends blue majority"."""
    if column in HEADINGS:
        return HEADINGS[column]
    words = column.replace("-", " ").split("_")
    unit = " (s)" if len(words) > 1 and words[-1] == "s" else ""
    words = words[:-1] if unit else words
    text = " ".join(word for word in words if word)
    return (text[:1].upper() + text[1:] + unit) if text else column


def shown_columns(game: str, columns: Sequence[str]) -> list[int]:
    """The indices of ``columns`` the page shows for ``game`` (every one unless listed)."""
    wanted = PAGE_COLUMNS.get(game)
    if wanted is None:
        return list(range(len(columns)))
    return [index for index, column in enumerate(columns) if column in wanted]
