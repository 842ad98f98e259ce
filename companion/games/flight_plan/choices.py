"""What each picker of the Flight Plan box game offers (the view shows the same lists).

Part of the box game (:mod:`.game`). In the first move only the player's own starting routes
(those the guide knows) can be bought; later every route of the guide is offered, owned ones
included (the bank refuses them, and the view says who owns them). Hubs are offered only in hub
cities at the ends of the player's routes; a debt offers only what the payer may still
deactivate. Lists wrap round: the cursor is taken modulo the list's length.
"""

from __future__ import annotations

from companion.games.flight_plan.banker import can_deactivate
from companion.games.flight_plan.data import FLEETS
from companion.games.flight_plan.ledger import Asset, Holding
from companion.games.flight_plan.state import MENU_KEYS, FlightPlanState


def route_choices(state: FlightPlanState) -> tuple[int, ...]:
    """Route numbers to choose from: the own starting routes in the first move, else the guide."""
    if state.first_move:
        return tuple(n for n in state.dealt[state.seat] if state.guide.route(n) is not None)
    return tuple(route.number for route in state.guide.routes)


def hub_choices(state: FlightPlanState) -> tuple[str, ...]:
    """Hub cities at the ends of the player's routes, in route order."""
    account = state.bank.account(state.player)
    cities: list[str] = []
    for asset in account.assets("route"):
        route = state.guide.route(int(asset.key))
        if route is None:
            continue
        for city in route.cities:
            if city in state.guide.hub_cities and city not in cities:
                cities.append(city)
    return tuple(cities)


def asset_choices(state: FlightPlanState) -> tuple[Holding, ...]:
    """Everything the player owns (Deactivate shows the countdowns of what is already off)."""
    return state.bank.account(state.player).holdings


def payee_choices(state: FlightPlanState) -> tuple[str, ...]:
    return tuple(name for name in state.names
                 if name != state.player and not state.bank.account(name).bankrupt)


def debt_choices(state: FlightPlanState) -> tuple[Asset, ...]:
    """What the payer of the open debt can still deactivate."""
    assert state.debt is not None
    return tuple(can_deactivate(state.bank, state.debt.payer))


def choice_count(state: FlightPlanState) -> int:
    match state.step:
        case "route":
            return len(route_choices(state))
        case "fleet":
            return len(FLEETS)
        case "hub":
            return len(hub_choices(state))
        case "deactivate":
            return len(asset_choices(state))
        case "payee":
            return len(payee_choices(state))
        case "debt":
            return len(debt_choices(state))
    return 0


def current_choice(state: FlightPlanState) -> str | int | None:
    """The highlighted item of the step, for the state JSON (a menu key, route number, ...)."""
    if choice_count(state) == 0:
        return MENU_KEYS[state.item] if state.step == "menu" else None
    index = state.cursor % choice_count(state)
    match state.step:
        case "route":
            return route_choices(state)[index]
        case "fleet":
            return FLEETS[index]
        case "hub":
            return hub_choices(state)[index]
        case "deactivate":
            return asset_choices(state)[index].asset.label
        case "payee":
            return payee_choices(state)[index]
        case "debt":
            return debt_choices(state)[index].label
    return None
