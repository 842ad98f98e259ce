"""``pace=brisk`` (issue #26, item 3): the maintenance on one card, the books of ``pace=steps``.

DESIGN.md rule 16: a pace changes which steps a round has, never the books. A hypothesis test
plays the same seed with the same table decisions (complaints, losing rounds included;
purchases, tried at brisk whatever the round's complaints and before or after setting them;
VIPs served and which card) at ``steps`` and at ``brisk`` and compares the books (decks,
weather, stage, complaints and their sources, VIPs waiting and served, planes, supply and the
temporary tokens) at the start of every flight and at the end (issue #36, item 1: a losing
round sold upgrades at brisk). Another counts the presses of every
round of whole brisk games with the timer off: at most 3 from one flight to the next.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import RuleError
from companion.games.now_boarding import NowBoarding
from companion.games.now_boarding.data import UPGRADE_ITEMS
from companion.ui.views.now_boarding import now_boarding_screen

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN
BOOKS = ("round", "stage", "final_round", "decks", "weather", "vip", "vips_dealt",
         "vips_served", "complaints", "complaints_by_round", "planes", "supply", "result")


class Decisions:
    """What the table does, drawn once from a seed and asked by round: the same answers
    whatever the pace asks them in."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def _rng(self, *key: object) -> random.Random:
        return random.Random(f"{self.seed}:{key}")

    def complaints(self, round_: int) -> int:
        """Mostly none; now and then one, two or three (a round that loses the game)."""
        draw = self._rng("complaints", round_).random()
        return 3 if draw < 0.04 else 2 if draw < 0.08 else 1 if draw < 0.2 else 0

    def buy_first(self, round_: int) -> bool:
        """At brisk: whether the table opens Buy before setting the round's complaints."""
        return self._rng("order", round_).random() < 0.5

    def purchases(self, round_: int, players: int) -> list[tuple[int, str]]:
        rng = self._rng("buy", round_)
        return [(rng.randrange(players), rng.choice(UPGRADE_ITEMS))
                for _ in range(rng.choice((0, 0, 1, 2)))]

    def vip(self, round_: int, choices: int) -> tuple[bool, int]:
        rng = self._rng("vip", round_)
        return rng.random() < 0.7, rng.randrange(max(choices, 1))


class Driver:
    """One game on the App, played by :class:`Decisions`, with a press counter."""

    def __init__(self, pace: str, players: int, seed: int, vip: str = "on",
                 flow: str = "short") -> None:
        self.app = App([NowBoarding()])
        self.t = 0.0
        self.presses = 0
        self.state, _ = self.app.new_game(
            AppState(), "now-boarding",
            {"players": str(players), "vip": vip, "timer": "off", "pace": pace, "flow": flow},
            seed, self.t)

    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, self.t)

    def gesture(self, button: Button, kind: str = "press") -> None:
        self.t += 1.0
        self.presses += 1
        self.state, _ = self.app.gesture(self.state, Gesture(kind, button, self.t), self.t)

    def try_gesture(self, button: Button, kind: str = "press") -> bool:
        try:
            self.gesture(button, kind)
        except RuleError:
            self.presses -= 1
            return False
        return True

    def complaints(self, count: int) -> None:
        """UP ``count`` times, each refused once the total would pass 3 (as a table's would)."""
        for _ in range(count):
            self.try_gesture(UP)

    def buy(self, purchases: list[tuple[int, str]]) -> None:
        """At ``upgrades`` (player 1's first row): each purchase, then NEXT past every player
        (the short flow: one page for all, DOWN to each purchase's row, one NEXT)."""
        rows = len(UPGRADE_ITEMS)
        if self.json()["options"]["flow"] == "short":
            # The same decisions in the same order as player by player (a temporary token
            # goes to whoever buys it first).
            for buyer, item in sorted(purchases, key=lambda purchase: purchase[0]):
                while (self.json()["upgrade"]["player"] - 1,
                       self.json()["upgrade"]["item"]) != (buyer, item):
                    self.gesture(DOWN)
                self.try_gesture(NEXT, "hold")
            self.gesture(NEXT)
            return
        for player in range(self.json()["players"]):
            for buyer, item in purchases:
                if buyer != player:
                    continue
                while self.json()["upgrade"]["item"] != item:
                    self.gesture(DOWN)
                self.try_gesture(NEXT, "hold")
            assert self.json()["upgrade"]["row"] // rows == player
            self.gesture(NEXT)


def play(pace: str, players: int, seed: int, decisions: Decisions,  # noqa: PLR0917
         vip: str = "on", flow: str = "short") -> tuple[list[dict[str, Any]], Driver]:
    """A whole game; the books at the start of every flight and at the end."""
    game = Driver(pace, players, seed, vip, flow)
    books: list[dict[str, Any]] = []
    for _ in range(5000):
        body = game.json()
        step, ask, round_ = body["step"], body["ask"], body["round"]
        if body["phase"] == "over":
            books.append({key: body[key] for key in BOOKS})
            return books, game
        if body["lesson"] is not None:  # pace=teach: "got it"
            game.gesture(NEXT)
            continue
        if step == "setup" or step in ("passengers", "weather", "ready"):
            game.gesture(NEXT)
        elif step == "flight":
            books.append({key: body[key] for key in BOOKS})
            game.gesture(NEXT)
        elif step == "anger":
            game.gesture(NEXT) if ask == "cubes" else None
            if ask == "count":
                game.complaints(decisions.complaints(round_))
                game.gesture(NEXT)
        elif step == "turnaround":
            # A hurried table buys whatever the round's complaints: before setting them or
            # after (the card then refuses Buy when the round loses, as the steps never
            # reach their upgrades in a losing round).
            purchases = decisions.purchases(round_, players)
            first = decisions.buy_first(round_)
            if not first:
                game.complaints(decisions.complaints(round_))
            if purchases and game.try_gesture(NEXT, "hold"):
                game.buy(purchases)
            if first:
                game.complaints(decisions.complaints(round_))
            game.gesture(NEXT)
        elif step == "upgrades":
            game.buy(decisions.purchases(round_, players))
        elif step == "vip":
            serve, choice = decisions.vip(round_, 3)
            if ask == "serve?":
                game.gesture(NEXT if serve else DOWN)
            else:
                # Nothing is chosen as the question opens (flow=full: the first card is):
                # DOWN from none reaches the first card, each one more the card after.
                card = choice % len(body["vip_choices"])
                for _ in range(card + 1 if body["vip_offer"] is None else card):
                    game.gesture(DOWN)
                assert game.json()["vip_offer"] == body["vip_choices"][card]
                game.gesture(NEXT)
        elif step == "exit":
            game.gesture(UP)
            game.gesture(NEXT)
        else:
            raise AssertionError(f"no decision for {step}")
    raise AssertionError("the game did not end")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000),
       table=st.integers(0, 10_000), vip=st.sampled_from(["on", "off"]))
def test_brisk_keeps_the_same_books_as_steps_at_every_round(players, seed, table, vip):
    decisions = Decisions(table)
    steps, _ = play("steps", players, seed, decisions, vip)
    brisk, _ = play("brisk", players, seed, decisions, vip)
    assert len(steps) == len(brisk)
    for at_steps, at_brisk in zip(steps, brisk, strict=True):
        assert at_steps == at_brisk


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_an_ordinary_brisk_round_takes_at_most_three_presses(players):
    """No complaint, purchase or VIP: end the flight, "done" on the card; the stage changes
    and the final round included (the final round's own maintenance is the exit's)."""
    game = Driver("brisk", players, seed=3, vip="off")
    per_round: list[int] = []
    started = None
    while game.json()["phase"] != "over":
        body = game.json()
        if body["step"] == "flight" and started != body["round"]:
            if started is not None:
                per_round.append(game.presses)
            started, game.presses = body["round"], 0
        if body["step"] == "exit":
            break
        game.gesture(NEXT)
    assert len(per_round) == body["flights_total"] - 1
    assert max(per_round) <= 3
    assert per_round.count(2) == len(per_round)  # end the flight, then "done" starts the next


def test_the_brisk_card_says_every_chore_with_its_counts() -> None:
    game = Driver("brisk", 3, seed=1, vip="off")
    while game.json()["step"] != "flight":
        game.gesture(NEXT)
    game.gesture(NEXT)  # the first flight ends: the card
    body = game.json()
    assert (body["step"], body["phase"]) == ("turnaround", "maintenance")
    screen = now_boarding_screen(game.state.session.state, game.t)
    assert "Draw 2 from the Morning deck." in screen.say
    assert "Anger cubes" in screen.say and "Flip the face-down cards." in screen.say
    assert "seat $9, speed $5 each; route $7 (10 left)" in screen.say
    assert dict(screen.keys)["next"] == "Done: start the flight"
    assert dict(screen.keys)["hold_next"] == "Buy"
    game.gesture(UP)
    assert game.json()["pending"] == 1
    assert "Complaints +1 = 1/3" in screen_text(game)
    game.gesture(NEXT, "hold")  # the upgrades (one page for every player), back to the card
    assert game.json()["step"] == "upgrades"
    game.gesture(NEXT)
    assert (game.json()["step"], game.json()["pending"]) == ("turnaround", 1)
    game.gesture(NEXT)
    body = game.json()
    assert (body["step"], body["round"], body["complaints"]) == ("flight", 2, 1)


def test_the_brisk_card_at_a_stage_change_names_the_new_weather() -> None:
    game = Driver("brisk", 2, seed=1, vip="off")
    while not (game.json()["step"] == "turnaround" and game.json()["deck_left"] == 0):
        game.gesture(NEXT)
    screen = now_boarding_screen(game.state.session.state, game.t)
    assert "Afternoon begins: clear the tokens" in screen.say
    assert "storm" in screen.say and "tailwind" in screen.say
    assert "Aftn.: 2 weather, draw 2" in screen.text_lines()
    game.gesture(NEXT)
    body = game.json()
    assert (body["step"], body["stage"], body["weather"]["afternoon"]) == ("flight",
                                                                          "afternoon", 0)


def screen_text(game: Driver) -> str:
    return " ".join(now_boarding_screen(game.state.session.state, game.t).text_lines())


def to_the_card(players: int = 3, vip: str = "off", seed: int = 1) -> Driver:
    game = Driver("brisk", players, seed=seed, vip=vip)
    while game.json()["step"] != "turnaround":
        game.gesture(NEXT)
    return game


def test_done_says_it_loses_the_game_when_the_card_reaches_three() -> None:
    """Issue #36, item 2: the third complaint set on the card: the big button, the panel and
    the coach say the tap loses; Buy is no longer offered (nor allowed)."""
    game = to_the_card()
    game.gesture(UP, "press")
    game.gesture(UP, "press")
    screen = now_boarding_screen(game.state.session.state, game.t)
    assert dict(screen.keys)["next"] == "Done: start the flight"  # 2 of 3: not yet
    game.gesture(UP, "press")
    screen = now_boarding_screen(game.state.session.state, game.t)
    keys = dict(screen.keys)
    assert keys["next"] == "Done: lose the game"
    assert "hold_next" not in keys
    assert screen.then == "Next: the game ends, lost"
    assert screen.coach[0] == "Done loses the game: the complaints reach 3."
    assert game.json()["coach"][0]["key"] == "done-loses"
    assert "NEXT loses the game" in screen.text_lines()
    assert not game.try_gesture(NEXT, "hold")  # no upgrades in a losing round
    game.gesture(DOWN)
    keys = dict(now_boarding_screen(game.state.session.state, game.t).keys)
    assert (keys["next"], keys["hold_next"]) == ("Done: start the flight", "Buy")


def test_done_says_it_loses_when_an_unserved_vip_is_the_third_complaint() -> None:
    game = Driver("brisk", 2, seed=1, vip="on")
    for _ in range(400):
        body = game.json()
        if body["step"] == "turnaround" and body["turnaround"]["unserved_vips"]:
            break
        if body["step"] == "vip":
            game.gesture(DOWN if body["ask"] == "serve?" else NEXT)  # no VIP served
        elif body["step"] == "turnaround" and body["complaints"] + body["pending"] < 2:
            game.gesture(UP)
        else:
            game.gesture(NEXT)
    body = game.json()
    assert body["complaints"] + body["pending"] + body["turnaround"]["unserved_vips"] >= 3
    screen = now_boarding_screen(game.state.session.state, game.t)
    assert dict(screen.keys)["next"] == "Done: lose the game"
    assert screen.coach[0] == "Done loses the game: the complaints reach 3."
    game.gesture(NEXT)
    assert game.json()["result"] == "lose"


def test_a_losing_done_keeps_no_purchase_made_from_the_card() -> None:
    game = to_the_card()
    game.gesture(NEXT, "hold")
    game.buy([(0, "seat")])
    assert [p["item"] for p in game.json()["planes"][0]["temp"]] == [] and \
        game.json()["planes"][0]["seats"] == 3
    for _ in range(3):
        game.gesture(UP)
    game.gesture(NEXT)
    body = game.json()
    assert (body["result"], body["planes"][0]["seats"]) == ("lose", 2)


def test_the_crying_baby_note_shows_after_its_first_flight_only() -> None:
    """Issue #36, item 7: "(2 by the Crying Baby)" on the card after the flight it first
    waited through, not on every card of the game after."""
    game = Driver("brisk", 3, seed=1, vip="on")
    served, noted = False, []
    while len(noted) < 3 and game.json()["phase"] != "over":
        body = game.json()
        if body["step"] == "vip" and body["ask"] == "serve?":
            game.gesture(NEXT if not served and body["phase"] != "setup" else DOWN)
        elif body["step"] == "vip":
            while game.json()["vip_offer"] != "Crying Baby":
                game.gesture(DOWN)
            game.gesture(NEXT)
            served = True
        elif body["step"] == "turnaround" and served:
            say = now_boarding_screen(game.state.session.state, game.t).say
            noted.append("(2 by the Crying Baby)" in say)
            game.gesture(NEXT)
        else:
            game.gesture(NEXT)
    assert noted == [True, False, False]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000),
       table=st.integers(0, 10_000), vip=st.sampled_from(["on", "off"]),
       pace=st.sampled_from(["steps", "teach"]))
def test_the_short_flow_keeps_the_books_of_the_full_flow(players, seed, table, vip, pace):
    """Issue #35: fewer pages (setup on one picture and one planes page, a stage's weather
    at one NEXT, one anger page, one upgrades page for every player) keep the books of the
    full flow, the pages a game journaled before it replays (DESIGN.md rule 16)."""
    decisions = Decisions(table)
    short, _ = play(pace, players, seed, decisions, vip, flow="short")
    full, _ = play(pace, players, seed, decisions, vip, flow="full")
    assert len(short) == len(full)
    for at_short, at_full in zip(short, full, strict=True):
        assert at_short == at_full
