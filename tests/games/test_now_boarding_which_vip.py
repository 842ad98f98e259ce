"""Issue #36, item 5: "which VIP?" is never one hurried tap from wrong.

In every game started now (``flow=short``) the question opens with no card chosen: the state's
``vip_offer`` is null, the panel and the page name none as the answer, DOWN chooses the first
card and UP the last, and NEXT is refused until a card is chosen (on the box and over the
protocol, changing nothing). A game of the old flow (``flow=full``, journaled before) still
preselects the first card, so its journal replays as it was played. At ``pace=brisk`` the
answer starts the flight at once, and the words say so before it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import RuleError
from companion.games.now_boarding import NowBoarding
from companion.testing.simulated import simulated_controller
from companion.ui.views.now_boarding import now_boarding_screen

NEXT, UP, DOWN = Button.NEXT, Button.UP, Button.DOWN
MORNING = ["Crying Baby", "Impatient", "Nervous"]
REFUSAL = "which VIP card? UP/DOWN or tap it first"


class Table:
    """One VIP game through the App on a fake clock, up to the first "which VIP?"."""

    def __init__(self, **options: str) -> None:
        self.app = App([NowBoarding()])
        self.t = 0.0
        options = {"players": "3", "vip": "on", "timer": "off", **options}
        self.state, _ = self.app.new_game(AppState(), "now-boarding", options, 1, self.t)
        while not (self.json()["step"] == "vip" and self.json()["ask"] == "serve?"):
            self.press(NEXT)
        self.press(NEXT)  # yes: which card is it?

    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, self.t)

    def press(self, button: Button) -> None:
        self.t += 0.5
        self.state, _ = self.app.gesture(self.state, Gesture("press", button, self.t), self.t)

    def refused(self, button: Button) -> str:
        """The gesture is refused and changes nothing; the refusal's message."""
        before = self.json()
        self.t += 0.5
        with pytest.raises(RuleError) as error:
            self.app.gesture(self.state, Gesture("press", button, self.t), self.t)
        assert self.json() == before
        return error.value.message

    def screen(self) -> Any:
        assert self.state.session is not None
        return now_boarding_screen(self.state.session.state, self.t)


def test_which_vip_opens_with_no_card_chosen_and_next_is_refused() -> None:
    table = Table()
    body = table.json()
    assert (body["step"], body["ask"], body["serve_vip"]) == ("vip", "which", True)
    assert body["vip_choices"] == MORNING
    assert body["vip_offer"] is None
    assert table.refused(NEXT) == REFUSAL
    assert table.json()["vips_served"] == []
    # The panel asks for the choice and names no card; the page's words likewise.
    screen = table.screen()
    assert screen.title == f"Which VIP? - of {len(MORNING)}"
    assert screen.main == "UP/DN: choose card"
    assert not any(name in " ".join(screen.text_lines()) for name in MORNING)
    assert screen.chosen is None and len(screen.choices) == len(MORNING)
    keys = dict(screen.keys)
    assert keys["next"] == "Tap the card"
    assert (keys["up"], keys["down"]) == ("Last card", "First card")
    assert not any(name in f"{screen.heading} {screen.say}" for name in MORNING)


@pytest.mark.parametrize(("presses", "card", "title"), [
    ((DOWN,), "Crying Baby", "Which VIP? 1 of 3"),
    ((UP,), "Nervous", "Which VIP? 3 of 3"),
    ((DOWN, DOWN), "Impatient", "Which VIP? 2 of 3"),
    ((UP, UP), "Impatient", "Which VIP? 2 of 3"),
    ((UP, DOWN), "Crying Baby", "Which VIP? 1 of 3"),  # wraps from the last to the first
])
def test_down_from_none_chooses_the_first_card_and_up_the_last(
        presses: tuple[Button, ...], card: str, title: str) -> None:
    table = Table()
    for button in presses:
        table.press(button)
    assert table.json()["vip_offer"] == card
    screen = table.screen()
    assert screen.title == title
    assert screen.chosen == MORNING.index(card)
    assert dict(screen.keys)["next"] == f"It is {card}"
    table.press(NEXT)
    assert table.json()["vips_served"] == [{"round": 1, "stage": "morning", "card": card}]


@given(presses=st.lists(st.sampled_from([UP, DOWN]), max_size=12))
def test_the_card_chosen_is_the_one_the_presses_reach_from_none(
        presses: list[Button]) -> None:
    """A ring of the cards with "none" before the first and after the last: DOWN from none
    reaches the first, UP the last; from a card each moves one along, wrapping. NEXT is
    accepted exactly when a card is chosen."""
    table = Table()
    position: int | None = None
    for button in presses:
        table.press(button)
        step = 1 if button is DOWN else -1
        if position is None:
            position = 0 if button is DOWN else len(MORNING) - 1
        else:
            position = (position + step) % len(MORNING)
        assert table.json()["vip_offer"] == MORNING[position]
    if position is None:
        assert table.refused(NEXT) == REFUSAL
    else:
        table.press(NEXT)
        assert table.json()["vips_served"][-1]["card"] == MORNING[position]


def test_a_game_of_the_full_flow_still_preselects_the_first_card() -> None:
    """A game journaled before (flow=full) asks as it did then, so its journal replays: the
    first card chosen at once, NEXT serves it."""
    table = Table(flow="full")
    assert table.json()["vip_offer"] == MORNING[0]
    assert table.screen().title == "Which VIP? 1 of 3"
    assert dict(table.screen().keys)["next"] == f"It is {MORNING[0]}"
    table.press(NEXT)
    assert table.json()["vips_served"] == [{"round": 1, "stage": "morning",
                                           "card": MORNING[0]}]


def test_undo_after_the_choice_comes_back_to_no_card_chosen() -> None:
    table = Table()
    table.press(UP)
    assert table.json()["vip_offer"] == "Nervous"
    table.state, _ = table.app.undo(table.state, table.t)
    assert table.state.notice == "undone: VIP chosen"
    assert (table.json()["ask"], table.json()["vip_offer"]) == ("which", None)
    assert table.refused(NEXT) == REFUSAL  # none chosen again: NEXT waits for a choice


def test_at_brisk_the_answer_starts_the_flight_and_the_words_say_so_first() -> None:
    # Two players: two Morning VIP cards; the first served at setup, the second asked about
    # on round 1's brisk card, among the two Morning cards left.
    table = Table(pace="brisk", players="2", timer="official")
    table.press(DOWN)
    table.press(NEXT)  # Crying Baby served at setup
    while table.json()["step"] != "vip":
        table.press(NEXT)  # the first flight starts and ends; "done" on the brisk card
    assert (table.json()["phase"], table.json()["ask"]) == ("maintenance", "serve?")
    table.press(NEXT)
    body = table.json()
    assert (body["ask"], body["vip_choices"], body["vip_offer"]) == (
        "which", ["Impatient", "Nervous"], None)
    panel = table.screen()
    assert "then NEXT starts flight" in panel.text_lines()
    assert panel.say.startswith("Turn the VIP card over and put it by the last passenger")
    assert panel.say.endswith("the answer starts the flight.")
    assert dict(panel.keys)["next"] == "Tap the card"
    assert table.refused(NEXT) == REFUSAL
    table.press(DOWN)
    assert dict(table.screen().keys)["next"] == "It is Impatient: start the flight"
    table.press(NEXT)
    body = table.json()
    assert (body["step"], body["timer"]["state"]) == ("flight", "running")
    assert body["vips_served"][-1]["card"] == "Impatient"


def test_over_the_protocol_next_is_refused_and_nothing_is_journaled(tmp_path: Path) -> None:
    model = simulated_controller(tmp_path)
    assert model.command_line("new now-boarding players=3 vip=on timer=off seed=1") == "ok"
    state = json.loads(model.command_line("state").removeprefix("ok "))
    while state["ask"] != "which":
        assert model.command_line("press next") == "ok"
        state = json.loads(model.command_line("state").removeprefix("ok "))
    assert state["vip_offer"] is None
    assert model.command_line("press next") == f"err not-allowed {REFUSAL}"
    assert model.command_line("press up") == "ok"
    model.journal.close()
    # The journal holds the choice, not the refused NEXT: the restarted box is at the card.
    again = simulated_controller(tmp_path)
    state = json.loads(again.command_line("state").removeprefix("ok "))
    assert (state["ask"], state["vip_offer"], state["vips_served"]) == ("which", "Nervous", [])
    assert again.command_line("press next") == "ok"
    state = json.loads(again.command_line("state").removeprefix("ok "))
    assert state["vips_served"] == [{"round": 1, "stage": "morning", "card": "Nervous"}]
    again.journal.close()

