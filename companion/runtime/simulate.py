"""``companion simulate``: protocol lines through a controller on a fake clock.

What it promises (CONTRACT.md section 1): exactly one reply line per command, written and
flushed at once; blank and comment lines get none; with ``stop_on_error`` the run stops at the
first ``err`` and says which input line it was (every input line counts, a refused one too).
"""

from __future__ import annotations

import os
from typing import BinaryIO, TextIO

from companion.protocol.lines import LineSplitter
from companion.runtime.controller import Controller


def simulate(controller: Controller, source: BinaryIO | int, out: TextIO, *,
             stop_on_error: bool) -> int | None:
    """Run protocol lines through a simulated controller, one reply line per command.

    Returns ``None`` when every line was answered (or errors are tolerated), else the
    1-based number of the first line that got an ``err`` reply.
    """
    splitter = LineSplitter()
    line_number = 0
    controller.refresh()
    while True:
        chunk = _read_chunk(source)
        items = splitter.feed(chunk) if chunk else splitter.feed(b"\n") if splitter.pending else []
        for item in items:
            line_number += 1  # every item, a refusal included, stands for one input line
            reply = controller.handle(item)
            if reply is None:
                continue
            out.write(reply + "\n")
            out.flush()
            if stop_on_error and reply.startswith("err"):
                return max(line_number, 1)
        if not chunk:
            return None


def _read_chunk(source: BinaryIO | int) -> bytes:
    if isinstance(source, int):
        return os.read(source, 65536)
    return source.read(65536)
