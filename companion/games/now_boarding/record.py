"""Now Boarding's state as JSON (CONTRACT.md section 3) and the record of a game (pure).

``state_json`` keeps every field of the contract and adds (never renames): ``options``, ``pace``
(``teach`` / ``steps`` / ``brisk``, also among the options), ``lesson`` (null, or the lesson
showing at ``pace=teach``: ``{"id", "title", "text", "more"}``, ``more`` the Rules view's
section; lessons.py), ``coach`` (the coach's warnings, most urgent first: ``[{"key",
"text"}]``, empty with ``coach=off``; coach.py), ``seed``, ``setup_page`` ({"index",
"count", "key"} during setup's checklist), ``draw`` ({"deck", "count", "empty", "next"} at
``passengers``), ``weather_card`` ({"card", "of", "token", "route"} at ``weather``), ``pending``
(the number being set at ``anger`` / ``exit`` / ``turnaround``), ``turnaround``
(``pace=brisk``'s maintenance card: ``{"unserved_vips", "new_stage", "weather": [{"token",
"route"}], "draw": {"deck", "count"} or null, "final_next", "vip_offer"}``), ``serve_vip``,
``vip_offer`` and ``vip_choices`` (at ``vip``: null until the table said yes, the VIP cards
being face-down; then the cards it may have turned over, the stage's cards not served yet, and
the one chosen: ``vip_offer`` stays null until the table chooses one, except with
``flow=full``, which opens on the first), ``ask`` (the page of a two-page step: ``cubes`` /
``count`` at ``anger``; ``serve?``, then ``which`` (several cards possible, UP / DOWN choose)
or ``named`` (one) at ``vip``), ``deck_left`` (cards left in the current stage's deck),
``to_win`` (the most passengers that may still go undelivered for a win), ``elapsed`` (seconds
used in the current flight), ``flights_total`` (flight phases in a whole game), ``flights``,
``complaints_by_round``, ``planes``, ``supply``, ``upgrade`` (the selected row at ``upgrades``),
``vips_dealt`` (how many VIP cards the table dealt by each deck, counted from their backs at
setup: never a card's name), ``vips_served``, ``undelivered``, ``reason`` (why it ended) and
``picture`` (null, or the picture to show beside the words: ``{"src", "full", "alt"}``;
pictures.py).

With ``timer=off`` the ``timer`` object is ``{"state": "idle", "remaining": 0.0, "duration":
0.0}`` throughout; ``elapsed`` then tells how long the flight has run. The same
holds before and during a teach game's practice flight (the first, without the clock).
"""

from __future__ import annotations

from typing import Any

from companion.games.now_boarding import data
from companion.games.now_boarding.coach import coach
from companion.games.now_boarding.data import GAME, PREFLIGHT, STAGES, UPGRADE_ITEMS
from companion.games.now_boarding.lessons import current_lesson
from companion.games.now_boarding.pictures import picture_json
from companion.games.now_boarding.rules import (
    NowBoardingState,
    deck_empty,
    draw_count,
    elapsed,
    next_price,
    plane,
    practice_flight,
    setup_page,
    setup_pages,
    supply_left,
    temp_holder,
    to_win,
    turnaround,
    upgrade_row,
    vip_choices,
    vip_offer,
    weather_card,
)

OFF_TIMER: dict[str, Any] = {"state": "idle", "remaining": 0.0, "duration": 0.0}


def _per_stage(values: tuple[int, int, int]) -> dict[str, int]:
    return dict(zip(STAGES, values, strict=True))


def _draw(state: NowBoardingState) -> dict[str, Any] | None:
    if state.step != "passengers":
        return None
    empty = deck_empty(state)
    following = (STAGES[state.stage_index + 1] if state.stage_index + 1 < len(STAGES)
                 else "final-round")
    return {"deck": state.stage, "count": draw_count(state), "empty": empty,
            "next": following if empty else None}


def complaints_by_round(state: NowBoardingState) -> list[dict[str, int]]:
    """Complaints added in each round's maintenance, by source, for rounds that had any."""
    rounds: dict[int, dict[str, int]] = {}
    for entry in state.complaint_log:
        row = rounds.setdefault(entry.round, {"round": entry.round, "anger": 0, "vip": 0,
                                              "exit": 0, "total": 0})
        row[entry.source] += entry.count
        row["total"] += entry.count
    return [rounds[number] for number in sorted(rounds)]


def complaints_by_source(state: NowBoardingState) -> dict[str, int]:
    """The whole game's complaints by where they came from: ``anger`` (waiting passengers
    given their 4th anger cube), ``vip`` (VIP cards left when their stage's deck ran out) and
    ``exit`` (one for every two passengers undelivered at the end). They add up to
    ``complaints``."""
    split = {"anger": 0, "vip": 0, "exit": 0}
    for entry in state.complaint_log:
        split[entry.source] += entry.count
    return split


def _planes(state: NowBoardingState) -> list[dict[str, Any]]:
    held = {item: temp_holder(state, item) for item in ("temp-seat", "temp-speed")}
    planes = []
    for player in range(state.players):
        current = plane(state, player)
        planes.append({"player": player + 1, "seats": current.seats, "speed": current.speed,
                       "routes": current.routes,
                       "temp": [item for item, holder in held.items() if holder == player]})
    return planes


def _supply(state: NowBoardingState) -> dict[str, Any]:
    supply: dict[str, Any] = {item: supply_left(state, item) for item in ("seat", "speed",
                                                                          "route")}
    for item in ("temp-seat", "temp-speed"):
        holder = temp_holder(state, item)
        supply[item] = "supply" if holder is None else f"P{holder + 1}"
    return supply


def _ask(state: NowBoardingState) -> str | None:
    if state.step == "anger":
        return ("cubes", "count")[state.page]
    if state.step == "vip":
        if state.page == 0:
            return "serve?"
        return "which" if len(vip_choices(state)) > 1 else "named"
    return None


def _turnaround(state: NowBoardingState) -> dict[str, Any] | None:
    if state.step != "turnaround":
        return None
    plan = turnaround(state)
    return {"unserved_vips": plan.unserved_vips, "new_stage": plan.new_stage,
            "weather": [{"token": token, "route": route} for token, route in plan.weather],
            "draw": {"deck": plan.draw_deck, "count": plan.draw} if plan.draw_deck else None,
            "final_next": plan.final_next, "vip_offer": plan.vip_offer}


def _upgrade(state: NowBoardingState) -> dict[str, Any] | None:
    if state.step != "upgrades":
        return None
    player, item = upgrade_row(state)
    return {"player": player + 1, "item": item, "price": next_price(state, player, item),
            "row": state.page, "rows": len(UPGRADE_ITEMS) * state.players}


def state_json(state: NowBoardingState, now: float) -> dict[str, Any]:
    """The ``state`` reply of CONTRACT.md section 3, plus the fields listed above."""
    timer = state.countdown.to_json(now) if state.countdown is not None else dict(OFF_TIMER)
    if practice_flight(state) and state.step in ("ready", "flight"):
        timer = dict(OFF_TIMER)  # the practice flight runs without the clock
    lesson = current_lesson(state)
    body: dict[str, Any] = {
        "game": GAME,
        "players": state.players,
        "phase": state.phase,
        "step": state.step,
        "stage": state.stage,
        "round": state.round,
        "final_round": state.final_round,
        "timer": timer,
        "decks": _per_stage(state.decks),
        "weather": _per_stage(state.weather),
        "vip": _per_stage(state.vip_waiting),
        "complaints": state.complaints,
        "result": state.result,
        # Added fields (CONTRACT.md allows additions).
        "options": dict(state.options),
        "pace": state.pace,
        "lesson": lesson.to_json() if lesson is not None else None,
        "coach": [{"key": advice.key, "text": advice.text} for advice in coach(state)],
        "seed": state.seed,
        "setup_page": ({"index": state.page, "count": len(setup_pages(state)),
                        "key": setup_page(state)} if state.step == "setup" else None),
        "draw": _draw(state),
        "weather_card": None,
        "pending": state.pending if state.step in ("anger", "exit", "turnaround") else None,
        "turnaround": _turnaround(state),
        "serve_vip": state.serve_vip if state.step == "vip" else None,
        "vip_offer": vip_offer(state),
        "vip_choices": (list(vip_choices(state)) if state.step == "vip" and state.page == 1
                        else None),
        "ask": _ask(state),
        "deck_left": state.decks[state.stage_index],
        "to_win": to_win(state),
        "elapsed": round(elapsed(state, now), 3),
        "flights_total": data.total_flights(state.players),
        "flights": [{"round": f.round, "stage": f.stage, "used": f.used, "ended": f.ended,
                     "final": f.final} for f in state.flights],
        "complaints_by_round": complaints_by_round(state),
        "planes": _planes(state),
        "supply": _supply(state),
        "upgrade": _upgrade(state),
        # Counts only, as the table read them from the backs: no card is named before the
        # table says which it turned over.
        "vips_dealt": _per_stage(state.vip_told),
        "vips_served": [{"round": r, "stage": s, "card": c} for r, s, c in state.vips_served],
        "undelivered": state.undelivered,
        "reason": state.reason,
        "picture": picture_json(state),
    }
    if state.step == "weather":
        card, total, token, route = weather_card(state)
        body["weather_card"] = {"card": card, "of": total, "token": token, "route": route}
    return body


def record(state: NowBoardingState) -> dict[str, Any]:
    """The game's record for ``companion history``: who, how, and every round.

    ``complaints_by_source`` splits the game's complaints into waiting passengers
    (``anger``), unserved VIPs (``vip``) and passengers undelivered at the end (``exit``).
    ``rounds`` has one entry per flight phase: its stage, the seconds of flight used, how it
    ended ("time" or "next"), whether it was the final round, and the complaints added in
    that round's maintenance (anger, unserved VIPs, exit). Pure: the same state gives the
    same record.
    """
    added = {row["round"]: row for row in complaints_by_round(state)}
    rounds = []
    for flight in state.flights:
        row = added.get(flight.round, {"anger": 0, "vip": 0, "exit": 0, "total": 0})
        rounds.append({"round": flight.round, "stage": flight.stage, "time_used": flight.used,
                       "ended": flight.ended, "final": flight.final,
                       "complaints": row["total"],
                       "complaints_by_source": {"anger": row["anger"], "vip": row["vip"],
                                                "exit": row["exit"]}})
    chart = PREFLIGHT[state.players]
    return {
        "game": GAME,
        "players": state.players,
        "options": dict(state.options),
        "seed": state.seed,
        "finished": state.result is not None,
        "result": state.result,
        "reason": state.reason,
        "complaints": state.complaints,
        "complaints_by_source": complaints_by_source(state),
        "undelivered": state.undelivered,
        "flights": len(state.flights),
        "flight_time_total": round(sum(flight.used for flight in state.flights), 3),
        "rounds": rounds,
        "vips_dealt": _per_stage(state.vip_told),
        "vips_served": [{"round": r, "stage": s, "card": c} for r, s, c in state.vips_served],
        "upgrades": [{"round": p.round, "player": p.player + 1, "item": p.item}
                     for p in state.purchases],
        "free_tiles": list(state.free_tiles),
        "cards_drawn": sum(chart.in_pile) - sum(state.decks),
    }
