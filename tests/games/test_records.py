"""games/records.py: each game's history from the timeline of its state JSON (pure)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.now_boarding import NowBoarding, record
from companion.games.now_boarding.rules import Complaint
from companion.games.records import Moment, history_of


def timer_state(step: str, rounds: int, remaining: float, duration: float = 20.0
                ) -> dict[str, Any]:
    return {"game": "timer", "phase": step, "step": step, "rounds": rounds,
            "timer": {"state": step, "remaining": remaining, "duration": duration}}


def moments(*states: dict[str, Any]) -> list[Moment]:
    return [Moment(float(index), None if index == 0 else {"kind": "press", "button": "next"},
                   state) for index, state in enumerate(states)]


def test_records_timer_one_row_per_run_not_per_press() -> None:
    timeline = moments(timer_state("idle", 0, 20), timer_state("running", 1, 20),
                       timer_state("paused", 1, 14), timer_state("running", 1, 14),
                       timer_state("expired", 1, 0), timer_state("running", 2, 20),
                       timer_state("expired", 2, 11))
    history = history_of("timer", timeline)
    assert history is not None
    assert history.rows == ((1, 20.0, 20.0, "time"), (2, 20.0, 9.0, "next"))


def v3_state(phase: str, step: str, day: int, number: int, lost: int, *,
             reason: str | None = None, ended: str | None = None) -> dict[str, Any]:
    timer = ({"state": "idle", "remaining": 0.0, "duration": 0.0} if phase == "setup"
             else {"state": "expired", "remaining": 35.0, "duration": 60.0})
    return {"game": "now-boarding-v3", "players": 3, "phase": phase, "step": step,
            "variant": "advanced", "day": day, "round": number, "redeye": number == 6,
            "timer": timer,
            "timed": True, "lost": lost, "lost_limit": 6, "ended": ended, "reason": reason}


def test_records_v3_a_game_lost_mid_round_keeps_that_round() -> None:
    timeline = moments(v3_state("setup", "setup", 1, 1, 0),
                       v3_state("day", "departure", 1, 1, 0),
                       v3_state("day", "arrival", 1, 1, 0, ended="next"),
                       v3_state("day", "arrival", 1, 1, 6, ended="next"),
                       v3_state("over", "over", 1, 1, 7, reason="lost", ended="next"))
    history = history_of("now-boarding-v3", timeline)
    assert history is not None
    assert history.rows == ((1, 1, False, 25.0, "next", 7, 7),)
    assert history.chart.panels[0].marks[0].value == 6
    assert history.chart.panels[1].marks[0].value == 60  # the timer, though idle at setup


def test_records_overbooked_unfinished_counts_the_seats_entered() -> None:
    entry = {"players": [
        {"name": "P1", "seats": ["RW.|B.", "...|.."], "overbooked": 1, "vouchers": 6,
         "bonus_cards": 0},
        {"name": "P2", "seats": ["...|..", "...|.."], "overbooked": 0, "vouchers": 6,
         "bonus_cards": 0}]}
    state = {"game": "overbooked", "players": 2, "phase": "entry", "step": "seats",
             "result": None, "variant": "base", "entry": entry}
    history = history_of("overbooked", moments(state))
    assert history is not None
    assert history.columns[:2] == ("player", "seats_filled")
    assert history.rows == (("P1", 3, 1, 6, 0), ("P2", 0, 0, 6, 0))


def test_records_unknown_game_has_no_history() -> None:
    assert history_of("chess", moments({"game": "chess"})) is None


# -- Now Boarding: the complaints split by source (issue #26) -------------------------------------

NB_SOURCES = ("anger", "vip", "exit")


def nb_state(added: dict[int, dict[str, int]], flights: int) -> dict[str, Any]:
    """A finished 2-player game's state JSON: ``flights`` rounds, ``added`` the complaints
    filed in a round's maintenance by source."""
    by_round = [{"round": number, **{s: split.get(s, 0) for s in NB_SOURCES},
                 "total": sum(split.values())} for number, split in sorted(added.items())]
    return {"game": "now-boarding", "players": 2, "timer": {"duration": 15.0},
            "complaints_by_round": by_round,
            "flights": [{"round": number, "stage": "evening", "used": 15.0, "ended": "time",
                         "final": number == flights} for number in range(1, flights + 1)]}


def test_records_now_boarding_csv_keeps_each_source_running_total() -> None:
    final = nb_state({2: {"anger": 1}, 3: {"vip": 1}, 5: {"anger": 1, "exit": 1}}, 5)
    history = history_of("now-boarding", moments(final))
    assert history is not None
    assert history.columns == (
        "round", "stage", "time_used_s", "ended", "final", "complaints", "complaints_anger",
        "complaints_vip", "complaints_exit", "complaints_total", "complaints_anger_total",
        "complaints_vip_total", "complaints_exit_total")
    split = [row[-4:] for row in history.rows]
    assert split == [(0, 0, 0, 0), (1, 1, 0, 0), (2, 1, 1, 0), (2, 1, 1, 0), (4, 2, 1, 1)]
    # The whole game's split is the last row's, and it adds up to the total.
    assert split[-1][0] == sum(split[-1][1:])


def test_records_now_boarding_chart_shows_complaints_by_source() -> None:
    final = nb_state({1: {"vip": 2}, 4: {"exit": 1}}, 4)
    history = history_of("now-boarding", moments(final))
    assert history is not None
    complaints = history.chart.panels[1]
    assert [series.name for series in complaints.series] == [
        "waiting passengers", "unserved VIPs", "undelivered at the end", "total so far"]
    assert len({series.colour for series in complaints.series}) == 4
    by_name = {series.name: dict(series.points) for series in complaints.series}
    assert by_name["unserved VIPs"] == {1: 2.0, 2: 0.0, 3: 0.0, 4: 0.0}
    assert by_name["undelivered at the end"][4] == 1.0
    assert by_name["total so far"] == {1: 2.0, 2: 2.0, 3: 2.0, 4: 3.0}


def test_records_now_boarding_record_splits_the_games_complaints_by_source() -> None:
    """The record's ``complaints_by_source`` sums the game's complaint log by source; a
    source that never filed one is 0; the split adds up to ``complaints``; the per-round
    split stays as it was."""
    state = NowBoarding().new({"players": "3", "vip": "on"}, 7)
    assert record(state)["complaints_by_source"] == {"anger": 0, "vip": 0, "exit": 0}
    log = (Complaint(2, "anger", 1), Complaint(4, "vip", 1), Complaint(9, "exit", 2),
           Complaint(9, "anger", 1))
    game_record = record(replace(state, complaint_log=log, complaints=5))
    assert game_record["complaints_by_source"] == {"anger": 2, "vip": 1, "exit": 2}
    assert sum(game_record["complaints_by_source"].values()) == game_record["complaints"]
