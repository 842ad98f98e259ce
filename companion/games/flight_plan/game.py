"""Flight Plan on the box: the banker's helper, from the starting draw to the win.

The box keeps the bank of a Flight Plan game (rules/flight-plan.txt) for the player who acts as
banker: start-up cash, the starting routes, revenue at the start of every turn, purchases,
deactivations with their 3-turn countdown, penalties and payments, bankruptcy, and the win
check after every change. The arithmetic and the rules are the pure engine's
(:mod:`.banker`, :mod:`.draw`, :mod:`.score`); this module is the button flow around it.

This module is the state machine's core: the Game protocol and the dispatch of one input to
the banker's step it belongs to. The steps live beside it, one concern each: :mod:`.state` (the
state, the turn menu, the ways back to it), :mod:`.start` (options, guide, starting draw),
:mod:`.choices` (what each picker offers), :mod:`.purchases` (buy, deactivate),
:mod:`.payments` (amounts, payments, debts, bankruptcy) and :mod:`.turns` (turn end, turn
start, the win check).

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
from dataclasses import replace
from typing import Any

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
from companion.games.flight_plan.banker import check_player, lift_region_limit, open_bank
from companion.games.flight_plan.choices import (
    asset_choices,
    choice_count,
    current_choice,
    hub_choices,
    payee_choices,
    route_choices,
)
from companion.games.flight_plan.data import FLEETS, RouteGuide
from companion.games.flight_plan.draw import deal_quick_play
from companion.games.flight_plan.ledger import Asset, BankError, Holding
from companion.games.flight_plan.payments import amount_input, raise_cash
from companion.games.flight_plan.purchases import (
    ask_or_buy_fleet,
    ask_or_buy_route,
    buy_hub_in,
    deactivate_holding,
)
from companion.games.flight_plan.score import GAME
from companion.games.flight_plan.start import draw_for_guide, example_guide, options_for
from companion.games.flight_plan.state import (
    MENU,
    MENU_KEYS,
    TITLE,
    Entry,
    FlightPlanState,
    back_to_menu,
    transaction_done,
)
from companion.games.flight_plan.turns import check_for_winner, next_turn


def deactivated(holdings: tuple[Holding, ...]) -> list[dict[str, Any]]:
    """Deactivated assets and their countdowns: the meeples still on them, one removed at each
    of the owner's turn starts (0: back in use at the next one)."""
    return [{"asset": h.asset.label, "turns_left": h.turns_left}
            for h in holdings if h.turns_left is not None]


# -- the game ------------------------------------------------------------------------------------


class FlightPlanBanker:
    """The Game protocol for the Flight Plan bank; see the module docstring."""

    name = GAME
    title = TITLE

    def __init__(self, guide: RouteGuide | None = None) -> None:
        self._owner_guide = guide
        self.options: tuple[OptionSpec, ...] = options_for(guide is not None)

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
                raise RuleError("not-allowed", "the Flight Plan bank has no timer")
            case Press(button):
                held = False
            case Hold(button):
                held = True
        if state.step == "over":
            raise RuleError("not-allowed",
                            f"the game is over: {state.winner} won; hold BACK to undo")
        if button is Button.BACK:
            raise RuleError("not-allowed", "BACK opens the box menu")
        try:
            new = _act(state, button, held)
        except BankError as error:
            raise RuleError(error.code, str(error)) from None
        return check_for_winner(new)

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
        return amount_input(state, button, held)
    if held and button is Button.NEXT:
        return back_to_menu(state)
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
                raise RuleError("not-allowed", "NEXT opens the turn menu")
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


def _open(state: FlightPlanState, key: str) -> FlightPlanState:
    """NEXT on a turn menu item."""
    player = state.player
    match key:
        case "route":
            choices = route_choices(state)
            if not choices:
                raise RuleError("not-allowed",
                                f"none of {player}'s starting routes is in the route guide")
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
                raise RuleError("not-allowed", f"{player} owns no route to or from a hub city")
            return replace(state, step="hub", cursor=0)
        case "deactivate":
            if not asset_choices(state):
                raise RuleError("not-allowed", f"{player} owns nothing to deactivate")
            return replace(state, step="deactivate", cursor=0)
        case "pay" | "receive":
            return replace(state, step="amount", entry=Entry(key))
        case "pay-player":
            if not payee_choices(state):
                raise RuleError("not-allowed", "there is nobody else to pay")
            return replace(state, step="payee", cursor=0)
        case "win":
            return replace(state, step="win", page=state.seat)
        case "lift":
            if state.bank.account(player).unrestricted:
                raise RuleError("not-allowed", f"{player} has no region limit already")
            bank = lift_region_limit(state.bank, player)
            return transaction_done(replace(state, bank=bank), f"{player}: no region limit")
        case "end":
            return next_turn(state)
    raise RuleError("not-allowed", f"unknown menu item {key!r}")


def _choose(state: FlightPlanState) -> FlightPlanState:
    """NEXT in a picker."""
    index = state.cursor % max(1, choice_count(state))
    match state.step:
        case "route":
            return ask_or_buy_route(state, route_choices(state)[index])
        case "fleet":
            return ask_or_buy_fleet(state, FLEETS[index])
        case "hub":
            return buy_hub_in(state, hub_choices(state)[index])
        case "deactivate":
            return deactivate_holding(state, asset_choices(state)[index])
        case "payee":
            payee = payee_choices(state)[index]
            return replace(state, step="amount", entry=Entry("pay-player", payee=payee))
        case "debt":
            return raise_cash(state, index)
    raise RuleError("not-allowed", f"NEXT does nothing at {state.step}")
