"""Turns in the Flight Plan box game: ending one, starting the next, and the win check.

Part of the box game (:mod:`.game`). Rules enforced here:

- A player's first move (round 1) has no revenue, and its turn cannot end before one of the
  player's starting routes is bought (when the guide has any of them).
- The turn passes to the next player still in the game; a bankrupt player is skipped. The
  round grows when the turn order wraps round.
- From the second round on, every turn starts with :func:`~.banker.start_turn`: countdowns,
  revenue and hub use fees. A hub use fee the guide lacks is asked once and kept; a payer short
  of cash for the fees opens the debt step.
- The win check runs after every accepted input: a player with nothing deactivated who meets
  any of the three conditions wins and the game is over. When several meet one at once, the
  player whose turn it is wins, else the first in turn order (all are listed). A player left
  alone after every other went bankrupt wins too (``last-airline``).
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.game import Play, RuleError
from companion.games.flight_plan.banker import check_player, start_turn
from companion.games.flight_plan.choices import route_choices
from companion.games.flight_plan.ledger import CannotPay, MissingAmount
from companion.games.flight_plan.score import CONDITIONS, WinCheck
from companion.games.flight_plan.state import LAST_AIRLINE, Debt, Entry, FlightPlanState


def next_turn(state: FlightPlanState) -> FlightPlanState:
    """End the turn: the next player still in the game starts theirs."""
    player = state.player
    account = state.bank.account(player)
    if state.first_move and not account.bankrupt and not account.assets("route") \
            and route_choices(state):
        raise RuleError("not-allowed", f"{player} must buy a starting route first")
    count = len(state.names)
    seat = next((s % count for s in range(state.seat + 1, state.seat + count + 1)
                 if not state.bank.account(state.names[s % count]).bankrupt), state.seat)
    round_ = state.round + (1 if seat <= state.seat else 0)
    moved = replace(state, seat=seat, round=round_, turn=state.turn + 1, item=0, cursor=0,
                    entry=None, debt=None, income=None, note="")
    if moved.first_move:
        return replace(moved, step="menu")
    return begin_turn(moved)


def begin_turn(state: FlightPlanState) -> FlightPlanState:
    """The turn start: countdowns, revenue and hub use fees (asking what the guide lacks)."""
    try:
        bank, income = start_turn(state.bank, state.player, hub_use_fee=state.hub_fee)
    except MissingAmount:
        return replace(state, step="amount", entry=Entry("hub-fee", amount=0))
    except CannotPay as error:
        debt = Debt(error.payer, error.amount, state.player, "hub-fees")
        return replace(state, step="debt", debt=debt, cursor=0)
    return replace(state, bank=bank, income=income, step="revenue", entry=None, debt=None)


def win_checks(state: FlightPlanState) -> dict[str, WinCheck]:
    """The win check of every player still in the game."""
    return {name: check_player(state.bank, name) for name in state.names
            if not state.bank.account(name).bankrupt}


def check_for_winner(state: FlightPlanState) -> tuple[FlightPlanState, tuple[Play, ...]]:
    """The win check after every accepted input."""
    if state.step == "deal":
        return state, ()
    alive = [name for name in state.names if not state.bank.account(name).bankrupt]
    won = {name: tuple(c for c in CONDITIONS if check.conditions[c])
           for name, check in win_checks(state).items()}
    winners = {name: met for name, met in won.items() if met}
    if not winners and len(alive) == 1 and len(state.names) > 1:
        winners = {alive[0]: (LAST_AIRLINE,)}
    if not winners:
        return state, (Play("click"),)
    winner = state.player if state.player in winners else next(iter(winners))
    over = replace(state, step="over", winner=winner, winners=tuple(winners.items()),
                   entry=None, debt=None)
    return over, (Play("win"),)
