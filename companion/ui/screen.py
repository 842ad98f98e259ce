"""The screen model: what the display shows, before it becomes pixels.

A :class:`Screen` is a title bar, a body of text lines or one line of big digits with an
optional caption, and a status bar. The ``screen`` protocol reply, the terminal preview and
the golden PNGs all come from this one model (DESIGN.md rule 9).

Sizes on the 128x64 panel (Spleen bitmap fonts):
- title: one line of at most 21 characters, inverted, on top;
- body: up to 3 lines of 21 characters, or 4 lines of 25 characters (smaller font), or 5
  such lines when there is no status bar;
  or ``big`` text of at most 8 characters in 16x32 digits with a ``caption`` of 25 below;
- status: one line of at most 25 characters at the bottom;
- mark: a few characters at the right end of the title bar for a fault that persists
  (``SAVE!``: the journal cannot write; play goes on in memory);
- alert: a message (why an input was refused, a fault) in an inverted box of two lines of 25
  characters over the bottom of the screen, so it is never cut to a status line's width.
- matrix: a QR code (at most 29 modules a side) drawn at 2 px a module, dark on a lit 64 x 64
  square on the left; the title (10 characters) and up to 5 lines of 12 small characters
  then share the right half, and there is no status bar.
Longer text is cut at the edge; views keep to these widths.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace

TITLE_WIDTH = 21
LINE_WIDTH = 21
SMALL_LINE_WIDTH = 25
STATUS_WIDTH = 25
BIG_WIDTH = 8
MAX_LINES = 5
MATRIX_TITLE_WIDTH = 10
MATRIX_LINE_WIDTH = 12


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
    matrix: tuple[tuple[bool, ...], ...] = ()

    def __post_init__(self) -> None:
        if len(self.lines) > MAX_LINES:
            raise ValueError(f"a screen holds at most {MAX_LINES} lines, got {len(self.lines)}")
        if self.big is not None and self.lines:
            raise ValueError("a screen shows either big text or lines, not both")
        if len(self.lines) == MAX_LINES and self.status:
            raise ValueError("five lines leave no room for a status bar")
        if self.matrix and (self.big is not None or self.status):
            raise ValueError("a screen with a matrix has lines beside it, no big text or status")

    def text_lines(self) -> list[str]:
        """The text on the display, top to bottom (the ``screen`` protocol reply)."""
        body = [self.big, self.caption] if self.big is not None else list(self.lines)
        title = f"{self.title} [{self.mark}]" if self.mark else self.title
        return [line for line in (title, *body, self.status, *self.alert) if line]

    def marked_lines(self) -> list[str]:
        """:meth:`text_lines` with the selected line marked ``> `` and the other lines of the
        list indented to match: the terminal simulator's text, where an inverted row of the
        picture is hard to see."""
        if self.selected is None or self.big is not None:
            return self.text_lines()
        lines = tuple(("> " if index == self.selected else "  ") + line
                      for index, line in enumerate(self.lines))
        return replace(self, lines=lines, selected=None).text_lines()


ALERT_LINES = 2


def screen_problems(screen: Screen) -> list[str]:
    """Every text of ``screen`` that is longer than the panel shows (the renderer would cut
    it with '~'): what the views must keep to. Empty when the screen fits."""
    problems: list[str] = []
    title_room = TITLE_WIDTH - (len(screen.mark) + 1 if screen.mark else 0)
    width = LINE_WIDTH if len(screen.lines) <= 3 else SMALL_LINE_WIDTH
    if screen.matrix:
        title_room, width = MATRIX_TITLE_WIDTH, MATRIX_LINE_WIDTH
    checks = [("title", screen.title, title_room), ("status", screen.status, STATUS_WIDTH),
              *(("line", line, width) for line in screen.lines),
              *(("alert", line, SMALL_LINE_WIDTH) for line in screen.alert)]
    if screen.big is not None:
        checks += [("big", screen.big, BIG_WIDTH), ("caption", screen.caption,
                                                     SMALL_LINE_WIDTH)]
    for part, text, room in checks:
        if len(text) > room:
            problems.append(f"{part} {text!r} is {len(text)} characters; {room} fit")
    return problems


def alert_lines(text: str) -> tuple[str, ...]:
    """A message wrapped into the alert box: at most two lines of the small font."""
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
