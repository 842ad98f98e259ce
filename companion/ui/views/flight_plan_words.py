"""The Flight Plan bank's steps in whole sentences: the screen model's full-text fields.

The panel shows one cut line per fact (companion/ui/views/flight_plan.py); a phone at the
table has room for the whole sentence. :func:`words` gives, for any state, the fields the
table page shows (companion/ui/screen.py): the step's name (``heading``), what the banker does
now (``say``), what comes after it (``then``), the turn menu, the payees or the assets that can
raise a debt as a list with the selected row (``choices``, ``chosen``), what every button does
now (``keys``) and the last transaction confirmed in words (``done``: "P1 bought route 3 for
$40M: $710M left."). The panel's pixels do not change: these fields are never drawn.

Rules it keeps: a label names what the gesture does at this state and nothing it does not do
(no "Buy" on a route, fleet or hub someone owns, no "Deactivate" on an asset already off or
bought this turn, no "Pay" of $0M, no "Back to the menu" where the flow must finish first: the
setup pages, a debt, the hub use fee a turn start needs; no NEXT once the game is over).
"""

from __future__ import annotations

import re
from typing import Any

from companion.games.flight_plan.banker import deactivation_value
from companion.games.flight_plan.choices import (
    asset_choices,
    choice_count,
    debt_choices,
    hub_choices,
    payee_choices,
    route_choices,
)
from companion.games.flight_plan.data import FLEETS, HAUL_RANGES
from companion.games.flight_plan.ledger import Asset
from companion.games.flight_plan.score import check_win
from companion.games.flight_plan.state import MAX_AMOUNT, MENU, FlightPlanState, money

Keys = tuple[tuple[str, str], ...]
UNDO: Keys = (("hold_back", "Undo"),)
BACK: Keys = (("hold_next", "Back to the menu"),)
CONDITIONS = {"six-regions": "6 regions", "three-hubs": "3 hubs", "short-haul": "short haul",
              "last-airline": "being the last airline flying"}


def words(state: FlightPlanState) -> dict[str, Any]:
    """The full-text fields of the screen for ``state`` (keyword arguments of
    :class:`~companion.ui.screen.Screen`)."""
    match state.step:
        case "deal":
            return _deal(state)
        case "revenue":
            return _revenue(state)
        case "menu":
            return _menu(state)
        case "route" | "fleet" | "hub" | "deactivate":
            return _picker(state)
        case "amount":
            return _amount(state)
        case "payee":
            return _payee(state)
        case "debt":
            return _debt(state)
        case "win":
            return _win(state)
    return _over(state)


def _cash(state: FlightPlanState, name: str | None = None) -> int:
    return state.bank.account(name or state.player).cash


def _turn(state: FlightPlanState) -> str:
    return f"{state.player}'s turn, round {state.round}"


def _index(state: FlightPlanState) -> tuple[int, int]:
    count = max(1, choice_count(state))
    return state.cursor % count, count


def _moves(up: str, down: str) -> Keys:
    return (("up", up), ("down", down))


NOTES = (
    (re.compile(r"Route (\d+): -\$(\d+)M"), "{player} bought route {0} for ${1}M"),
    (re.compile(r"(\w+) fleet: -\$(\d+)M"), "{player} bought the {0} fleet for ${1}M"),
    (re.compile(r"Hub (.+): -\$(\d+)M"), "{player} bought a hub in {0} for ${1}M"),
    (re.compile(r"(.+) off: \+\$(\d+)M"), "{player} deactivated {0}: the bank paid ${1}M"),
)


def done(state: FlightPlanState) -> str:
    """The last transaction in words, with the cash it left ("" when there is none)."""
    note = state.note
    if not note:
        return ""
    for pattern, text in NOTES:
        found = pattern.fullmatch(note)
        if found:
            said = text.format(*found.groups(), player=state.player).replace("fleet fleet",
                                                                              "fleet")
            return f"{said}: {money(_cash(state))} left."
    return f"{note}."


# -- setup and the turn ----------------------------------------------------------------------


def _deal(state: FlightPlanState) -> dict[str, Any]:
    players = len(state.names)
    pages = players + 1
    last = state.page + 1 == pages
    keys: Keys = (("next", "Start P1's first move" if last else "Next page"),)
    if state.page > 0:
        keys += (("up", "Page before"),)
    keys += UNDO
    then = "Next: P1's first move" if last else "Next: the next page"
    if state.page == 0:
        how = ("the Quick Play set" if state.start == "quick"
               else "the 2d10 draw, the box rolled it")
        return {"heading": f"Setup 1 of {pages}: the bank",
                "say": f"Give each player {money(state.bank.accounts[0].cash)}. Each gets 3 "
                       f"route cards, from {how}. P1 goes first, then P2 to P{players}.",
                "then": then, "keys": keys}
    seat = state.page - 1
    name = state.names[seat]
    cards = []
    for number in state.dealt[seat]:
        route = state.guide.route(number)
        cards.append(f"{number} (not in the route guide)" if route is None
                     else f"{number} ({route.origin} to {route.destination})")
    return {"heading": f"Setup {state.page + 1} of {pages}: {name}'s routes",
            "say": f"Give {name} the route cards {', '.join(cards)}.",
            "then": "Next: P1's first move: buy 1 to 3 of their routes" if last else then,
            "keys": keys}


def _revenue(state: FlightPlanState) -> dict[str, Any]:
    income = state.income
    assert income is not None
    fees = sum(amount for _payer, amount in income.hub_fees)
    say = (f"The bank pays {state.player} {money(income.total)}: routes "
           f"{money(income.routes)}, cargo {money(income.cargo)}, hub use fees {money(fees)}.")
    if income.reactivated:
        say += " Back in use: " + ", ".join(asset.label for asset in income.reactivated) + "."
    say += f" {state.player} has {money(_cash(state))}."
    return {"heading": f"{_turn(state)}: revenue", "say": say, "then": "Next: the turn menu",
            "keys": (("next", "Open the turn menu"), *UNDO), "done": done(state)}


def _menu(state: FlightPlanState) -> dict[str, Any]:
    player = state.player
    say = f"{player} has {money(_cash(state))}."
    label = MENU[state.item][1]
    following = {"End turn": "Next: the next player's turn"}.get(label, f"Next: {label}")
    if state.first_move:  # the turn's rule, in the short line: ten menu rows fill a phone
        following = "First move: buy 1 to 3 of your starting routes"
    return {"heading": f"{_turn(state)}: choose", "say": say, "then": following,
            "choices": tuple(text for _key, text in MENU), "chosen": state.item,
            "keys": (("next", label), *_moves("Item above", "Item below"), *UNDO),
            "done": done(state)}


def _picker(state: FlightPlanState) -> dict[str, Any]:
    index, count = _index(state)
    player = state.player
    cash = money(_cash(state))
    buy: str | None
    match state.step:
        case "route":
            number = route_choices(state)[index]
            route = state.guide.route(number)
            assert route is not None
            holder = state.bank.owner(Asset.route(number))
            what = (f"Route {number}: {route.origin} to {route.destination}, "
                    f"{route.regions[0]}-{route.regions[1]} {route.haul} haul"
                    f"{', cargo' if route.cargo else ''}.")
            if holder is not None:
                owner = "yours" if holder.name == player else f"owned by {holder.name}"
                say, buy = f"{what} It is {owner}.", None
            elif route.price is None or route.revenue is None:
                say, buy = f"{what} The guide lacks its numbers: the box asks.", "Enter its numbers"
            else:
                say = f"{what} Price {money(route.price)}, earns {money(route.revenue)}."
                buy = f"Buy route {number} for {money(route.price)}"
            heading = f"{player} buys a route: {index + 1} of {count}"
        case "fleet":
            fleet = FLEETS[index]
            price = state.guide.fleets.price(fleet)
            if fleet == "cargo":
                flies = f"earns {money(state.guide.bank.cargo_revenue)} more per cargo route"
            else:
                low, high = HAUL_RANGES[fleet]
                flies = f"flies routes {low} to {high}"
            owned = state.bank.account(player).owns(Asset.fleet(fleet))
            what = f"The {fleet} fleet {flies}."
            if owned:
                say, buy = f"{what} {player} has it already.", None
            elif price is None:
                say, buy = f"{what} The guide lacks its price: the box asks.", "Enter its price"
            else:
                say, buy = f"{what} Price {money(price)}.", f"Buy it for {money(price)}"
            heading = f"{player} buys a fleet: {index + 1} of {count}"
        case "hub":
            city = hub_choices(state)[index]
            holder = state.bank.owner(Asset.hub(city))
            price = state.guide.bank.hub_price
            what = f"A hub in {city}, region {state.guide.city_regions[city]}."
            if holder is not None:
                owner = "yours" if holder.name == player else f"owned by {holder.name}"
                say, buy = f"{what} It is {owner}.", None
            else:
                say, buy = f"{what} Price {money(price)}.", f"Buy it for {money(price)}"
            heading = f"{player} buys a hub: {index + 1} of {count}"
        case _:
            holding = asset_choices(state)[index]
            refund = money(deactivation_value(holding.price))
            account = state.bank.account(player)
            label = holding.asset.label
            what = f"{label.capitalize()}: paid {money(holding.price)}, pays back {refund}."
            if holding.asset in account.bought_this_turn:
                say, buy = f"{what} Bought this turn: it cannot go off now.", None
            elif holding.turns_left is not None:
                say, buy = f"{what} It is off already.", None
            else:
                say = (f"{what} Off for 3 turns (a meeple on it for each), back in use at the "
                       "start of the 4th.")
                buy = f"Deactivate it: +{refund}"
            heading = f"{player} deactivates: {index + 1} of {count}"
    keys: Keys = (("next", buy),) if buy is not None else ()
    return {"heading": heading, "say": f"{say} {player} has {cash}.",
            "then": "Next: the turn menu",
            "keys": (*keys, *_moves("The one before", "The next one"), *BACK, *UNDO)}


AMOUNTS = {
    "route-price": ("The price of route {route}", "The guide lacks route {route}'s price: "
                    "enter the price on its card.", "Enter {amount}"),
    "route-revenue": ("Route {route}'s revenue", "The guide lacks route {route}'s revenue: "
                      "enter the revenue on its card.", "Enter {amount}"),
    "fleet-price": ("The price of the {fleet} fleet", "The guide lacks the {fleet} fleet's "
                    "price: enter it.", "Enter {amount}"),
    "pay": ("{player} pays the bank", "How much does {player} pay the bank?", "Pay {amount}"),
    "receive": ("{player} receives from the bank", "How much does the bank pay {player}?",
                "Receive {amount}"),
    "pay-player": ("{player} pays {payee}", "How much does {player} pay {payee}?",
                   "Pay {amount}"),
    "hub-fee": ("The hub use fee", "The guide lacks the hub use fee per route: enter it "
                "once; the box keeps it.", "Enter {amount}"),
}


def _amount(state: FlightPlanState) -> dict[str, Any]:
    entry = state.entry
    assert entry is not None
    heading, say, label = (text.format(route=entry.route, fleet=entry.fleet,
                                       player=state.player, payee=entry.payee,
                                       amount=money(entry.amount))
                           for text in AMOUNTS[entry.purpose])
    keys: Keys = ()
    if entry.amount > 0 or entry.purpose not in ("pay", "receive", "pay-player"):
        keys += (("next", label),)
    if entry.amount < MAX_AMOUNT:
        keys += (("up", "$5M more"),)
    if entry.amount > 0:
        keys += (("down", "$5M less"),)
    if entry.purpose != "hub-fee":
        keys += BACK
    return {"heading": heading,
            "say": f"{say} Now {money(entry.amount)}; UP and DOWN change it by $5M. "
                   f"{state.player} has {money(_cash(state))}.",
            "then": "Next: the turn menu", "keys": (*keys, *UNDO)}


def _payee(state: FlightPlanState) -> dict[str, Any]:
    index, _count = _index(state)
    names = payee_choices(state)
    return {"heading": f"{state.player} pays whom?",
            "say": f"Pick the player {state.player} pays.", "then": "Next: the amount",
            "choices": tuple(f"{name}: {money(_cash(state, name))}" for name in names),
            "chosen": index,
            "keys": (("next", f"Pay {names[index]}"), *_moves("Player above", "Player below"),
                     *BACK, *UNDO)}


def _debt(state: FlightPlanState) -> dict[str, Any]:
    debt = state.debt
    assert debt is not None
    payer, cash = debt.payer, money(_cash(state, debt.payer))
    heading = f"{payer} owes {money(debt.amount)}"
    choices = debt_choices(state)
    if not choices:
        return {"heading": heading,
                "say": f"{payer} has {cash}, not enough, and nothing left to deactivate: "
                       f"{payer} goes bankrupt and is out of the game.",
                "then": "Next: the next player's turn",
                "keys": (("next", "Declare bankruptcy"), *UNDO)}
    index, _count = _index(state)
    account = state.bank.account(payer)
    rows = []
    for asset in choices:
        holding = account.holding(asset)
        refund = deactivation_value(holding.price) if holding is not None else 0
        rows.append(f"{asset.label}: +{money(refund)}")
    return {"heading": heading,
            "say": f"{payer} has {cash}, not enough. Deactivate assets to raise the rest: "
                   "each pays back half its price.",
            "then": "Next: the payment, once the cash covers it",
            "choices": tuple(rows), "chosen": index,
            "keys": (("next", f"Deactivate {choices[index].label}"),
                     *_moves("Asset above", "Asset below"), *UNDO)}


def _win(state: FlightPlanState) -> dict[str, Any]:
    name = state.names[state.page]
    account = state.bank.account(name)
    if account.bankrupt:
        say = f"{name} is bankrupt: out of the game."
    else:
        check = check_win(state.guide, (int(a.key) for a in account.assets("route")),
                          (str(a.key) for a in account.assets("hub")))
        parts = [f"{CONDITIONS[key].capitalize()}: met." if met
                 else f"{check.missing.get(key, CONDITIONS[key])}."
                 for key, met in check.conditions.items()]
        off = [h.asset.label for h in account.holdings if h.turns_left is not None]
        say = " ".join(parts)
        if off:
            say += " Blocked while off: " + ", ".join(off) + "."
    return {"heading": f"Win check: {name}, {state.page + 1} of {len(state.names)}",
            "say": say, "then": "Next: the turn menu",
            "keys": (("next", "Back to the menu"), *_moves("Player before", "Next player"),
                     *BACK, *UNDO)}


def _over(state: FlightPlanState) -> dict[str, Any]:
    met = dict(state.winners).get(state.winner or "", ())
    others = [name for name, _ in state.winners if name != state.winner]
    say = (f"{state.winner} wins by {', '.join(CONDITIONS.get(c, c) for c in met)} in round "
           f"{state.round}.")
    if others:
        say += f" {', '.join(others)} met a condition too."
    return {"heading": f"Game over: {state.winner} wins", "say": say,
            "then": "Next: a new game from the menu",
            "keys": (("back", "Menu"), *UNDO), "done": done(state)}
