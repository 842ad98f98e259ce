"""Amounts, payments, debts and bankruptcy in the Flight Plan box game.

Part of the box game (:mod:`.game`). Rules enforced here:

- Amounts go UP / DOWN by $5M (the smallest banknote), by $50M when held, from $0 to $9995M;
  a press past either end is refused. NEXT does what the amount was asked for (a price or a
  revenue the guide lacks, a hub use fee, a payment to the bank or a player, money received).
- A payment, a receipt or a payment to a player needs an amount above $0.
- A payment the payer's cash does not cover (a penalty, a payment to a player, hub use fees
  owed at another player's turn start) opens the debt step: NEXT deactivates the chosen asset,
  and the payment is made as soon as the cash covers it. With nothing left to deactivate, NEXT
  declares bankruptcy: the player is out, and the turn passes on (or, for hub use fees, the
  turn start goes on without them).
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.buttons import Button
from companion.core.game import RuleError
from companion.games.flight_plan.banker import (
    deactivate,
    declare_bankruptcy,
    pay,
    pay_player,
    receive,
)
from companion.games.flight_plan.choices import debt_choices
from companion.games.flight_plan.purchases import buy_fleet_at, buy_route_at
from companion.games.flight_plan.state import (
    BIG_STEP,
    MAX_AMOUNT,
    NOTE_STEP,
    Debt,
    Entry,
    FlightPlanState,
    back_to_menu,
    money,
    transaction_done,
)
from companion.games.flight_plan.turns import begin_turn, next_turn


def amount_input(state: FlightPlanState, button: Button, held: bool) -> FlightPlanState:
    """A button on an amount: UP / DOWN change it, NEXT enters it, hold NEXT goes back."""
    entry = state.entry
    assert entry is not None
    if button in (Button.UP, Button.DOWN):
        size = BIG_STEP if held else NOTE_STEP
        change = size if button is Button.UP else -size
        amount = max(0, min(MAX_AMOUNT, entry.amount + change))
        if amount == entry.amount:
            edge = "0" if change < 0 else money(MAX_AMOUNT)
            raise RuleError("not-allowed", f"the amount is already {edge}")
        return replace(state, entry=replace(entry, amount=amount))
    if held:
        return back_to_menu(state)
    return enter_amount(state, entry)


def enter_amount(state: FlightPlanState, entry: Entry) -> FlightPlanState:
    """NEXT on an amount: do what it was asked for."""
    player = state.player
    amount = entry.amount
    match entry.purpose:
        case "route-price" | "route-revenue":
            assert entry.route is not None
            route = state.guide.route(entry.route)
            assert route is not None
            if entry.purpose == "route-price" and route.revenue is None:
                return replace(state, entry=Entry("route-revenue", route=route.number,
                                                  price=amount))
            if entry.purpose == "route-price":
                return buy_route_at(state, route, amount, None)
            return buy_route_at(state, route, entry.price, amount)
        case "fleet-price":
            assert entry.fleet is not None
            return buy_fleet_at(state, entry.fleet, amount)
        case "receive":
            _positive(amount)
            bank = receive(state.bank, player, amount)
            return transaction_done(replace(state, bank=bank), f"{player} received {money(amount)}")
        case "pay":
            _positive(amount)
            return pay_or_owe(state, Debt(player, amount, None, "penalty"))
        case "pay-player":
            _positive(amount)
            return pay_or_owe(state, Debt(player, amount, entry.payee, "payment"))
        case "hub-fee":
            return begin_turn(replace(state, hub_fee=amount, entry=None))
    raise RuleError("not-allowed", f"unknown amount {entry.purpose!r}")


def _positive(amount: int) -> None:
    if amount <= 0:
        raise RuleError("bad-argument", "enter an amount with UP first")


def pay_or_owe(state: FlightPlanState, debt: Debt) -> FlightPlanState:
    """Make a payment, or open the debt screen when the payer's cash does not cover it."""
    if state.bank.account(debt.payer).cash < debt.amount:
        return replace(state, step="debt", entry=None, debt=debt, cursor=0)
    return settle(state, debt)


def settle(state: FlightPlanState, debt: Debt) -> FlightPlanState:
    """Make a payment the payer's cash covers, then go on where it was asked for."""
    to = "the bank" if debt.payee is None else debt.payee
    note = f"{debt.payer} paid {to} {money(debt.amount)}"
    match debt.reason:
        case "hub-fees":
            return begin_turn(replace(state, debt=None, note=note))
        case "penalty":
            bank = pay(state.bank, debt.payer, debt.amount)
            return transaction_done(replace(state, bank=bank), note)
        case "payment":
            assert debt.payee is not None
            bank = pay_player(state.bank, debt.payer, debt.payee, debt.amount)
            return transaction_done(replace(state, bank=bank), note)
    raise RuleError("not-allowed", f"unknown debt {debt.reason!r}")


def raise_cash(state: FlightPlanState, index: int) -> FlightPlanState:
    """NEXT on the debt step: deactivate the chosen asset, or go bankrupt when none is left."""
    debt = state.debt
    assert debt is not None
    choices = debt_choices(state)
    if not choices:
        bank = declare_bankruptcy(state.bank, debt.payer, debt.amount)
        gone = replace(state, bank=bank, debt=None, note=f"{debt.payer} is bankrupt")
        if debt.reason == "hub-fees":
            return begin_turn(gone)
        return next_turn(gone)
    bank = deactivate(state.bank, debt.payer, choices[index])
    raised = replace(state, bank=bank, cursor=0)
    if bank.account(debt.payer).cash >= debt.amount:
        return settle(raised, debt)
    return raised
