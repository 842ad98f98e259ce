"""``companion run`` as a test drives it to cut the power between a press's frame and its write.

``python -m companion.testing.held_box STATE_DIR`` builds the box as ``companion run
--backend fake --serial pty --web 127.0.0.1:0`` does (bootstrap.build_box, the real loop on the
monotonic clock, the serial line on a pseudo-terminal, the table page on loopback), with one
difference: its journal is a :class:`~companion.testing.held_journal.GatedJournal` behind a
:class:`~companion.testing.held_journal.HoldGate`. It prints ``serial=<path>``, ``web=<url>``
and ``ready``, then reads commands on standard input:

- ``hold``: the next journal write is held before its commit (the box prints ``armed``);
  when it comes, the box prints ``held <json>`` (the text of the last frame it drew, so the
  test sees the press was drawn before its write) and its loop blocks there until the
  process is killed;
- ``press <button>``: a press of that button, posted to the loop as the terminal keyboard
  posts it (the gesture the buttons' recognizer makes of a short press); the box prints
  ``posted <button>`` once it is in the loop's queue, so a line sent after that is taken
  after it.

Test code: it ships in the package beside the other fakes, and nothing else imports it.
"""

from __future__ import annotations

import json
import random
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.adapters.clock import MonotonicClock
from companion.bootstrap import Hardware, WebAddress, build_box
from companion.config import defaults
from companion.core.buttons import Button
from companion.testing.held_journal import HoldGate, gated_opener


class NotedDisplay:
    """The fake backend's display; the text of the last frame is kept."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.lines: list[str] = []

    def show(self, image: Any, text: Sequence[str] = ()) -> bool:
        shown = bool(self.inner.show(image, text))
        self.lines = list(text)
        return shown

    def blank(self) -> None:
        self.inner.blank()


class Lines:
    """Whole lines on standard output from several threads (the loop's, the command
    reader's): ``print`` writes a line's text and its end apart, so two could interleave."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def say(self, line: str) -> None:
        with self._lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()


def main(arguments: Sequence[str]) -> int:
    state_dir = Path(arguments[0])
    displays: list[NotedDisplay] = []
    out = Lines()

    def instrument(hardware: Hardware) -> None:
        displays.append(NotedDisplay(hardware.display))
        hardware.display = displays[0]

    def held() -> None:
        out.say(f"held {json.dumps(displays[0].lines)}")

    gate = HoldGate(held)
    config = defaults()
    config["serial"]["url"] = "pty"
    box = build_box(config, backend="fake", clock=MonotonicClock(), state_dir=state_dir,
                    rng=random.Random(), out=sys.stdout, serial=True,
                    web=WebAddress("127.0.0.1", 0), instrument=instrument,
                    journal_opener=gated_opener(gate))
    print(f"serial={box.serial_path}", flush=True)
    print(f"web={box.web.url}", flush=True)
    loop = box.loop
    assert loop is not None

    def read_commands() -> None:
        for line in sys.stdin:
            command = line.split()
            if command == ["hold"]:
                gate.arm()
                out.say("armed")
            elif len(command) == 2 and command[0] == "press":
                loop.post_gesture("press", Button(command[1]))
                out.say(f"posted {command[1]}")

    threading.Thread(target=read_commands, name="held-box-commands", daemon=True).start()
    return box.run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
