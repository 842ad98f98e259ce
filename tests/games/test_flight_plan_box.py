"""The Flight Plan bank on the box, driven through App: every action, refusals, bankruptcy,
undo by replay, the win, and every screen within the Screen limits."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import Expire, OptionError, Play, Restore, RuleError
from companion.games.flight_plan import FlightPlanBanker, draw_starting_routes
from companion.games.flight_plan.guide import example_guide_text, guide_from_routes, parse_guide
from companion.games.flight_plan.start import draw_for_guide, example_guide
from companion.games.flight_plan.state import MENU_KEYS
from companion.games.registry import playable_games
from companion.scenes import run_scene
from companion.ui.render import HEIGHT, WIDTH, render
from companion.ui.screen import (
    Screen,
    reads_from_a_seat,
    screen_problems,
)
from companion.ui.views import screen_for
from companion.ui.views.flight_plan import SCENES, flight_plan_screen

NEXT, UP, DOWN = "next", "up", "down"
ALL_STEPS = {"deal", "revenue", "menu", "route", "fleet", "hub", "deactivate", "amount",
             "payee", "debt", "win", "over"}

# seed=7 deals (example guide): 3 players and 2 players.
DEALT_3 = {"P1": [52, 3, 8], "P2": [12, 1, 94], "P3": [81, 9, 4]}
DEALT_2 = {"P1": [3, 52, 9], "P2": [81, 1, 8]}


def check_fits(screen: Screen) -> None:
    assert not screen_problems(screen), screen_problems(screen)
    assert reads_from_a_seat(screen), screen.text_lines()
    assert render(screen).size == (WIDTH, HEIGHT)


class Box:
    """An App running the bank; every screen is checked after every input."""

    def __init__(self, game: FlightPlanBanker | None = None, **options: str) -> None:
        self.app = App([game or FlightPlanBanker()])
        options.setdefault("seed", "7")
        self.state, self.effects = self.app.new_game(AppState(), "flight-plan", options, 1, 0.0)
        self.seen: set[str] = set()
        self.look()

    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, 0.0)

    def __getitem__(self, key: str) -> Any:
        return self.json()[key]

    def look(self) -> Screen:
        assert self.state.session is not None
        check_fits(flight_plan_screen(self.state.session.state, 0.0))
        screen = screen_for(self.app, self.state, 0.0)
        check_fits(screen)
        self.seen.add(self["step"])
        return screen

    def lines(self) -> list[str]:
        return self.look().text_lines()

    def press(self, button: str, kind: str = "press") -> None:
        gesture = Gesture("hold" if kind == "hold" else "press", Button(button), 0.0)
        self.state, self.effects = self.app.gesture(self.state, gesture, 0.0)
        self.look()

    def hold(self, button: str) -> None:
        self.press(button, "hold")

    def refused(self, button: str, kind: str = "press", code: str | None = None) -> str:
        """The input is refused and changes nothing; the alert shows why."""
        before, before_json = self.state, self.json()
        with pytest.raises(RuleError) as caught:
            self.press(button, kind)
        assert self.state is before and self.json() == before_json
        if code is not None:
            assert caught.value.code == code, caught.value.message
        shown = self.app.refuse(self.state, caught.value)
        check_fits(screen_for(self.app, shown, 0.0))
        return caught.value.message

    def menu(self, key: str) -> None:
        for _ in MENU_KEYS:
            if self["item"] == key:
                break
            self.press(DOWN)
        assert self["item"] == key
        self.press(NEXT)

    def pick(self, value: object) -> None:
        """DOWN until the picker shows ``value``, then NEXT."""
        for _ in range(120):
            if self["choice"] == value:
                break
            self.press(DOWN)
        assert self["choice"] == value
        self.press(NEXT)

    def amount(self, dollars: int) -> None:
        while self["entry"]["amount"] < dollars:
            self.press(UP)
        assert self["entry"]["amount"] == dollars
        self.press(NEXT)

    def setup(self) -> None:
        while self["step"] == "deal":
            self.press(NEXT)

    def buy_route(self, number: int) -> None:
        self.menu("route")
        self.pick(number)

    def end_turn(self) -> None:
        self.menu("end")

    def idle(self) -> None:
        """Collect revenue (if shown) and end the turn."""
        if self["step"] == "revenue":
            self.press(NEXT)
        self.end_turn()

    def cash(self, player: str) -> int:
        return int(self["cash"][player])


def first_round(box: Box) -> None:
    """P1: routes 3 and 8, short fleet; P2: route 12, short fleet; P3: routes 9 and 4, short
    and cargo fleets (the e2e script's opening)."""
    box.setup()
    box.buy_route(3)
    box.buy_route(8)
    box.menu("fleet")
    box.pick("short")
    box.end_turn()
    box.buy_route(12)
    box.menu("fleet")
    box.pick("short")
    box.end_turn()
    box.buy_route(9)
    box.buy_route(4)
    box.menu("fleet")
    box.pick("short")
    box.menu("fleet")
    box.pick("cargo")
    box.end_turn()


# -- starting ------------------------------------------------------------------------------------


def test_new_game_deals_three_routes_each_and_the_rulebook_cash() -> None:
    box = Box(players="3")
    assert box["phase"] == "setup" and box["step"] == "deal"
    assert box["dealt"] == DEALT_3
    assert box["cash"] == {"P1": 750, "P2": 750, "P3": 750}
    assert box["result"] is None and box["guide"] == "example" and box["start"] == "draw"
    two = Box(players="2")
    assert two["dealt"] == DEALT_2
    assert two["cash"] == {"P1": 1000, "P2": 1000}
    assert two.lines()[1] == "Give $1000M each"


def test_setup_pages_show_each_players_routes_then_the_first_move() -> None:
    box = Box(players="3")
    box.press(NEXT)
    assert box.lines()[:5] == ["Setup 2/4 P1 routes", "Give P1 these 3", "52 Fuego-Jorvasa",
                               "3 Cedar Falls-Alderport", "8 Jorvasa-Kalunde"]
    box.press(UP)
    assert box.json()["step"] == "deal"
    box.setup()
    assert box["phase"] == "turn" and box["step"] == "menu"
    assert box["player"] == "P1" and box["first_move"] is True and box["round"] == 1


def test_the_draw_replays_identically_and_uses_only_guide_routes() -> None:
    guide = example_guide()
    for seed in range(20):
        hands = Box(players="6", seed=str(seed))["dealt"]
        numbers = [n for hand in hands.values() for n in hand]
        assert len(numbers) == 18 == len(set(numbers))
        assert all(guide.route(n) is not None for n in numbers)
        assert Box(players="6", seed=str(seed))["dealt"] == hands


def test_the_draw_with_a_complete_guide_is_the_rulebook_draw() -> None:
    full = guide_from_routes([{"number": n, "from": f"A{n}", "to": f"B{n}",
                               "regions": ["NA", "EU"]} for n in range(1, 101)])
    for seed in range(10):
        assert draw_for_guide(random.Random(seed), full, 4) == draw_starting_routes(
            random.Random(seed), 4)


def test_quick_play_deals_the_rulebook_set_and_marks_cards_missing_from_the_guide() -> None:
    box = Box(players="3", start="quick")
    numbers = [n for hand in box["dealt"].values() for n in hand]
    assert set(numbers) <= {17, 18, 20, 24, 25, 33, 43, 45, 48, 52, 64, 67, 70, 81, 87, 94,
                            97, 100}
    box.press(NEXT)
    assert any("not in guide" in line for line in box.lines())


def test_the_box_seed_draws_when_no_seed_is_given() -> None:
    app = App([FlightPlanBanker()])
    one, _ = app.new_game(AppState(), "flight-plan", {}, 5, 0.0)
    two, _ = app.new_game(AppState(), "flight-plan", {"seed": "5"}, 99, 0.0)
    assert app.to_json(one, 0.0)["dealt"] == app.to_json(two, 0.0)["dealt"]


def test_options_are_checked() -> None:
    app = App([FlightPlanBanker()])
    for bad in ({"players": "7"}, {"players": "1"}, {"start": "fast"}, {"guide": "owner"},
                {"seed": "x"}, {"colour": "red"}):
        with pytest.raises(OptionError):
            app.new_game(AppState(), "flight-plan", bad, 1, 0.0)


def test_the_owners_guide_is_used_when_given() -> None:
    text = example_guide_text().replace('title = "Made-up', 'title = "Mine, made-up')
    owner = parse_guide(text, "mine.toml")
    game = FlightPlanBanker(owner)
    assert [spec.choices for spec in game.options if spec.key == "guide"] == [
        ("owner", "example")]
    box = Box(game, players="2")
    assert box["guide"] == "owner"
    assert Box(game, players="2", guide="example")["guide"] == "example"


def test_registered_before_the_round_timer() -> None:
    names = [game.name for game in playable_games()]
    assert names.index("flight-plan") == names.index("timer") - 1
    assert next(g for g in playable_games() if g.name == "flight-plan").title == (
        "Flight Plan bank")


# -- actions -------------------------------------------------------------------------------------


def test_first_move_buys_starting_routes_fleets_and_a_hub() -> None:
    box = Box(players="3")
    box.setup()
    box.buy_route(3)
    assert box.cash("P1") == 715 and box["assets"]["P1"]["routes"] == [3]
    assert box["note"] == "Route 3: -$35M" and box["step"] == "menu"
    box.menu("fleet")
    assert box["choice"] == "short"
    box.press(NEXT)
    assert box["assets"]["P1"]["fleets"] == ["short"] and box.cash("P1") == 615
    box.menu("hub")
    assert box["choice"] == "Alderport"
    box.press(NEXT)
    assert box["assets"]["P1"]["hubs"] == ["Alderport"] and box.cash("P1") == 365
    assert box["win"]["P1"]["missing"]["three-hubs"] == "hubs in 1 of 3 regions"


def test_first_move_offers_only_the_players_starting_routes() -> None:
    box = Box(players="3")
    box.setup()
    box.menu("route")
    offered = set()
    for _ in range(3):
        offered.add(box["choice"])
        box.press(DOWN)
    assert offered == {52, 3, 8}
    box.hold(NEXT)  # back to the menu, nothing bought
    assert box["step"] == "menu" and box.cash("P1") == 750


def test_a_missing_route_price_and_revenue_are_asked_for() -> None:
    box = Box(players="3")
    box.setup()
    box.buy_route(52)  # the guide has its price ($55M), not its revenue
    assert box["step"] == "amount" and box["entry"]["purpose"] == "route-revenue"
    assert box.lines()[0] == "Revenue route 52"
    box.amount(15)
    assert box.cash("P1") == 695
    assert box["assets"]["P1"]["routes"] == [52]
    state = box.state.session.state  # type: ignore[union-attr]
    holding = state.bank.account("P1").holdings[0]
    assert (holding.price, holding.revenue) == (55, 15)


def test_amounts_step_by_5_and_by_50_held_and_never_below_zero() -> None:
    box = Box(players="3")
    box.setup()
    box.menu("receive")
    box.refused(DOWN)
    box.press(UP)
    box.hold(UP)
    assert box["entry"]["amount"] == 55
    box.hold(DOWN)
    box.press(DOWN)
    box.refused(NEXT, code="bad-argument")  # $0: nothing to receive
    box.press(UP)
    box.press(NEXT)
    assert box.cash("P1") == 755 and box["note"] == "P1 received $5M"


def test_revenue_is_itemised_at_the_start_of_each_later_turn() -> None:
    box = Box(players="3")
    first_round(box)
    assert box["round"] == 2 and box["player"] == "P1" and box["step"] == "revenue"
    assert box["revenue"] == {"routes": 20, "cargo": 0, "hub_fees": {}, "total": 20,
                              "reactivated": []}
    assert box.lines()[:5] == ["P1 revenue rnd 2", "Bank pays +$20M", "Routes $20M cargo $0M",
                               "Hub use fees $0M", "Nothing deactivated"]
    box.idle()
    box.idle()
    assert box["player"] == "P3" and box["revenue"]["cargo"] == 20
    assert box["revenue"]["total"] == 40 and box.cash("P3") == 510


def test_hub_use_fees_are_paid_to_the_hub_owner_at_the_start_of_their_turn() -> None:
    box = Box(players="3")
    box.setup()
    box.buy_route(3)
    box.menu("hub")
    box.pick("Alderport")
    box.end_turn()
    box.buy_route(1)  # P2: Alderport-Birchfield, at P1's hub
    box.end_turn()
    box.buy_route(4)
    box.end_turn()
    assert box["revenue"]["hub_fees"] == {"P2": 10}
    assert box.cash("P1") == 750 - 35 - 250 + 10 and box.cash("P2") == 750 - 30 - 10


def test_a_hub_use_fee_missing_from_the_guide_is_asked_once() -> None:
    text = example_guide_text().replace("hub_use_fee = 10", "")
    box = Box(FlightPlanBanker(parse_guide(text, "mine.toml")), players="3")
    box.setup()
    box.buy_route(3)
    box.menu("hub")
    box.pick("Alderport")
    box.end_turn()
    box.buy_route(1)
    box.end_turn()
    box.buy_route(4)
    box.end_turn()
    assert box["step"] == "amount" and box["entry"]["purpose"] == "hub-fee"
    box.refused(NEXT, "hold")  # the turn cannot start without it
    box.amount(15)
    assert box["hub_fee"] == 15 and box["revenue"]["hub_fees"] == {"P2": 15}
    box.idle()
    box.idle()
    box.idle()
    assert box["player"] == "P1" and box["revenue"]["hub_fees"] == {"P2": 15}


def test_deactivating_pays_half_rounded_up_and_counts_down_three_turns() -> None:
    box = Box(players="3")
    first_round(box)
    box.press(NEXT)
    box.menu("deactivate")
    box.pick("route 8")
    assert box.cash("P1") == 610 + 15  # half of $25M, rounded up to $15M
    assert box["countdowns"]["P1"] == [{"asset": "route 8", "turns_left": 3}]
    assert box["note"] == "route 8 off: +$15M"
    assert box["win"]["P1"]["missing"]["three-hubs"].endswith("reactivate route 8")
    box.menu("deactivate")
    box.press(DOWN)
    assert box["choice"] == "route 8" and "off, 3 turns left" in box.lines()
    assert box.refused(NEXT) == "route 8 is already deactivated"
    box.hold(NEXT)
    assert box["step"] == "menu"


def test_deactivation_countdown_through_whole_rounds() -> None:
    box = Box(players="3")
    first_round(box)
    box.press(NEXT)
    box.menu("deactivate")
    box.pick("route 8")
    box.end_turn()
    box.idle()
    box.idle()
    for meeples in (2, 1, 0):
        assert box["player"] == "P1"
        assert box["countdowns"]["P1"] == [{"asset": "route 8", "turns_left": meeples}]
        assert box["revenue"]["routes"] == 10  # route 8 earns nothing while off
        assert f"route 8 ({meeples})" in " ".join(box.lines())
        box.idle()
        box.idle()
        box.idle()
    assert box["countdowns"]["P1"] == []
    assert box["revenue"]["reactivated"] == ["route 8"] and box["revenue"]["routes"] == 20
    assert "Back: route 8" in box.lines()


def test_pay_the_bank_and_receive() -> None:
    box = Box(players="3")
    box.setup()
    box.menu("pay")
    box.amount(40)
    assert box.cash("P1") == 710 and box["note"] == "P1 paid the bank $40M"
    box.menu("receive")
    box.amount(25)
    assert box.cash("P1") == 735


def test_pay_a_player() -> None:
    box = Box(players="3")
    box.setup()
    box.menu("pay-player")
    assert box["step"] == "payee" and box["choice"] == "P2"
    box.pick("P3")
    assert box.lines()[0] == "P1 pays P3"
    box.amount(30)
    assert box["cash"] == {"P1": 720, "P2": 750, "P3": 780}


def test_lift_the_region_limit_after_a_daily_briefing() -> None:
    box = Box(players="3")
    box.setup()
    box.buy_route(3)  # NA
    box.buy_route(8)  # AF
    box.end_turn()
    box.buy_route(12)
    box.end_turn()
    box.buy_route(9)
    box.end_turn()
    box.press(NEXT)
    box.menu("route")
    while box["choice"] != 31:
        box.press(DOWN)
    assert "route 31 would make 3" in box.refused(NEXT)  # NA-SA: a third region
    box.hold(NEXT)
    box.menu("lift")
    assert box["unrestricted"] == ["P1"]
    box.menu("route")
    box.pick(31)
    assert 31 in box["assets"]["P1"]["routes"]


def test_win_check_pages_show_every_player() -> None:
    box = Box(players="3")
    first_round(box)
    box.press(NEXT)
    box.menu("win")
    assert box["step"] == "win"
    lines = box.lines()
    assert lines[0] == "Win check P1 1/3"
    assert "hubs in 0 of 3 regions" in lines
    box.press(DOWN)
    assert box.lines()[0] == "Win check P2 2/3"
    box.press(UP)
    box.press(UP)
    assert box.lines()[0] == "Win check P3 3/3"
    assert any(line.startswith("short haul SA 1 of 2") for line in box.lines())
    box.press(NEXT)
    assert box["step"] == "menu" and box["item"] == "win"


# -- refusals ------------------------------------------------------------------------------------


def test_not_enough_cash_is_refused_and_changes_nothing() -> None:
    box = Box(players="3")
    box.setup()
    box.buy_route(3)
    box.menu("pay")
    box.amount(700)
    assert box.cash("P1") == 15
    box.menu("fleet")
    message = box.refused(NEXT, code="cannot-pay")
    assert message == "P1 has $15M and cannot pay $100M for the short fleet"


def test_a_route_already_owned_is_refused_and_changes_nothing() -> None:
    box = Box(players="3")
    first_round(box)
    box.idle()
    box.press(NEXT)  # P2, round 2
    box.menu("route")
    for _ in range(30):
        if box["choice"] == 3:
            break
        box.press(DOWN)
    assert "owned by P1" in box.lines()
    message = box.refused(NEXT, code="not-allowed")
    assert message == "route 3 is already owned by P1"


def test_other_refusals_change_nothing() -> None:
    box = Box(players="3")
    box.refused(NEXT, "hold")  # setup: nothing to go back to
    box.setup()
    box.refused(NEXT, "hold")  # the menu: nothing to go back to
    first_round(box)
    assert box["step"] == "revenue"
    box.refused(UP)  # NEXT goes on to the menu
    box.refused(DOWN)


def test_first_move_must_buy_a_starting_route() -> None:
    box = Box(players="3")
    box.setup()
    for _ in range(9):
        box.press(DOWN)
    assert box["item"] == "end"
    assert box.refused(NEXT) == "P1 must buy a starting route first"


def test_region_limit_and_deactivating_a_fresh_purchase_are_refused() -> None:
    box = Box(players="3")
    box.setup()
    box.buy_route(3)
    box.menu("deactivate")
    assert "bought this turn" in box.lines()
    assert box.refused(NEXT).endswith("was bought this turn and cannot be deactivated yet")
    box.hold(NEXT)
    box.end_turn()
    box.buy_route(12)  # ME-AF
    box.menu("route")
    assert box["choice"] == 1  # the first one still free; NA: a third region after ME, AF
    assert "may operate in only 2 regions" in box.refused(NEXT)


def test_hub_needs_a_route_to_a_hub_city_and_a_free_city() -> None:
    box = Box(players="3")
    box.setup()
    box.buy_route(8)  # Jorvasa (hub city)-Kalunde
    box.end_turn()
    box.buy_route(12)  # Qasira-Kalunde: no hub city
    for _ in MENU_KEYS:
        if box["item"] == "hub":
            break
        box.press(DOWN)
    assert box.refused(NEXT) == "P2 owns no route to or from a hub city"


def test_timer_actions_and_back_do_nothing() -> None:
    game = FlightPlanBanker()
    state = game.new({"players": "3", "start": "draw", "guide": "example", "seed": "7"}, 1)
    assert game.step(state, Restore(), 0.0) == (state, ())
    with pytest.raises(RuleError):
        game.step(state, Expire(), 0.0)
    assert game.countdown(state) is None


# -- debts, bankruptcy, the win -------------------------------------------------------------------


def test_a_penalty_beyond_the_cash_is_raised_by_deactivating() -> None:
    box = Box(players="3")
    first_round(box)
    box.press(NEXT)  # P1, round 2: cash 610
    box.menu("pay")
    box.amount(650)
    assert box["step"] == "debt"
    assert box["debt"] == {"payer": "P1", "amount": 650, "payee": None, "reason": "penalty"}
    box.refused(NEXT, "hold")  # the debt must be settled
    box.pick("fleet short")  # +$50M: 660 covers 650, paid at once
    assert box["step"] == "menu" and box.cash("P1") == 10
    assert box["countdowns"]["P1"] == [{"asset": "fleet short", "turns_left": 3}]


def test_bankruptcy_when_nothing_is_left_to_deactivate() -> None:
    box = Box(players="3")
    box.setup()
    box.buy_route(3)
    box.end_turn()
    box.buy_route(12)
    box.end_turn()
    box.buy_route(4)
    box.menu("pay")
    box.amount(800)  # P3 has $720M and only route 4, bought this turn
    assert box["step"] == "debt" and "NEXT declare bankruptcy" in box.lines()
    box.press(NEXT)
    assert box["bankrupt"] == ["P3"]
    assert box["assets"]["P3"] == {"routes": [], "fleets": [], "hubs": []}
    assert box.cash("P3") == 0
    assert box["player"] == "P1" and box["round"] == 2
    box.idle()
    assert box["player"] == "P2"
    box.idle()
    assert box["player"] == "P1" and box["round"] == 3  # P3 is skipped
    assert box.lines()[0] == "P1 revenue rnd 3"
    box.press(NEXT)
    box.menu("pay-player")
    assert box["choice"] == "P2"
    box.press(DOWN)
    assert box["choice"] == "P2"  # the only one left to pay


def test_hub_use_fees_nobody_can_pay_bankrupt_the_payer() -> None:
    box = Box(players="3")
    box.setup()
    box.buy_route(3)
    box.menu("hub")
    box.pick("Alderport")
    box.end_turn()
    box.buy_route(1)
    box.menu("pay")
    box.amount(715)  # P2 keeps $5M and owes P1 $10M at P1's next turn start
    box.end_turn()
    box.buy_route(4)
    box.end_turn()
    assert box["step"] == "debt"
    assert box["debt"] == {"payer": "P2", "amount": 10, "payee": "P1", "reason": "hub-fees"}
    assert box.lines()[0] == "P2 owes $10M"
    box.press(NEXT)
    assert box["bankrupt"] == ["P2"] and box["step"] == "revenue" and box["player"] == "P1"
    assert box["revenue"]["hub_fees"] == {}


def test_the_last_airline_flying_wins() -> None:
    box = Box(players="2")
    box.setup()
    box.buy_route(3)
    box.end_turn()
    box.buy_route(81)
    box.end_turn()
    box.press(NEXT)
    box.menu("pay")
    box.amount(1000)
    box.pick("route 3")  # +$20M is not enough
    assert box["step"] == "debt"
    box.press(NEXT)  # nothing left: bankrupt
    assert box["result"] == {"winner": "P2", "winners": ["P2"],
                             "conditions": {"P2": ["last-airline"]}, "round": 2, "turn": 4}
    assert Play("win") in box.effects
    assert box.lines()[1:3] == ["P2 WINS", "by last airline flying"]


def test_the_win_is_called_after_the_change_that_makes_it_and_undo_takes_it_back() -> None:
    box = Box(players="3")
    first_round(box)
    box.idle()
    box.idle()
    box.press(NEXT)  # P3, round 2
    box.buy_route(5)
    box.amount(10)  # revenue the guide lacks
    box.buy_route(10)
    box.amount(40)  # price
    assert box["result"] is None
    box.press(UP)
    box.press(UP)
    before = box.state
    box.press(NEXT)  # revenue $10M: P3 owns SA 4, 5 and AP 9, 10
    assert box["phase"] == "over" and box["step"] == "over"
    assert box["result"] == {"winner": "P3", "winners": ["P3"],
                             "conditions": {"P3": ["short-haul"]}, "round": 2, "turn": 6}
    assert Play("win") in box.effects
    assert box.lines()[:3] == ["Flight Plan: the end", "P3 WINS", "by short haul"]
    assert "won" in box.refused(NEXT)
    box.state, _ = box.app.undo(box.state, 0.0)
    assert box["result"] is None and box["step"] == "amount"
    assert box.app.to_json(before, 0.0) == box.json()


def test_undo_replays_every_transaction() -> None:
    box = Box(players="3")
    first_round(box)
    box.press(NEXT)
    snapshot = box.json()
    assert box.state.session is not None
    mark = len(box.state.session.history)
    box.menu("deactivate")
    box.pick("route 8")
    box.menu("receive")
    box.amount(20)
    assert box.cash("P1") == 645
    while len(box.state.session.history) > mark:
        box.state, _ = box.app.undo(box.state, 0.0)
    assert box.json() == snapshot
    assert box.cash("P1") == 610 and box["countdowns"]["P1"] == []


# -- screens -------------------------------------------------------------------------------------


def test_every_step_of_a_whole_game_shows_a_screen_within_the_limits() -> None:
    box = Box(players="3")
    first_round(box)
    box.press(NEXT)
    box.menu("hub")
    box.pick("Alderport")
    box.menu("deactivate")
    box.press(DOWN)
    box.hold(NEXT)
    box.menu("pay-player")
    box.press(NEXT)
    box.amount(5)
    box.menu("win")
    for _ in range(3):
        box.press(DOWN)
    box.press(NEXT)
    box.menu("pay")
    box.amount(380)  # $355M in hand
    box.press(NEXT)  # route 3: +$20M, still short
    assert box["step"] == "debt"
    box.press(NEXT)  # route 8: +$15M, paid
    assert box["step"] == "menu" and box.cash("P1") == 10
    box.end_turn()
    box.idle()  # P2
    box.press(NEXT)  # P3
    box.buy_route(5)
    box.amount(10)
    box.buy_route(10)
    box.amount(40)
    box.amount(10)
    assert box.seen == ALL_STEPS


@pytest.mark.parametrize("players", ["2", "6"])
@pytest.mark.parametrize("start", ["draw", "quick"])
def test_setup_and_first_moves_fit_for_any_table(players: str, start: str) -> None:
    box = Box(players=players, start=start)
    box.setup()
    for _ in range(int(players)):
        with contextlib.suppress(RuleError):  # Quick Play: maybe none is in the guide
            box.menu("route")
        if box["step"] == "route":
            box.press(DOWN)
            box.press(UP)
            box.press(NEXT)
            while box["step"] == "amount":
                box.amount(20)
        box.menu("fleet")
        box.press(DOWN)
        box.hold(NEXT)
        box.end_turn()
    assert box["round"] == 2


def test_the_render_scenes_run_and_fit(tmp_path: Any) -> None:
    assert all(name.startswith("flight-plan-") for name in SCENES)
    for name, lines in SCENES.items():
        controller = run_scene(lines, tmp_path / name)
        try:
            check_fits(controller.screen())
        finally:
            controller.journal.close()
