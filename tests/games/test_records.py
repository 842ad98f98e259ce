"""games/records.py: each game's history from the timeline of its state JSON (pure)."""

from __future__ import annotations

from typing import Any

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
