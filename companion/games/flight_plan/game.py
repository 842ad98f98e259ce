"""Flight Plan on the box: the banker's helper, from the starting draw to the win.

The box keeps the bank of a Flight Plan game (rules/flight-plan.txt) for the player who acts as
banker: start-up cash, the starting routes, revenue at the start of every turn, purchases,
deactivations with their 3-turn countdown, penalties and payments, bankruptcy, and the win
check after every change. The arithmetic and the rules are the pure engine's
(:mod:`.banker`, :mod:`.draw`, :mod:`.score`); this module is the button flow around it.

Options: ``new flight-plan players=2..6 start=draw|quick guide=example|owner seed=auto|N``.
``guide=owner`` is the owner's route guide the box was configured with (the default when there
is one); ``example`` is the bundled made-up guide. ``seed`` overrides the box's seed for the
2d10 draw (``random.Random(seed)``), so a journal replays the same deal.

Players are called P1..Pn in turn order (P1 goes first: whoever flew most recently).

Buttons (BACK and hold BACK belong to the box: BACK opens the box menu, hold BACK undoes the
last press, so every transaction can be taken back):

- Everywhere: NEXT does what the screen offers; hold NEXT goes back to the turn menu without
  doing anything. Lists scroll with DOWN (next) and UP (back) and wrap round; amounts go UP
  (more) and DOWN (less) by $5M (a held UP / DOWN, where the buttons send one, by $50M).
- Setup (``deal``): one page for the bank, then one page per player with their three starting
  routes. NEXT turns the pages; after the last, P1's first move begins.
- Turn start (``revenue``, from the second round on): the itemised revenue just paid (routes,
  cargo, hub use fees, assets back in use or still off). NEXT opens the turn menu.
- Turn menu (``menu``): Buy route, Buy fleet, Buy hub, Deactivate, Pay the bank, Receive,
  Pay a player, Win check, Lift region limit, End turn (UP from the top reaches End turn).
  NEXT opens the item.
- Buy route / fleet / hub, Deactivate: one item per screen with its price, revenue or refund;
  NEXT buys (deactivates) it. Owned items show who owns them and are refused by the bank. Where
  the guide lacks a route's price or revenue or a fleet's price, the box asks for the amount.
- Pay the bank / Receive / Pay a player (choose whom first): enter the amount, NEXT pays.
- Win check: one page per player with the three conditions and what is still missing.
- End turn: the next player's turn starts (revenue is paid at once).
- ``debt``: a payment the player cannot make (a penalty, a payment, hub use fees owed at
  another player's turn start) must be raised by deactivating assets: NEXT deactivates the
  chosen one and the payment is made as soon as the cash covers it. With nothing left to
  deactivate, NEXT declares bankruptcy.
- ``over``: the winner is announced (tune "win"); hold BACK undoes.

Rules enforced here (the bank enforces the rest, see banker.py; its refusals keep their code):

- Start-up cash by the rulebook ($1000M each for 2 players, $750M for 3 to 6, or the guide's).
- The 2d10 draw deals 3 x players different routes, three to each player. The box can only
  bank routes its guide knows, so a number missing from the guide is rolled again like a
  repeat (with a complete guide this is exactly :func:`~.draw.draw_starting_routes`). Quick Play
  deals the rulebook's set as printed; a card missing from the guide shows as such.
- First move (round 1): no revenue; only the player's own starting routes can be bought, and
  at least one of them must be bought before the turn ends (when the guide has any of them).
- Revenue is collected at the start of every later turn (:func:`~.banker.start_turn`, which
  also counts deactivations down). A hub use fee the guide lacks is asked once and kept.
- A deactivated asset shows its countdown: the meeples left on it (``turns_left``), one
  removed at each of its owner's turn starts; it is back in use at the start of the 4th turn.
- Bankruptcy: only when the money owed exceeds the cash and nothing is left to deactivate; the
  player is out and skipped in the turn order.
- The win check runs after every accepted input: a player with nothing deactivated who meets
  any of the three conditions wins and the game is over. When several meet one at once, the
  player whose turn it is wins, else the first in turn order (all are listed). A player left
  alone after every other went bankrupt wins too (``last-airline``): the box's reading.
- Not tracked (the table does): the planes' positions and flights, Daily Briefing cards (their
  money goes through Pay / Receive, a lifted region limit through Lift region limit), the one
  action per turn, and trades between players (use Pay a player and buy at the agreed price).
- Illegal input raises :class:`~companion.core.game.RuleError` and never changes the state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Final, Literal

from companion.core.buttons import Button
from companion.core.game import (
    Expire,
    GameAction,
    Hold,
    OptionError,
    OptionSpec,
    Play,
    Press,
    Restore,
    RuleError,
)
from companion.games.flight_plan.banker import (
    Asset,
    Bank,
    BankError,
    CannotPay,
    Holding,
    Income,
    MissingAmount,
    buy_fleet,
    buy_hub,
    buy_route,
    can_deactivate,
    check_player,
    deactivate,
    deactivation_value,
    declare_bankruptcy,
    lift_region_limit,
    open_bank,
    pay,
    pay_player,
    receive,
    start_turn,
)
from companion.games.flight_plan.draw import ROUTES_PER_PLAYER, deal, deal_quick_play, roll_route
from companion.games.flight_plan.guide import (
    FLEETS,
    Route,
    RouteGuide,
    example_guide_text,
    parse_guide,
)
from companion.games.flight_plan.score import CONDITIONS, GAME, WinCheck

TITLE: Final = "Flight Plan bank"
NOTE_STEP: Final = 5  # the smallest banknote, $5M: one press of UP / DOWN
BIG_STEP: Final = 50  # a held UP / DOWN
MAX_AMOUNT: Final = 9995
LAST_AIRLINE: Final = "last-airline"

Step = Literal["deal", "revenue", "menu", "route", "fleet", "hub", "deactivate", "amount",
               "payee", "debt", "win", "over"]
Purpose = Literal["route-price", "route-revenue", "fleet-price", "pay", "receive", "pay-player",
                  "hub-fee"]

#: The turn menu: (key, label), in order.
MENU: Final = (
    ("route", "Buy route"),
    ("fleet", "Buy fleet"),
    ("hub", "Buy hub"),
    ("deactivate", "Deactivate"),
    ("pay", "Pay the bank"),
    ("receive", "Receive from bank"),
    ("pay-player", "Pay a player"),
    ("win", "Win check"),
    ("lift", "Lift region limit"),
    ("end", "End turn"),
)
MENU_KEYS: Final = tuple(key for key, _label in MENU)


@dataclass(frozen=True)
class Entry:
    """An amount being entered with UP / DOWN, and what it is for."""

    purpose: Purpose
    amount: int = 0
    route: int | None = None
    price: int | None = None  # a route price entered before its revenue
    fleet: str | None = None
    payee: str | None = None


@dataclass(frozen=True)
class Debt:
    """A payment that waits until the payer has raised the cash (or goes bankrupt)."""

    payer: str
    amount: int
    payee: str | None  # None: the bank
    reason: Literal["penalty", "payment", "hub-fees"]


@dataclass(frozen=True)
class FlightPlanState:
    bank: Bank
    names: tuple[str, ...]
    dealt: tuple[tuple[int, ...], ...]
    start: str
    guide_name: str
    seed: int
    step: Step = "deal"
    page: int = 0  # setup page, or the player shown by the win check
    item: int = 0  # the turn menu's cursor
    cursor: int = 0  # a picker's cursor
    seat: int = 0
    turn: int = 1
    round: int = 1
    entry: Entry | None = None
    debt: Debt | None = None
    income: Income | None = None
    hub_fee: int | None = None
    note: str = ""  # the last transaction, in words
    winner: str | None = None
    winners: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def player(self) -> str:
        return self.names[self.seat]

    @property
    def guide(self) -> RouteGuide:
        return self.bank.guide

    @property
    def first_move(self) -> bool:
        return self.round == 1


# -- options -------------------------------------------------------------------------------------


def _is_seed(value: str) -> bool:
    return value.isdigit()


def _options(has_owner_guide: bool) -> tuple[OptionSpec, ...]:
    guides = ("owner", "example") if has_owner_guide else ("example",)
    return (
        OptionSpec("players", "Players", ("2", "3", "4", "5", "6"), "3"),
        OptionSpec("start", "Start routes", ("draw", "quick"), "draw"),
        OptionSpec("guide", "Route guide", guides, guides[0]),
        OptionSpec("seed", "Seed", ("auto",), "auto", accepts=_is_seed,
                   allowed="auto|<whole number>"),
    )


@cache
def example_guide() -> RouteGuide:
    """The bundled made-up route guide (package data), parsed once."""
    return parse_guide(example_guide_text(), "example_guide.toml")


def draw_for_guide(rng: random.Random, guide: RouteGuide, players: int) -> list[list[int]]:
    """The 2d10 draw, re-rolling numbers already drawn or missing from the guide; then the deal.

    With a guide of all 100 routes this is :func:`~.draw.draw_starting_routes` exactly.
    """
    needed = ROUTES_PER_PLAYER * players
    if len(guide.routes) < needed:
        raise OptionError(f"the route guide has {len(guide.routes)} routes; {players} players "
                          f"need {needed} for the draw (use start=quick)")
    drawn: list[int] = []
    while len(drawn) < needed:
        number = roll_route(rng)
        if number not in drawn and guide.route(number) is not None:
            drawn.append(number)
    return deal(rng, drawn, players)


# -- what the pickers offer (the view shows the same lists) ---------------------------------------


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


def win_checks(state: FlightPlanState) -> dict[str, WinCheck]:
    """The win check of every player still in the game."""
    return {name: check_player(state.bank, name) for name in state.names
            if not state.bank.account(name).bankrupt}


def deactivated(holdings: tuple[Holding, ...]) -> list[dict[str, Any]]:
    """Deactivated assets and their countdowns: the meeples still on them, one removed at each
    of the owner's turn starts (0: back in use at the next one)."""
    return [{"asset": h.asset.label, "turns_left": h.turns_left}
            for h in holdings if h.turns_left is not None]


def money(amount: int) -> str:
    return f"${amount}M"


# -- the game ------------------------------------------------------------------------------------


class FlightPlanBanker:
    """The Game protocol for the Flight Plan bank; see the module docstring."""

    name = GAME
    title = TITLE

    def __init__(self, guide: RouteGuide | None = None) -> None:
        self._owner_guide = guide
        self.options: tuple[OptionSpec, ...] = _options(guide is not None)

    def new(self, options: Mapping[str, str], seed: int) -> FlightPlanState:
        players = int(options.get("players", "3"))
        given_seed = options.get("seed", "auto")
        game_seed = seed if given_seed == "auto" else int(given_seed)
        guide_name = options.get("guide", self.options[2].default)
        if guide_name == "owner":
            if self._owner_guide is None:
                raise OptionError("no route guide of the owner's is set up; use guide=example")
            guide = self._owner_guide
        else:
            guide = example_guide()
        names = tuple(f"P{seat + 1}" for seat in range(players))
        try:
            bank = open_bank(guide, names)
        except BankError as error:
            raise OptionError(str(error)) from None
        rng = random.Random(game_seed)
        start = options.get("start", "draw")
        try:
            hands = (deal_quick_play(rng, players) if start == "quick"
                     else draw_for_guide(rng, guide, players))
        except ValueError as error:
            raise OptionError(str(error)) from None
        return FlightPlanState(bank=bank, names=names, dealt=tuple(tuple(h) for h in hands),
                               start=start, guide_name=guide_name, seed=game_seed)

    def step(self, state: FlightPlanState, action: GameAction,
             now: float) -> tuple[FlightPlanState, tuple[Play, ...]]:
        match action:
            case Restore():
                return state, ()
            case Expire():
                raise RuleError("the Flight Plan bank has no timer")
            case Press(button):
                held = False
            case Hold(button):
                held = True
        if state.step == "over":
            raise RuleError(f"the game is over: {state.winner} won; hold BACK to undo")
        if button is Button.BACK:
            raise RuleError("BACK opens the box menu")
        try:
            new = _act(state, button, held)
        except BankError as error:
            raise RuleError(str(error), error.code) from None
        return _after(new)

    def countdown(self, state: FlightPlanState) -> None:
        return None

    def to_json(self, state: FlightPlanState, now: float) -> dict[str, Any]:
        bank = state.bank
        accounts = {account.name: account for account in bank.accounts}
        checks = {name: check_player(bank, name) for name in state.names}
        income = state.income
        return {
            "game": GAME, "players": len(state.names), "phase": _phase(state),
            "step": state.step, "result": self.result(state),
            "guide": state.guide_name, "start": state.start, "seed": state.seed,
            "round": state.round, "turn": state.turn, "player": state.player,
            "first_move": state.first_move, "names": list(state.names),
            "dealt": {name: list(hand) for name, hand in zip(state.names, state.dealt,
                                                             strict=True)},
            "cash": {name: accounts[name].cash for name in state.names},
            "assets": {name: {"routes": [a.key for a in accounts[name].assets("route")],
                              "fleets": [a.key for a in accounts[name].assets("fleet")],
                              "hubs": [a.key for a in accounts[name].assets("hub")]}
                       for name in state.names},
            "countdowns": {name: deactivated(accounts[name].holdings) for name in state.names},
            "bankrupt": [name for name in state.names if accounts[name].bankrupt],
            "unrestricted": [name for name in state.names if accounts[name].unrestricted],
            "win": {name: {"conditions": dict(check.conditions), "missing": dict(check.missing)}
                    for name, check in checks.items()},
            "revenue": None if income is None else {
                "routes": income.routes, "cargo": income.cargo,
                "hub_fees": dict(income.hub_fees), "total": income.total,
                "reactivated": [asset.label for asset in income.reactivated]},
            "item": MENU_KEYS[state.item], "cursor": state.cursor,
            "choice": current_choice(state),
            "entry": None if state.entry is None else {
                "purpose": state.entry.purpose, "amount": state.entry.amount},
            "debt": None if state.debt is None else {
                "payer": state.debt.payer, "amount": state.debt.amount,
                "payee": state.debt.payee, "reason": state.debt.reason},
            "hub_fee": state.hub_fee, "note": state.note,
        }

    def result(self, state: FlightPlanState) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        return {"winner": state.winner, "winners": [name for name, _ in state.winners],
                "conditions": {name: list(met) for name, met in state.winners},
                "round": state.round, "turn": state.turn}


def _phase(state: FlightPlanState) -> str:
    if state.step == "deal":
        return "setup"
    return "over" if state.step == "over" else "turn"


# -- one input -----------------------------------------------------------------------------------


def _act(state: FlightPlanState, button: Button, held: bool) -> FlightPlanState:
    step = state.step
    if step == "amount":
        return _amount_input(state, button, held)
    if held and button is Button.NEXT:
        return _back(state)
    move = {Button.UP: -1, Button.DOWN: 1}.get(button, 0)
    match step:
        case "deal":
            pages = len(state.names) + 1
            if move:
                return replace(state, page=max(0, min(pages - 1, state.page + move)))
            if state.page + 1 < pages:
                return replace(state, page=state.page + 1)
            return replace(state, step="menu", page=0)
        case "revenue":
            if move:
                raise RuleError("NEXT opens the turn menu")
            return replace(state, step="menu")
        case "menu":
            if move:
                return replace(state, item=(state.item + move) % len(MENU))
            return _open(state, MENU_KEYS[state.item])
        case "win":
            if move:
                return replace(state, page=(state.page + move) % len(state.names))
            return replace(state, step="menu")
    count = choice_count(state)
    if move:
        return replace(state, cursor=(state.cursor + move) % max(1, count))
    return _choose(state)


def _back(state: FlightPlanState) -> FlightPlanState:
    """Hold NEXT: back to the turn menu, where that is allowed."""
    match state.step:
        case "deal" | "menu":
            raise RuleError("hold NEXT goes back to the turn menu from a choice")
        case "debt":
            assert state.debt is not None
            raise RuleError(f"{state.debt.payer} must raise {money(state.debt.amount)} first; "
                            "hold BACK undoes")
        case "amount" if state.entry is not None and state.entry.purpose == "hub-fee":
            raise RuleError(f"the hub use fee is needed to start {state.player}'s turn")
    return replace(state, step="menu", entry=None, cursor=0)


def _open(state: FlightPlanState, key: str) -> FlightPlanState:
    """NEXT on a turn menu item."""
    player = state.player
    match key:
        case "route":
            choices = route_choices(state)
            if not choices:
                raise RuleError(f"none of {player}'s starting routes is in the route guide")
            first_free = next((i for i, n in enumerate(choices)
                               if state.bank.owner(Asset.route(n)) is None), 0)
            return replace(state, step="route", cursor=first_free)
        case "fleet":
            account = state.bank.account(player)
            first_free = next((i for i, f in enumerate(FLEETS)
                               if not account.owns(Asset.fleet(f))), 0)
            return replace(state, step="fleet", cursor=first_free)
        case "hub":
            if not hub_choices(state):
                raise RuleError(f"{player} owns no route to or from a hub city")
            return replace(state, step="hub", cursor=0)
        case "deactivate":
            if not asset_choices(state):
                raise RuleError(f"{player} owns nothing to deactivate")
            return replace(state, step="deactivate", cursor=0)
        case "pay" | "receive":
            return replace(state, step="amount", entry=Entry(key))
        case "pay-player":
            if not payee_choices(state):
                raise RuleError("there is nobody else to pay")
            return replace(state, step="payee", cursor=0)
        case "win":
            return replace(state, step="win", page=state.seat)
        case "lift":
            if state.bank.account(player).unrestricted:
                raise RuleError(f"{player} has no region limit already")
            return _done(replace(state, bank=lift_region_limit(state.bank, player)),
                         f"{player}: no region limit")
        case "end":
            return _next_turn(state)
    raise RuleError(f"unknown menu item {key!r}")


def _choose(state: FlightPlanState) -> FlightPlanState:
    """NEXT in a picker."""
    player = state.player
    index = state.cursor % max(1, choice_count(state))
    match state.step:
        case "route":
            return _buy_route_asking(state, route_choices(state)[index])
        case "fleet":
            fleet = FLEETS[index]
            price = state.guide.fleets.price(fleet)
            if price is None:
                buy_fleet(state.bank, player, fleet, price=0)  # refusals before the question
                return replace(state, step="amount", entry=Entry("fleet-price", fleet=fleet))
            return _buy_fleet(state, fleet, None)
        case "hub":
            city = hub_choices(state)[index]
            bank = buy_hub(state.bank, player, city)
            price = state.guide.bank.hub_price
            return _done(replace(state, bank=bank), f"Hub {city}: -{money(price)}")
        case "deactivate":
            holding = asset_choices(state)[index]
            bank = deactivate(state.bank, player, holding.asset)
            refund = deactivation_value(holding.price)
            return _done(replace(state, bank=bank),
                         f"{holding.asset.label} off: +{money(refund)}")
        case "payee":
            payee = payee_choices(state)[index]
            return replace(state, step="amount", entry=Entry("pay-player", payee=payee))
        case "debt":
            return _debt_next(state, index)
    raise RuleError(f"NEXT does nothing at {state.step}")


def _buy_route_asking(state: FlightPlanState, number: int) -> FlightPlanState:
    """Buy a route, first asking for what the guide lacks (after the bank's other checks)."""
    route = state.guide.route(number)
    assert route is not None
    if route.price is None or route.revenue is None:
        # Owner, region limit and so on are refused before the banker types an amount.
        buy_route(state.bank, state.player, number, price=0, revenue=0)
        purpose: Purpose = "route-price" if route.price is None else "route-revenue"
        return replace(state, step="amount", entry=Entry(purpose, route=number))
    return _buy_route(state, route, None, None)


def _buy_route(state: FlightPlanState, route: Route, price: int | None,
               revenue: int | None) -> FlightPlanState:
    bank = buy_route(state.bank, state.player, route.number, price=price, revenue=revenue)
    paid = price if price is not None else route.price
    return _done(replace(state, bank=bank), f"Route {route.number}: -{money(paid or 0)}")


def _buy_fleet(state: FlightPlanState, fleet: str, price: int | None) -> FlightPlanState:
    bank = buy_fleet(state.bank, state.player, fleet, price=price)
    paid = price if price is not None else state.guide.fleets.price(fleet)
    return _done(replace(state, bank=bank), f"{fleet.capitalize()} fleet: -{money(paid or 0)}")


def _done(state: FlightPlanState, note: str) -> FlightPlanState:
    """A transaction made: back to the turn menu with the note."""
    return replace(state, step="menu", entry=None, debt=None, cursor=0, note=note)


# -- amounts -------------------------------------------------------------------------------------


def _amount_input(state: FlightPlanState, button: Button, held: bool) -> FlightPlanState:
    entry = state.entry
    assert entry is not None
    if button in (Button.UP, Button.DOWN):
        size = BIG_STEP if held else NOTE_STEP
        change = size if button is Button.UP else -size
        amount = max(0, min(MAX_AMOUNT, entry.amount + change))
        if amount == entry.amount:
            edge = "0" if change < 0 else money(MAX_AMOUNT)
            raise RuleError(f"the amount is already {edge}")
        return replace(state, entry=replace(entry, amount=amount))
    if held:
        return _back(state)
    return _enter(state, entry)


def _enter(state: FlightPlanState, entry: Entry) -> FlightPlanState:
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
                return _buy_route(state, route, amount, None)
            return _buy_route(state, route, entry.price, amount)
        case "fleet-price":
            assert entry.fleet is not None
            return _buy_fleet(state, entry.fleet, amount)
        case "receive":
            _positive(amount)
            return _done(replace(state, bank=receive(state.bank, player, amount)),
                         f"{player} received {money(amount)}")
        case "pay":
            _positive(amount)
            return _pay(state, Debt(player, amount, None, "penalty"))
        case "pay-player":
            _positive(amount)
            return _pay(state, Debt(player, amount, entry.payee, "payment"))
        case "hub-fee":
            return _begin_turn(replace(state, hub_fee=amount, entry=None))
    raise RuleError(f"unknown amount {entry.purpose!r}")


def _positive(amount: int) -> None:
    if amount <= 0:
        raise RuleError("enter an amount with UP first", "bad-argument")


# -- payments, debts, bankruptcy -----------------------------------------------------------------


def _pay(state: FlightPlanState, debt: Debt) -> FlightPlanState:
    """Make a payment, or open the debt screen when the payer's cash does not cover it."""
    if state.bank.account(debt.payer).cash < debt.amount:
        return replace(state, step="debt", entry=None, debt=debt, cursor=0)
    return _settle(state, debt)


def _settle(state: FlightPlanState, debt: Debt) -> FlightPlanState:
    to = "the bank" if debt.payee is None else debt.payee
    note = f"{debt.payer} paid {to} {money(debt.amount)}"
    match debt.reason:
        case "hub-fees":
            return _begin_turn(replace(state, debt=None, note=note))
        case "penalty":
            return _done(replace(state, bank=pay(state.bank, debt.payer, debt.amount)), note)
        case "payment":
            assert debt.payee is not None
            bank = pay_player(state.bank, debt.payer, debt.payee, debt.amount)
            return _done(replace(state, bank=bank), note)
    raise RuleError(f"unknown debt {debt.reason!r}")


def _debt_next(state: FlightPlanState, index: int) -> FlightPlanState:
    debt = state.debt
    assert debt is not None
    choices = debt_choices(state)
    if not choices:
        bank = declare_bankruptcy(state.bank, debt.payer, debt.amount)
        gone = replace(state, bank=bank, debt=None, note=f"{debt.payer} is bankrupt")
        if debt.reason == "hub-fees":
            return _begin_turn(gone)
        return _next_turn(gone)
    bank = deactivate(state.bank, debt.payer, choices[index])
    raised = replace(state, bank=bank, cursor=0)
    if bank.account(debt.payer).cash >= debt.amount:
        return _settle(raised, debt)
    return raised


# -- turns ---------------------------------------------------------------------------------------


def _next_turn(state: FlightPlanState) -> FlightPlanState:
    """End the turn: the next player still in the game starts theirs."""
    player = state.player
    account = state.bank.account(player)
    if state.first_move and not account.bankrupt and not account.assets("route") \
            and route_choices(state):
        raise RuleError(f"{player} must buy a starting route first")
    count = len(state.names)
    seat = next((s % count for s in range(state.seat + 1, state.seat + count + 1)
                 if not state.bank.account(state.names[s % count]).bankrupt), state.seat)
    round_ = state.round + (1 if seat <= state.seat else 0)
    moved = replace(state, seat=seat, round=round_, turn=state.turn + 1, item=0, cursor=0,
                    entry=None, debt=None, income=None, note="")
    if moved.first_move:
        return replace(moved, step="menu")
    return _begin_turn(moved)


def _begin_turn(state: FlightPlanState) -> FlightPlanState:
    """The turn start: countdowns, revenue and hub use fees (asking what the guide lacks)."""
    try:
        bank, income = start_turn(state.bank, state.player, hub_use_fee=state.hub_fee)
    except MissingAmount:
        return replace(state, step="amount", entry=Entry("hub-fee", amount=0))
    except CannotPay as error:
        debt = Debt(error.payer, error.amount, state.player, "hub-fees")
        return replace(state, step="debt", debt=debt, cursor=0)
    return replace(state, bank=bank, income=income, step="revenue", entry=None, debt=None)


def _after(state: FlightPlanState) -> tuple[FlightPlanState, tuple[Play, ...]]:
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
