"""adapters/terminal.py: the simulator fits 80x24 (compact when smaller), marks the selected
row, keeps ``serial=<path>`` and the tune's ♪ mark in view, rings the bell for the alarm; keys
to gestures, on a pseudo-terminal, and a reader that never polls."""

from __future__ import annotations

import io
import os
import random
import re
import select
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from companion import config as config_module
from companion.adapters import terminal
from companion.adapters.terminal import (
    BRAILLE_BASE,
    KEY_HELP,
    KEY_HELP_SHORT,
    KEYS,
    TerminalPreview,
    decode_keys,
)
from companion.bootstrap import build_controller, build_hardware
from companion.core.app import App, AppState, Menu
from companion.core.buttons import Button
from companion.games.registry import playable_games
from companion.testing.clock import FakeClock
from companion.ui.render import render
from companion.ui.views import screen_for


class Term:
    """Just enough of a VT100 to see what a person would see: cursor moves, erase, the
    scroll region, save/restore, newlines that scroll, and the bell."""

    def __init__(self, columns: int, lines: int) -> None:
        self.columns, self.lines = columns, lines
        self.grid = [[" "] * columns for _ in range(lines)]
        self.row = self.col = 0
        self.top, self.bottom = 0, lines - 1
        self.saved = (0, 0)
        self.bells = 0

    def feed(self, data: str) -> None:
        for piece in re.findall(r"\x1b\[[0-9;]*[A-Za-z]|\x1b[78]|.", data, re.S):
            self._token(piece)

    def _token(self, piece: str) -> None:
        if piece == "\x1b7":
            self.saved = (self.row, self.col)
        elif piece == "\x1b8":
            self.row, self.col = self.saved
        elif piece.startswith("\x1b["):
            numbers = [int(n) for n in piece[2:-1].split(";") if n]
            kind = piece[-1]
            if kind == "H":
                self.row = (numbers[0] - 1) if numbers else 0
                self.col = (numbers[1] - 1) if len(numbers) > 1 else 0
            elif kind == "K":
                self.grid[self.row][self.col:] = [" "] * (self.columns - self.col)
            elif kind == "J":
                self.grid = [[" "] * self.columns for _ in range(self.lines)]
            elif kind == "r":
                self.top = numbers[0] - 1 if numbers else 0
                self.bottom = numbers[1] - 1 if len(numbers) > 1 else self.lines - 1
                self.row = self.col = 0
        elif piece == "\n":
            self.col = 0
            if self.row == self.bottom:
                del self.grid[self.top]
                self.grid.insert(self.bottom, [" "] * self.columns)
            else:
                self.row += 1
        elif piece == "\a":
            self.bells += 1
        elif piece == "\r":
            self.col = 0
        else:
            assert self.col < self.columns, "a row wrapped"
            self.grid[self.row][self.col] = piece
            self.col += 1

    def text(self) -> list[str]:
        return ["".join(row).rstrip() for row in self.grid]


def size(columns: int, lines: int) -> os.terminal_size:
    return os.terminal_size((columns, lines))


def menu_frame(cursor: int = 1) -> tuple[Image.Image, list[str]]:
    app = App(playable_games())
    state = AppState(menu=Menu(cursor=cursor))
    screen = screen_for(app, state, 0.0, "")
    return render(screen), screen.marked_lines()


def test_terminal_full_picture_fits_80x24_and_ready_lines_scroll_below_it() -> None:
    out, term = io.StringIO(), Term(80, 24)
    preview = TerminalPreview(out, size=lambda: size(80, 24))
    preview.show_serial("/dev/pts/7")
    image, text = menu_frame()
    preview.draw(image, text)
    for line in ("ready", "INFO companion: a log line", "another", "and another"):
        out.write(line + "\n")
    preview.tune("click", False)
    term.feed(out.getvalue())
    screen = term.text()
    picture = [row for row in screen if row.startswith("│")]
    assert len(picture) == 16 and all(len(row) == 66 for row in picture)
    assert any(chr(BRAILLE_BASE) != cell for row in picture for cell in row[1:-1])
    assert any(row.startswith("Choose a game") for row in screen[16:20])
    assert any("> " in row for row in screen[16:20])
    assert screen[20] == "♪ click   serial=/dev/pts/7"
    assert screen[21] == KEY_HELP
    # The log scrolled in the rows under the drawing; the picture did not move.
    assert screen[22:] == ["and another", ""]


def test_terminal_text_under_the_picture_marks_the_selected_row() -> None:
    image, text = menu_frame(cursor=0)
    out = io.StringIO()
    preview = TerminalPreview(out, size=lambda: size(80, 24))
    preview.draw(image, text)
    app = App(playable_games())
    first_game = app.menu_items(AppState())[0]
    rows = preview.rows(size(80, 24))[16:20]
    joined = "\n".join(rows)
    assert f"> {first_game}" in joined
    assert joined.count("> ") == 1


@pytest.mark.parametrize(("columns", "lines"), [(80, 20), (60, 24), (40, 12), (20, 6)])
def test_terminal_small_terminal_gets_the_compact_text_mode(columns: int, lines: int) -> None:
    out, term = io.StringIO(), Term(columns, lines)
    preview = TerminalPreview(out, size=lambda: size(columns, lines))
    preview.show_serial("/dev/pts/3")
    image, text = menu_frame()
    preview.draw(image, text)
    out.write("ready\n")
    term.feed(out.getvalue())
    screen = term.text()
    assert not any("│" in row for row in screen)  # no picture
    status = "serial=/dev/pts/3"[:columns]
    assert status in screen
    assert screen[0].startswith("Choose a game"[:columns])
    # The short key help on a terminal too narrow for the long one.
    keys = KEY_HELP if len(KEY_HELP) <= columns else KEY_HELP_SHORT[:columns].rstrip()
    assert keys in screen
    if lines >= 12:
        assert any(row.startswith("> ") for row in screen)


@given(st.integers(10, 200), st.integers(4, 80))
def test_terminal_no_row_is_wider_than_the_terminal(columns: int, lines: int) -> None:
    preview = TerminalPreview(io.StringIO(), size=lambda: size(columns, lines))
    preview.serial = "/dev/pts/12345"
    preview.tune_name = "warning-final"
    image, text = menu_frame()
    preview.draw(image, text)
    rows = preview.rows(size(columns, lines))
    assert all(len(row) <= columns for row in rows)
    assert len(rows) <= lines


def test_terminal_resize_redraws_in_the_new_mode() -> None:
    current = [size(80, 24)]
    out = io.StringIO()
    preview = TerminalPreview(out, size=lambda: current[0])
    image, text = menu_frame()
    preview.draw(image, text)
    current[0] = size(50, 15)
    preview.draw(image, text)
    term = Term(50, 15)
    term.feed(out.getvalue()[out.getvalue().rindex("\x1b[2J") - 3:])
    assert term.text()[0].startswith("Choose a game")


@pytest.mark.parametrize(("tune", "muted", "bells", "mark"), [
    ("alarm", False, 1, "♪ alarm"),
    ("alarm", True, 0, "♪ alarm (muted)"),
    ("warning", False, 0, "♪ warning"),
    ("flight-start", False, 0, "♪ flight-start"),
])
def test_terminal_each_tune_shows_and_the_alarm_rings_the_bell(
        tune: str, muted: bool, bells: int, mark: str) -> None:
    out, term = io.StringIO(), Term(80, 24)
    preview = TerminalPreview(out, size=lambda: size(80, 24))
    image, text = menu_frame()
    preview.draw(image, text)
    preview.tune(tune, muted)
    term.feed(out.getvalue())
    assert term.bells == bells
    assert term.text()[20] == mark


def test_terminal_simulator_through_the_runtime_shows_the_flight_and_rings_the_alarm(
        tmp_path) -> None:
    out = io.StringIO()
    config = config_module.defaults()
    hardware = build_hardware(config, "fake", on_edge=lambda button, pressed: None,
                              preview=out)
    hardware.display.preview.size = lambda: size(80, 24)
    controller = build_controller(config, hardware, clock=FakeClock(), state_dir=tmp_path,
                                  rng=random.Random(1), simulated=True)
    try:
        assert controller.command_line("new timer seconds=5") == "ok"
        controller.command_line("press next")
        controller.advance(6.0)
        term = Term(80, 24)
        term.feed(out.getvalue())
        assert term.bells == 1
        assert term.text()[20] == "♪ alarm"
        assert controller.played[-1] == "alarm"
    finally:
        controller.journal.close()
        hardware.close()


def test_terminal_close_gives_the_whole_terminal_back() -> None:
    out = io.StringIO()
    preview = TerminalPreview(out, size=lambda: size(80, 24))
    image, text = menu_frame()
    preview.draw(image, text)
    preview.close()
    assert out.getvalue().endswith("\x1b[r\x1b[24;1H\n")


@pytest.mark.parametrize(("data", "gestures"), [
    (b"m", [("chord", Button.UP)]),
    (b"n\x1b[Aj", [("press", Button.NEXT), ("press", Button.UP), ("press", Button.DOWN)]),
    (b"NB", [("hold", Button.NEXT), ("hold", Button.BACK)]),
])
def test_terminal_keys_are_gestures(data: bytes, gestures: list[tuple[str, Button]]) -> None:
    assert [KEYS[key] for key in decode_keys(data)] == gestures


def test_terminal_key_help_fits_80_columns() -> None:
    assert len(KEY_HELP) <= 80


# --- keys ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("data", "keys"), [
    (b"n", [b"n"]),
    (b"\x1b[A\x1b[B", [b"\x1b[A", b"\x1b[B"]),
    (b"kjB", [b"k", b"j", b"B"]),
    (b"\x1b[", [b"\x1b", b"["]),  # a cut-off arrow is two plain keys, not a crash
])
def test_decode_keys_splits_arrows_and_plain_keys(data, keys):
    assert terminal.decode_keys(data) == keys


@pytest.fixture
def pty_pair():
    controller, peer = os.openpty()
    yield controller, peer
    for fd in (controller, peer):
        os.close(fd)


def test_keyboard_reads_keys_as_gestures_and_waits_without_a_timeout(pty_pair, monkeypatch):
    # Issue #13: the reader used to wake twice a second to look at a stop flag.
    controller, peer = pty_pair
    timeouts = []
    real_select = select.select

    def recording_select(*arguments):
        if threading.current_thread().name == "keyboard":
            timeouts.append(arguments[3] if len(arguments) > 3 else None)
        return real_select(*arguments)

    monkeypatch.setattr(terminal.select, "select", recording_select)
    gestures = []
    got_both = threading.Event()

    def on_gesture(kind, button):
        gestures.append((kind, button))
        if len(gestures) == 2:
            got_both.set()

    keyboard = terminal.Keyboard(peer, on_gesture, on_quit=lambda: None)
    keyboard.start()
    try:
        os.write(controller, b"nB")
        assert got_both.wait(5)
    finally:
        keyboard.close()
    assert not keyboard._thread.is_alive()  # close() woke the reader and it ended
    assert gestures == [("press", Button.NEXT), ("hold", Button.BACK)]
    assert timeouts and all(timeout is None for timeout in timeouts)


def test_keyboard_quit_key_calls_on_quit_and_close_still_restores(pty_pair):
    controller, peer = pty_pair
    before = terminal.termios.tcgetattr(peer)
    quit_called = threading.Event()
    keyboard = terminal.Keyboard(peer, lambda *_: None, on_quit=quit_called.set)
    keyboard.start()
    os.write(controller, b"q")
    assert quit_called.wait(5)
    keyboard.close()
    keyboard.close()  # a second close is harmless
    assert terminal.termios.tcgetattr(peer) == before
