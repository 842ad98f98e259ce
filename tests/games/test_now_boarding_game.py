"""Now Boarding through the App: whole games, losing and winning, undo, the timer, upgrades.

Every test drives ``App([NowBoarding()])`` with gestures and ticks on a fake time variable.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.app import App, AppState, Effect, ResultChanged
from companion.core.appstate import Recorded
from companion.core.buttons import Button, Gesture
from companion.core.game import (
    Expire,
    OptionError,
    Play,
    Press,
    Restore,
    RuleError,
    resolve_options,
)
from companion.games.now_boarding import NowBoarding, record, state_json
from companion.games.now_boarding.data import (
    PREFLIGHT,
    STAGES,
    VIP_CARDS,
    passenger_cards,
    stage_rounds,
    total_flights,
)
from companion.ui.views.now_boarding import now_boarding_screen

NEXT, UP, DOWN, BACK = Button.NEXT, Button.UP, Button.DOWN, Button.BACK


class Table:
    """One game on the box, on a fake clock."""

    def __init__(self, box_seed: int = 1, **options: str) -> None:
        # The full flow (a page per player and weather card): the pages a game journaled
        # before issue #35 replays; today's short flow is test_now_boarding_flow.py's.
        options = {"flow": "full", **options}
        self.app = App([NowBoarding()])
        self.t = 0.0
        self.state, self.effects = self.app.new_game(AppState(), "now-boarding", options,
                                                     box_seed, self.t)

    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, self.t)

    @property
    def step(self) -> str:
        return str(self.json()["step"])

    def gesture(self, button: Button, kind: str = "press", dt: float = 0.25) -> list[Effect]:
        self.t += dt
        gesture = Gesture("press" if kind == "press" else "hold", button, self.t)
        self.state, self.effects = self.app.gesture(self.state, gesture, self.t)
        return self.effects

    def press(self, button: Button, times: int = 1) -> list[Effect]:
        effects: list[Effect] = []
        for _ in range(times):
            effects += self.gesture(button)
        return effects

    def hold(self, button: Button) -> list[Effect]:
        return self.gesture(button, "hold", dt=0.8)

    def tick(self, dt: float) -> list[Effect]:
        self.t += dt
        self.state, self.effects = self.app.tick(self.state, self.t)
        return self.effects

    def refused(self, button: Button, kind: str = "press") -> str:
        """Assert that the gesture is refused and changes nothing; the refusal's message."""
        before = self.json()
        with pytest.raises(RuleError) as error:
            self.app.gesture(self.state, Gesture("press" if kind == "press" else "hold",
                                                 button, self.t), self.t)
        assert self.json() == before
        return error.value.message

    def to_flight(self) -> None:
        """NEXT through every step (VIPs declined) until a flight starts."""
        for _ in range(200):
            if self.step in ("flight", "over"):
                return
            self.onward()
        raise AssertionError("no flight within 200 presses")

    def onward(self) -> list[Effect]:
        """NEXT, or DOWN at "Serve a VIP?" (declined)."""
        if self.step == "vip" and self.json()["ask"] == "serve?":
            return self.press(DOWN)
        return self.press(NEXT)

    def fly(self) -> list[Effect]:
        """Let the current flight run out (or end it with NEXT when there is no timer)."""
        assert self.step == "flight"
        if self.json()["timer"]["duration"]:
            return self.tick(self.json()["timer"]["remaining"] + 0.5)
        return self.press(NEXT)

    def complain(self, count: int) -> list[Effect]:
        """The cubes page, then ``count`` complaints filed."""
        assert (self.step, self.json()["ask"]) == ("anger", "cubes")
        self.press(NEXT)
        assert self.json()["ask"] == "count"
        self.press(UP, count)
        return self.press(NEXT)


def tunes(effects: list[Effect]) -> list[str]:
    return [effect.tune for effect in effects if isinstance(effect, Play)]


# --- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "flights"),
    [(2, (3, 5, 9), 18), (3, (3, 5, 8), 17), (4, (4, 5, 7), 17), (5, (3, 6, 4), 14)],
)
def test_now_boarding_whole_game(players: int, rounds: tuple[int, int, int],
                                 flights: int) -> None:
    chart = PREFLIGHT[players]
    assert stage_rounds(players) == rounds
    assert total_flights(players) == flights
    table = Table(players=str(players))
    start = table.json()
    assert start["phase"] == "setup"
    assert start["decks"] == dict(zip(STAGES, chart.in_pile, strict=True))
    assert start["weather"] == dict(zip(STAGES, chart.weather, strict=True))
    assert start["vip"] == {"morning": 0, "afternoon": 0, "evening": 0}
    # The checklist: 3 pages, one free tile per player, decks, weather.
    table.press(NEXT, 3 + players + 2)
    first = table.json()
    assert (first["phase"], first["step"]) == ("setup", "passengers")
    assert first["draw"] == {"deck": "morning", "count": chart.draw[0], "empty": False,
                             "next": None}
    table.press(NEXT)
    assert table.json()["decks"]["morning"] == chart.in_pile[0] - chart.draw[0]
    assert (table.json()["phase"], table.step) == ("setup", "weather")
    table.press(NEXT, chart.weather[0])
    assert table.json()["weather"]["morning"] == 0

    flight_stages: list[str] = []
    boundaries: list[tuple[str, int]] = []
    while table.step != "over":
        assert (table.json()["phase"], table.step) == ("flight", "ready")
        assert table.json()["timer"]["state"] == "idle"  # no flight starts unannounced
        table.press(NEXT)
        state = table.json()
        assert state["step"] == "flight"
        assert state["round"] == len(flight_stages) + 1
        flight_stages.append(state["stage"])
        assert tunes(table.fly())[-1] == "alarm"
        assert table.json()["round"] == len(flight_stages)  # the round that just ended
        table.complain(0)
        if table.step == "exit":
            break
        draw = table.json()["draw"]
        if draw["empty"]:
            old = STAGES.index(draw["deck"])
            assert table.json()["decks"][draw["deck"]] == 0
            boundaries.append((draw["deck"], len(flight_stages)))
            table.press(NEXT)
            if draw["next"] == "final-round":
                assert table.json()["final_round"] is True
                assert table.json()["decks"] == {"morning": 0, "afternoon": 0, "evening": 0}
                assert table.json()["weather"] == {"morning": 0, "afternoon": 0, "evening": 0}
                assert table.step == "upgrades"
            else:
                new = STAGES[old + 1]
                after = table.json()
                assert (after["stage"], after["step"]) == (new, "weather")
                assert after["weather"][new] == chart.weather[old + 1]
                assert after["decks"][new] == chart.in_pile[old + 1]
                table.press(NEXT, chart.weather[old + 1])
                assert table.json()["weather"][new] == 0
                assert table.step == "passengers"
                table.press(NEXT)
                left = chart.in_pile[old + 1] - chart.draw[old + 1]
                assert table.json()["decks"][new] == left
        else:
            before = table.json()["decks"][draw["deck"]]
            table.press(NEXT)
            assert table.json()["decks"][draw["deck"]] == before - draw["count"]
        assert table.step == "upgrades"
        assert table.json()["final_round"] is (len(boundaries) == 3)
        for player in range(1, players + 1):  # player by player
            assert table.json()["upgrade"]["player"] == player
            table.press(NEXT)
    assert table.step == "exit"
    assert table.json()["final_round"] is True
    effects = table.press(NEXT)
    assert tunes(effects) == ["win"]
    assert [e for e in effects if isinstance(e, ResultChanged)] == [ResultChanged("win")]
    end = table.json()
    assert (end["phase"], end["step"], end["result"], end["complaints"]) == (
        "over", "over", "win", 0)
    assert len(flight_stages) == flights
    assert flight_stages == (["morning"] * rounds[0] + ["afternoon"] * rounds[1]
                             + ["evening"] * (rounds[2] + 1))
    assert boundaries == [("morning", rounds[0]), ("afternoon", rounds[0] + rounds[1]),
                          ("evening", sum(rounds))]
    game_record = record(table.state.session.state)
    assert len(game_record["rounds"]) == flights
    assert game_record["cards_drawn"] == sum(chart.in_pile)
    assert all(row["time_used"] == pytest.approx(15.0 if players <= 3 else 30.0)
               for row in game_record["rounds"])


def test_now_boarding_three_players_play_17_flights_with_timer_off() -> None:
    table = Table(players="3", timer="off")
    flights = 0
    while table.step != "over":
        table.to_flight()
        if table.step == "flight":
            flights += 1
            table.fly()
    assert flights == 17
    assert table.json()["result"] == "win"


# --- losing and winning --------------------------------------------------------------------


def test_now_boarding_third_complaint_mid_game_loses_at_once() -> None:
    table = Table(players="3")
    table.to_flight()
    table.fly()
    assert tunes(table.complain(1)) == ["complaint"]
    table.to_flight()
    table.fly()
    assert tunes(table.complain(1)) == ["danger"]
    table.to_flight()
    table.fly()
    effects = table.complain(1)
    assert tunes(effects) == ["lose"]
    assert ResultChanged("lose") in effects
    end = table.json()
    assert (end["phase"], end["step"], end["result"], end["complaints"]) == (
        "over", "over", "lose", 3)
    assert end["reason"] == "angry passengers"
    assert table.refused(NEXT).startswith("game over")


def test_now_boarding_complaints_cannot_be_set_past_the_loss_or_below_zero() -> None:
    table = Table(players="2")
    table.to_flight()
    table.fly()
    assert table.refused(DOWN) == "complaints cannot go below 0"
    table.press(UP, 3)
    assert table.refused(UP) == "3 complaints already lose"
    assert table.json()["pending"] == 3
    assert table.json()["complaints"] == 0  # only NEXT files them


def finish_rounds(table: Table) -> None:
    """Play every remaining round with no new complaints, up to the exit step."""
    while table.step not in ("exit", "over"):
        table.to_flight()
        if table.step == "flight":
            table.fly()
            table.complain(0)


@pytest.mark.parametrize(
    ("filed", "undelivered", "result", "total"),
    [
        (2, 0, "win", 2),
        (2, 1, "win", 2),
        (1, 2, "win", 2),
        (1, 3, "win", 2),
        (1, 4, "lose", 3),
        (0, 5, "win", 2),
        (0, 6, "lose", 3),
        (2, 2, "lose", 3),
    ],
)
def test_now_boarding_exit_adds_a_complaint_per_two_undelivered(filed: int, undelivered: int,
                                                                 result: str,
                                                                 total: int) -> None:
    table = Table(players="2", timer="off")
    table.to_flight()
    table.fly()
    table.complain(filed)
    finish_rounds(table)
    assert table.step == "exit"
    table.press(UP, undelivered)
    assert table.json()["pending"] == undelivered
    effects = table.press(NEXT)
    end = table.json()
    assert (end["step"], end["result"], end["complaints"]) == ("over", result, total)
    assert end["undelivered"] == undelivered
    assert tunes(effects) == [result]
    assert record(table.state.session.state)["rounds"][-1]["complaints_by_source"]["exit"] == (
        undelivered // 2)


def test_now_boarding_final_round_anger_can_lose_before_the_exit() -> None:
    table = Table(players="2", timer="off")
    while not table.json()["final_round"] or table.step != "flight":
        table.to_flight()
        if table.step == "flight" and not table.json()["final_round"]:
            table.fly()
            table.complain(0)
    table.fly()
    assert tunes(table.complain(3)) == ["lose"]
    assert table.json()["step"] == "over"


def test_now_boarding_unserved_vip_is_a_complaint_that_can_lose() -> None:
    table = Table(players="3", vip="on")
    assert table.json()["vips_dealt"] == {"morning": 2, "afternoon": 2, "evening": 1}
    assert table.json()["vip"] == table.json()["vips_dealt"]
    table.to_flight()  # declines the VIP offered after the first draw
    table.fly()
    table.complain(1)
    while not (table.step == "passengers" and table.json()["draw"]["empty"]):
        if table.step == "flight":
            table.fly()
        else:
            table.onward()  # no complaints, VIPs declined
    assert table.json()["vip"]["morning"] == 2
    screen = now_boarding_screen(table.state.session.state, table.t)
    assert (screen.main, screen.lines[0]) == ("+2 = 3/3 complaints", "2 VIP cards never served")
    assert not any(card.name in screen_of(table) for card in VIP_CARDS)  # never named
    effects = table.press(NEXT)
    end = table.json()
    assert (end["step"], end["result"], end["reason"]) == ("over", "lose", "2 unserved VIPs")
    assert end["complaints"] == 3 and end["complaints_by_round"][-1]["vip"] == 2
    assert tunes(effects) == ["lose"]


def to_vip_page(table: Table, stage: str) -> None:
    """NEXT through the setup checklist to ``stage``'s VIP page."""
    while table.json()["setup_page"]["key"] != f"vip-{stage}":
        table.press(NEXT)


@pytest.mark.parametrize(("players", "counts"), [(2, (2, 1, 1)), (3, (2, 2, 1)),
                                                 (4, (2, 2, 2)), (5, (3, 2, 2))])
def test_now_boarding_vip_counts_start_shared_out_and_add_up(players: int,
                                                             counts: tuple[int, ...]) -> None:
    table = Table(players=str(players), vip="on")
    assert tuple(table.json()["vips_dealt"].values()) == counts
    assert sum(counts) == players + 2


def test_now_boarding_the_table_counts_its_vip_cards_from_the_backs() -> None:
    table = Table(players="5", vip="on")  # 7 VIP cards: 3-2-2 to start with
    to_vip_page(table, "morning")
    assert table.refused(UP) == "at most 3 VIP cards here"
    table.press(DOWN, 2)
    assert table.json()["vips_dealt"] == {"morning": 1, "afternoon": 3, "evening": 3}
    assert table.refused(DOWN) == "at least 1 VIP cards here"  # 6 fit by the other two
    table.press(NEXT)
    assert table.refused(UP) == "at most 3 VIP cards here"
    assert table.refused(DOWN) == "at least 3 VIP cards here"  # the Evening holds 3 at most
    table.press(NEXT)
    assert table.json()["setup_page"]["key"] == "vip-evening"
    assert "the Evening deck gets the rest" in table.refused(UP)
    assert table.json()["vip"] == {"morning": 1, "afternoon": 3, "evening": 3}
    assert "Evening VIPs: 3" in screen_of(table)


def test_now_boarding_no_vip_card_in_a_stage_skips_its_serving() -> None:
    table = Table(players="2", vip="on")  # 4 VIP cards: 2-1-1 to start with
    to_vip_page(table, "morning")
    table.press(DOWN, 2)
    assert table.json()["vips_dealt"] == {"morning": 0, "afternoon": 1, "evening": 3}
    table.to_flight()
    assert table.json()["vips_served"] == [] and table.json()["vip"]["morning"] == 0


def test_now_boarding_served_vip_is_the_card_the_table_says_it_turned_over() -> None:
    table = Table(players="2", vip="on")
    while table.step != "vip":
        table.press(NEXT)
    assert table.json()["ask"] == "serve?"
    assert (table.json()["vip_offer"], table.json()["vip_choices"]) == (None, None)
    screen = now_boarding_screen(table.state.session.state, table.t)
    assert screen.title == "Serve a VIP?" and "NEXT yes   DOWN no" in screen.lines
    assert not any(card.name in screen_of(table) for card in VIP_CARDS)
    assert table.refused(UP) == "Serve a VIP? NEXT yes, DOWN no"
    table.press(NEXT)  # yes: which card is it?
    body = table.json()
    assert (body["ask"], body["serve_vip"]) == ("which", True)
    assert body["vip_choices"] == ["Crying Baby", "Impatient", "Nervous"]
    assert body["vip_offer"] == "Crying Baby"
    table.press(DOWN)
    assert table.json()["vip_offer"] == "Impatient"
    assert now_boarding_screen(table.state.session.state, table.t).title == "Which VIP? 2 of 3"
    assert "its anger never resets" in screen_of(table)
    table.press(NEXT)
    assert table.json()["vip"]["morning"] == 1
    assert table.json()["vips_served"] == [{"round": 1, "stage": "morning",
                                           "card": "Impatient"}]
    assert table.step == "weather"


def test_now_boarding_the_question_offers_only_cards_not_served_and_skips_a_lone_one() -> None:
    table = Table(players="5", vip="on", timer="off")  # 3 Morning VIP cards
    served = []
    while len(served) < 3:
        if table.step == "vip" and table.json()["ask"] == "serve?":
            table.press(NEXT)
            body = table.json()
            assert not set(body["vip_choices"]) & set(served)
            assert len(body["vip_choices"]) == 3 - len(served)
            assert body["ask"] == ("named" if len(served) == 2 else "which")
            if body["ask"] == "named":
                assert "the only VIP card left" in table.refused(UP)
                assert screen_of(table).startswith(f"VIP: {body['vip_offer']}")
            served.append(body["vip_offer"])
            table.press(NEXT)
        elif table.step == "flight":
            table.fly()
        else:
            table.press(NEXT)
    assert sorted(served) == ["Crying Baby", "Impatient", "Nervous"]
    assert table.json()["vip"]["morning"] == 0


def test_now_boarding_a_game_journaled_before_the_table_dealt_replays_the_box_deal() -> None:
    """A journal's options without ``pace`` come from before: its VIP deal was the box's."""
    game = NowBoarding()
    old = game.new({"players": "3", "vip": "on", "timer": "official", "strict": "off",
                    "weather": "cards", "seed": "auto"}, 7)
    assert sum(old.vip_told) == 5 and old.vip_told == tuple(map(len, old.legacy_vip_deal))
    new = game.new(resolve_options(game.options, {"players": "3", "vip": "on"}), 7)
    assert new.legacy_vip_deal == ((), (), ())
    body = state_json(old, 0.0)
    assert not any(card.name in str(body) for card in VIP_CARDS)


def test_now_boarding_an_old_journal_replays_the_vip_the_box_named_then() -> None:
    """Restored from a journal of before (no pace), NEXT yes / NEXT ok serve the card the box
    had dealt on top of the Morning deck, as the game was played then."""
    old_options = {"players": "3", "vip": "on", "timer": "off", "strict": "off",
                   "weather": "cards", "seed": "auto"}
    seed = next(seed for seed in range(100)
                if NowBoarding().new(old_options, seed).legacy_vip_deal[0])
    top = NowBoarding().new(old_options, seed).legacy_vip_deal[0][0]
    presses = [Recorded(Press(NEXT), float(at)) for at in range(14)]  # setup, draw, yes, ok
    app = App([NowBoarding()])
    state = app.restore("now-boarding", old_options, seed, presses, 20.0)
    body = app.to_json(state, 20.0)
    assert body["vips_served"] == [{"round": 1, "stage": "morning", "card": top}]
    assert body["step"] in ("weather", "ready")


def test_now_boarding_vip_counts_are_the_same_for_every_seed() -> None:
    """The box deals nothing: the counts a setup starts from depend on the players only."""
    for players in (2, 3, 4, 5):
        one = Table(box_seed=5, players=str(players), vip="on").json()
        two = Table(box_seed=6, players=str(players), vip="on").json()
        assert one["vips_dealt"] == two["vips_dealt"] == one["vip"]
        assert sum(one["vip"].values()) == players + 2


def test_now_boarding_seed_option_overrides_the_box_seed() -> None:
    a = Table(box_seed=1, players="4", weather="digital", seed="42").json()
    b = Table(box_seed=2, players="4", weather="digital", seed="42").json()
    assert a["seed"] == b["seed"] == 42


# --- undo ----------------------------------------------------------------------------------


def test_now_boarding_undo_of_the_losing_complaint_restores_play() -> None:
    table = Table(players="3")
    table.to_flight()
    table.fly()
    table.complain(2)
    table.to_flight()
    table.fly()
    table.press(UP)
    before = table.json()
    table.press(NEXT)
    assert table.json()["result"] == "lose"
    effects = table.hold(BACK)
    assert ResultChanged(None) in effects
    assert table.json() == before
    assert table.json()["result"] is None
    table.press(DOWN)
    table.press(NEXT)
    assert (table.step, table.json()["complaints"]) == ("passengers", 2)


# --- the timer -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "preset", "seconds"),
    [
        (2, "official", 15), (3, "official", 15), (4, "official", 30), (5, "official", 30),
        (2, "relaxed", 30), (3, "relaxed", 35), (4, "relaxed", 40), (5, "relaxed", 45),
        (2, "doubled", 60), (3, "doubled", 70), (4, "doubled", 80), (5, "doubled", 90),
        (3, "5", 5), (4, "600", 600), (2, "42", 42),
    ],
)
def test_now_boarding_timer_presets(players: int, preset: str, seconds: int) -> None:
    table = Table(players=str(players), timer=preset)
    assert table.json()["timer"] == {"state": "idle", "remaining": seconds,
                                     "duration": seconds}
    table.to_flight()
    assert table.json()["timer"]["state"] == "running"
    table.tick(1.0)
    assert table.json()["timer"]["remaining"] == pytest.approx(seconds - 1)
    table.fly()
    assert table.json()["timer"]["state"] == "expired"
    assert table.json()["flights"][0]["used"] == pytest.approx(seconds)


@pytest.mark.parametrize("preset", ["4", "601", "fast", "-5"])
def test_now_boarding_bad_timer_option_is_refused(preset: str) -> None:
    with pytest.raises(OptionError):
        resolve_options(NowBoarding().options, {"timer": preset})


@pytest.mark.parametrize("given", [{"players": "6"}, {"players": "1"}, {"vip": "maybe"},
                                   {"weather": "sunny"}, {"seed": "abc"}, {"colour": "red"},
                                   {"pace": "fast"}, {"pace": ""}])
def test_now_boarding_bad_options_are_refused(given: dict[str, str]) -> None:
    with pytest.raises(OptionError):
        resolve_options(NowBoarding().options, given)


@pytest.mark.parametrize("pace", ["teach", "steps", "brisk", "BRISK"])
def test_now_boarding_pace_is_an_option_and_a_state_field(pace: str) -> None:
    table = Table(pace=pace)
    body = table.json()
    assert body["pace"] == pace.lower() == body["options"]["pace"]
    # A teach game opens on its pitch (lessons.py); the other paces never teach.
    assert body["lesson"] == (None if pace.lower() != "teach" else
                              {"id": "pitch", "title": "Welcome aboard", "more": "goal",
                               "text": body["lesson"]["text"]})


def test_now_boarding_pace_defaults_to_steps_and_is_checked_by_new() -> None:
    assert Table().json()["pace"] == "steps"
    with pytest.raises(OptionError, match=r"pace=teach\|steps\|brisk"):
        NowBoarding().new({"pace": "slow"}, 1)


def test_now_boarding_flight_warnings_and_alarm() -> None:
    table = Table(players="3")
    table.to_flight()
    heard: list[str] = []
    for _ in range(16):
        heard += tunes(table.tick(1.0))
    assert heard == ["warning-10", "warning-5", "warning-3", "warning-2", "warning-1", "alarm"]
    assert table.step == "anger"


def test_now_boarding_next_ends_the_flight_early() -> None:
    table = Table(players="4")
    table.to_flight()
    table.tick(12.0)
    effects = table.press(NEXT)
    assert tunes(effects) == ["end"]
    assert table.step == "anger"
    assert table.json()["flights"][0]["used"] == pytest.approx(12.25)
    assert table.json()["flights"][0]["ended"] == "next"


def test_now_boarding_pause_and_resume() -> None:
    table = Table(players="3")
    table.to_flight()
    table.tick(4.0)
    table.hold(NEXT)
    assert table.json()["timer"]["state"] == "paused"
    left = table.json()["timer"]["remaining"]
    table.tick(100.0)
    assert table.step == "flight"
    assert table.json()["timer"]["remaining"] == left
    table.hold(NEXT)
    assert table.json()["timer"]["state"] == "running"
    table.tick(left + 0.1)
    assert table.step == "anger"
    assert table.json()["flights"][0]["used"] == pytest.approx(15.0)


def test_now_boarding_strict_refuses_pause_but_resumes_after_power_cut() -> None:
    table = Table(players="3", strict="on")
    table.to_flight()
    table.tick(2.0)
    assert table.refused(NEXT, "hold") == "pause is off: strict=on"
    table.state, _ = table.app.act(table.state, Restore(), table.t)
    assert table.json()["timer"]["state"] == "paused"
    table.hold(NEXT)
    assert table.json()["timer"]["state"] == "running"


def test_now_boarding_restore_pauses_a_running_flight_only() -> None:
    table = Table(players="2")
    before = table.json()
    table.state, _ = table.app.act(table.state, Restore(), table.t)
    assert table.json() == before
    table.to_flight()
    table.tick(3.0)
    table.state, _ = table.app.act(table.state, Restore(), table.t)
    assert table.json()["timer"] == {"state": "paused", "remaining": 12.0, "duration": 15.0}


def test_now_boarding_timer_off_flights_end_only_by_next() -> None:
    table = Table(players="5", timer="off")
    table.to_flight()
    assert table.app.countdown(table.state) is None
    assert table.json()["timer"] == {"state": "idle", "remaining": 0.0, "duration": 0.0}
    assert tunes(table.tick(10_000.0)) == []
    assert table.step == "flight"
    assert table.json()["elapsed"] == pytest.approx(10_000.0)
    assert table.refused(NEXT, "hold") == "no timer to pause: timer=off"
    assert tunes(table.press(NEXT)) == ["end"]
    assert table.step == "anger"
    assert table.json()["flights"][0]["used"] == pytest.approx(10_000.25)


# --- refusals ------------------------------------------------------------------------------


def test_now_boarding_illegal_input_is_refused_and_changes_nothing() -> None:
    table = Table(players="3")
    assert table.refused(UP) == "NEXT turns the page"
    assert table.refused(NEXT, "hold") == "hold NEXT pauses a flight only"
    table.to_flight()
    assert table.refused(UP) == "flying: NEXT ends the flight"
    assert table.refused(DOWN) == "flying: NEXT ends the flight"
    table.fly()
    assert table.refused(NEXT, "hold") == "hold NEXT pauses a flight only"
    table.press(NEXT, 2)  # the cubes, then no complaints
    assert table.step == "passengers"
    assert table.refused(UP).startswith("NEXT moves on")


def test_now_boarding_expire_before_the_deadline_is_refused() -> None:
    game = NowBoarding()
    table = Table(players="3")
    table.to_flight()
    state = table.state.session.state
    with pytest.raises(RuleError):
        game.step(state, Expire(), table.t + 1.0)
    with pytest.raises(RuleError):
        game.step(game.new(resolve_options(game.options, {}), 1), Expire(), 0.0)


# --- setup and upgrades --------------------------------------------------------------------


def test_now_boarding_free_tiles_choose_the_starting_planes() -> None:
    table = Table(players="2")
    table.press(NEXT, 3)
    assert table.json()["setup_page"]["key"] == "free-0"
    table.press(DOWN)
    table.press(NEXT)
    table.press(UP)
    planes = table.json()["planes"]
    assert [(p["seats"], p["speed"], p["routes"]) for p in planes] == [(1, 4, 1), (2, 3, 1)]
    assert table.json()["supply"] == {"seat": 17, "speed": 14, "route": 8,
                                      "temp-seat": "supply", "temp-speed": "supply"}


def to_upgrades(table: Table) -> None:
    table.to_flight()
    table.fly()
    table.complain(0)
    while table.step != "upgrades":
        table.onward()


def test_now_boarding_upgrades_buy_at_chart_prices() -> None:
    table = Table(players="3")
    to_upgrades(table)
    assert table.json()["upgrade"] == {"player": 1, "item": "seat", "price": 9, "row": 0,
                                       "rows": 15}
    table.hold(NEXT)  # P1's third seat
    assert table.json()["planes"][0]["seats"] == 3
    assert table.json()["upgrade"]["price"] == 13
    table.hold(NEXT)
    table.hold(NEXT)
    assert table.json()["planes"][0]["seats"] == 5
    assert table.refused(NEXT, "hold") == "P1 has the most seat: 5"
    table.press(DOWN)
    assert table.json()["upgrade"]["item"] == "speed"
    assert table.json()["upgrade"]["price"] == 5
    table.hold(NEXT)
    assert table.json()["planes"][0]["speed"] == 4
    assert table.json()["supply"]["seat"] == 18 - 3 - 3
    table.press(UP, 2)  # wraps to P1's own temporary speed token: UP / DOWN stay with P1
    assert table.json()["upgrade"] == {"player": 1, "item": "temp-speed", "price": 1,
                                       "row": 4, "rows": 15}
    table.hold(NEXT)
    assert table.json()["supply"]["temp-speed"] == "P1"
    table.hold(NEXT)  # P1 used it: back in the supply
    assert table.json()["supply"]["temp-speed"] == "supply"
    table.hold(NEXT)  # and bought it again
    table.press(NEXT)  # P2's rows
    assert table.json()["upgrade"] == {"player": 2, "item": "seat", "price": 9, "row": 5,
                                       "rows": 15}
    table.press(UP)
    assert table.refused(NEXT, "hold") == "P1 holds it until used"
    table.press(NEXT)  # P3
    assert table.json()["upgrade"]["player"] == 3
    table.press(NEXT)  # NEXT on the last player: the flight is next
    assert (table.step, table.json()["round"]) == ("ready", 2)
    table.press(NEXT)
    assert (table.step, table.json()["round"]) == ("flight", 2)
    bought = record(table.state.session.state)["upgrades"]
    assert [row["item"] for row in bought] == ["seat"] * 3 + ["speed", "temp-speed",
                                                               "temp-speed-used", "temp-speed"]


def test_now_boarding_seat_supply_runs_out() -> None:
    table = Table(players="5")
    to_upgrades(table)
    refusals = 0
    for player in range(5):
        for _ in range(3):
            try:
                table.hold(NEXT)
            except RuleError as error:
                assert error.message == "no seat tiles left"
                refusals += 1
        if player < 4:
            table.press(NEXT)  # the next player's rows
    assert table.json()["supply"]["seat"] == 0
    assert refusals == 2  # 18 tiles: 5 free, 13 bought


def test_now_boarding_record_lists_every_flight() -> None:
    table = Table(players="2", timer="relaxed")
    table.to_flight()
    table.tick(7.0)
    table.press(NEXT)
    table.complain(1)
    game_record = record(table.state.session.state)
    assert game_record["players"] == 2
    assert game_record["options"]["timer"] == "relaxed"
    assert game_record["rounds"] == [{
        "round": 1, "stage": "morning", "time_used": pytest.approx(7.25), "ended": "next",
        "final": False, "complaints": 1,
        "complaints_by_source": {"anger": 1, "vip": 0, "exit": 0}}]
    assert table.json()["complaints_by_round"] == [
        {"round": 1, "anger": 1, "vip": 0, "exit": 0, "total": 1}]


def test_now_boarding_passenger_counts_match_the_chart() -> None:
    assert passenger_cards(2) == 42 == 2 + sum(PREFLIGHT[2].in_pile)
    assert passenger_cards(3) == 56 == 3 + sum(PREFLIGHT[3].in_pile)
    assert passenger_cards(4) == passenger_cards(5) == 72


# --- every step said (issue 14) ------------------------------------------------------------


def screen_of(table: Table) -> str:
    return " ".join(now_boarding_screen(table.state.session.state, table.t).text_lines())


def test_now_boarding_round_one_waits_on_a_ready_screen_with_the_chart_flip() -> None:
    table = Table(players="3")
    while table.step != "ready":
        table.press(NEXT)
    assert table.json()["phase"] == "flight" and table.json()["timer"]["state"] == "idle"
    text = screen_of(table)
    assert text.startswith("NEXT: 15 s flight ")  # the first timed flight says its length
    assert "Preflight chart: flip to its Upgrades side." in text
    assert "Flip every face-down passenger card." in text
    assert table.refused(UP) == "NEXT starts the flight"
    table.tick(100.0)  # nothing runs while the table gets ready
    assert table.step == "ready"
    table.press(NEXT)
    assert (table.step, table.json()["timer"]["state"]) == ("flight", "running")


def test_now_boarding_anger_says_the_cubes_before_asking_the_complaints() -> None:
    table = Table(players="3")
    table.to_flight()
    table.fly()
    assert table.json()["ask"] == "cubes"
    text = screen_of(table)
    assert "Put 1 anger cube on every waiting passenger. A 4th cube files a complaint." in text
    assert "Crying Baby" not in text
    table.press(UP)  # UP on the cubes page goes straight to the count
    assert (table.json()["ask"], table.json()["pending"]) == ("count", 1)
    assert "Complaints filed?" in screen_of(table)


def test_now_boarding_anger_names_the_crying_baby_once_one_was_served() -> None:
    table = Table(players="3", vip="on")
    while table.step != "vip":
        table.press(NEXT)
    table.press(NEXT)  # yes: the Crying Baby (the first choice) rides on the last card drawn
    assert table.json()["vip_offer"] == "Crying Baby"
    table.to_flight()
    table.fly()
    assert "Others by Crying Baby: 2" in screen_of(table)


@pytest.mark.parametrize(("complaints", "to_win"), [(0, 5), (1, 3), (2, 1)])
def test_now_boarding_to_win_is_the_most_undelivered_that_still_wins(complaints: int,
                                                                     to_win: int) -> None:
    table = Table(players="2", timer="off")
    table.to_flight()
    table.fly()
    table.complain(complaints)
    assert table.json()["to_win"] == to_win
    finish_rounds(table)
    assert f"Win: <= {to_win} undelivered" in screen_of(table)
    table.press(UP, to_win)
    assert tunes(table.press(NEXT)) == ["win"]  # the most still wins ...
    table.hold(BACK)
    table.press(UP)
    assert tunes(table.press(NEXT)) == ["lose"]  # ... and one more loses


def test_now_boarding_progress_shows_round_of_all_cards_left_and_complaints() -> None:
    table = Table(players="3")
    table.to_flight()
    table.fly()
    table.complain(1)
    assert table.step == "passengers"
    status = now_boarding_screen(table.state.session.state, table.t).status
    left = table.json()["decks"]["morning"]
    assert status == f"R1/17 {left} cards C:1/3"
    assert table.json()["deck_left"] == left
