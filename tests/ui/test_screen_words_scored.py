"""Planes' and Overbooked entry's step cards (issue #20, item 3): whole sentences for the
table page, from the same model as the panel.

Over every screen of each view's scenes and of random walks through whole games: each step
has a name and a whole instruction; every gesture a screen labels is one the game accepts at
that state (UP and DOWN, NEXT and hold NEXT alike); lists (the planes, whose turn it was, the
event cards) show the selection; the full-text fields never change a pixel and the panel is
the view's own (the box adds only the words and the alert).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.core.app import App
from companion.games.overbooked.game import OverbookedEntry
from companion.games.planes.game import PlanesGame
from companion.testing.played import (
    GAME_GESTURES,
    PlayedGame,
    check_plain_words,
    check_words_not_drawn,
)
from companion.ui.screen import Screen
from companion.ui.views import overbooked, planes, screen_for, view_for

GAMES: dict[str, Any] = {"planes": PlanesGame, "overbooked": OverbookedEntry}


class Played(PlayedGame):
    """A game whose every screen's words are checked after every input."""

    def __init__(self, line: str) -> None:
        words = line.split()
        game = words[1]
        options = dict(word.split("=", 1) for word in words[2:])
        kind = GAMES[game]
        super().__init__(App([kind()]), game, options)
        self.steps: set[str] = set()
        self.look()

    def look(self) -> Screen:
        screen = screen_for(self.app, self.state, self.t)
        check_words(self, screen)
        self.steps.add(str(self.json["step"]))
        return screen



def check_words(played: Played, screen: Screen) -> None:
    keys = dict(screen.keys)
    step = played.json["step"]
    check_plain_words(screen)
    # NEXT is labelled wherever it does something (not on a goal card without a value).
    assert ("next" in keys) == played.accepts("next"), (step, keys)
    for gesture in GAME_GESTURES:
        if gesture in keys:
            assert played.accepts(gesture), (step, gesture, keys, screen.say)
    if screen.choices:
        assert screen.chosen is not None
    session = played.state.session
    assert session is not None
    panel = view_for(session.game)(session.state, played.t)
    check_words_not_drawn(screen, panel, box_alert=True)


SCENES = {**planes.SCENES, **overbooked.SCENES}


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_every_screen_of_the_scenes_says_its_step_in_words(scene: str) -> None:
    first, *lines = SCENES[scene]
    played = Played(first)
    for line in lines:
        played.line(line)


WALKS = ["new planes players=2 short=3", "new planes players=4", "new planes players=3 grey=0",
         "new overbooked players=2 events=choose", "new overbooked players=4 variant=advanced",
         "new overbooked players=1 scenario=couples difficulty=hard"]


@pytest.mark.parametrize("start", WALKS)
@pytest.mark.parametrize("seed", range(3))
def test_random_walks_through_whole_games_keep_to_their_words(start: str, seed: int) -> None:
    rng = random.Random(seed)
    played = Played(start)
    lines = ["press next", "press up", "press up", "press down", "hold next"]
    for _ in range(400):
        played.line(rng.choice(lines))
    assert len(played.steps) >= 3, played.steps


def test_a_seat_says_who_sits_there_and_what_up_makes_it() -> None:
    played = Played("new overbooked players=2")
    screen = played.look()
    assert screen.heading.startswith("P1's plane: seat 1 of ")
    assert "holds empty" in screen.say
    assert dict(screen.keys)["up"] == "Make it a couple (red)"
    played.line("press up")
    assert "holds a couple (red)" in played.look().say
