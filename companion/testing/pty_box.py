"""`companion run` driven through its serial pseudo-terminal, for end-to-end tests.

:class:`PtyBox` starts the real daemon with the fake backend and ``--serial pty``, waits for
``serial=<path>`` and ``ready``, and speaks the line protocol on the pty as any serial client
would. Every wait has a deadline, so a box that stops answering fails a test instead of
hanging it; nothing sleeps.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def read_line(fd: int, deadline: float) -> str:
    """One line from ``fd`` (without its end), waiting at most until ``deadline``."""
    data = b""
    while not data.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no complete line in time; got {data!r}")
        if select.select([fd], [], [], remaining)[0]:
            chunk = os.read(fd, 1)
            if not chunk:
                raise EOFError(f"end of stream after {data!r}")
            data += chunk
    return data.decode(errors="replace").rstrip("\r\n")


class PtyBox:
    """A running ``companion run --backend fake --serial pty`` (see the module docstring).
    With ``log=True`` its standard error is kept for :meth:`wait_for_log`."""

    def __init__(self, state_dir: Path, *, log: bool = False,
                 command: list[str] | None = None) -> None:
        """``command`` (our own interpreter's arguments) runs another box that prints
        ``serial=`` (and perhaps ``web=``) before ``ready``, with its standard input a pipe
        (:meth:`tell`), as ``companion.testing.held_box`` does."""
        arguments = command or ["-m", "companion", "run", "--backend", "fake", "--serial",
                                "pty", "--state-dir", str(state_dir), "--no-web"]
        self.process = subprocess.Popen(  # noqa: S603 - our own interpreter, fixed arguments
            [sys.executable, *arguments],
            stdin=subprocess.DEVNULL if command is None else subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE if log else subprocess.DEVNULL)
        assert self.process.stdout is not None
        deadline = time.monotonic() + 30
        path = read_line(self.process.stdout.fileno(), deadline).removeprefix("serial=")
        self.web_url: str | None = None
        ready = read_line(self.process.stdout.fileno(), deadline)
        if ready.startswith("web="):
            self.web_url = ready.removeprefix("web=")
            ready = read_line(self.process.stdout.fileno(), deadline)
        if ready != "ready":
            raise AssertionError(f"expected 'ready', got {ready!r}")
        self.peer: int | None = os.open(path, os.O_RDWR | os.O_NOCTTY)

    def tell(self, line: str) -> None:
        """One line on the box's standard input (a box started with ``command``)."""
        assert self.process.stdin is not None, "only a box started with a command reads"
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def read_output(self, seconds: float = 15) -> str:
        """The next line the box prints on its standard output."""
        assert self.process.stdout is not None
        return read_line(self.process.stdout.fileno(), time.monotonic() + seconds)

    def send(self, line: str) -> None:
        """Write one protocol line and read nothing (as a power cut would interrupt it)."""
        assert self.peer is not None
        os.write(self.peer, line.encode() + b"\n")

    def ask(self, line: str) -> str:
        """One protocol line and its reply."""
        self.send(line)
        assert self.peer is not None
        return read_line(self.peer, time.monotonic() + 15)

    def screen(self) -> list[str]:
        lines: list[str] = json.loads(self.ask("screen").removeprefix("ok "))["lines"]
        return lines

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = json.loads(self.ask("state").removeprefix("ok "))
        return state

    def wait_for_log(self, text: str, seconds: float = 90) -> str:
        """Read the box's log until a line holds ``text`` (the box retries on its own)."""
        assert self.process.stderr is not None, "started without log=True"
        deadline = time.monotonic() + seconds
        while True:
            line = read_line(self.process.stderr.fileno(), deadline)
            if text in line:
                return line

    def stop(self, how: int = signal.SIGKILL) -> int:
        """Send ``how`` (SIGKILL: a power cut; SIGTERM: a clean stop), wait, close the pty;
        the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(how)
            self.process.wait(timeout=15)
        if self.peer is not None:
            os.close(self.peer)
            self.peer = None
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        return self.process.returncode

    def kill(self) -> None:
        """A power cut."""
        self.stop(signal.SIGKILL)
