"""Each game's ``Step`` is exactly the steps its rules reach: no dead name, none missing.

A game's ``Step`` (a ``Literal``) is the one owner of its step names; the view's one ``match``
names each of them and mypy fails when one is missing (tests/ui/test_view_steps.py keeps that
shape). Here the names are held against what the rules really do:

- every name is reached: by the view's scenes (played on the simulated controller, as
  ``companion render`` plays them, reading the ``state`` reply's ``step`` after every line)
  and by whole games that press NEXT at every step;
- nothing else is ever reached: hypothesis plays random button sequences (and the timer's
  expiry and a power cut's restore) from random options, and every state on the way has a
  step of ``Step`` that the view draws, and the state JSON says that same string.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.buttons import Button
from companion.core.game import (
    Expire,
    Game,
    GameAction,
    Hold,
    Press,
    Restore,
    RuleError,
    resolve_options,
)
from companion.games.now_boarding.game import NowBoarding
from companion.games.now_boarding.rules import Step as NowBoardingStep
from companion.games.now_boarding_v3.data import Step as V3Step
from companion.games.now_boarding_v3.game import NowBoardingV3Game
from companion.games.overbooked.game import OverbookedEntry
from companion.games.overbooked.game import Step as OverbookedStep
from companion.games.planes.game import PlanesGame
from companion.games.planes.game import Step as PlanesStep
from companion.testing.simulated import simulated_controller
from companion.ui.views import all_view_scenes, view_for

GAMES: dict[str, tuple[Game[Any], Any]] = {
    "now-boarding": (NowBoarding(), NowBoardingStep),
    "now-boarding-v3": (NowBoardingV3Game(), V3Step),
    "planes": (PlanesGame(), PlanesStep),
    "overbooked": (OverbookedEntry(), OverbookedStep),
}
"""Game name -> (its Game, its ``Step``)."""

WHOLE_GAMES: dict[str, tuple[dict[str, str], ...]] = {
    "now-boarding": ({"players": "3", "vip": "on"}, {"players": "5", "timer": "off"},
                     {"players": "2", "pace": "brisk", "vip": "on"}),
    "now-boarding-v3": ({"players": "3", "variant": "advanced"}, {"players": "6"}),
    "planes": (),
    "overbooked": (),
}
"""Options of whole games played with NEXT at every step (Planes' board wants UP and
Overbooked's events a held NEXT: their scenes reach every step)."""

MOVES: dict[str, int] = {"next": 8, "up": 3, "down": 2, "hold-next": 2, "hold-up": 1,
                         "wait": 2, "restore": 1}
"""The random player's moves and how often it makes each (NEXT most: it moves games on)."""
ACTIONS: dict[str, GameAction] = {
    "next": Press(Button.NEXT), "up": Press(Button.UP), "down": Press(Button.DOWN),
    "hold-next": Hold(Button.NEXT), "hold-up": Hold(Button.UP), "restore": Restore(),
}
WAIT = 20.0
"""Seconds a ``wait`` move lets pass; then the countdown's expiry, if it is due."""
RANDOM_MOVES = 1500
MOST_PRESSES = 2000  # a whole game is a few hundred; more means the game never ends


def names(game: str) -> set[str]:
    return set(get_args(GAMES[game][1]))


def scene_steps(tmp_path: Path) -> dict[str, set[str]]:
    """Game name -> every step the state shows while its view's scenes are played."""
    reached: dict[str, set[str]] = {}
    for number, lines in enumerate(all_view_scenes().values()):
        controller = simulated_controller(tmp_path / str(number))
        try:
            for line in lines:
                controller.command_line(line)
                reply = str(controller.command_line("state"))
                body = json.loads(reply.removeprefix("ok "))
                reached.setdefault(str(body["game"]), set()).add(str(body["step"]))
        finally:
            controller.journal.close()
    return reached


def whole_game_steps(name: str, options: Mapping[str, str]) -> set[str]:
    """Every step of a game played to its end with NEXT at every step (DOWN where NEXT waits
    for a choice), the timer let run out where NEXT would only start it."""
    game = GAMES[name][0]
    state = game.new(resolve_options(game.options, options), 7)
    now = 0.0
    reached = {state.step}
    for _ in range(MOST_PRESSES):
        if game.result(state) is not None:
            return reached
        try:
            state, _ = game.step(state, Press(Button.NEXT), now)
        except RuleError:  # a choice first (Now Boarding's "which VIP?"): DOWN makes it
            state, _ = game.step(state, Press(Button.DOWN), now)
        reached.add(state.step)
        now += 1.0
    raise AssertionError(f"{name} {dict(options)}: no end after {MOST_PRESSES} presses")


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    return scene_steps(tmp_path_factory.mktemp("scenes"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_game_steps_are_exactly_the_steps_the_rules_reach(
        game: str, scenes: dict[str, set[str]]) -> None:
    reached = set(scenes[game])
    for options in WHOLE_GAMES[game]:
        reached |= whole_game_steps(game, options)
    assert reached == names(game), (
        f"never reached: {sorted(names(game) - reached)}; "
        f"not a Step: {sorted(reached - names(game))}")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_game_steps_the_step_literal_lists_each_name_once(game: str) -> None:
    listed = get_args(GAMES[game][1])
    assert len(listed) == len(set(listed)) and all(isinstance(n, str) for n in listed)


def random_options(draw: st.DrawFn, game: Game[Any]) -> dict[str, str]:
    return {spec.key: draw(st.sampled_from(spec.choices)) for spec in game.options}


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_game_steps_random_play_reaches_no_step_outside_the_literal(
        name: str, data: st.DataObject) -> None:
    game, _ = GAMES[name]
    view = view_for(name)
    allowed = names(name)
    options = resolve_options(game.options, random_options(data.draw, game))
    state = game.new(options, data.draw(st.integers(0, 2**16)))
    player = data.draw(st.randoms(use_true_random=False))
    moves = player.choices(list(MOVES), weights=list(MOVES.values()), k=RANDOM_MOVES)
    now = 0.0
    for move in moves:
        now += 0.5
        if move == "wait":
            now += WAIT
            countdown = game.countdown(state)
            if countdown is None or not countdown.is_due(now):
                continue
            action: GameAction = Expire()
        else:
            action = ACTIONS[move]
        try:
            state, _ = game.step(state, action, now)
        except RuleError:
            continue
        assert state.step in allowed, f"{name}: {state.step!r} after {move}"
        assert game.to_json(state, now)["step"] == state.step
        view(state, now)  # the view draws it: a step it did not name would not pass mypy
        if game.result(state) is not None:
            break  # the end: nothing more moves the step
