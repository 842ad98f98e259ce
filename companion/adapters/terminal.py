"""The terminal as the box's buttons, for the fake backend in an interactive terminal.

A terminal reports keys, not presses and releases, so keys map straight to gestures:

    NEXT  n, Enter, Space        hold NEXT  N (shift)
    UP    Up arrow, k            DOWN       Down arrow, j
    BACK  b, Backspace           hold BACK  B (shift)   (undo)
    quit  q or Ctrl-C

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
from collections.abc import Callable

from companion.core.buttons import Button

KEY_HELP = ("n/Enter NEXT  N hold NEXT  arrows/k/j UP DOWN  b BACK  B hold BACK (undo)  "
            "q quit")

KEYS: dict[bytes, tuple[str, Button]] = {
    b"n": ("press", Button.NEXT), b"\r": ("press", Button.NEXT), b"\n": ("press", Button.NEXT),
    b" ": ("press", Button.NEXT), b"N": ("hold", Button.NEXT),
    b"k": ("press", Button.UP), b"\x1b[A": ("press", Button.UP),
    b"j": ("press", Button.DOWN), b"\x1b[B": ("press", Button.DOWN),
    b"b": ("press", Button.BACK), b"\x7f": ("press", Button.BACK), b"\x08": ("press", Button.BACK),
    b"B": ("hold", Button.BACK),
}
QUIT_KEYS = {b"q", b"\x03"}


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
