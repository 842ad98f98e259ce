"""Tell systemd how the service is doing (the sd_notify protocol), with the standard library only.

Promises:
- Under systemd with `Type=notify`, `$NOTIFY_SOCKET` names an AF_UNIX datagram socket (a path, or
  an abstract name written with a leading '@'); each call sends one datagram such as `READY=1`.
- Without `$NOTIFY_SOCKET` (a terminal, tests, `companion simulate`) every call is a no-op.
- A call never raises: a failed send is logged once (as a warning) and then only at debug level,
  and the call returns False.
- `watchdog_interval()` is how often to call `watchdog()`: half of `$WATCHDOG_USEC`, or None when
  systemd does not watch this process (no watchdog, or `$WATCHDOG_PID` names another process).

The runtime calls `ready()` once the first frame is on the display, `watchdog()` from its event
loop at least every `watchdog_interval()` seconds, `status(text)` when something worth showing in
`systemctl status` happens, and `stopping()` when it begins to shut down. `ready()` without a
status of its own sends the `ready_status` given at creation (`companion run` passes how the
runs before ended: "ready", or "ready; recovered after 2 crashes, last: ...").
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

__all__ = ["SystemdNotifier"]

log = logging.getLogger(__name__)


class SystemdNotifier:
    """A connection to systemd's notification socket, taken from the environment at creation."""

    def __init__(self, environ: Mapping[str, str] | None = None, *,
                 ready_status: str | None = None) -> None:
        env = os.environ if environ is None else environ
        self.ready_status = ready_status
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]
        self._address = address or None
        self._watchdog_usec = env.get("WATCHDOG_USEC")
        self._watchdog_pid = env.get("WATCHDOG_PID")
        self._socket: socket.socket | None = None
        self._warned = False

    @property
    def enabled(self) -> bool:
        """True when systemd listens (NOTIFY_SOCKET is set)."""
        return self._address is not None

    def notify(self, message: str) -> bool:
        """Send one raw message (`KEY=value` lines). True if it was sent."""
        if self._address is None:
            return False
        try:
            if self._socket is None:
                kind = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                self._socket = socket.socket(socket.AF_UNIX, kind)
            self._socket.sendto(message.encode("utf-8"), self._address)
        except OSError as exc:
            if not self._warned:
                self._warned = True
                log.warning("cannot notify systemd at %r: %s (further failures are not logged)",
                            self._address.replace("\0", "@"), exc)
            else:
                log.debug("cannot notify systemd: %s", exc)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """The service is up (the first frame is on the display); `status` or `ready_status`
        becomes the `systemctl status` line."""
        status = self.ready_status if status is None else status
        return self.notify("READY=1" + (f"\nSTATUS={_one_line(status)}" if status else ""))

    def watchdog(self) -> bool:
        """The event loop is alive."""
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        """The service is shutting down."""
        return self.notify("STOPPING=1")

    def status(self, text: str) -> bool:
        """A one-line status shown by `systemctl status companion`."""
        return self.notify(f"STATUS={_one_line(text)}")

    def watchdog_interval(self) -> float | None:
        """Seconds between watchdog() calls (half the systemd timeout), or None if not watched."""
        if self._address is None or not self._watchdog_usec:
            return None
        if self._watchdog_pid:
            try:
                if int(self._watchdog_pid) != os.getpid():
                    return None
            except ValueError:
                return None
        try:
            usec = int(self._watchdog_usec)
        except ValueError:
            return None
        return usec / 2_000_000 if usec > 0 else None

    def close(self) -> None:
        """Release the socket (later calls open it again)."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _one_line(text: str) -> str:
    return " ".join(text.split())
