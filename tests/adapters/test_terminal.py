"""adapters/terminal.py: keys to gestures, on a pseudo-terminal, and a reader that never polls."""

import os
import select
import threading

import pytest

from companion.adapters import terminal
from companion.core.buttons import Button


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
