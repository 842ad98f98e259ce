"""Lessons for a table new to a game (``pace=teach``): the mechanism every game shares (pure).

DESIGN.md rule 16, "Teaching is data". A game's lessons live in a module of its own
(``games/<game>/lessons.py``) as a tuple of :class:`Lesson`, in the order a game meets them;
this module holds what they share:

- :func:`first_unseen` names the lesson a state shows: the first whose trigger (a pure
  predicate on the state) holds and whose id the state has not seen, its texts filled from
  the state's counts. The game decides when it may teach at all (its pace, never while a
  countdown runs); no view decides.
- :func:`answer` is the game's answer to an input while a lesson shows: NEXT is the table's
  "got it" (the game adds the id to its ``lessons_seen``, so the journaled press is the only
  thing that changes it, and undo, resume and a power cut follow); every other input of the
  game's is refused with what to do instead. BACK stays the box's (menu, hold to undo).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from companion.core.buttons import Button
from companion.core.game import GameAction, Press, RuleError

S = TypeVar("S")

#: The most words a lesson's page text may have (issue #26: read in a few seconds).
MOST_WORDS = 60


@dataclass(frozen=True)
class Lesson(Generic[S]):
    """One lesson: shown when ``trigger`` first holds. ``panel`` is two or three lines of 21
    characters; ``text`` at most :data:`MOST_WORDS` words; both may name ``{fields}`` of
    the game's counts. ``more`` is the page's Rules section for the whole rule (or None)."""

    id: str
    title: str
    panel: tuple[str, ...]
    text: str
    more: str | None
    trigger: Callable[[S], bool]


@dataclass(frozen=True)
class ShownLesson:
    """A lesson as it shows now: its fields filled from the state."""

    id: str
    title: str
    panel: tuple[str, ...]
    text: str
    more: str | None

    def to_json(self) -> dict[str, str | None]:
        """The state JSON's ``lesson`` object (CONTRACT.md section 3, plus ``more``)."""
        return {"id": self.id, "title": self.title, "text": self.text, "more": self.more}


def first_unseen(lessons: Sequence[Lesson[S]], state: S, seen: tuple[str, ...],
                 fields: Callable[[S], Mapping[str, object]]) -> ShownLesson | None:
    """The first of ``lessons`` not in ``seen`` whose trigger holds at ``state``, filled in
    with ``fields(state)``; None when there is none."""
    for lesson in lessons:
        if lesson.id not in seen and lesson.trigger(state):
            values = fields(state)
            return ShownLesson(lesson.id, lesson.title,
                               tuple(line.format(**values) for line in lesson.panel),
                               lesson.text.format(**values), lesson.more)
    return None


def answer(shown: ShownLesson, action: GameAction) -> str:
    """The id ``action`` marks seen while ``shown`` shows: NEXT only; anything else is
    refused (:class:`RuleError`)."""
    if action != Press(button=Button.NEXT):
        raise RuleError("not-allowed", "a lesson first: NEXT got it")
    return shown.id
