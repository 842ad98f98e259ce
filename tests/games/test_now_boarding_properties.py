"""Now Boarding properties over random legal button sequences (hypothesis), through the App
(every pace but brisk: a teach game's lessons hold the same books)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture, GestureKind
from companion.core.game import RuleError
from companion.games.now_boarding import NowBoarding
from companion.games.now_boarding.data import PREFLIGHT, STAGES, total_flights

MOVES = ("next", "next", "next", "next", "up", "down", "hold-next", "tick", "long-tick",
         "undo")

GESTURES: dict[str, tuple[GestureKind, Button]] = {
    "next": ("press", Button.NEXT),
    "up": ("press", Button.UP),
    "down": ("press", Button.DOWN),
    "hold-next": ("hold", Button.NEXT),
}

games = st.fixed_dictionaries({
    "players": st.sampled_from(["2", "3", "4", "5"]),
    "vip": st.sampled_from(["off", "on"]),
    "timer": st.sampled_from(["official", "off", "5", "relaxed"]),
    "strict": st.sampled_from(["off", "on"]),
    "weather": st.sampled_from(["cards", "digital"]),
    "pace": st.sampled_from(["steps", "teach"]),
})


class Run:
    """A game driven by random moves, checking the invariants after every accepted one."""

    def __init__(self, options: dict[str, str], seed: int) -> None:
        self.app = App([NowBoarding()])
        self.t = 0.0
        self.state, _ = self.app.new_game(AppState(), "now-boarding", options, seed, 0.0)
        self.players = int(options["players"])
        self.chart = PREFLIGHT[self.players]
        # (drawn per stage, complaints) after every accepted player action, for undo.
        self.trail: list[tuple[dict[str, int], int]] = [(dict.fromkeys(STAGES, 0), 0)]

    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, self.t)

    def gesture(self, move: str) -> bool:
        """Try one gesture; a refusal must leave everything as it was. True if accepted."""
        kind, button = GESTURES[move]
        before = self.json()
        drawn, _ = self.trail[-1]
        draw = before["draw"]
        try:
            self.state, _ = self.app.gesture(self.state, Gesture(kind, button, self.t),
                                             self.t)
        except RuleError:
            assert self.json() == before
            return False
        after = self.json()
        drawn = dict(drawn)
        if draw is not None and not draw["empty"] and after["decks"] != before["decks"]:
            drawn[draw["deck"]] += draw["count"]
        self.trail.append((drawn, after["complaints"]))
        self.check(before, after)
        return True

    def undo(self) -> None:
        try:
            self.state, _ = self.app.undo(self.state, self.t)
        except RuleError:
            assert len(self.trail) == 1
            return
        self.trail.pop()
        self.check(None, self.json())

    def tick(self, seconds: float) -> None:
        before = self.json()
        self.t += seconds
        self.state, _ = self.app.tick(self.state, self.t)
        self.check(before, self.json())

    def check(self, before: dict[str, Any] | None, after: dict[str, Any]) -> None:
        drawn, complaints = self.trail[-1]
        for index, stage in enumerate(STAGES):
            assert 0 <= after["decks"][stage] <= self.chart.in_pile[index]
            assert 0 <= after["weather"][stage] <= self.chart.weather[index]
            assert after["vip"][stage] >= 0
            # Cards drawn plus cards left is the deal.
            assert drawn[stage] + after["decks"][stage] == self.chart.in_pile[index]
        assert after["complaints"] == complaints
        if before is not None:
            assert after["complaints"] >= before["complaints"]
        flights = total_flights(self.players)
        assert after["round"] <= flights
        assert len(after["flights"]) <= flights
        assert (after["result"] is None) == (after["step"] != "over")
        # pace=teach: a lesson never over a flight (so never over a running countdown); other
        # paces never teach (lessons.py).
        lesson = after["lesson"]
        if lesson is not None:
            assert after["pace"] == "teach" and after["step"] != "flight"
            assert after["timer"]["state"] != "running"
            assert len(lesson["text"].split()) <= 60

    def undo_redo(self, move: str) -> None:
        """Undo of an accepted action restores the state; doing it again gives the same."""
        before = self.json()
        if not self.gesture(move):
            return
        after = self.json()
        self.state, _ = self.app.undo(self.state, self.t)
        self.trail.pop()
        assert self.json() == before
        assert self.gesture(move)
        assert self.json() == after

    def play(self, moves: list[str]) -> None:
        for move in moves:
            if move == "tick":
                self.tick(1.5)
            elif move == "long-tick":
                self.tick(40.0)
            elif move == "undo":
                self.undo()
            else:
                self.t += 0.25
                self.gesture(move)

    def choose_vip(self) -> None:
        """At "which VIP?" with no card chosen (NEXT is refused there), choose one as a table
        would: DOWN, the first card (refused while a lesson shows: NEXT takes it first)."""
        body = self.json()
        if body["ask"] == "which" and body["vip_offer"] is None:
            self.gesture("down")

    def finish(self) -> None:
        """NEXT (and time) until the game is over; it must end within the computed rounds."""
        for _ in range(2000):
            if self.json()["step"] == "over":
                break
            self.t += 0.25
            if self.json()["step"] == "exit" or self.json()["step"] == "anger":
                while self.json()["pending"] and self.json()["lesson"] is None:
                    self.gesture("down")  # (a lesson showing takes NEXT first)
            self.choose_vip()
            self.gesture("next")
        after = self.json()
        assert after["step"] == "over"
        assert len(after["flights"]) <= total_flights(self.players)
        if after["result"] == "win":
            assert len(after["flights"]) == total_flights(self.players)


@settings(deadline=None)
@given(options=games, seed=st.integers(0, 2**31), moves=st.lists(st.sampled_from(MOVES),
                                                                   max_size=250))
def test_now_boarding_random_play_keeps_the_books(options: dict[str, str], seed: int,
                                                  moves: list[str]) -> None:
    run = Run(options, seed)
    run.play(moves)
    run.finish()


@settings(deadline=None)
@given(options=games, seed=st.integers(0, 2**31),
       moves=st.lists(st.sampled_from(MOVES), max_size=120),
       probes=st.lists(st.sampled_from(("next", "up", "down", "hold-next")), min_size=1,
                       max_size=8))
def test_now_boarding_undo_then_the_same_action_gives_the_same_state(
        options: dict[str, str], seed: int, moves: list[str], probes: list[str]) -> None:
    run = Run(options, seed)
    run.play(moves)
    for probe in probes:
        run.t += 0.25
        run.undo_redo(probe)


@settings(deadline=None)
@given(options=games, seed=st.integers(0, 2**31),
       complaints=st.lists(st.integers(0, 1), max_size=20))
def test_now_boarding_every_game_ends_within_its_rounds(options: dict[str, str], seed: int,
                                                        complaints: list[int]) -> None:
    run = Run(options, seed)
    pending = list(complaints)
    for _ in range(3000):
        step = run.json()["step"]
        if step == "over":
            break
        run.t += 0.25
        if step == "anger" and run.json()["lesson"] is None and pending \
                and run.json()["pending"] == 0 and pending.pop():
            assert run.gesture("up"), "UP refused at anger"
        if step == "flight" and run.json()["timer"]["state"] == "running":  # (practice: none)
            run.tick(700.0)
            continue
        run.choose_vip()
        run.gesture("next")
    end = run.json()
    assert end["step"] == "over"
    assert len(end["flights"]) <= total_flights(run.players)
    assert end["round"] == len(end["flights"])
