"""A game played through the pure core, one gesture at a time, on a fake time line.

The screen-words tests (tests/ui/test_screen_words_*.py) check every screen of whole games;
this is the part they share: the game's state, its JSON, whether the game would take a
gesture now (tried on the state without keeping the result), and the protocol's
``press X`` / ``hold X`` lines, a refused one shown as the box shows it. Each test's
subclass says what it checks after every input (:meth:`look`). The checks every game's words
share are here too: :func:`check_plain_words` (a heading, a sentence, labels only for real
gestures, and :func:`wording_problems`: plurals, capitals, no raw field names),
:func:`check_no_time_up` and :func:`check_words_not_drawn` (the words change
nothing on the panel).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from companion.core.app import App, AppState
from companion.core.buttons import Button, Gesture
from companion.core.game import RuleError
from companion.ui.render import render
from companion.ui.screen import GESTURES, Screen, screen_problems

GAME_GESTURES: dict[str, tuple[Literal["press", "hold"], Button]] = {
    "next": ("press", Button.NEXT), "up": ("press", Button.UP),
    "down": ("press", Button.DOWN), "hold_next": ("hold", Button.NEXT)}
"""The gestures a game itself answers (BACK belongs to the box: menu and undo)."""

BLANK: Mapping[str, Any] = {"heading": "", "say": "", "then": "", "choices": (),
                            "chosen": None, "keys": (), "done": "", "notice": ""}
"""Every full-text field of a screen, emptied: what is left is the panel's."""


def words_of(screen: Screen) -> str:
    """Every word a screen says to the page, in one string."""
    return " ".join([screen.heading, screen.say, screen.then, *screen.choices,
                     *dict(screen.keys).values(), screen.done])


def check_plain_words(screen: Screen) -> None:
    """What every screen's words hold: a heading and a sentence, and labels only for the
    box's gestures, none of them blank."""
    keys = dict(screen.keys)
    assert screen.heading and screen.say, screen
    assert set(keys) <= set(GESTURES)
    assert all(label.strip() for label in keys.values()), keys
    problems = wording_problems(screen)
    assert problems == [], problems


SINGULAR_S = ("is", "was", "has", "plus", "minus", "bus", "bonus", "class", "this", "yes",
              "its", "goes", "comes", "adds", "stays", "gets", "loses", "wins", "ends", "takes",
              "makes", "moves", "scores", "costs", "counts", "holds", "needs", "says", "starts",
              "plays", "pays", "sits", "flies", "gives", "leaves", "boards")
"""Words ending in s that follow a 1 (or a 1 and a noun) in a right sentence ("1 is left",
"1 card goes back")."""

PLURAL_AFTER_ONE = re.compile(r"(?<![\d$.,:/])(?<![A-Z][a-z]{2} )\b1 (?:[a-z]+ )?(?!(?:"
                              + "|".join(SINGULAR_S) + r")\b)([A-Za-z]+s)\b")


def wording_problems(screen: Screen) -> list[str]:
    """What a screen's words get wrong as written English (issue #27, item 5): a plural after
    1 ("at most 1 passengers"), a sentence that starts in lower case ("drawn. its anger"),
    and a raw field name ("unserved_vips"). Empty when the words read right."""
    problems = []
    fields = [screen.heading, screen.say, screen.then, screen.done, screen.notice,
              *screen.choices, *dict(screen.keys).values()]
    for text in filter(None, fields):
        # "1 passengers", "1 goal cards"; not "Day 1 ends" (a numbered thing, then a verb).
        plural = PLURAL_AFTER_ONE.search(text)
        if plural:
            problems.append(f"a plural after 1: {plural.group(0)!r} in {text!r}")
        lower = re.search(r"[.!?] +[a-z]", text)
        if lower:
            problems.append(f"a sentence in lower case: {lower.group(0)!r} in {text!r}")
        raw = re.search(r"\b[a-z]+_[a-z_]+\b", text)
        if raw:
            problems.append(f"a raw field name: {raw.group(0)!r} in {text!r}")
    for text in filter(None, (screen.say, screen.done)):
        if text[0].islower():
            problems.append(f"a sentence in lower case: {text!r}")
    return problems


def check_no_time_up(screen: Screen) -> None:
    """The words never say "TIME UP" nor show a bare "0:00"."""
    words = words_of(screen)
    assert "TIME UP" not in words.upper()
    assert not re.search(r"(?<!\d)0:00(?!\d)", words), words


def check_words_not_drawn(screen: Screen, panel: Screen, *, box_alert: bool = False) -> None:
    """The words are for the page: without them ``screen`` is the view's own ``panel`` (with
    ``box_alert``, the box may have added an alert too), drawn pixel for pixel the same, and
    within the panel's limits."""
    alert: dict[str, Any] = {"alert": ()} if box_alert else {}
    assert replace(screen, **BLANK, **alert) == replace(panel, **BLANK)
    assert render(screen).tobytes() == render(replace(screen, **BLANK)).tobytes()
    assert screen_problems(screen) == []


class PlayedGame:
    """``game`` (one of ``app``'s) started with ``options`` for 3 players at time 0."""

    def __init__(self, app: App, game: str, options: Mapping[str, str]) -> None:
        self.app = app
        self.t = 0.0
        self.state, _ = app.new_game(AppState(), game, options, 3, 0.0)

    @property
    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, self.t)

    def look(self) -> Screen:
        """Called after every input: the subclass checks the screen now."""
        raise NotImplementedError

    def accepts(self, gesture: str) -> bool:
        """Whether the game takes ``gesture`` now (tried on a copy: the game goes on)."""
        kind, button = GAME_GESTURES[gesture]
        try:
            self.app.gesture(self.state, Gesture(kind, button, self.t + 0.1), self.t + 0.1)
        except RuleError:
            return False
        return True

    def line(self, text: str) -> None:
        """A ``press X`` or ``hold X`` line 0.3 s later; a refusal is shown, as on the box."""
        word, name = text.split()
        assert word in ("press", "hold")
        kind: Literal["press", "hold"] = "press" if word == "press" else "hold"
        self.t += 0.3
        try:
            self.state, _ = self.app.gesture(
                self.state, Gesture(kind, Button[name.upper()], self.t), self.t)
        except RuleError as error:
            self.state = self.app.refuse(self.state, error)
        self.look()
