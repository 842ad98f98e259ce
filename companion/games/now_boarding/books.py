"""Now Boarding's moves that change the books, shared by the steps of every pace (pure).

game.py's state machine chooses the steps; these keep the books: complaints (3 lose at once,
reaching exactly 2 warns), the unserved VIPs of a deck found empty, the start and end of a
flight, and ``pace=brisk``'s maintenance card done at one press (:func:`turnaround_done`), which
keeps the books of ``pace=steps`` in the steps' order (DESIGN.md rule 16: a pace changes which
steps a round has, never the books). :func:`legacy_vip_deal` rebuilds the VIP deal the box made
itself before the table dealt its own, for games journaled then.
"""

from __future__ import annotations

import random
from dataclasses import replace

from companion.core.game import Play
from companion.core.timer import TimerState
from companion.games.now_boarding import data
from companion.games.now_boarding.data import COMPLAINT_LIMIT, STAGES
from companion.games.now_boarding.rules import (
    Complaint,
    Flight,
    NowBoardingState,
    Step,
    elapsed,
    practice_flight,
    turnaround,
    vip_left,
)

#: What a move gives back: the new state and the tunes it plays.
Outcome = tuple[NowBoardingState, tuple[Play, ...]]


def legacy_vip_deal(seed: int, players: int) -> tuple[tuple[str, ...], tuple[str, ...],
                                                       tuple[str, ...]]:
    """The VIP deal the box made itself before the table dealt its own: players + 2 of the
    nine, a seeded draw, each card to its stage, in deck order. Kept only so that a game
    journaled then replays as it was played (its options have no ``pace``)."""
    rng = random.Random(f"now-boarding:{seed}:vip")
    dealt = rng.sample(range(len(data.VIP_CARDS)), data.vip_count(players))
    per_stage = [tuple(data.VIP_CARDS[i].name for i in dealt if data.VIP_CARDS[i].stage == stage)
                 for stage in STAGES]
    return per_stage[0], per_stage[1], per_stage[2]


def add_complaints(state: NowBoardingState, count: int, source: str,
                   *, always_log: bool = False,
                   reason: str | None = None) -> Outcome:
    """Add complaints; 3 or more end the game at once, reaching exactly 2 is a warning."""
    if count <= 0 and not always_log:
        return state, ()
    before = state.complaints
    total = before + count
    log = (*state.complaint_log, Complaint(state.round, source, count))
    state = replace(state, complaints=total, complaint_log=log)
    if total >= COMPLAINT_LIMIT:
        reasons = {"anger": "angry passengers", "vip": "an unserved VIP",
                   "exit": "undelivered passengers"}
        return replace(state, phase="over", step="over", result="lose",
                       reason=reason or reasons[source]), (Play("lose"),)
    if before < COMPLAINT_LIMIT - 1 == total:
        return state, (Play("danger"),)
    return state, (Play("complaint"),) if count > 0 else ()


def vip_complaints(state: NowBoardingState) -> Outcome:
    """The VIP cards left by the current deck, found empty, become complaints (counted: the
    box never saw them)."""
    left = vip_left(state)
    if not left:
        return state, ()
    waiting = list(state.vip_waiting)
    waiting[state.stage_index] = 0
    state = replace(state, vip_waiting=(waiting[0], waiting[1], waiting[2]))
    reason = "an unserved VIP" if left == 1 else f"{left} unserved VIPs"
    return add_complaints(state, left, "vip", reason=reason)


def start_flight(state: NowBoardingState, now: float) -> Outcome:
    """A flight starts: its countdown (when there is one) from the full duration; a teach
    game's practice flight keeps its countdown idle (no clock)."""
    countdown = state.countdown.reset() if state.countdown is not None else None
    if countdown is not None and not practice_flight(state):
        countdown = countdown.start(now)
    return replace(state, phase="flight", step="flight", page=0, countdown=countdown,
                   flight_started=now), (Play("flight-start"),)


def end_flight(state: NowBoardingState, now: float, how: str) -> Outcome:
    """A flight ends (``how``: "next" early, "time" run out): its time used is recorded, and
    maintenance begins at ``anger``, or at ``pace=brisk``'s one card (not after the final
    round, whose ``exit`` the steps ask). A practice flight's idle countdown stays idle."""
    used = elapsed(state, now)
    countdown = state.countdown
    if countdown is not None and countdown.state is not TimerState.IDLE:
        countdown = countdown.expire(now) if how == "time" else countdown.end_early(now)
    flight = Flight(state.round, state.stage, round(used, 3), how, state.final_round)
    card: Step = "turnaround" if state.pace == "brisk" and not state.final_round else "anger"
    # The short flow's anger step is one page: the cubes said on the complaints count.
    page = 1 if card == "anger" and not state.full_flow else 0
    ended = replace(state, phase="maintenance", step=card, pending=0, page=page,
                    countdown=countdown, flight_started=None, flights=(*state.flights, flight))
    return ended, (Play("alarm" if how == "time" else "end"),)


def turnaround_done(state: NowBoardingState, now: float) -> Outcome:
    """The brisk card's "done": the steps' books in the steps' order, at one press.

    Complaints filed (as ``anger``), then the draw: a deck found empty first files its
    unserved VIPs and changes the stage with all its weather out (as ``passengers`` and
    ``weather``), or after the Evening makes the next round final; then "Serve a VIP?"
    when one may ride (as ``vip``), else the next flight starts (as ``ready``). A round that
    loses keeps none of the purchases made from the card (the steps lose before their
    upgrades; Buy is refused once the card's complaints lose, but they may be set after)."""
    plan = turnaround(state)
    unbought = tuple(bought for bought in state.purchases if bought.round != state.round)
    state, plays = add_complaints(replace(state, pending=0), state.pending, "anger")
    if state.step == "over":
        return replace(state, purchases=unbought), plays
    if plan.unserved_vips:
        state, more = vip_complaints(state)
        plays += more
        if state.step == "over":
            return replace(state, purchases=unbought), plays
    if plan.final_next:
        state = replace(state, final_round=True)
        plays += (Play("final-round"),)
    else:
        if plan.new_stage is not None:
            index = state.stage_index + 1
            weather = list(state.weather)
            weather[index] = 0
            state = replace(state, stage_index=index,
                            weather=(weather[0], weather[1], weather[2]))
            plays += (Play("stage-change"),)
        decks = list(state.decks)
        decks[state.stage_index] -= plan.draw
        state = replace(state, decks=(decks[0], decks[1], decks[2]))
        if plan.vip_offer:
            return replace(state, step="vip", serve_vip=False, page=0), plays
    started, flight_plays = start_flight(replace(state, round=state.round + 1), now)
    return started, plays + flight_plays
