"""The screen model: what the display shows, before it becomes pixels.

A :class:`Screen` is a title bar, an optional main line, a body of text lines or one line of
big digits with an optional caption, and a status bar. The ``screen`` protocol reply, the
terminal preview and the golden PNGs all come from this one model (DESIGN.md rule 9).

Sizes on the 128x64 panel (Spleen bitmap fonts):
- title: one line of at most 21 characters, inverted, on top;
- main: what to do now, one line of at most 21 characters in the 6x12 font right under the
  title, readable from a seat; with it the body is at most 3 lines of 25 characters in the
  small font (4 without a status bar);
- body: up to 3 lines of 21 characters, or 4 lines of 25 characters (smaller font), or 5
  such lines when there is no status bar;
  or ``big`` text of at most 8 characters in 16x32 digits with a ``caption`` of 25 below;
- status: one line of at most 25 characters at the bottom;
- mark: a few characters at the right end of the title bar for a fault that persists
  (``SAVE!``: the journal cannot write; play goes on in memory);
- alert: a message (why an input was refused, a fault) in an inverted box over the bottom of
  the screen, in lines of 25 characters: two for most messages, as many as the message needs
  up to five (the title stays above), so a long refusal is shown whole rather than cut. A body
  row the box would cut through is not drawn.
- selected: that body line is framed (a box outline: the title bar is filled, so the two
  never look alike);
- more_above / more_below: small arrows at the right edge say that a list scrolls (the last
  character of a framed list line leaves them room, see :func:`screen_problems`).
- matrix: a QR code (at most 29 modules a side) drawn at 2 px a module, dark on a lit 64 x 64
  square on the left; the title (10 characters) and up to 5 lines of 12 small characters
  then share the right half, and there is no status bar.
- picture: a drawing made for the panel (a 128 x 64 unit :class:`~companion.ui.pictures.scene.
  Scene` with its own title row, such as the table set up) drawn in place of the title bar and
  body; the status bar, the mark and an alert are drawn over it as on any screen. The title and
  lines stay in the model: they are the ``screen`` reply's text and the terminal's.
Longer text is cut at the edge; views keep to these widths.

The full-text fields are for the table page, never drawn on the panel (the pixels and the
goldens come from the fields above alone): ``heading`` names the step in words
("Maintenance: file complaints"); ``say`` is the step's whole instruction as sentences;
``then`` says what comes after it; ``choices`` is the step's whole list (every row, not the
panel's window of three) with ``chosen`` the selected one; ``keys`` pairs each gesture that
does something now (``next``, ``hold_next``, ``up``, ``down``, ``back``, ``hold_back``) with
a label saying what it does ("Start flight", "Buy a seat for $9"); ``done`` confirms the last
action in words ("P2 bought a seat for $9: 9 left"); ``notice`` is the alert's message whole;
``coach`` the game's warnings in sentences (never a question: Now Boarding's coach).
A view's words module builds the view's part of them, typed as :class:`Words`, and the view
puts each step's panel and its words together with :meth:`Screen.with_words`.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypedDict

from companion.core.words import plural

if TYPE_CHECKING:  # a picture's type only: the scenes load with the first picture drawn
    from companion.ui.pictures.scene import Scene

TITLE_WIDTH = 21
LINE_WIDTH = 21
SMALL_LINE_WIDTH = 25
STATUS_WIDTH = 25
BIG_WIDTH = 8
MAX_LINES = 5
MAX_LINES_UNDER_MAIN = 4
MATRIX_TITLE_WIDTH = 10
MATRIX_LINE_WIDTH = 12
GESTURES = ("next", "hold_next", "up", "down", "back", "hold_back")
"""The gestures a screen's ``keys`` may label, in the order the page shows them."""


def sentence(text: str) -> str:
    """``text`` as a sentence of the page's words: a capital first letter and a full stop at
    its end ("" stays ""). The data's short phrases ("its anger never resets") read right
    after another sentence."""
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else f"{text}."


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun`` in words: "1 voucher", "2 vouchers", "1 bonus card" (``noun``
    given in the plural; one drops the last word's final s)."""
    return plural(count, noun[:-1], noun) if noun.endswith("s") else f"{count} {noun}"


class Words(TypedDict, total=False):
    """A step's full-text fields as a view's words module gives them (``notice`` is the box's
    own): the keyword arguments :meth:`Screen.with_words` sets, typed as the fields are."""

    heading: str
    say: str
    then: str
    choices: tuple[str, ...]
    chosen: int | None
    keys: tuple[tuple[str, str], ...]
    done: str
    coach: tuple[str, ...]


@dataclass(frozen=True)
class Screen:
    """One frame's content. ``selected`` inverts that body line (menus); ``matrix`` is a QR
    code's modules (True: dark), see the module docstring."""

    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
    caption: str = ""
    status: str = ""
    selected: int | None = None
    alert: tuple[str, ...] = ()
    mark: str = ""
    main: str = ""
    more_above: bool = False
    more_below: bool = False
    matrix: tuple[tuple[bool, ...], ...] = ()
    picture: Scene | None = None
    heading: str = ""
    say: str = ""
    then: str = ""
    choices: tuple[str, ...] = ()
    chosen: int | None = None
    keys: tuple[tuple[str, str], ...] = ()
    done: str = ""
    notice: str = ""
    coach: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.lines) > MAX_LINES:
            raise ValueError(f"a screen holds at most {MAX_LINES} lines, got {len(self.lines)}")
        if self.big is not None and self.lines:
            raise ValueError("a screen shows either big text or lines, not both")
        if len(self.lines) == MAX_LINES and self.status:
            raise ValueError("five lines leave no room for a status bar")
        if self.main and self.big is not None:
            raise ValueError("a screen shows either big text or a main line, not both")
        room = MAX_LINES_UNDER_MAIN - (1 if self.status else 0)
        if self.main and len(self.lines) > room:
            raise ValueError(f"under a main line {room} lines fit, got {len(self.lines)}")

        if self.matrix and (self.big is not None or self.status):
            raise ValueError("a screen with a matrix has lines beside it, no big text or status")
        if self.picture is not None:
            if self.matrix or self.big is not None:
                raise ValueError("a screen with a picture has no matrix or big text")
            if (self.picture.width, self.picture.height) != (128, 64):
                raise ValueError("a panel picture is 128x64 units, not "
                                 f"{self.picture.width}x{self.picture.height}")
        if self.chosen is not None and not 0 <= self.chosen < len(self.choices):
            raise ValueError(f"choice {self.chosen} is not one of {len(self.choices)}")
        unknown = {key for key, _ in self.keys} - set(GESTURES)
        if unknown:
            raise ValueError(f"no such gesture: {', '.join(sorted(unknown))}")

    def full_text(self) -> dict[str, object]:
        """The full-text fields as the table page receives them (``keys`` as an object)."""
        return {"heading": self.heading, "say": self.say, "then": self.then,
                "choices": list(self.choices), "chosen": self.chosen,
                "keys": dict(self.keys), "done": self.done, "notice": self.notice,
                "coach": list(self.coach)}

    def with_words(self, words: Words) -> Screen:
        """This screen (a step's panel) with the step's full-text fields ``words``."""
        return replace(self, **words)

    def with_main(self, index: int) -> Screen:
        """This screen with body line ``index`` moved up to be its main line (a view names
        the line that says what to do now)."""
        lines = list(self.lines)
        main = lines.pop(index)
        selected = self.selected
        if selected is not None and selected > index % len(self.lines):
            selected -= 1
        return replace(self, main=main, lines=tuple(lines), selected=selected)

    def with_status_as_main(self) -> Screen:
        """This screen with its status bar moved up to be its main line ("NEXT: Purchase"
        is what to do now when the body lists what to do before it). A status too long for
        the large font stays; the first body line that fits becomes the main line instead."""
        if len(self.status) <= LINE_WIDTH:
            return replace(self, main=self.status, status="")
        fitting = [index for index, line in enumerate(self.lines) if len(line) <= LINE_WIDTH]
        return self.with_main(fitting[0]) if fitting else self

    @property
    def small_lines(self) -> bool:
        """Whether the body lines are drawn in the small font (5x8) rather than 6x12."""
        return bool(self.main) or len(self.lines) > 3

    def text_lines(self) -> list[str]:
        """The text on the display, top to bottom (the ``screen`` protocol reply)."""
        body = [self.big, self.caption] if self.big is not None else list(self.lines)
        title = f"{self.title} [{self.mark}]" if self.mark else self.title
        return [line for line in (title, self.main, *body, self.status, *self.alert) if line]

    def selected_text_line(self) -> int | None:
        """Where the selected body line is in :meth:`text_lines` (None: no selection)."""
        if self.selected is None or self.big is not None:
            return None
        if not 0 <= self.selected < len(self.lines) or not self.lines[self.selected]:
            return None
        above = [self.title, self.main, *self.lines[: self.selected]]
        return sum(1 for line in above if line)

    def marked_lines(self) -> list[str]:
        """:meth:`text_lines` with the selected line marked ``> `` and the other lines of the
        list indented to match: the terminal simulator's text, where an inverted row of the
        picture is hard to see."""
        if self.selected is None or self.big is not None:
            return self.text_lines()
        lines = tuple(("> " if index == self.selected else "  ") + line
                      for index, line in enumerate(self.lines))
        return replace(self, lines=lines, selected=None).text_lines()


ALERT_LINES = 5


def screen_problems(screen: Screen) -> list[str]:
    """Every text of ``screen`` that is longer than the panel shows (the renderer would cut
    it with '~'): what the views must keep to. Empty when the screen fits."""
    problems: list[str] = []
    title_room = TITLE_WIDTH - (len(screen.mark) + 1 if screen.mark else 0)
    width = SMALL_LINE_WIDTH if screen.small_lines else LINE_WIDTH
    # A list with scroll arrows keeps its lines one character short of the arrows.
    if screen.more_above or screen.more_below:
        width -= 1
    if screen.matrix:
        title_room, width = MATRIX_TITLE_WIDTH, MATRIX_LINE_WIDTH
    checks = [("title", screen.title, title_room), ("status", screen.status, STATUS_WIDTH),
              ("main", screen.main, LINE_WIDTH),
              *(("line", line, width) for line in screen.lines),
              *(("alert", line, SMALL_LINE_WIDTH) for line in screen.alert)]
    if screen.big is not None:
        checks += [("big", screen.big, BIG_WIDTH), ("caption", screen.caption,
                                                     SMALL_LINE_WIDTH)]
    for part, text, room in checks:
        if len(text) > room:
            problems.append(f"{part} {text!r} is {len(text)} characters; {room} fit")
    return problems


def reads_from_a_seat(screen: Screen) -> bool:
    """Whether what to do now is in a font at least 12 px tall: a main line, big digits, or
    a body of at most three lines (drawn in 6x12) under the 6x12 title."""
    return bool(screen.main) or screen.big is not None or not screen.small_lines


def alert_lines(text: str) -> tuple[str, ...]:
    """A message wrapped into the alert box: as many lines of the small font as it needs, at
    most five (cut with '~' only past 125 characters or so)."""
    wrapped = textwrap.wrap(text, SMALL_LINE_WIDTH) or [""]
    if len(wrapped) > ALERT_LINES:
        wrapped = [*wrapped[: ALERT_LINES - 1], fit(" ".join(wrapped[ALERT_LINES - 1:]),
                                                    SMALL_LINE_WIDTH)]
    return tuple(wrapped)


def fit(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` characters, marking the cut with '~'."""
    return text if len(text) <= width else text[: width - 1] + "~"


def choice_line(label: str, value: str, width: int = LINE_WIDTH) -> str:
    """``label`` on the left and ``< value >`` right-aligned, for option pages."""
    shown = f"<{value}>"
    room = width - len(shown) - 1
    return f"{fit(label, room).ljust(room)} {shown}"
