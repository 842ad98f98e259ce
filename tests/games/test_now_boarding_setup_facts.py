"""The physical facts a new Now Boarding table needs are taught (issue #35, "Done when").

Issue #35 names them: what a starting plane is made of (cockpit, wing, seat and tail; one
seat; the wing's speed), which passenger card goes with each plane and face up or down, what
to do with a weather card once its token is placed, which dot a token goes on, where a
bought route tile goes, and when a temporary token counts as used. Each must be found in a
lesson (companion/games/now_boarding/lessons.py), a picture's labels
(companion/ui/pictures/now_boarding.py) or a setup card's text (the words the page shows on
each setup page): one text that says the whole fact, not its words scattered. The facts'
own table (setup_facts.py) keeps its labels short enough for the pictures and its sentences
in the project's own words.
"""

import importlib.util
import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.now_boarding import NowBoarding
from companion.games.now_boarding.data import START_SPEED
from companion.games.now_boarding.lessons import LESSONS
from companion.games.now_boarding.rules import setup_pages
from companion.games.now_boarding.setup_facts import (
    FACT_KEYS,
    LABEL_WIDTH,
    SETUP_FACTS,
    fact,
    facts_for,
)
from companion.ui.pictures.now_boarding import plane_scene, table_scene
from companion.ui.views.now_boarding import now_boarding_screen

PHYSICAL_FACTS = {
    "a starting plane is a cockpit, a wing, a seat and a tail":
        (r"cockpit", r"wing", r"\bseat", r"\btail"),
    "a starting plane has one seat": (r"\b(1|one) seat\b",),
    "the wing shows the plane's speed": (r"\bwing", rf"speed:? {START_SPEED}\b"),
    "each plane's passenger card comes from its home and lies face up":
        (r"\bcard", r"\bhome", r"face[ -]up"),
    "a weather card is set aside once its token is placed":
        (r"weather card", r"token", r"\baside|discard"),
    "a weather token goes on a route's dot, never an airport":
        (r"token", r"\bdot\b", r"(not|never) (on )?an airport"),
    "a bought route tile goes beside the tail": (r"route tile", r"\btail"),
    "a temporary token counts as used once it helps in a flight, then goes back":
        (r"\btemp(orary)? token", r"\bused?\b", r"\bback\b"),
}
"""Each physical fact of issue #35 and the words one text must hold to say it."""


def lesson_texts():
    for lesson in LESSONS:
        yield f"lesson {lesson.id}", lesson.text
        yield f"lesson {lesson.id} (panel)", " ".join(lesson.panel)


def picture_labels():
    for players in range(2, 6):
        for vip in (False, True):
            for label in table_scene(players, vip, "seat").labels():
                yield f"table {players}p label", label.text
    for label in plane_scene().labels():
        yield "plane label", label.text


def setup_cards():
    game = NowBoarding()
    for players in range(2, 6):
        state = game.new({"players": str(players), "vip": "on"}, 1)
        for page in range(len(setup_pages(state))):
            screen = now_boarding_screen(replace(state, page=page), 0.0)
            yield f"setup card {players}p page {page + 1}", screen.say


def every_text():
    return [*lesson_texts(), *picture_labels(), *setup_cards()]


TEXTS = every_text()


def says(text, words):
    return all(re.search(pattern, text, re.IGNORECASE) for pattern in words)


@pytest.mark.parametrize("name", list(PHYSICAL_FACTS))
def test_every_physical_fact_is_said_in_a_lesson_a_picture_or_a_setup_card(name):
    found = [where for where, text in TEXTS if says(text, PHYSICAL_FACTS[name])]
    assert found, f"nowhere says: {name}"


@pytest.mark.parametrize("name", list(PHYSICAL_FACTS))
def test_the_whole_table_picture_alone_says_every_physical_fact(name):
    labels = [label.text for label in table_scene(3, True, "speed").labels()]
    labels += [label.text for label in plane_scene().labels()]
    assert any(says(text, PHYSICAL_FACTS[name]) for text in labels), name


@pytest.mark.parametrize("item", SETUP_FACTS, ids=lambda item: item.key)
def test_each_facts_label_fits_a_picture_and_its_sentence_is_a_sentence(item):
    assert len(item.label) <= LABEL_WIDTH
    assert item.sentence[0].isupper() and item.sentence.endswith(".")
    assert len(item.sentence.split()) <= 30  # a setup card's line, not a paragraph
    assert fact(item.key) is item
    assert item in facts_for(item.page)


def test_the_facts_sentences_say_what_their_labels_say():
    for name, words in PHYSICAL_FACTS.items():
        labels = [item for item in SETUP_FACTS if says(item.label, words)]
        assert labels, name
        assert any(says(item.sentence, words) or says(f"{item.label} {item.sentence}", words)
                   for item in labels), name


def _own_words():
    """tools/own_words.py (a script, not a package module), loaded by its path."""
    spec = importlib.util.spec_from_file_location(
        "own_words", Path(__file__).resolve().parents[2] / "tools" / "own_words.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The rulebook lies beside the project in its workspace (shared/rules), never in a clone of it.
RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "now-boarding.txt"


def test_no_fact_copies_a_run_of_seven_rulebook_words():
    """The project's one own-words check (tools/own_words.py), as for the lessons."""
    if not RULEBOOK.exists():
        pytest.skip("the shared rulebook is not on this machine")
    book = RULEBOOK.read_text(encoding="utf-8")
    own_words = _own_words()
    for item in SETUP_FACTS:
        assert own_words.shared_runs(f"{item.label}. {item.sentence}", book) == [], item.key


def test_an_unknown_fact_is_named_with_the_known_ones():
    with pytest.raises(KeyError, match="plane-parts"):
        fact("no-such-fact")
    assert len(set(FACT_KEYS)) == len(FACT_KEYS)
