"""The Flight Plan bank's steps in whole sentences: the screen model's full-text fields.

The panel shows one cut line per fact (companion/ui/views/flight_plan.py); a phone at the
table has room for the whole sentence. One function a step (:func:`deal`, :func:`revenue`,
:func:`menu`, :func:`route`, :func:`fleet`, :func:`hub`, :func:`deactivate`, :func:`amount`,
:func:`payee`, :func:`debt`, :func:`win`, :func:`over`) gives the fields the table page shows
(companion/ui/screen.py): the step's name (``heading``), what the banker does now (``say``),
what comes after it (``then``), the turn menu, the payees or the assets that can raise a debt
as a list with the selected row (``choices``, ``chosen``), what every button does now
(``keys``) and the last transaction confirmed in words (``done``: "P1 bought route 3 for
$40M: $710M left."). The view (flight_plan.py) chooses the step once and pairs its panel with
these words, and reads here the facts both say (:func:`cash_of`, :func:`owner_of`,
:func:`cursor_of`); the panel's pixels do not change: these fields are never drawn.

Rules it keeps: a label names what the gesture does at this state and nothing it does not do
(no "Buy" on a route, fleet or hub someone owns, no "Deactivate" on an asset already off or
bought this turn, no "Pay" of $0M, no "Back to the menu" where the flow must finish first: the
setup pages, a debt, the hub use fee a turn start needs; no NEXT once the game is over).
"""

from __future__ import annotations

import re

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
from companion.ui.screen import Words, sentence

Keys = tuple[tuple[str, str], ...]
UNDO: Keys = (("hold_back", "Undo"),)
BACK: Keys = (("hold_next", "Back to the menu"),)
CONDITIONS = {"six-regions": "6 regions", "three-hubs": "3 hubs", "short-haul": "short haul",
              "last-airline": "being the last airline flying"}


def cash_of(state: FlightPlanState, name: str | None = None) -> int:
    """The cash of ``name`` (the player whose turn it is when None), in $M."""
    return state.bank.account(name or state.player).cash


def owner_of(state: FlightPlanState, asset: Asset) -> str | None:
    """Who holds ``asset``, as the view and the words say it: "yours" (the player whose turn
    it is), "owned by P2", or None when nobody does."""
    holder = state.bank.owner(asset)
    if holder is None:
        return None
    return "yours" if holder.name == state.player else f"owned by {holder.name}"


def _turn(state: FlightPlanState) -> str:
    return f"{state.player}'s turn, round {state.round}"


def cursor_of(state: FlightPlanState) -> tuple[int, int]:
    """The picker's cursor as (row, number of rows): the view's and the words' one count."""
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
            return f"{said}: {money(cash_of(state))} left."
    return f"{note}."


# -- setup and the turn ----------------------------------------------------------------------


def deal(state: FlightPlanState) -> Words:
    """The ``deal`` step: the bank's setup, then each player's route cards."""
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


def revenue(state: FlightPlanState) -> Words:
    """The ``revenue`` step: what the bank pays at a turn's start."""
    income = state.income
    assert income is not None
    fees = sum(amount for _payer, amount in income.hub_fees)
    say = (f"The bank pays {state.player} {money(income.total)}: routes "
           f"{money(income.routes)}, cargo {money(income.cargo)}, hub use fees {money(fees)}.")
    if income.reactivated:
        say += " Back in use: " + ", ".join(asset.label for asset in income.reactivated) + "."
    say += f" {state.player} has {money(cash_of(state))}."
    return {"heading": f"{_turn(state)}: revenue", "say": say, "then": "Next: the turn menu",
            "keys": (("next", "Open the turn menu"), *UNDO), "done": done(state)}


def menu(state: FlightPlanState) -> Words:
    """The ``menu`` step: the turn menu."""
    player = state.player
    say = f"{player} has {money(cash_of(state))}."
    label = MENU[state.item][1]
    following = {"End turn": "Next: the next player's turn"}.get(label, f"Next: {label}")
    if state.first_move:  # the turn's rule, in the short line: ten menu rows fill a phone
        following = "First move: buy 1 to 3 of your starting routes"
    return {"heading": f"{_turn(state)}: choose", "say": say, "then": following,
            "choices": tuple(text for _key, text in MENU), "chosen": state.item,
            "keys": (("next", label), *_moves("Item above", "Item below"), *UNDO),
            "done": done(state)}


def _picker(state: FlightPlanState, heading: str, say: str, buy: str | None) -> Words:
    """A picker's words: the item said, what NEXT buys (None: nothing), the player's cash."""
    keys: Keys = (("next", buy),) if buy is not None else ()
    return {"heading": heading, "say": f"{say} {state.player} has {money(cash_of(state))}.",
            "then": "Next: the turn menu",
            "keys": (*keys, *_moves("The one before", "The next one"), *BACK, *UNDO)}


def route(state: FlightPlanState) -> Words:
    """The ``route`` step: one route of the guide, its numbers, who owns it."""
    index, count = cursor_of(state)
    player = state.player
    number = route_choices(state)[index]
    found = state.guide.route(number)
    assert found is not None
    owner = owner_of(state, Asset.route(number))
    what = (f"Route {number}: {found.origin} to {found.destination}, "
            f"{found.regions[0]}-{found.regions[1]} {found.haul} haul"
            f"{', cargo' if found.cargo else ''}.")
    buy: str | None
    if owner is not None:
        say, buy = f"{what} It is {owner}.", None
    elif found.price is None or found.revenue is None:
        say, buy = f"{what} The guide lacks its numbers: the box asks.", "Enter its numbers"
    else:
        say = f"{what} Price {money(found.price)}, earns {money(found.revenue)}."
        buy = f"Buy route {number} for {money(found.price)}"
    return _picker(state, f"{player} buys a route: {index + 1} of {count}", say, buy)


def fleet(state: FlightPlanState) -> Words:
    """The ``fleet`` step: one fleet, the routes it flies, its price."""
    index, count = cursor_of(state)
    player = state.player
    name = FLEETS[index]
    price = state.guide.fleets.price(name)
    if name == "cargo":
        flies = f"earns {money(state.guide.bank.cargo_revenue)} more per cargo route"
    else:
        low, high = HAUL_RANGES[name]
        flies = f"flies routes {low} to {high}"
    owned = state.bank.account(player).owns(Asset.fleet(name))
    what = f"The {name} fleet {flies}."
    buy: str | None
    if owned:
        say, buy = f"{what} {player} has it already.", None
    elif price is None:
        say, buy = f"{what} The guide lacks its price: the box asks.", "Enter its price"
    else:
        say, buy = f"{what} Price {money(price)}.", f"Buy it for {money(price)}"
    return _picker(state, f"{player} buys a fleet: {index + 1} of {count}", say, buy)


def hub(state: FlightPlanState) -> Words:
    """The ``hub`` step: one city for a hub, who owns it."""
    index, count = cursor_of(state)
    player = state.player
    city = hub_choices(state)[index]
    owner = owner_of(state, Asset.hub(city))
    price = state.guide.bank.hub_price
    what = f"A hub in {city}, region {state.guide.city_regions[city]}."
    buy: str | None
    if owner is not None:
        say, buy = f"{what} It is {owner}.", None
    else:
        say, buy = f"{what} Price {money(price)}.", f"Buy it for {money(price)}"
    return _picker(state, f"{player} buys a hub: {index + 1} of {count}", say, buy)


def deactivate(state: FlightPlanState) -> Words:
    """The ``deactivate`` step: one of the player's assets, what it pays back."""
    index, count = cursor_of(state)
    player = state.player
    holding = asset_choices(state)[index]
    refund = money(deactivation_value(holding.price))
    account = state.bank.account(player)
    label = holding.asset.label
    what = f"{label.capitalize()}: paid {money(holding.price)}, pays back {refund}."
    buy: str | None
    if holding.asset in account.bought_this_turn:
        say, buy = f"{what} Bought this turn: it cannot go off now.", None
    elif holding.turns_left is not None:
        say, buy = f"{what} It is off already.", None
    else:
        say = (f"{what} Off for 3 turns (a meeple on it for each), back in use at the "
               "start of the 4th.")
        buy = f"Deactivate it: +{refund}"
    return _picker(state, f"{player} deactivates: {index + 1} of {count}", say, buy)


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


def amount(state: FlightPlanState) -> Words:
    """The ``amount`` step: a sum of money to enter, $5M at a time."""
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
                   f"{state.player} has {money(cash_of(state))}.",
            "then": "Next: the turn menu", "keys": (*keys, *UNDO)}


def payee(state: FlightPlanState) -> Words:
    """The ``payee`` step: whom the player pays."""
    index, _count = cursor_of(state)
    names = payee_choices(state)
    return {"heading": f"{state.player} pays whom?",
            "say": f"Pick the player {state.player} pays.", "then": "Next: the amount",
            "choices": tuple(f"{name}: {money(cash_of(state, name))}" for name in names),
            "chosen": index,
            "keys": (("next", f"Pay {names[index]}"), *_moves("Player above", "Player below"),
                     *BACK, *UNDO)}


def debt(state: FlightPlanState) -> Words:
    """The ``debt`` step: a debt the payer's cash does not cover."""
    debt = state.debt
    assert debt is not None
    payer, cash = debt.payer, money(cash_of(state, debt.payer))
    heading = f"{payer} owes {money(debt.amount)}"
    choices = debt_choices(state)
    if not choices:
        return {"heading": heading,
                "say": f"{payer} has {cash}, not enough, and nothing left to deactivate: "
                       f"{payer} goes bankrupt and is out of the game.",
                "then": "Next: the next player's turn",
                "keys": (("next", "Declare bankruptcy"), *UNDO)}
    index, _count = cursor_of(state)
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


def win(state: FlightPlanState) -> Words:
    """The ``win`` step: each player's win conditions."""
    name = state.names[state.page]
    account = state.bank.account(name)
    if account.bankrupt:
        say = f"{name} is bankrupt: out of the game."
    else:
        check = check_win(state.guide, (int(a.key) for a in account.assets("route")),
                          (str(a.key) for a in account.assets("hub")))
        parts = [f"{CONDITIONS[key].capitalize()}: met." if met
                 else sentence(check.missing.get(key, CONDITIONS[key]))
                 for key, met in check.conditions.items()]
        off = [h.asset.label for h in account.holdings if h.turns_left is not None]
        say = " ".join(parts)
        if off:
            say += " Blocked while off: " + ", ".join(off) + "."
    return {"heading": f"Win check: {name}, {state.page + 1} of {len(state.names)}",
            "say": say, "then": "Next: the turn menu",
            "keys": (("next", "Back to the menu"), *_moves("Player before", "Next player"),
                     *BACK, *UNDO)}


def over(state: FlightPlanState) -> Words:
    """The game's end: who won, and how."""
    met = dict(state.winners).get(state.winner or "", ())
    others = [name for name, _ in state.winners if name != state.winner]
    say = (f"{state.winner} wins by {', '.join(CONDITIONS.get(c, c) for c in met)} in round "
           f"{state.round}.")
    if others:
        say += f" {', '.join(others)} met a condition too."
    return {"heading": f"Game over: {state.winner} wins", "say": say,
            "then": "Next: a new game from the menu",
            "keys": (("back", "Menu"), *UNDO), "done": done(state)}
