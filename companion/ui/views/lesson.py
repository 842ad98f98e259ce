"""A lesson's screen (``pace=teach``): the same for every game that teaches (pure).

DESIGN.md rule 16: the state names the lesson (a game's lessons module decides when);
this module only draws it. On the panel a lesson is its title in the title bar, two or
three lines in the 12 px font and the status ``NEXT got it`` (``NEXT got it  more on page``
while the table page is on: ``with_table_page`` in companion/ui/views/__init__.py, which
knows; it lives there so that start-up loads no game's view). On the
table page it is the title, the whole text, a "Got it" button (NEXT) and, in the Timer view,
a "More" link to the lesson's section of the Rules view (the state JSON's ``lesson.more``).
"""

from __future__ import annotations

from companion.ui.screen import Screen, Words
from companion.ui.views import LESSON_STATUS


def lesson_panel(title: str, panel: tuple[str, ...]) -> Screen:
    """A lesson on the panel: its title, two or three lines, ``NEXT got it``."""
    return Screen(title, panel, status=LESSON_STATUS)


def lesson_words(title: str, text: str) -> Words:
    """A lesson in whole sentences for the page: its text, and "Got it" on NEXT."""
    return {"heading": f"Lesson: {title}", "say": text, "then": "",
            "keys": (("next", "Got it"), ("hold_back", "Undo"))}
