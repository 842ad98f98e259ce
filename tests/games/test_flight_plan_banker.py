"""Flight Plan banker: purchases, revenue, cargo, hub fees, deactivation, bankruptcy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.flight_plan import (
    Asset,
    BadArgument,
    Bank,
    BankError,
    CannotPay,
    MissingAmount,
    NotAllowed,
    buy_fleet,
    buy_hub,
    buy_route,
    can_deactivate,
    check_player,
    deactivate,
    deactivation_value,
    declare_bankruptcy,
    example_guide_text,
    fly_route,
    guide_from_routes,
    lift_region_limit,
    may_extend,
    open_bank,
    parse_guide,
    pay,
    pay_player,
    receive,
    regions_of,
    revenue_per_turn,
    sell,
    start_turn,
)

GUIDE = parse_guide(
    """
[bank]
hub_use_fee = 10

[fleets]
short = 100
medium = 150
long = 200
ultra-long = 250
cargo = 120

[[routes]]
number = 1
from = "A"
to = "B"
regions = ["NA", "NA"]
hubs = ["A"]
price = 30
revenue = 10
use_fee = 5

[[routes]]
number = 2
from = "B"
to = "C"
regions = ["NA", "NA"]
hubs = ["C"]
cargo = true
price = 25
revenue = 5

[[routes]]
number = 3
from = "C"
to = "D"
regions = ["NA", "EU"]
hubs = ["C"]
price = 35
revenue = 10

[[routes]]
number = 4
from = "D"
to = "E"
regions = ["EU", "EU"]
hubs = ["E"]
price = 40
revenue = 15

[[routes]]
number = 5
from = "E"
to = "F"
regions = ["EU", "AF"]
hubs = ["E"]
price = 30
revenue = 10

[[routes]]
number = 6
from = "G"
to = "H"
regions = ["AP", "AP"]

[[routes]]
number = 31
from = "A"
to = "E"
regions = ["NA", "EU"]
hubs = ["A", "E"]
cargo = true
price = 60
revenue = 20

[[routes]]
number = 63
from = "F"
to = "G"
regions = ["AF", "AP"]
price = 80
revenue = 30

[[routes]]
number = 90
from = "G"
to = "A"
regions = ["AP", "NA"]
hubs = ["A"]
price = 100
revenue = 40
""",
    "bank-test.toml",
)


def new_bank(*, players: Sequence[str] = ("Ann", "Bo", "Cy"), cash: int | None = None) -> Bank:
    return open_bank(GUIDE, players, start_cash=cash)


def owning(
    bank: Bank, player: str, routes: Sequence[int] = (), fleets: Sequence[str] = (),
    hubs: Sequence[str] = (),
) -> Bank:
    """Buy assets as set-up (region limit ignored) and start a turn so they may be deactivated."""
    for number in routes:
        bank = buy_route(bank, player, number, ignore_region_limit=True)
    for fleet in fleets:
        bank = buy_fleet(bank, player, fleet)
    for city in hubs:
        bank = buy_hub(bank, player, city)
    return bank


def turn(bank: Bank, player: str) -> Bank:
    return start_turn(bank, player)[0]


def cash(bank: Bank, player: str) -> int:
    return bank.account(player).cash


# --- opening ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "each"), [(2, 1000), (3, 750), (4, 750), (5, 750), (6, 750)])
def test_flight_plan_banker_start_up_cash(players: int, each: int) -> None:
    bank = new_bank(players=[f"P{i}" for i in range(players)])
    assert [a.cash for a in bank.accounts] == [each] * players


@pytest.mark.parametrize(
    ("players", "message"),
    [(["Solo"], "2 to 6 players"), ([f"P{i}" for i in range(7)], "2 to 6 players"),
     (["Ann", "Ann"], "different non-empty names"), (["Ann", ""], "different non-empty names")],
)
def test_flight_plan_banker_refuses_bad_tables(players: list[str], message: str) -> None:
    with pytest.raises(BadArgument, match=message):
        new_bank(players=players)


def test_flight_plan_banker_start_cash_override() -> None:
    assert cash(new_bank(cash=500), "Bo") == 500


# --- buying -------------------------------------------------------------------------------------


def test_flight_plan_banker_buy_route_from_guide() -> None:
    bank = buy_route(new_bank(), "Ann", 1)
    account = bank.account("Ann")
    assert account.cash == 720
    assert account.holding(Asset.route(1)) is not None
    assert bank.owner(Asset.route(1)) == account


@pytest.mark.parametrize(
    ("kwargs", "error", "code", "message"),
    [
        ({"number": 6}, MissingAmount, "missing-amount",
         "the guide has no price for route 6: give it as an argument"),
        ({"number": 6, "price": 20}, MissingAmount, "missing-amount", "no revenue for route 6"),
        ({"number": 50}, BadArgument, "bad-argument", "route 50 is not in the route guide"),
        ({"number": 1, "price": -5}, BadArgument, "bad-argument", "price for route 1 must be"),
        ({"number": 5}, NotAllowed, "not-allowed", "may operate in only 2 regions"),
    ],
)
def test_flight_plan_banker_buy_route_refusals(
    kwargs: dict[str, int], error: type[BankError], code: str, message: str
) -> None:
    bank = buy_route(new_bank(), "Ann", 3)  # NA and EU
    with pytest.raises(error, match=message) as caught:
        buy_route(bank, "Ann", **kwargs)  # type: ignore[arg-type]
    assert caught.value.code == code
    assert isinstance(caught.value, ValueError)


def test_flight_plan_banker_buy_route_with_amounts_the_guide_lacks() -> None:
    bank = buy_route(new_bank(), "Ann", 6, price=20, revenue=5)
    bank = buy_fleet(turn(bank, "Ann"), "Ann", "short")
    assert start_turn(bank, "Ann")[1].routes == 5
    assert cash(bank, "Ann") == 750 - 20 - 100


def test_flight_plan_banker_route_owned_once() -> None:
    bank = buy_route(new_bank(), "Ann", 1)
    with pytest.raises(NotAllowed, match="route 1 is already owned by Ann"):
        buy_route(bank, "Bo", 1)


def test_flight_plan_banker_cannot_spend_more_than_cash() -> None:
    bank = new_bank(cash=20)
    with pytest.raises(CannotPay) as caught:
        buy_route(bank, "Ann", 1)
    assert caught.value.code == "cannot-pay"
    assert (caught.value.payer, caught.value.amount) == ("Ann", 30)
    assert "Ann has $20M and cannot pay $30M for route 1" in str(caught.value)
    assert cash(bank, "Ann") == 20


def test_flight_plan_banker_fleets() -> None:
    bank = buy_fleet(new_bank(), "Ann", "ultra-long")
    assert cash(bank, "Ann") == 500
    with pytest.raises(NotAllowed, match="already owns a ultra-long fleet"):
        buy_fleet(bank, "Ann", "ultra-long")
    with pytest.raises(BadArgument, match="unknown fleet 'jumbo'"):
        buy_fleet(bank, "Ann", "jumbo")
    bare = open_bank(guide_from_routes(
        [{"number": 1, "from": "A", "to": "B", "regions": ["NA", "NA"]}]), ["Ann", "Bo"])
    with pytest.raises(MissingAmount, match="no price for the short fleet"):
        buy_fleet(bare, "Ann", "short")
    assert cash(buy_fleet(bare, "Ann", "short", price=90), "Ann") == 910


def test_flight_plan_banker_hubs() -> None:
    bank = buy_route(new_bank(), "Ann", 1)
    bank = buy_hub(bank, "Ann", "A")
    assert cash(bank, "Ann") == 750 - 30 - 250
    with pytest.raises(NotAllowed, match="'B' is not a hub city"):
        buy_hub(bank, "Ann", "B")
    with pytest.raises(NotAllowed, match="Ann owns no route to or from C"):
        buy_hub(bank, "Ann", "C")
    bank = buy_route(bank, "Bo", 31)
    with pytest.raises(NotAllowed, match="Ann already has a hub in A"):
        buy_hub(bank, "Bo", "A")
    assert cash(buy_hub(bank, "Bo", "E", price=200), "Bo") == 750 - 60 - 200


# --- revenue ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("routes", "fleets", "route_revenue", "cargo"),
    [
        ([1], [], 0, 0),
        ([1], ["short"], 10, 0),
        ([1, 2], ["short"], 15, 0),
        ([1], ["medium"], 0, 0),
        ([2], ["cargo"], 0, 20),
        ([2], ["short", "cargo"], 5, 20),
        ([1, 31], ["short"], 10, 0),
        ([1, 2, 31], ["short", "medium", "cargo"], 35, 40),
        ([63, 90], ["long", "ultra-long"], 70, 0),
        ([63, 90], ["ultra-long"], 40, 0),
    ],
)
def test_flight_plan_banker_revenue(
    routes: list[int], fleets: list[str], route_revenue: int, cargo: int
) -> None:
    bank = owning(new_bank(cash=2000), "Ann", routes, fleets)
    before = cash(bank, "Ann")
    assert revenue_per_turn(bank, "Ann") == route_revenue + cargo
    bank, income = start_turn(bank, "Ann")
    assert (income.routes, income.cargo, income.hub_fees) == (route_revenue, cargo, ())
    assert cash(bank, "Ann") == before + route_revenue + cargo


def test_flight_plan_banker_hub_use_fees() -> None:
    bank = owning(new_bank(), "Ann", [1], hubs=["A"])
    bank = owning(bank, "Bo", [31, 90])  # both end at A
    bank = owning(bank, "Cy", [2])  # B-C: not at A
    bank, income = start_turn(bank, "Ann")
    assert income.hub_fees == (("Bo", 20),)
    assert income.total == 20
    assert cash(bank, "Bo") == 750 - 60 - 100 - 20
    assert cash(bank, "Ann") == 750 - 30 - 250 + 20
    # Bo's own turn: Ann's route 1 does not touch Bo's (non-existent) hubs.
    assert start_turn(bank, "Bo")[1].hub_fees == ()


def test_flight_plan_banker_hub_fee_exemption_same_region() -> None:
    bank = owning(new_bank(cash=2000), "Ann", [1], hubs=["A"])
    bank = owning(bank, "Bo", [31, 2], hubs=["C"])  # Bo has a hub in NA, A's region
    assert start_turn(bank, "Ann")[1].hub_fees == ()


def test_flight_plan_banker_hub_fees_void_when_deactivated() -> None:
    bank = owning(new_bank(), "Ann", [1], hubs=["A"])
    bank = turn(owning(bank, "Bo", [31, 90]), "Bo")
    bank = deactivate(bank, "Bo", Asset.route(90))
    assert start_turn(bank, "Ann")[1].hub_fees == (("Bo", 10),)
    bank = deactivate(turn(bank, "Ann"), "Ann", Asset.hub("A"))
    assert start_turn(bank, "Ann")[1].hub_fees == ()


def test_flight_plan_banker_hub_fee_missing_from_guide() -> None:
    guide = replace(GUIDE, bank=replace(GUIDE.bank, hub_use_fee=None))
    bank = open_bank(guide, ["Ann", "Bo"])
    bank = buy_hub(buy_route(bank, "Ann", 1), "Ann", "A")
    assert start_turn(bank, "Ann")[1].hub_fees == ()  # nobody owes: no amount needed
    bank = buy_route(bank, "Bo", 31)
    with pytest.raises(MissingAmount, match="no hub use fee"):
        start_turn(bank, "Ann")
    assert start_turn(bank, "Ann", hub_use_fee=15)[1].hub_fees == (("Bo", 15),)


def test_flight_plan_banker_hub_fee_payer_short_of_cash() -> None:
    bank = owning(new_bank(), "Ann", [1], hubs=["A"])
    bank = owning(bank, "Bo", [31])
    bank = pay(bank, "Bo", cash(bank, "Bo") - 5)
    with pytest.raises(CannotPay, match="Bo has \\$5M and cannot pay \\$10M") as caught:
        start_turn(bank, "Ann")
    assert caught.value.payer == "Bo"


# --- deactivation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("price", "paid"),
    [(25, 15), (30, 15), (35, 20), (0, 0), (1, 5), (10, 5), (40, 20), (45, 25), (250, 125),
     (120, 60), (155, 80)],
)
def test_flight_plan_banker_deactivation_value(price: int, paid: int) -> None:
    assert deactivation_value(price) == paid


@given(st.integers(0, 10_000))
def test_flight_plan_banker_deactivation_value_is_half_rounded_up_to_5(price: int) -> None:
    value = deactivation_value(price)
    assert value % 5 == 0
    assert price <= 2 * value < price + 10


def test_flight_plan_banker_deactivate_three_turn_countdown() -> None:
    bank = owning(new_bank(), "Ann", [1], ["short"])
    with pytest.raises(NotAllowed, match="route 1 was bought this turn"):
        deactivate(bank, "Ann", Asset.route(1))
    bank, income = start_turn(bank, "Ann")
    assert income.routes == 10
    before = cash(bank, "Ann")
    bank = deactivate(bank, "Ann", Asset.route(1))
    assert cash(bank, "Ann") == before + 15  # half of 30
    holding = bank.account("Ann").holding(Asset.route(1))
    assert holding is not None and holding.turns_left == 3
    with pytest.raises(NotAllowed, match="route 1 is already deactivated"):
        deactivate(bank, "Ann", Asset.route(1))
    for left in (2, 1, 0):
        bank, income = start_turn(bank, "Ann")
        assert income.routes == 0
        holding = bank.account("Ann").holding(Asset.route(1))
        assert holding is not None and holding.turns_left == left
        # other players' turns do not count down Ann's assets
        bank = turn(bank, "Bo")
    bank, income = start_turn(bank, "Ann")
    assert income.reactivated == (Asset.route(1),)
    assert income.routes == 10
    assert bank.account("Ann").active(Asset.route(1))


def test_flight_plan_banker_deactivated_fleet_earns_nothing() -> None:
    bank = turn(owning(new_bank(), "Ann", [1, 2], ["short", "cargo"]), "Ann")
    bank = deactivate(bank, "Ann", Asset.fleet("short"))
    assert cash(bank, "Ann") > 0
    income = start_turn(bank, "Ann")[1]
    assert (income.routes, income.cargo) == (0, 20)
    with pytest.raises(NotAllowed, match="Ann does not own fleet long"):
        deactivate(bank, "Ann", Asset.fleet("long"))


# --- penalties and bankruptcy -------------------------------------------------------------------


def test_flight_plan_banker_bankruptcy() -> None:
    bank = turn(buy_route(new_bank(cash=40), "Ann", 1), "Ann")
    assert cash(bank, "Ann") == 10
    with pytest.raises(CannotPay, match="cannot pay \\$50M for the penalty"):
        pay(bank, "Ann", 50)
    with pytest.raises(NotAllowed, match="Ann must deactivate first: route 1"):
        declare_bankruptcy(bank, "Ann", 50)
    bank = deactivate(bank, "Ann", Asset.route(1))
    assert cash(bank, "Ann") == 25
    assert can_deactivate(bank, "Ann") == []
    with pytest.raises(NotAllowed, match="Ann can pay \\$20M with \\$25M in hand"):
        declare_bankruptcy(bank, "Ann", 20)
    bank = declare_bankruptcy(bank, "Ann", 50)
    account = bank.account("Ann")
    assert account.bankrupt and account.cash == 0 and account.holdings == ()
    assert bank.owner(Asset.route(1)) is None
    for action in (lambda: pay(bank, "Ann", 1), lambda: buy_route(bank, "Ann", 2),
                   lambda: start_turn(bank, "Ann")):
        with pytest.raises(NotAllowed, match="Ann is bankrupt"):
            action()
    # the repossessed route is auctioned: the winning bid is the price
    assert cash(buy_route(bank, "Bo", 1, price=25), "Bo") == 15


def test_flight_plan_banker_bankrupt_with_assets_bought_this_turn() -> None:
    bank = buy_route(new_bank(cash=30), "Ann", 1)
    assert can_deactivate(bank, "Ann") == []
    assert declare_bankruptcy(bank, "Ann", 10).account("Ann").bankrupt


def test_flight_plan_banker_money_between_players() -> None:
    bank = receive(new_bank(), "Ann", 50)
    assert cash(bank, "Ann") == 800
    bank = pay_player(bank, "Ann", "Bo", 100)
    assert (cash(bank, "Ann"), cash(bank, "Bo")) == (700, 850)
    with pytest.raises(CannotPay):
        pay_player(bank, "Ann", "Bo", 701)
    with pytest.raises(BadArgument, match="themselves"):
        pay_player(bank, "Ann", "Ann", 1)
    with pytest.raises(BadArgument, match="no player named 'Zed'"):
        receive(bank, "Zed", 1)


def test_flight_plan_banker_route_use_fee() -> None:
    bank = turn(owning(new_bank(), "Ann", [1, 2]), "Ann")
    with pytest.raises(NotAllowed, match="Bo needs an active short fleet to fly route 1"):
        fly_route(bank, "Bo", 1)
    with pytest.raises(NotAllowed, match="route 3 has no owner yet"):
        fly_route(bank, "Bo", 3)
    bank = buy_fleet(bank, "Bo", "short")
    paid = fly_route(bank, "Bo", 1)
    assert (cash(paid, "Bo") - cash(bank, "Bo"), cash(paid, "Ann") - cash(bank, "Ann")) == (-5, 5)
    with pytest.raises(MissingAmount, match="no route use fee for route 2"):
        fly_route(bank, "Bo", 2)
    assert cash(fly_route(bank, "Bo", 2, use_fee=7), "Ann") == cash(bank, "Ann") + 7
    free = deactivate(bank, "Ann", Asset.route(1))
    assert fly_route(free, "Bo", 1) == free


def test_flight_plan_banker_sell_between_players() -> None:
    bank = turn(owning(new_bank(), "Ann", [1], ["short"]), "Ann")
    sold = sell(bank, "Ann", "Bo", Asset.route(1), 50)
    assert sold.owner(Asset.route(1)) == sold.account("Bo")
    assert (cash(sold, "Ann"), cash(sold, "Bo")) == (cash(bank, "Ann") + 50, 700)
    with pytest.raises(NotAllowed, match="bought this turn"):
        deactivate(sold, "Bo", Asset.route(1))
    assert deactivate(turn(sold, "Bo"), "Bo", Asset.route(1)).account("Bo").cash == 725
    with pytest.raises(NotAllowed, match="Bo does not own route 1"):
        sell(bank, "Bo", "Ann", Asset.route(1), 5)
    bo_fleet = buy_fleet(bank, "Bo", "short")
    with pytest.raises(NotAllowed, match="Bo already owns a short fleet"):
        sell(bo_fleet, "Ann", "Bo", Asset.fleet("short"), 5)
    with pytest.raises(NotAllowed, match="deactivated and cannot be sold"):
        sell(deactivate(bank, "Ann", Asset.route(1)), "Ann", "Bo", Asset.route(1), 5)


# --- the two-region limit -----------------------------------------------------------------------


def test_flight_plan_banker_two_region_limit() -> None:
    bank = buy_route(buy_route(new_bank(), "Ann", 1), "Ann", 3)
    assert regions_of(bank, "Ann") == {"NA", "EU"}
    assert not may_extend(bank, "Ann")
    with pytest.raises(NotAllowed, match="route 5 would make 3"):
        buy_route(bank, "Ann", 5)
    assert buy_route(lift_region_limit(bank, "Ann"), "Ann", 5).owner(Asset.route(5)) is not None


def test_flight_plan_banker_extend_by_revenue_or_fleet_worth() -> None:
    base = buy_route(new_bank(cash=2000), "Ann", 1, revenue=120)
    rich = buy_fleet(base, "Ann", "short")
    assert may_extend(rich, "Ann")  # $120M a turn, everything earning
    big = buy_fleet(buy_route(new_bank(cash=2000), "Ann", 1), "Ann", "short", price=500)
    assert may_extend(big, "Ann")  # $500M of fleets, everything earning
    assert buy_route(buy_route(big, "Ann", 3), "Ann", 5).account("Ann").cash > 0
    idle = buy_fleet(big, "Ann", "cargo")  # no cargo route: the cargo fleet earns nothing
    assert not may_extend(idle, "Ann")
    parked = deactivate(turn(big, "Ann"), "Ann", Asset.fleet("short"))
    assert not may_extend(parked, "Ann")


def test_flight_plan_banker_win_check_from_bank() -> None:
    bank = owning(new_bank(cash=2000), "Ann", [1, 4, 5], hubs=["A", "E"])
    assert not check_player(bank, "Ann").conditions["three-hubs"]
    bank = turn(owning(bank, "Ann", [3], hubs=["C"]), "Ann")
    bank = owning(bank, "Ann", [63])
    # A and C are both NA, E is EU: two regions only
    assert check_player(bank, "Ann").missing["three-hubs"] == "hubs in 2 of 3 regions"


# --- illegal actions never change state ---------------------------------------------------------

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["route", "fleet", "hub", "turn", "deactivate", "pay", "fly"]),
        st.sampled_from(["Ann", "Bo"]),
        st.sampled_from([1, 2, 3, 4, 5, 6, 31, 63, 90]),
        st.sampled_from(["short", "medium", "long", "ultra-long", "cargo"]),
        st.sampled_from(["A", "C", "E", "B"]),
        st.integers(0, 400),
    ),
    max_size=40,
)


@given(ACTIONS)
def test_flight_plan_banker_random_play_keeps_invariants(actions: list[tuple]) -> None:  # type: ignore[type-arg]
    bank = open_bank(GUIDE, ["Ann", "Bo"])
    for kind, player, number, fleet, city, amount in actions:
        before = bank
        try:
            if kind == "route":
                bank = buy_route(bank, player, number, price=amount, revenue=amount // 4)
            elif kind == "fleet":
                bank = buy_fleet(bank, player, fleet)
            elif kind == "hub":
                bank = buy_hub(bank, player, city)
            elif kind == "turn":
                bank = turn(bank, player)
            elif kind == "deactivate":
                targets = can_deactivate(bank, player)
                bank = deactivate(bank, player, targets[amount % len(targets)]) if targets else bank
            elif kind == "pay":
                bank = pay(bank, player, amount)
            else:
                bank = fly_route(bank, player, number, use_fee=amount // 10)
        except BankError as error:
            assert error.code in {"not-allowed", "bad-argument", "cannot-pay", "missing-amount"}
            assert bank is before
        owners: dict[Asset, str] = {}
        for account in bank.accounts:
            assert account.cash >= 0
            kinds = [h.asset for h in account.holdings]
            assert len(kinds) == len(set(kinds))
            for holding in account.holdings:
                assert holding.turns_left in (None, 0, 1, 2, 3)
                if holding.asset.kind != "fleet":
                    assert holding.asset not in owners
                    owners[holding.asset] = account.name


def test_banker_assets_bought_on_an_earlier_turn_can_be_deactivated_on_anothers_turn():
    """A hub fee owed at another player's turn start may be raised by deactivating what the
    payer bought on their own previous turn: that purchase is no longer 'this turn'."""
    guide = parse_guide(example_guide_text(), "example_guide.toml")
    first, second = "Ann", "Bo"
    bank = open_bank(guide, [first, second])
    route = guide.routes[0].number
    bank = buy_route(bank, first, route, ignore_region_limit=True)
    with pytest.raises(BankError, match="bought this turn"):
        deactivate(bank, first, Asset.route(route))
    bank, _ = start_turn(bank, second)
    bank = deactivate(bank, first, Asset.route(route))
    holding = next(h for h in bank.accounts[0].holdings if h.asset == Asset.route(route))
    assert holding.turns_left == 3
