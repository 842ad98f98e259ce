"""The serial line: pyserial ports and URLs, or a pseudo-terminal for trying it without wires.

What it promises:
- ``open_link("none")`` is no link; ``open_link("pty")`` opens a pseudo-terminal pair, keeps
  the controlling end and publishes the other end's path (``link.peer_path``) for a client
  to open; anything else goes to ``serial.serial_for_url`` (a device path such as
  ``/dev/serial0``, ``loop://``, ``socket://``...).
- ``read`` waits at most ``timeout`` seconds and returns the bytes available (possibly
  none), so the reader thread can notice that it should stop.
- The pseudo-terminal is raw (no echo, no line editing): the protocol's bytes pass unchanged.
"""

from __future__ import annotations

import contextlib
import os
import select
import tty
from typing import Any, Protocol

READ_CHUNK = 4096


class Link(Protocol):
    description: str

    def read(self, timeout: float) -> bytes: ...

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class PySerialLink:
    """A pyserial port opened with ``serial_for_url``."""

    def __init__(self, url: str, baudrate: int) -> None:
        import serial

        self.description = url
        self.port: Any = serial.serial_for_url(url, baudrate=baudrate, timeout=0.5,
                                               write_timeout=2.0)

    def read(self, timeout: float) -> bytes:
        self.port.timeout = timeout
        first = self.port.read(1)
        if not first:
            return b""
        waiting = self.port.in_waiting
        return bytes(first) + (bytes(self.port.read(min(waiting, READ_CHUNK))) if waiting else b"")

    def write(self, data: bytes) -> None:
        self.port.write(data)
        self.port.flush()

    def close(self) -> None:
        self.port.close()


class PtyLink:
    """A pseudo-terminal pair: the companion holds the controller, a client opens the peer."""

    def __init__(self) -> None:
        self.controller_fd, self._peer_fd = os.openpty()
        tty.setraw(self._peer_fd)
        # Keeping the peer open means a client closing its end does not make reads fail.
        self.peer_path = os.ttyname(self._peer_fd)
        self.description = f"pty {self.peer_path}"

    def read(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.controller_fd], [], [], timeout)
        if not ready:
            return b""
        return os.read(self.controller_fd, READ_CHUNK)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self.controller_fd, view)
            view = view[written:]

    def close(self) -> None:
        for fd in (self.controller_fd, self._peer_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


def open_link(url: str, baudrate: int = 115200) -> Link | None:
    """The link a ``--serial`` value names, or ``None`` for ``none``."""
    if url == "none":
        return None
    if url == "pty":
        return PtyLink()
    return PySerialLink(url, baudrate)
