"""Now Boarding's lessons as data (companion/games/now_boarding/lessons.py): their sizes,
their Rules sections, their own words, and the mechanism on the pure game (pace=teach only,
never during a flight, NEXT is "got it", other inputs wait)."""

import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.core.buttons import Button
from companion.core.game import Hold, Press, RuleError
from companion.games.now_boarding import NowBoarding
from companion.games.now_boarding.lessons import (
    LESSONS,
    RULES_SECTIONS,
    current_lesson,
    lesson_fields,
)
from companion.ui.render import render
from companion.ui.screen import LINE_WIDTH, TITLE_WIDTH, screen_problems
from companion.ui.views import LESSON_STATUS, LESSON_STATUS_PAGE, with_table_page
from companion.ui.views.now_boarding import now_boarding_screen

RULEBOOK = Path("/work/shared/rules/now-boarding.txt")
GAME = NowBoarding()
NEXT = Press(Button.NEXT)


def filled(lesson, state):
    fields = lesson_fields(state)
    return (tuple(line.format(**fields) for line in lesson.panel),
            lesson.text.format(**fields))


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_every_lesson_fits_the_panel_and_the_page(lesson):
    state = GAME.new({"pace": "teach"}, 1)
    over = replace(state, step="over", result="win", undelivered=12, complaints=2)
    for at in (state, over):
        panel, text = filled(lesson, at)
        assert len(lesson.title) <= TITLE_WIDTH
        assert 2 <= len(panel) <= 3 and all(len(line) <= LINE_WIDTH for line in panel), panel
        assert len(text.split()) <= 60, text
    assert lesson.more in RULES_SECTIONS


def test_the_lessons_have_distinct_ids():
    assert len({lesson.id for lesson in LESSONS}) == len(LESSONS)


def shingles(text, size=7):
    tokens = re.findall(r"[a-z0-9']+", text.lower())
    return {tuple(tokens[i:i + size]) for i in range(len(tokens) - size + 1)}


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not on this machine")
def test_no_lesson_copies_a_run_of_seven_rulebook_words():
    book = shingles(RULEBOOK.read_text())
    for lesson in LESSONS:
        assert not shingles(lesson.text) & book, lesson.id


def test_a_lesson_shows_only_at_pace_teach():
    for pace in ("steps", "brisk"):
        assert current_lesson(GAME.new({"pace": pace}, 1)) is None
    taught = GAME.new({"pace": "teach"}, 1)
    lesson = current_lesson(taught)
    assert lesson is not None and lesson.id == "pitch"


def test_next_is_got_it_and_other_inputs_wait_for_it():
    state = GAME.new({"pace": "teach"}, 1)
    for action in (Press(Button.UP), Press(Button.DOWN), Hold(Button.NEXT)):
        with pytest.raises(RuleError, match="NEXT got it"):
            GAME.step(state, action, 0.0)
    assert GAME.describe(state, NEXT) == "got it: Welcome aboard"
    seen, _ = GAME.step(state, NEXT, 0.0)
    assert seen.lessons_seen == ("pitch",) and seen.step == "setup" and seen.page == 0
    assert current_lesson(seen) is None


def test_no_lesson_during_a_flight_even_when_one_is_due():
    state = GAME.new({"pace": "teach", "timer": "official"}, 1)
    flying = replace(state, phase="flight", step="flight", round=2)
    assert current_lesson(flying) is None


def test_the_lesson_screen_is_the_panel_the_issue_asks_for():
    state = GAME.new({"pace": "teach"}, 1)
    screen = now_boarding_screen(state, 0.0)
    assert screen.title == "Welcome aboard" and screen.status == LESSON_STATUS
    assert 2 <= len(screen.lines) <= 3 and screen_problems(screen) == []
    assert dict(screen.keys)["next"] == "Got it"
    on_page = with_table_page(screen)
    assert on_page.status == LESSON_STATUS_PAGE and screen_problems(on_page) == []
    render(on_page)  # draws within the panel
