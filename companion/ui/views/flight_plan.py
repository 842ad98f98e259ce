"""The Flight Plan bank's screens: one per step of the banker's flow (games/flight_plan/game.py).

The title names whose turn it is and their cash; pickers show one item per screen with its
price, revenue or refund; amounts show in big digits; the status bar says what NEXT does (or
the last transaction). Every text keeps to the Screen limits (tests check every screen of
whole games). :func:`flight_plan_screen` chooses the step once and pairs the step's panel
(here) with its whole sentences for the table page (flight_plan_words.py, never drawn).
"""

from __future__ import annotations

import re
import textwrap
from typing import assert_never

from companion.core.words import plural
from companion.games.flight_plan.banker import deactivation_value
from companion.games.flight_plan.choices import (
    asset_choices,
    debt_choices,
    hub_choices,
    payee_choices,
    route_choices,
)
from companion.games.flight_plan.data import FLEETS, HAUL_RANGES, Route
from companion.games.flight_plan.ledger import Asset, Holding
from companion.games.flight_plan.score import check_win
from companion.games.flight_plan.state import MENU, FlightPlanState, money
from companion.ui.screen import (
    LINE_WIDTH,
    SMALL_LINE_WIDTH,
    STATUS_WIDTH,
    TITLE_WIDTH,
    Screen,
    fit,
)
from companion.ui.views import flight_plan_words as words
from companion.ui.views.flight_plan_words import cash_of, cursor_of, owner_of
from companion.ui.views.menu import window

_NEEDS = re.compile(r" \([^)]*\)")
BACK_HINT = "NEXT ok  hold NEXT: back"
READABLE_LINES = 4

NEW = "new flight-plan players=3 seed=7 guide=example"
_SETUP = (NEW, *("press next",) * 4)


def _presses(*buttons: str) -> tuple[str, ...]:
    return tuple(f"press {button}" for button in buttons)


_FIRST_ROUND = (
    *_SETUP,
    *_presses("next", "down", "next", "next", "down", "down", "next"),  # P1: routes 3, 8
    *_presses("down", "next", "next", "up", "up", "next"),  # short fleet, end turn
    *_presses("next", "next", "down", "next", "next", "up", "up", "next"),  # P2: 12, short
    *_presses("next", "down", "next", "next", "down", "down", "next"),  # P3: routes 9, 4
    *_presses("down", "next", "next", "next", "down", "down", "down", "next"),  # short, cargo
    *_presses("up", "up", "next"),  # end turn: P1's revenue, round 2
)

SCENES: dict[str, tuple[str, ...]] = {
    "flight-plan-setup": (NEW,),
    "flight-plan-deal": (NEW, "press next"),
    "flight-plan-menu": _SETUP,
    "flight-plan-route": (*_SETUP, "press next"),
    "flight-plan-amount": (*_SETUP, *_presses("down", "down", "down", "down", "next", "up",
                                              "up", "up")),
    "flight-plan-refused": (*_SETUP, "press up", "press next"),
    "flight-plan-revenue": _FIRST_ROUND,
    "flight-plan-deactivate": (*_FIRST_ROUND, *_presses("next", "down", "down", "down", "next",
                                                        "down", "next", "next", "down")),
    "flight-plan-win-check": (*_FIRST_ROUND, *_presses("next", "up", "up", "up", "next", "up")),
    "flight-plan-debt": (*_FIRST_ROUND, *_presses("next", "down", "down", "down", "down",
                                                  "next"), *("hold up",) * 13, "press next"),
    "flight-plan-win": (*_FIRST_ROUND, *_presses("next", "up", "next"),  # P1
                        *_presses("next", "up", "next"),  # P2
                        *_presses("next", "next", "down", "down", "down", "down", "next"),
                        *_presses("up", "up", "next"),  # P3: route 5, revenue $10M
                        *_presses("next", *("down",) * 9, "next", *("up",) * 8, "next"),
                        *_presses("up", "up", "next")),  # route 10 for $40M: short haul
}
"""Screens for ``companion render`` and the golden tests: protocol lines, last screen kept."""


def flight_plan_screen(state: FlightPlanState, now: float) -> Screen:
    """The screen for ``state`` (``now`` is unused: the bank has no timer): the step's panel
    with its full-text fields, the step in whole sentences (flight_plan_words.py). The match
    names every step of the game's ``Step`` and has no fallback: mypy says so when one is
    missing."""
    match state.step:
        case "deal":
            return _deal(state).with_words(words.deal(state))
        case "revenue":
            return _revenue(state).with_words(words.revenue(state))
        case "menu":
            return _menu(state).with_words(words.menu(state))
        case "route":
            return _route(state).with_words(words.route(state))
        case "fleet":
            return _fleet(state).with_words(words.fleet(state))
        case "hub":
            return _hub(state).with_words(words.hub(state))
        case "deactivate":
            return _deactivate(state).with_words(words.deactivate(state))
        case "amount":
            return _amount(state).with_words(words.amount(state))
        case "payee":
            return _payee(state).with_words(words.payee(state))
        case "debt":
            return _debt(state).with_words(words.debt(state))
        case "win":
            return _win(state).with_words(words.win(state))
        case "over":
            return _over(state).with_words(words.over(state))
    assert_never(state.step)


# -- helpers -------------------------------------------------------------------------------------


def _turn_title(state: FlightPlanState) -> str:
    return fit(f"{state.player} {money(cash_of(state))} round {state.round}", TITLE_WIDTH)


def _body(lines: list[str], most: int = READABLE_LINES) -> tuple[str, ...]:
    """Body lines cut to the width of their font: up to 3 lines are big (21 characters), more
    are small (25). Four small lines keep clear of the status bar (five only without one)."""
    kept = lines[:most]
    width = LINE_WIDTH if len(kept) <= 3 else SMALL_LINE_WIDTH
    return tuple(fit(line, width) for line in kept)


def _led(title: str, lines: list[str], status: str, selected: int | None = None) -> Screen:
    """A screen whose first line is its main line (the large font, what this screen is
    about); up to three more lines go below it in the small font."""
    rest = tuple(fit(line, SMALL_LINE_WIDTH) for line in lines[1:4])
    return Screen(fit(title, TITLE_WIDTH), rest, main=fit(lines[0], LINE_WIDTH),
                  status=_status(status), selected=selected)


def _status(text: str) -> str:
    return fit(text, STATUS_WIDTH)


def _route_line(route: Route) -> str:
    return f"{route.origin}-{route.destination}"


def _countdown(holding: Holding) -> str:
    if holding.turns_left is None:
        return "in use"
    if holding.turns_left == 0:
        return "off, back next turn"
    return f"off, {plural(holding.turns_left, 'turn')} left"


# -- screens -------------------------------------------------------------------------------------


def _deal(state: FlightPlanState) -> Screen:
    players = len(state.names)
    pages = players + 1
    title = f"Setup {state.page + 1}/{pages}"
    if state.page == 0:
        how = "Quick Play set" if state.start == "quick" else "2d10 draw"
        cash = state.bank.accounts[0].cash
        return _led(f"{title} Bank", [
            f"Give {money(cash)} each",
            f"Routes: {how}",
            "3 route cards each",
            f"P1 first, then P2..P{players}",
        ], "NEXT next page")
    seat = state.page - 1
    name = state.names[seat]
    lines: list[str] = [f"Give {name} these 3"]
    for number in state.dealt[seat]:
        route = state.guide.route(number)
        lines.append(f"{number} not in guide" if route is None
                     else f"{number} {_route_line(route)}")
    last = state.page == pages - 1
    return _led(f"{title} {name} routes", lines,
                "First move: buy 1 to 3" if last else "NEXT next page")


def _revenue(state: FlightPlanState) -> Screen:
    income = state.income
    assert income is not None
    fees = sum(amount for _payer, amount in income.hub_fees)
    account = state.bank.account(state.player)
    off = [h for h in account.holdings if h.turns_left is not None]
    if income.reactivated:
        assets = "Back: " + ", ".join(a.label for a in income.reactivated)
    elif off:
        assets = "Off: " + ", ".join(f"{h.asset.label} ({h.turns_left})" for h in off)
    else:
        assets = "Nothing deactivated"
    lines = [
        f"Bank pays +{money(income.total)}",
        f"Routes {money(income.routes)} cargo {money(income.cargo)}",
        f"Hub use fees {money(fees)}",
        assets,
    ]
    return _led(f"{state.player} revenue rnd {state.round}", lines,
                f"NEXT on  cash {money(account.cash)}")


def _menu(state: FlightPlanState) -> Screen:
    shown = window(len(MENU), state.item)
    lines = _body([MENU[i][1] for i in shown])
    if state.note:
        status = state.note
    elif state.first_move:
        status = "First move: buy routes"
    else:
        off = [h for h in state.bank.account(state.player).holdings
               if h.turns_left is not None]
        status = ("Off: " + ", ".join(f"{h.asset.label} ({h.turns_left})" for h in off)
                  if off else "UP/DOWN choose  NEXT go")
    return Screen(_turn_title(state), lines, selected=state.item - shown.start,
                  status=_status(status))


def _route(state: FlightPlanState) -> Screen:
    index, count = cursor_of(state)
    number = route_choices(state)[index]
    route = state.guide.route(number)
    assert route is not None
    owner = owner_of(state, Asset.route(number))
    kind = f"{route.regions[0]}-{route.regions[1]} {route.haul}"
    price = "price ?" if route.price is None else money(route.price)
    revenue = "?" if route.revenue is None else money(route.revenue)
    lines = [
        f"{number}: {_route_line(route)}",
        kind + (" cargo" if route.cargo else ""),
        owner or f"{price}, earns {revenue}",
        f"Cash {money(cash_of(state))}",
    ]
    return _led(f"Buy route {index + 1}/{count}", lines, BACK_HINT)


def _fleet(state: FlightPlanState) -> Screen:
    index, count = cursor_of(state)
    fleet = FLEETS[index]
    price = state.guide.fleets.price(fleet)
    if fleet == "cargo":
        flies = f"+{money(state.guide.bank.cargo_revenue)} per cargo route"
    else:
        low, high = HAUL_RANGES[fleet]
        flies = f"flies routes {low}-{high}"
    owned = state.bank.account(state.player).owns(Asset.fleet(fleet))
    lines = [
        f"{fleet.capitalize()} fleet",
        flies,
        "yours" if owned else ("price ?" if price is None else f"Price {money(price)}"),
        f"Cash {money(cash_of(state))}",
    ]
    return _led(f"Buy fleet {index + 1}/{count}", lines, BACK_HINT)


def _hub(state: FlightPlanState) -> Screen:
    index, count = cursor_of(state)
    city = hub_choices(state)[index]
    lines = [
        f"Hub in {city}",
        f"Region {state.guide.city_regions[city]}",
        owner_of(state, Asset.hub(city)) or f"Price {money(state.guide.bank.hub_price)}",
        f"Cash {money(cash_of(state))}",
    ]
    return _led(f"Buy hub {index + 1}/{count}", lines, BACK_HINT)


def _deactivate(state: FlightPlanState) -> Screen:
    index, count = cursor_of(state)
    holding = asset_choices(state)[index]
    account = state.bank.account(state.player)
    bought = holding.asset in account.bought_this_turn
    lines = [
        holding.asset.label.capitalize(),
        f"paid {money(holding.price)}, gives +{money(deactivation_value(holding.price))}",
        "bought this turn" if bought else _countdown(holding),
        f"Cash {money(account.cash)}",
    ]
    return _led(f"Deactivate {index + 1}/{count}", lines, BACK_HINT)


AMOUNT_TITLES = {
    "route-price": "Price of route {route}",
    "route-revenue": "Revenue route {route}",
    "fleet-price": "Price of {fleet} fleet",
    "pay": "{player} pays the bank",
    "receive": "{player} receives",
    "pay-player": "{player} pays {payee}",
    "hub-fee": "Hub use fee per route",
}


def _amount(state: FlightPlanState) -> Screen:
    entry = state.entry
    assert entry is not None
    title = AMOUNT_TITLES[entry.purpose].format(route=entry.route, fleet=entry.fleet,
                                                player=state.player, payee=entry.payee)
    back = "" if entry.purpose == "hub-fee" else "  hold NEXT back"
    return Screen(fit(title, TITLE_WIDTH), big=money(entry.amount),
                  caption=fit(f"UP/DN $5M{back}", SMALL_LINE_WIDTH),
                  status=_status(f"NEXT ok  cash {money(cash_of(state))}"))


def _payee(state: FlightPlanState) -> Screen:
    index, _count = cursor_of(state)
    names = payee_choices(state)
    shown = window(len(names), index, READABLE_LINES)
    lines = _body([f"{names[i]}  cash {money(cash_of(state, names[i]))}" for i in shown])
    return Screen(fit(f"{state.player} pays whom?", TITLE_WIDTH), lines,
                  selected=index - shown.start, status=BACK_HINT)


def _debt(state: FlightPlanState) -> Screen:
    debt = state.debt
    assert debt is not None
    cash = cash_of(state, debt.payer)
    title = fit(f"{debt.payer} owes {money(debt.amount)}", TITLE_WIDTH)
    choices = debt_choices(state)
    if not choices:
        return Screen(title, _body([f"Cash {money(cash)}: short", "Nothing left to",
                                     "deactivate: bankrupt"]),
                      status="NEXT declare bankruptcy")
    index, _count = cursor_of(state)
    account = state.bank.account(debt.payer)
    shown = window(len(choices), index, READABLE_LINES - 1)
    lines = ["Deactivate to pay:"]
    for i in shown:
        holding = account.holding(choices[i])
        refund = deactivation_value(holding.price) if holding is not None else 0
        lines.append(f"{choices[i].label} +{money(refund)}")
    return _led(title, lines, f"NEXT ok  cash {money(cash)}",
                selected=index - shown.start)


WIN_LINES = 4


def win_lines(state: FlightPlanState, name: str) -> tuple[str, ...]:
    """Four lines: the three conditions, what each still misses, what blocks them."""
    account = state.bank.account(name)
    if account.bankrupt:
        return ("Bankrupt: out of the game",)
    raw = check_win(state.guide, (int(a.key) for a in account.assets("route")),
                    (str(a.key) for a in account.assets("hub")))
    # The screen leaves out what is in brackets ("(needs 4, 5)", "(best of 2 separate
    # networks ...)"); the state JSON has every word.
    texts = {
        "six-regions": "6 regions: " + _NEEDS.sub("", raw.missing.get("six-regions", "MET")
                                                  ).replace("; needs NA, SA, EU, AF, AP, ME", ""),
        "three-hubs": raw.missing.get("three-hubs", "3 hubs: MET"),
        "short-haul": _NEEDS.sub("", raw.missing.get("short-haul", "short haul: MET")),
    }
    off = [h.asset.label for h in account.holdings if h.turns_left is not None]
    # Four small lines under the main line: a blocked asset takes one from the regions.
    budget = {"six-regions": 2, "three-hubs": 1, "short-haul": 1}
    if off:
        budget["six-regions"] = 1
    lines: list[str] = []
    for key, text in texts.items():
        wrapped = textwrap.wrap(text, SMALL_LINE_WIDTH) or [""]
        room = budget[key]
        if len(wrapped) > room:
            wrapped = [*wrapped[: room - 1], fit(" ".join(wrapped[room - 1:]), SMALL_LINE_WIDTH)]
        lines.extend(wrapped)
    if off:
        lines.append(fit("Blocked: " + ", ".join(off) + " off", SMALL_LINE_WIDTH))
    return tuple(fit(line, SMALL_LINE_WIDTH) for line in lines[:WIN_LINES])


def _win(state: FlightPlanState) -> Screen:
    name = state.names[state.page]
    # The keys as the main line, four small lines and no status bar: UP / DOWN turn the
    # players' pages, NEXT goes back.
    return Screen(f"Win check {name} {state.page + 1}/{len(state.names)}",
                  win_lines(state, name), main="UP/DN player  NEXT ok")


CONDITION_TEXT = {"six-regions": "6 regions", "three-hubs": "3 hubs",
                  "short-haul": "short haul", "last-airline": "last airline flying"}


def _over(state: FlightPlanState) -> Screen:
    met = dict(state.winners).get(state.winner or "", ())
    caption = fit("by " + ", ".join(CONDITION_TEXT.get(c, c) for c in met), SMALL_LINE_WIDTH)
    others = [name for name, _ in state.winners if name != state.winner]
    status = f"also {', '.join(others)}" if others else "hold BACK undo"
    return Screen("Flight Plan: the end", big=f"{state.winner} WINS", caption=caption,
                  status=_status(status))
