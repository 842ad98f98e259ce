"""Buying routes, fleets and hubs, and deactivating, in the Flight Plan box game.

Part of the box game (:mod:`.game`). The bank (:mod:`.banker`) checks and does each purchase;
this module asks for what the guide lacks. Rules enforced here:

- Where the guide lacks a route's price or revenue, or a fleet's price, the box asks for the
  amount, but only after the bank's other checks (owner, region limit, one fleet of each type,
  ...) passed, so the banker never types an amount for a purchase the bank would refuse.
- A route asks for its price first, then its revenue, when the guide lacks both.
- A hub costs the guide's hub price; deactivating pays back half the price (rounded up to $5M).
- Every transaction ends at the turn menu with a note of what it did.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.flight_plan.banker import (
    buy_fleet,
    buy_hub,
    buy_route,
    deactivate,
    deactivation_value,
)
from companion.games.flight_plan.data import Route
from companion.games.flight_plan.ledger import Holding
from companion.games.flight_plan.state import (
    Entry,
    FlightPlanState,
    Purpose,
    money,
    transaction_done,
)


def ask_or_buy_route(state: FlightPlanState, number: int) -> FlightPlanState:
    """Buy a route, first asking for what the guide lacks (after the bank's other checks)."""
    route = state.guide.route(number)
    assert route is not None
    if route.price is None or route.revenue is None:
        # Owner, region limit and so on are refused before the banker types an amount.
        buy_route(state.bank, state.player, number, price=0, revenue=0)
        purpose: Purpose = "route-price" if route.price is None else "route-revenue"
        return replace(state, step="amount", entry=Entry(purpose, route=number))
    return buy_route_at(state, route, None, None)


def buy_route_at(state: FlightPlanState, route: Route, price: int | None,
                 revenue: int | None) -> FlightPlanState:
    """Buy a route; ``price`` / ``revenue`` given override the guide's (None: the guide's)."""
    bank = buy_route(state.bank, state.player, route.number, price=price, revenue=revenue)
    paid = price if price is not None else route.price
    return transaction_done(replace(state, bank=bank), f"Route {route.number}: -{money(paid or 0)}")


def buy_fleet_at(state: FlightPlanState, fleet: str, price: int | None) -> FlightPlanState:
    """Buy a fleet; ``price`` given overrides the guide's (None: the guide's)."""
    bank = buy_fleet(state.bank, state.player, fleet, price=price)
    paid = price if price is not None else state.guide.fleets.price(fleet)
    return transaction_done(replace(state, bank=bank),
                            f"{fleet.capitalize()} fleet: -{money(paid or 0)}")


def ask_or_buy_fleet(state: FlightPlanState, fleet: str) -> FlightPlanState:
    """Buy a fleet, first asking for its price when the guide lacks it (after the other checks)."""
    price = state.guide.fleets.price(fleet)
    if price is None:
        buy_fleet(state.bank, state.player, fleet, price=0)  # refusals before the question
        return replace(state, step="amount", entry=Entry("fleet-price", fleet=fleet))
    return buy_fleet_at(state, fleet, None)


def buy_hub_in(state: FlightPlanState, city: str) -> FlightPlanState:
    """Buy a hub in ``city`` at the guide's hub price."""
    bank = buy_hub(state.bank, state.player, city)
    price = state.guide.bank.hub_price
    return transaction_done(replace(state, bank=bank), f"Hub {city}: -{money(price)}")


def deactivate_holding(state: FlightPlanState, holding: Holding) -> FlightPlanState:
    """Deactivate one of the player's assets; the bank pays back half its price."""
    bank = deactivate(state.bank, state.player, holding.asset)
    refund = deactivation_value(holding.price)
    return transaction_done(replace(state, bank=bank),
                            f"{holding.asset.label} off: +{money(refund)}")
