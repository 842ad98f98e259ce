"""The serial line: pyserial ports and URLs, or a pseudo-terminal for trying it without wires.

What it promises:
- ``open_link("none")`` is no link; ``open_link("pty")`` opens a pseudo-terminal pair, keeps
  the controlling end and publishes the other end's path (``link.peer_path``) for a client
  to open; anything else goes to ``serial.serial_for_url`` (a device path such as
  ``/dev/serial0``, ``loop://``, ``socket://``...).
- ``read(timeout)`` returns the bytes available, waiting for some at most ``timeout`` seconds
  (``None``: until bytes come or :meth:`cancel` is called), so a reader needs no polling.
- ``write(data)`` writes what the peer has room for, waiting at most :data:`WRITE_WAIT_SECONDS`
  for room, and returns how many bytes went (0 when the peer is not reading), so a writer can
  notice that it should stop. Errors are ``OSError`` (pyserial's exceptions are OSErrors).
- ``cancel()`` wakes a read or write blocked in another thread (on stopping).
- The pseudo-terminal is raw (no echo, no line editing): the protocol's bytes pass unchanged.
"""

from __future__ import annotations

import contextlib
import os
import select
import tty
from typing import Any, Protocol

READ_CHUNK = 4096
WRITE_WAIT_SECONDS = 0.5


class Link(Protocol):
    description: str

    def read(self, timeout: float | None) -> bytes: ...

    def write(self, data: bytes) -> int: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


class PySerialLink:
    """A pyserial port opened with ``serial_for_url``."""

    def __init__(self, url: str, baudrate: int) -> None:
        import serial

        self.description = url
        self.port: Any = serial.serial_for_url(url, baudrate=baudrate, timeout=0.5,
                                               write_timeout=WRITE_WAIT_SECONDS)

    def read(self, timeout: float | None) -> bytes:
        self.port.timeout = timeout
        first = self.port.read(1)
        if not first:
            return b""
        waiting = self.port.in_waiting
        return bytes(first) + (bytes(self.port.read(min(waiting, READ_CHUNK))) if waiting else b"")

    def write(self, data: bytes) -> int:
        import serial

        try:
            written = self.port.write(data)
        except serial.SerialTimeoutException as error:
            # pyserial does not say how much went before the timeout: the reply is dropped.
            raise TimeoutError(f"{self.description}: write timed out") from error
        return len(data) if written is None else int(written)

    def cancel(self) -> None:
        # Only the POSIX port can cancel a blocked call; others end at their timeouts.
        for method in ("cancel_read", "cancel_write"):
            with contextlib.suppress(AttributeError, OSError):
                getattr(self.port, method)()

    def close(self) -> None:
        self.port.close()


class PtyLink:
    """A pseudo-terminal pair: the companion holds the controller, a client opens the peer."""

    def __init__(self) -> None:
        self.controller_fd, self._peer_fd = os.openpty()
        tty.setraw(self._peer_fd)
        # Writes must never block: a client that does not read fills the pty's buffer.
        os.set_blocking(self.controller_fd, False)
        # Keeping the peer open means a client closing its end does not make reads fail.
        self.peer_path = os.ttyname(self._peer_fd)
        self.description = f"pty {self.peer_path}"
        self._cancel_read, self._cancel_write = os.pipe()

    def read(self, timeout: float | None) -> bytes:
        ready, _, _ = select.select([self.controller_fd, self._cancel_read], [], [], timeout)
        if self.controller_fd not in ready:
            return b""
        try:
            return os.read(self.controller_fd, READ_CHUNK)
        except BlockingIOError:
            return b""

    def write(self, data: bytes) -> int:
        _, ready, _ = select.select([self._cancel_read], [self.controller_fd], [],
                                    WRITE_WAIT_SECONDS)
        if not ready:
            return 0
        try:
            return os.write(self.controller_fd, data)
        except BlockingIOError:
            return 0

    def cancel(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._cancel_write, b"\0")

    def close(self) -> None:
        for fd in (self.controller_fd, self._peer_fd, self._cancel_read, self._cancel_write):
            with contextlib.suppress(OSError):
                os.close(fd)


def open_link(url: str, baudrate: int = 115200) -> Link | None:
    """The link a ``--serial`` value names, or ``None`` for ``none``."""
    if url == "none":
        return None
    if url == "pty":
        return PtyLink()
    return PySerialLink(url, baudrate)


def open_device(url: str, baudrate: int = 115200) -> PySerialLink:
    """A pyserial port (never ``none`` or ``pty``): what a vanished device is reopened with."""
    return PySerialLink(url, baudrate)
