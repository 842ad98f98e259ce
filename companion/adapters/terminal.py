"""The terminal simulator: the display drawn in a terminal, and the keys as the box's buttons.

The picture (:class:`TerminalPreview`), for the fake backend in an interactive terminal:

- **Fits the terminal, measured at every draw** (``os.get_terminal_size``; a test gives a
  fake size). At 66 columns and 24 rows or more (80x24 included) it draws the full picture,
  128x64 pixels as 64x16 braille cells between side rules, the screen's text in two columns
  of four rows under it, a status line and the key help: 22 rows. Smaller, it switches to a
  compact mode with no picture, the text one line a row. No row is longer than the terminal
  is wide, so nothing wraps.
- **The rows below the drawing scroll on their own** (a scroll region, when at least two rows
  are left): ``ready`` and log lines go there and never push the picture off the screen.
  :meth:`TerminalPreview.close` gives the whole terminal back.
- **The text under the picture marks the selected row** (``> ``), the rows of a list
  indented to match: an inverted row is hard to see in braille dots.
- **The status line keeps ``serial=<path>`` visible** (the pseudo-terminal a client opens),
  and shows **a ♪ mark with the name of each tune** as it starts ("(muted)" when muted).
  The alarm also rings the terminal bell (``\\a``), unless sound is muted.

The keys (:class:`Keyboard`). A terminal reports keys, not presses and releases, so keys map
straight to gestures:

    NEXT  n, Enter, Space        hold NEXT  N (shift)
    UP    Up arrow, k            DOWN       Down arrow, j
    BACK  b, Backspace           hold BACK  B (shift)   (undo)
    mute  m (the UP+DOWN chord)  quit       q or Ctrl-C

The terminal is put in cbreak mode (no echo, no line buffering) and restored on exit. The
reader thread sleeps until a key comes or :meth:`Keyboard.close` wakes it through a pipe: no
polling timeout, so an idle box is not woken (issue #13).
"""

from __future__ import annotations

import contextlib
import os
import select
import termios
import threading
import tty
from collections.abc import Callable, Sequence
from typing import TextIO

from PIL import Image

from companion.core.buttons import CHORD, Button

KEY_HELP = "n/Enter NEXT  N hold  ↑↓/k/j UP DOWN  b BACK  B undo  m mute  q quit"
KEY_HELP_SHORT = "n NEXT N hold k/j UP/DN b BACK B undo m mute q quit"
"""The key help for a terminal narrower than :data:`KEY_HELP`."""

KEYS: dict[bytes, tuple[str, Button]] = {
    b"n": ("press", Button.NEXT), b"\r": ("press", Button.NEXT), b"\n": ("press", Button.NEXT),
    b" ": ("press", Button.NEXT), b"N": ("hold", Button.NEXT),
    b"k": ("press", Button.UP), b"\x1b[A": ("press", Button.UP),
    b"j": ("press", Button.DOWN), b"\x1b[B": ("press", Button.DOWN),
    b"b": ("press", Button.BACK), b"\x7f": ("press", Button.BACK), b"\x08": ("press", Button.BACK),
    b"B": ("hold", Button.BACK),
    b"m": ("chord", CHORD[0]),
}
QUIT_KEYS = {b"q", b"\x03"}

# -- the picture ----------------------------------------------------------------------------

BRAILLE_BASE = 0x2800
# Bit for each dot of a 2x4 braille cell, by (x, y) inside the cell.
BRAILLE_DOTS = {(0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (1, 0): 0x08, (1, 1): 0x10,
                (1, 2): 0x20, (0, 3): 0x40, (1, 3): 0x80}

TEXT_ROWS = 4
"""Rows of text under the full picture; two columns of them hold a screen's 8 lines."""
FULL_COLUMNS = 66
"""The full picture's width: 64 braille cells and a rule either side."""
FULL_ROWS = 24
"""The full mode's height: 16 picture rows, the text, status and keys (22), 2 to scroll."""
FALLBACK_SIZE = os.terminal_size((80, 24))


def braille_lines(image: Image.Image) -> list[str]:
    """A 1-bit image as braille characters: 2 x 4 pixels each (128x64 -> 64 x 16)."""
    pixels = image.convert("1").load()
    assert pixels is not None
    width, height = image.size
    lines = []
    for top in range(0, height, 4):
        row = []
        for left in range(0, width, 2):
            code = 0
            for (dx, dy), bit in BRAILLE_DOTS.items():
                x, y = left + dx, top + dy
                if x < width and y < height and pixels[x, y]:
                    code |= bit
            row.append(chr(BRAILLE_BASE + code))
        lines.append("".join(row))
    return lines


def two_columns(text: Sequence[str], rows: int, width: int) -> list[str]:
    """``text`` down the left column, then the right one, in ``rows`` rows of ``width``."""
    column = max(1, (width - 1) // 2)
    left, right = text[:rows], text[rows:2 * rows]
    out = []
    for index in range(rows):
        first = left[index][:column] if index < len(left) else ""
        second = right[index][:column] if index < len(right) else ""
        out.append(f"{first:<{column}} {second}".rstrip() if second else first)
    return out


class TerminalPreview:
    """Draws each frame at the top of a terminal; see the module docstring for the layout."""

    def __init__(self, out: TextIO, footer: str = KEY_HELP,
                 size: Callable[[], os.terminal_size] | None = None) -> None:
        self.out = out
        self.footer = footer
        self.size = size or self._measure
        self.serial: str | None = None
        self.page: str | None = None  # "Open <url> on this computer" (the table page)
        self.tune_name: str | None = None
        self.muted = False
        self._image: Image.Image | None = None
        self._text: list[str] = []
        self._drawn_size: os.terminal_size | None = None

    def _measure(self) -> os.terminal_size:
        try:
            return os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError, AttributeError):
            return FALLBACK_SIZE

    # -- what the runtime calls ------------------------------------------------------------

    def draw(self, image: Image.Image, text: Sequence[str] = ()) -> None:
        """A new frame and its text (the selected row already marked by the screen)."""
        self._image = image
        self._text = list(text)
        self._paint()

    def tune(self, name: str, muted: bool) -> None:
        """A tune starts: show its name; the alarm rings the terminal bell unless muted."""
        self.tune_name = name
        self.muted = muted
        self._paint(bell=name == "alarm" and not muted)

    def show_serial(self, path: str) -> None:
        """Keep ``serial=<path>`` in the status line (a client opens that path)."""
        self.serial = path
        self._paint()

    def show_page(self, message: str) -> None:
        """Keep where the table page is (``Open <url> on this computer``) in the status line."""
        self.page = message
        self._paint()

    def close(self) -> None:
        """Give the whole terminal back (no scroll region) with the cursor below the drawing."""
        if self._drawn_size is None:
            return
        rows = self._drawn_size.lines
        self.out.write(f"\x1b[r\x1b[{rows};1H\n")
        self.out.flush()
        self._drawn_size = None

    # -- layout ----------------------------------------------------------------------------

    def compact(self, size: os.terminal_size) -> bool:
        """Whether ``size`` is too small for the full picture."""
        return size.columns < FULL_COLUMNS or size.lines < FULL_ROWS

    def rows(self, size: os.terminal_size) -> list[str]:
        """The drawing for a terminal of ``size``, top to bottom, each row at most as wide
        as the terminal."""
        width = size.columns
        status_line = self.status_line()
        footer = self.footer
        if footer == KEY_HELP and len(footer) > width:
            footer = KEY_HELP_SHORT
        if not self.compact(size):
            picture = braille_lines(self._image) if self._image is not None else []
            rows = ["│" + line + "│" for line in picture]
            rows += two_columns(self._text, TEXT_ROWS, width)
            rows += [status_line, footer]
        else:
            # Text first, then status and keys; keep those two even on a tiny terminal. The
            # text is padded to its room, so the drawing keeps one height for the scroll region.
            room = max(0, size.lines - 2 - 2)
            text = self._text[:room]
            rows = [*text, *[""] * (room - len(text)), status_line, footer]
        return [row[:width] for row in rows]

    def status_line(self) -> str:
        parts = []
        if self.tune_name is not None:
            parts.append(f"♪ {self.tune_name}" + (" (muted)" if self.muted else ""))
        if self.serial is not None:
            parts.append(f"serial={self.serial}")
        if self.page is not None:
            parts.append(self.page)
        return "   ".join(parts)

    # -- drawing ---------------------------------------------------------------------------

    def _paint(self, bell: bool = False) -> None:
        if self._image is None and not self._text:
            if bell:
                self.out.write("\a")
                self.out.flush()
            return
        size = self.size()
        rows = self.rows(size)
        chunks = []
        fresh = size != self._drawn_size
        if fresh:
            # First draw or a resize: clear, and let the rows below the drawing scroll.
            chunks.append("\x1b[r\x1b[2J")
            if size.lines - len(rows) >= 2:
                chunks.append(f"\x1b[{len(rows) + 1};{size.lines}r")
        else:
            chunks.append("\x1b7")  # keep the cursor where ready / log lines go
        for index, row in enumerate(rows):
            chunks.append(f"\x1b[{index + 1};1H{row}\x1b[K")
        chunks.append(f"\x1b[{size.lines};1H" if fresh else "\x1b8")
        if bell:
            chunks.append("\a")
        self.out.write("".join(chunks))
        self.out.flush()
        self._drawn_size = size


# -- the keys -------------------------------------------------------------------------------


def decode_keys(data: bytes) -> list[bytes]:
    """Split raw terminal input into keys (an arrow is one three-byte key)."""
    keys: list[bytes] = []
    index = 0
    while index < len(data):
        if data[index:index + 2] == b"\x1b[" and index + 2 < len(data):
            keys.append(data[index:index + 3])
            index += 3
        else:
            keys.append(data[index:index + 1])
            index += 1
    return keys


class Keyboard:
    """Reads keys on a thread and hands gestures (or a quit) to the callbacks."""

    def __init__(self, fd: int, on_gesture: Callable[[str, Button], None],
                 on_quit: Callable[[], None]) -> None:
        self.fd = fd
        self.on_gesture = on_gesture
        self.on_quit = on_quit
        self._saved = termios.tcgetattr(fd)
        self._stop = threading.Event()
        self._wake_read, self._wake_write = os.pipe()
        self._thread = threading.Thread(target=self._read, name="keyboard", daemon=True)

    def start(self) -> None:
        tty.setcbreak(self.fd)
        self._thread.start()

    def close(self) -> None:
        """Stop reading (waking the reader) and restore the terminal; once is enough."""
        if self._stop.is_set():
            return
        self._stop.set()
        with contextlib.suppress(OSError):
            os.write(self._wake_write, b"\0")
        termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        if not self._thread.is_alive():  # a reader still in select() keeps its pipe open
            for fd in (self._wake_read, self._wake_write):
                os.close(fd)

    def _read(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.fd, self._wake_read], [], [])
            if self._wake_read in ready or self._stop.is_set():
                return
            data = os.read(self.fd, 64)
            if not data:
                self.on_quit()
                return
            for key in decode_keys(data):
                if key in QUIT_KEYS:
                    self.on_quit()
                    return
                if key in KEYS:
                    kind, button = KEYS[key]
                    self.on_gesture(kind, button)
