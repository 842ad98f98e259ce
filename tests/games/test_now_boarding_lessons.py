"""Now Boarding's lessons as data (companion/games/now_boarding/lessons.py, and v3's): their
sizes, their Rules sections, their own words, and the mechanism on the pure games (pace=teach
only, never during a flight or a running Departure, NEXT is "got it", other inputs wait)."""

import importlib.util
import os
from dataclasses import replace
from pathlib import Path

import pytest

from companion.core.buttons import Button
from companion.core.game import Hold, Press, RuleError
from companion.core.lessons import MOST_WORDS, first_unseen
from companion.games.now_boarding import NowBoarding
from companion.games.now_boarding.lessons import (
    LESSONS,
    RULES_SECTIONS,
    current_lesson,
    lesson_fields,
    setup_why,
)
from companion.games.now_boarding.rules import setup_page, setup_pages
from companion.games.now_boarding_v3.game import NowBoardingV3Game as V3Game
from companion.games.now_boarding_v3.lessons import LESSONS as V3_LESSONS
from companion.games.now_boarding_v3.lessons import current_lesson as v3_current_lesson
from companion.games.now_boarding_v3.lessons import lesson_fields as v3_lesson_fields
from companion.ui.render import render
from companion.ui.screen import LINE_WIDTH, TITLE_WIDTH, screen_problems
from companion.ui.views import LESSON_STATUS, LESSON_STATUS_PAGE, with_table_page
from companion.ui.views.now_boarding import now_boarding_screen


def _own_words():
    """tools/own_words.py (a script, not a package module), loaded by its path."""
    spec = importlib.util.spec_from_file_location(
        "own_words", Path(__file__).resolve().parents[2] / "tools" / "own_words.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OWN_WORDS = _own_words()
# The rulebooks lie beside the project in its workspace (shared/rules), never in a clone of it;
# COMPANION_RULES_DIR names another folder (tests/test_claimed_skips.py uses it).
RULES = Path(os.environ.get("COMPANION_RULES_DIR")
             or Path(__file__).resolve().parents[3] / "shared" / "rules")
RULEBOOK = RULES / "now-boarding.txt"
V3_RULEBOOK = RULES / "now-boarding-v3-prototype.txt"
PRINTS = Path(__file__).resolve().parent / "rulebook_prints"
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


def read_prints(rulebook):
    """The fingerprints kept for ``rulebook`` (tests/games/rulebook_prints/, its name)."""
    lines = (PRINTS / rulebook.name).read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def prints_file_text(rulebook):
    prints = sorted(OWN_WORDS.fingerprints(rulebook.read_text(encoding="utf-8")))
    return (f"# Every run of {OWN_WORDS.DEFAULT_RUN} words of the workspace's "
            f"shared/rules/{rulebook.name}, as a\n"
            "# one-way hash (tools/own_words.py fingerprints): the lessons' own-words check "
            "runs in any\n# clone, which never holds the rulebook. Rewritten only on purpose: "
            "tools/test --regen-golden.\n" + "\n".join(prints) + "\n")


@pytest.mark.parametrize(("lessons", "rulebook"), [(LESSONS, RULEBOOK),
                                                 (V3_LESSONS, V3_RULEBOOK)],
                         ids=["now-boarding", "v3"])
def test_no_lesson_copies_a_run_of_seven_rulebook_words(lessons, rulebook):
    """The project's one own-words check (tools/own_words.py), as for the Rules text, against
    the rulebook's fingerprints: it runs in every clone, with or without the rulebooks."""
    prints = read_prints(rulebook)
    assert len(prints) > 1000, "the rulebook's fingerprints are missing"
    for lesson in lessons:
        assert OWN_WORDS.shared_fingerprinted_runs(lesson.text, prints) == [], lesson.id


# Claimed (tests/conftest.py): CI has the workspace's shared/ beside its clone, so there a
# missing rulebook fails the run; in a user's clone, which never holds the rulebooks, it skips
# and says why (the lessons' check above still runs there, on the kept fingerprints).
@pytest.mark.claimed
@pytest.mark.parametrize("rulebook", [RULEBOOK, V3_RULEBOOK], ids=["now-boarding", "v3"])
def test_the_kept_fingerprints_are_the_rulebooks(rulebook, request):
    if not rulebook.exists():
        pytest.skip(f"the rulebook {rulebook.name} is not beside this clone ({rulebook}): "
                    "whether its kept fingerprints are up to date is checked where the "
                    "workspace's shared/rules is (CI, where this skip is a failure)")
    text = prints_file_text(rulebook)
    if request.config.getoption("--regen-golden"):
        (PRINTS / rulebook.name).write_text(text, encoding="utf-8")
    assert (PRINTS / rulebook.name).read_text(encoding="utf-8") == text, (
        f"{rulebook.name} changed: rewrite its fingerprints with tools/test --regen-golden")


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


@pytest.mark.parametrize("lesson", V3_LESSONS, ids=lambda lesson: f"v3-{lesson.id}")
def test_every_v3_lesson_fits_the_panel_and_the_page(lesson):
    for variant in ("basic", "advanced"):
        state = V3Game().new({"pace": "teach", "variant": variant, "players": "6"}, 1)
        shown = first_unseen((lesson,), replace(state, step="setup"), (),
                             v3_lesson_fields)
        fields = v3_lesson_fields(state)
        text = lesson.text.format(**fields)
        assert len(lesson.title) <= TITLE_WIDTH
        assert 2 <= len(lesson.panel) <= 3
        assert all(len(line.format(**fields)) <= LINE_WIDTH for line in lesson.panel)
        assert len(text.split()) <= MOST_WORDS, text
        assert shown is None or shown.id == "pitch"


def test_a_v3_lesson_waits_for_next_and_never_shows_over_a_running_departure():
    game = V3Game()
    state = game.new({"pace": "teach", "variant": "advanced", "players": "3"}, 1)
    with pytest.raises(RuleError, match="NEXT got it"):
        game.step(state, Press(Button.UP), 0.0)
    state, _ = game.step(state, NEXT, 0.0)  # got it: the pitch
    state, _ = game.step(state, NEXT, 0.0)  # the setup done: the first Departure
    assert v3_current_lesson(state).id == "departure"
    assert state.countdown is not None
    running = replace(state, countdown=state.countdown.start(0.0))
    assert v3_current_lesson(running) is None


@pytest.mark.parametrize("players", ["3", "4"])
def test_setup_pages_say_why_at_pace_teach_only(players):
    for pace in ("teach", "steps"):
        state = replace(GAME.new({"pace": pace, "players": players, "vip": "on"}, 1),
                        lessons_seen=("pitch",))
        for page in range(len(setup_pages(state))):
            at = replace(state, page=page)
            say = now_boarding_screen(at, 0.0).say
            key = setup_page(at)
            why = setup_why(at, key)
            assert (why != "") is (pace == "teach" and not (key == "cards" and players == "4"))
            assert say.endswith(why) and len(why.split()) <= 30


def test_the_first_draw_of_a_teach_game_says_where_the_cards_go():
    for pace in ("teach", "steps"):
        state = replace(GAME.new({"pace": pace}, 1), step="passengers",
                        lessons_seen=("pitch", "moving", "boarding", "delivering"))
        said = now_boarding_screen(state, 0.0).say
        assert ("printed on its back" in said) is (pace == "teach"), said
