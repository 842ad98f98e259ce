"""Flight Plan's banker as a pure state machine: buying, revenue, fees, deactivation, bankruptcy.

Every action is a function ``action(bank, player, ...) -> Bank`` (``start_turn`` also returns
what was collected). A :class:`Bank` is immutable, so an illegal action, which raises a
:class:`BankError` (a ``ValueError`` with a short ``code``), never changes state. Money is whole
$M. Where the guide lacks an amount (a price, a revenue, a fee), the action takes it as a keyword
argument and raises :class:`MissingAmount` asking for it when neither gives it; an argument
given overrides the guide (an auction bid, a house rule). The records (:class:`Bank`,
:class:`Account`, :class:`Asset`, ...) and the refusals are :mod:`.ledger`'s.

This module stays whole (a little over 400 lines): the actions are one state machine over
:class:`Bank` sharing the helpers below, and read better side by side than split apart.

Rules enforced (rules/flight-plan.txt, rules/CLARIFICATIONS.md):

- Start-up cash: $1000M each for 2 players, $750M each for 3 to 6 (the guide may override).
- Buying: a route of the guide that nobody owns; one fleet of each type per player (short,
  medium, long, ultra-long, cargo); a hub only in a hub city, on a route the buyer owns, and
  never in a city where another player has a hub; hub price $250M. A player cannot spend more
  than their cash (``cannot-pay``).
- Two regions: a player operates in at most two regions (a route counts for the regions of both
  its cities) until they receive $120M+ revenue per turn or own and operate fleets worth $500M+,
  AND every route and fleet they own is actively generating revenue; or a Daily Briefing lifts
  the limit (:func:`lift_region_limit`). Revenue here is route + cargo revenue (hub use fees
  depend on other players and are left out); fleet worth is what the player paid for them.
- Revenue, at the start of each of the player's turns (:func:`start_turn`), from active assets
  only: each route's revenue when the player has the active fleet of the route's class; $20M per
  cargo route when the player has an active cargo fleet (cargo revenue needs only the cargo
  fleet); and hub use fees: for each of the player's active hubs, every other player pays one fee
  per active route of theirs that ends at that hub city, unless that player owns a hub (any
  status) in the same region. A payer short of cash stops the turn start with ``cannot-pay``
  naming the payer, who must deactivate assets or go bankrupt first.
- Route use fee (:func:`fly_route`): flying another player's active route pays its owner the
  fee; a deactivated route is free; flying needs the active fleet of the route's class.
- Deactivating a route, fleet or hub pays half its purchase price rounded UP to the next $5M
  (25 -> 15, 30 -> 15, 35 -> 20). Not an asset bought this turn; not one already deactivated.
  It is inactive for the owner's next 3 turns: :func:`start_turn` counts them down and the asset
  is active again at the start of the 4th (``turns_left`` = owner turns still to sit out after
  the current one).
- Penalties (:func:`pay`) and payments to players (:func:`pay_player`) need the cash in hand;
  otherwise ``cannot-pay``: deactivate first. Bankruptcy is allowed only when the player still
  owes more than their cash and has nothing left that may be deactivated; the player is out, the
  cash goes to the bank and every asset returns to the bank for auction (buy it with the winning
  bid as ``price``).
- Assets may be sold between players at any agreed price (not a deactivated one); the agreed
  price becomes the buyer's purchase price.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from companion.games.flight_plan.data import FLEETS, Route, RouteGuide
from companion.games.flight_plan.ledger import (
    Account,
    Asset,
    BadArgument,
    Bank,
    CannotPay,
    Holding,
    Income,
    MissingAmount,
    NotAllowed,
)
from companion.games.flight_plan.score import WinCheck, check_win

DEACTIVATION_TURNS: Final = 3
EXTEND_REVENUE: Final = 120
EXTEND_FLEET_WORTH: Final = 500
REGION_LIMIT: Final = 2
NOTE: Final = 5  # the smallest banknote, $5M


# --- helpers ------------------------------------------------------------------------------------


def deactivation_value(price: int) -> int:
    """Half the purchase price, rounded up to the next $5M (25 -> 15, 30 -> 15, 35 -> 20)."""
    if price < 0:
        raise BadArgument(f"a price cannot be negative, got {price}")
    return -(-price // (2 * NOTE)) * NOTE


def _put(bank: Bank, account: Account) -> Bank:
    return replace(
        bank, accounts=tuple(account if a.name == account.name else a for a in bank.accounts)
    )


def _playing(bank: Bank, name: str) -> Account:
    account = bank.account(name)
    if account.bankrupt:
        raise NotAllowed(f"{name} is bankrupt and out of the game")
    return account


def _amount(value: int | None, fallback: int | None, what: str) -> int:
    amount = fallback if value is None else value
    if amount is None:
        raise MissingAmount(f"the guide has no {what}: give it as an argument")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise BadArgument(f"{what} must be a whole number of $M >= 0, got {amount!r}")
    return amount


def _charge(account: Account, amount: int, what: str) -> Account:
    if amount > account.cash:
        raise CannotPay(
            f"{account.name} has ${account.cash}M and cannot pay ${amount}M for {what}",
            account.name,
            amount,
        )
    return replace(account, cash=account.cash - amount)


def _route(bank: Bank, number: int) -> Route:
    route = bank.guide.route(number)
    if route is None:
        raise BadArgument(f"route {number} is not in the route guide")
    return route


def _acquire(account: Account, holding: Holding, what: str) -> Account:
    paid = _charge(account, holding.price, what)
    return replace(
        paid,
        holdings=(*paid.holdings, holding),
        bought_this_turn=paid.bought_this_turn | {holding.asset},
    )


def open_bank(
    guide: RouteGuide, players: Sequence[str], *, start_cash: int | None = None
) -> Bank:
    """A new game: each player gets the start-up cash (rulebook by player count, or given)."""
    names = list(players)
    if len(set(names)) != len(names) or not all(isinstance(n, str) and n for n in names):
        raise BadArgument(f"players need different non-empty names, got {names!r}")
    try:
        default = guide.bank.start_cash(len(names))
    except ValueError as exc:
        raise BadArgument(str(exc)) from exc
    cash = _amount(start_cash, default, "start-up cash")
    return Bank(guide=guide, accounts=tuple(Account(name=n, cash=cash) for n in names))


# --- queries ------------------------------------------------------------------------------------


def regions_of(bank: Bank, player: str) -> frozenset[str]:
    """The regions a player operates in: both ends' regions of every owned route."""
    account = bank.account(player)
    return frozenset(
        region
        for asset in account.assets("route")
        for region in _route(bank, int(asset.key)).regions
    )


def _earning_routes(bank: Bank, account: Account) -> tuple[int, int, list[Asset]]:
    """(route revenue, cargo revenue, assets generating revenue) with the current statuses."""
    route_revenue = cargo_revenue = 0
    earning: list[Asset] = []
    cargo_fleet = Asset.fleet("cargo")
    for holding in account.holdings:
        if holding.asset.kind != "route" or not holding.active:
            continue
        route = _route(bank, int(holding.asset.key))
        fleet = Asset.fleet(route.haul)
        if account.active(fleet):
            route_revenue += holding.revenue
            earning += [holding.asset, fleet]
        if route.cargo and account.active(cargo_fleet):
            cargo_revenue += bank.guide.bank.cargo_revenue
            earning += [holding.asset, cargo_fleet]
    return route_revenue, cargo_revenue, earning


def revenue_per_turn(bank: Bank, player: str) -> int:
    """Route + cargo revenue the player's active assets earn each turn (hub fees left out)."""
    routes, cargo, _earning = _earning_routes(bank, bank.account(player))
    return routes + cargo


def may_extend(bank: Bank, player: str) -> bool:
    """Whether the player may operate outside two regions (rulebook C.6)."""
    account = bank.account(player)
    if account.unrestricted:
        return True
    routes, cargo, earning = _earning_routes(bank, account)
    fleet_worth = sum(h.price for h in account.holdings if h.asset.kind == "fleet" and h.active)
    all_earning = all(
        h.asset in earning for h in account.holdings if h.asset.kind in ("route", "fleet")
    )
    return (routes + cargo >= EXTEND_REVENUE or fleet_worth >= EXTEND_FLEET_WORTH) and all_earning


def check_player(bank: Bank, player: str) -> WinCheck:
    """The three win conditions for a player of the bank."""
    account = bank.account(player)
    return check_win(
        bank.guide,
        (int(asset.key) for asset in account.assets("route")),
        (str(asset.key) for asset in account.assets("hub")),
        [h.asset.label for h in account.holdings if not h.active],
    )


# --- actions ------------------------------------------------------------------------------------


def buy_route(
    bank: Bank,
    player: str,
    number: int,
    *,
    price: int | None = None,
    revenue: int | None = None,
    ignore_region_limit: bool = False,
) -> Bank:
    """Buy an unowned route from the bank (``price``/``revenue`` where the guide lacks them)."""
    account = _playing(bank, player)
    route = _route(bank, number)
    asset = Asset.route(number)
    owner = bank.owner(asset)
    if owner is not None:
        raise NotAllowed(f"route {number} is already owned by {owner.name}")
    cost = _amount(price, route.price, f"price for route {number}")
    earns = _amount(revenue, route.revenue, f"revenue for route {number}")
    regions = regions_of(bank, player) | set(route.regions)
    if len(regions) > REGION_LIMIT and not ignore_region_limit and not may_extend(bank, player):
        raise NotAllowed(
            f"{player} may operate in only {REGION_LIMIT} regions until earning "
            f"${EXTEND_REVENUE}M a turn or flying ${EXTEND_FLEET_WORTH}M of fleets with every "
            f"route and fleet earning; route {number} would make {len(regions)}"
        )
    return _put(bank, _acquire(account, Holding(asset, cost, earns), f"route {number}"))


def buy_fleet(bank: Bank, player: str, fleet: str, *, price: int | None = None) -> Bank:
    """Buy a fleet (short, medium, long, ultra-long or cargo); one of each type per player."""
    account = _playing(bank, player)
    if fleet not in FLEETS:
        raise BadArgument(f"unknown fleet {fleet!r} (expected one of {', '.join(FLEETS)})")
    asset = Asset.fleet(fleet)
    if account.owns(asset):
        raise NotAllowed(f"{player} already owns a {fleet} fleet (one of each type)")
    cost = _amount(price, bank.guide.fleets.price(fleet), f"price for the {fleet} fleet")
    return _put(bank, _acquire(account, Holding(asset, cost), f"the {fleet} fleet"))


def buy_hub(bank: Bank, player: str, city: str, *, price: int | None = None) -> Bank:
    """Develop a hub in a hub city at the end of a route the player owns ($250M)."""
    account = _playing(bank, player)
    if city not in bank.guide.hub_cities:
        raise NotAllowed(f"{city!r} is not a hub city in the route guide")
    asset = Asset.hub(city)
    owner = bank.owner(asset)
    if owner is not None:
        raise NotAllowed(f"{owner.name} already has a hub in {city}")
    if not any(_route(bank, int(a.key)).touches(city) for a in account.assets("route")):
        raise NotAllowed(f"{player} owns no route to or from {city}")
    cost = _amount(price, bank.guide.bank.hub_price, "hub price")
    return _put(bank, _acquire(account, Holding(asset, cost), f"a hub in {city}"))


def lift_region_limit(bank: Bank, player: str) -> Bank:
    """A Daily Briefing sent the player to a city without own routes: the limit is gone."""
    return _put(bank, replace(_playing(bank, player), unrestricted=True))


def start_turn(
    bank: Bank, player: str, *, hub_use_fee: int | None = None
) -> tuple[Bank, Income]:
    """Begin a player's turn: count deactivations down, then collect revenue and hub use fees.

    A new turn ends "this turn" for everyone: what any player bought before it may now be
    deactivated (for instance to raise the hub use fees this turn's owner collects).
    """
    _playing(bank, player)
    bank = replace(bank, accounts=tuple(replace(a, bought_this_turn=frozenset())
                                        for a in bank.accounts))
    account = _playing(bank, player)
    holdings: list[Holding] = []
    reactivated: list[Asset] = []
    for held in account.holdings:
        if held.turns_left == 0:
            holdings.append(replace(held, turns_left=None))
            reactivated.append(held.asset)
        elif held.turns_left is not None:
            holdings.append(replace(held, turns_left=held.turns_left - 1))
        else:
            holdings.append(held)
    account = replace(account, holdings=tuple(holdings), bought_this_turn=frozenset())
    bank = _put(bank, account)
    route_revenue, cargo_revenue, _earning = _earning_routes(bank, account)

    fees: list[tuple[str, int]] = []
    hub_cities = [str(a.key) for a in account.assets("hub") if account.active(a)]
    for other in bank.accounts:
        if other.name == player or other.bankrupt:
            continue
        own_hub_regions = {bank.guide.city_regions[str(a.key)] for a in other.assets("hub")}
        connections = sum(
            1
            for city in hub_cities
            if bank.guide.city_regions[city] not in own_hub_regions
            for asset in other.assets("route")
            if other.active(asset) and _route(bank, int(asset.key)).touches(city)
        )
        if connections:
            fee = _amount(hub_use_fee, bank.guide.bank.hub_use_fee, "hub use fee")
            if fee:
                fees.append((other.name, connections * fee))
    for payer, amount in fees:
        bank = _put(bank, _charge(bank.account(payer), amount, f"hub use fees to {player}"))
    income = Income(
        routes=route_revenue,
        cargo=cargo_revenue,
        hub_fees=tuple(fees),
        reactivated=tuple(reactivated),
    )
    account = bank.account(player)
    return _put(bank, replace(account, cash=account.cash + income.total)), income


def deactivate(bank: Bank, player: str, asset: Asset) -> Bank:
    """Deactivate an asset: half its price (rounded up to $5M); inactive 3 of its owner's turns."""
    account = _playing(bank, player)
    holding = account.holding(asset)
    if holding is None:
        raise NotAllowed(f"{player} does not own {asset.label}")
    if not holding.active:
        raise NotAllowed(f"{asset.label} is already deactivated")
    if asset in account.bought_this_turn:
        raise NotAllowed(f"{asset.label} was bought this turn and cannot be deactivated yet")
    holdings = tuple(
        replace(h, turns_left=DEACTIVATION_TURNS) if h.asset == asset else h
        for h in account.holdings
    )
    cash = account.cash + deactivation_value(holding.price)
    return _put(bank, replace(account, holdings=holdings, cash=cash))


def can_deactivate(bank: Bank, player: str) -> list[Asset]:
    """The assets the player could deactivate now."""
    account = bank.account(player)
    return [
        h.asset
        for h in account.holdings
        if h.active and h.asset not in account.bought_this_turn
    ]


def pay(bank: Bank, player: str, amount: int) -> Bank:
    """Pay a penalty to the bank (a Daily Briefing); short of cash: deactivate first."""
    account = _playing(bank, player)
    cost = _amount(amount, None, "penalty")
    return _put(bank, _charge(account, cost, "the penalty"))


def receive(bank: Bank, player: str, amount: int) -> Bank:
    """Receive money from the bank (a Daily Briefing bonus)."""
    account = _playing(bank, player)
    gain = _amount(amount, None, "amount")
    return _put(bank, replace(account, cash=account.cash + gain))


def pay_player(bank: Bank, payer: str, payee: str, amount: int) -> Bank:
    """Pay another player (an agreed deal, a card's instruction)."""
    if payer == payee:
        raise BadArgument("a player cannot pay themselves")
    giver = _charge(_playing(bank, payer), _amount(amount, None, "amount"), f"{payee}")
    bank = _put(bank, giver)
    taker = _playing(bank, payee)
    return _put(bank, replace(taker, cash=taker.cash + amount))


def fly_route(bank: Bank, player: str, number: int, *, use_fee: int | None = None) -> Bank:
    """Fly a route: needs the route's fleet; another player's active route costs its use fee."""
    account = _playing(bank, player)
    route = _route(bank, number)
    asset = Asset.route(number)
    owner = bank.owner(asset)
    if owner is None:
        raise NotAllowed(f"route {number} has no owner yet; only bought routes can be flown")
    if not account.active(Asset.fleet(route.haul)):
        raise NotAllowed(f"{player} needs an active {route.haul} fleet to fly route {number}")
    if owner.name == player or not owner.active(asset):
        return bank
    fee = _amount(use_fee, route.use_fee, f"route use fee for route {number}")
    return pay_player(bank, player, owner.name, fee)


def sell(bank: Bank, seller: str, buyer: str, asset: Asset, price: int) -> Bank:
    """Sell an active asset to another player at an agreed price."""
    if seller == buyer:
        raise BadArgument("a player cannot sell to themselves")
    giver = _playing(bank, seller)
    taker = _playing(bank, buyer)
    holding = giver.holding(asset)
    if holding is None:
        raise NotAllowed(f"{seller} does not own {asset.label}")
    if not holding.active:
        raise NotAllowed(f"{asset.label} is deactivated and cannot be sold")
    if asset.kind == "fleet" and taker.owns(asset):
        raise NotAllowed(f"{buyer} already owns a {asset.key} fleet (one of each type)")
    cost = _amount(price, None, "agreed price")
    taker = _acquire(taker, replace(holding, price=cost), asset.label)
    giver = replace(
        giver,
        cash=giver.cash + cost,
        holdings=tuple(h for h in giver.holdings if h.asset != asset),
    )
    return _put(_put(bank, giver), taker)


def declare_bankruptcy(bank: Bank, player: str, owed: int) -> Bank:
    """Out of the game: allowed when ``owed`` exceeds the cash and nothing is left to deactivate.

    The cash goes to the bank and every asset returns to the bank for auction.
    """
    account = _playing(bank, player)
    debt = _amount(owed, None, "amount owed")
    if debt <= account.cash:
        raise NotAllowed(f"{player} can pay ${debt}M with ${account.cash}M in hand")
    left = can_deactivate(bank, player)
    if left:
        raise NotAllowed(
            f"{player} must deactivate first: {', '.join(asset.label for asset in left)}"
        )
    return _put(bank, replace(account, cash=0, holdings=(), bought_this_turn=frozenset(),
                              bankrupt=True))

