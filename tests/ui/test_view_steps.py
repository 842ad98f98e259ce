"""One dispatch a view (one owner for each fact, DESIGN.md rule 14): a game's view chooses the
step once.

Each game view with a words module (companion/ui/views/<game>.py and <game>_words.py) pairs a
step's panel with its whole sentences in one ``match state.step``; every arm returns
``<panel>.with_words(words.<step>(...))``. The match has no fallback: it names every step of
the game's ``Step`` (a ``Literal``) and is followed by ``assert_never(state.step)``, so mypy
fails when a step is missing and a step outside the type never gets another step's screen
(tests/games/test_game_steps.py holds each ``Step`` against the steps the rules reach).
The words module has one public function a step, each used by that one match and by nothing
else there, and no dispatch of its own. Its words are typed ``Words``: they can fill only the
full-text fields, never a panel field, so the screen-words tests' "never a pixel" holds by
construction.
"""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

import pytest

from companion.ui.screen import Screen, Words
from companion.ui.views import VIEW_MODULES

VIEWS = Path(__file__).resolve().parents[2] / "companion" / "ui" / "views"
FUNCTIONS = dict(VIEW_MODULES.values())
"""View module -> its view function (from each game's facts)."""
WORDED = sorted(module for module in FUNCTIONS if (VIEWS / f"{module}_words.py").exists())


def tree(name: str) -> ast.Module:
    return ast.parse((VIEWS / f"{name}.py").read_text(encoding="utf-8"))


def step_matches(module: ast.Module) -> list[ast.Match]:
    """Every ``match state.step`` in ``module``."""
    return [node for node in ast.walk(module)
            if isinstance(node, ast.Match) and ast.unparse(node.subject) == "state.step"]


def step_tests(module: ast.Module) -> list[str]:
    """Every comparison of ``state.step`` with a literal (an ``if`` dispatch)."""
    return [ast.unparse(node) for node in ast.walk(module)
            if isinstance(node, ast.Compare) and ast.unparse(node.left) == "state.step"]


def screen_function(module: ast.Module, view: str) -> ast.FunctionDef:
    """The view function of ``view`` (say ``planes_screen``) in its module's tree."""
    found = [node for node in module.body
             if isinstance(node, ast.FunctionDef) and node.name == FUNCTIONS[view]]
    assert len(found) == 1, FUNCTIONS[view]
    return found[0]


def test_view_steps_the_words_fill_only_full_text_fields() -> None:
    full_text = set(Screen("").full_text())
    assert full_text < {field.name for field in fields(Screen)}
    assert set(Words.__optional_keys__) == full_text - {"notice"}  # the alert is the box's


def test_view_steps_every_game_with_words_is_checked() -> None:
    assert WORDED == ["flight_plan", "now_boarding", "now_boarding_v3", "overbooked", "planes"]


@pytest.mark.parametrize("view", WORDED)
def test_view_steps_one_match_chooses_the_step(view: str) -> None:
    module = tree(view)
    matches = step_matches(module)
    assert len(matches) == 1, f"{view}.py has {len(matches)} matches on the step"
    function = screen_function(module, view)
    assert matches[0] in ast.walk(function), "the step is chosen in the view function"
    assert step_tests(module) == []
    words = tree(f"{view}_words")
    assert step_matches(words) == [], f"{view}_words.py chooses the step again"
    assert step_tests(words) == []


@pytest.mark.parametrize("view", WORDED)
def test_view_steps_each_step_pairs_its_panel_with_its_words(view: str) -> None:
    function = screen_function(tree(view), view)
    returns = [node.value for node in ast.walk(function) if isinstance(node, ast.Return)]
    said: list[str] = []
    for value in returns:
        assert isinstance(value, ast.Call), ast.unparse(value)
        assert isinstance(value.func, ast.Attribute), ast.unparse(value)
        assert value.func.attr == "with_words", ast.unparse(value)
        (argument,) = value.args
        assert isinstance(argument, ast.Call), ast.unparse(value)
        assert ast.unparse(argument.func).startswith("words."), ast.unparse(value)
        said.append(ast.unparse(argument.func).removeprefix("words."))
    public = {node.name for node in tree(f"{view}_words").body
              if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
              and node.returns is not None and ast.unparse(node.returns) == "Words"}
    # Every step's words are said from this one place, and no words function is left over.
    assert set(said) == public


@pytest.mark.parametrize("view", WORDED)
def test_view_steps_the_match_has_no_fallback_and_ends_in_assert_never(view: str) -> None:
    function = screen_function(tree(view), view)
    (match,) = step_matches(tree(view))
    for case in match.cases:
        # Literal steps only (``"a" | "b"``): no ``case _``, no capture of whatever is left.
        values = case.pattern.patterns if isinstance(case.pattern, ast.MatchOr) \
            else [case.pattern]
        assert all(isinstance(value, ast.MatchValue) for value in values), \
            ast.unparse(case.pattern)
    # A guarded step is named again unguarded below it: what the screen is when the guard fails.
    guarded = {ast.unparse(case.pattern) for case in match.cases if case.guard is not None}
    plain = {ast.unparse(case.pattern) for case in match.cases if case.guard is None}
    assert guarded <= plain, f"{view}: a guard that fails falls out of the match"
    index = next(number for number, node in enumerate(function.body)
                 if ast.unparse(node) == ast.unparse(match))
    assert [ast.unparse(node) for node in function.body[index + 1:]] == \
        ["assert_never(state.step)"], f"{view}: the match must end the view function"
