"""The table page's HTTP server: the standard library's threading server, bounded.

What it promises: :class:`WebServer` binds when it is built (a port in use fails before the box
starts), holds at most ``max_connections`` connections, at most
:attr:`~companion.web.policy.ConnectionLimits.per_address` from one address and keeps the last
few for the box's own loopback (companion/web/policy.py's :func:`admit_connection` decides;
past it a short JSON 503 and close, without a thread), and stops cleanly, ending its event
streams. Each connection is served by
companion/web/http_handler.py; companion/web/service.py wires the server to the box.

The timer is not for sale (issue #19): the web shares the process, the cores and the GIL with
the event loop, so it takes only so much of them, whatever the clients send:
- it takes at most :data:`ACCEPTS_PER_SECOND` new connections a second (a burst of
  :data:`ACCEPT_BURST`); the others wait in the kernel's listen backlog, which drops what
  overflows it at no cost to the box. A refused connection counts as much as a served one.
- its threads (the acceptor and one per connection) run at a lower CPU priority than the loop
  (:func:`lower_priority`: nice +:data:`WEB_NICENESS` per thread, Linux), so when the cores
  are short the kernel runs the loop's wake-up first.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
from collections import Counter
from http.server import ThreadingHTTPServer
from typing import Any, Final

from companion.web.http_handler import HttpHandler
from companion.web.policy import ConnectionLimits, admit_connection, client_key
from companion.web.routes import Context

MAX_CONNECTIONS: Final = 48
ACCEPTS_PER_SECOND: Final = 200.0
"""New connections handled a second, at most (a page opens a handful)."""
ACCEPT_BURST: Final = 50.0
WEB_NICENESS: Final = 10


def lower_priority() -> None:
    """This thread's CPU priority below the loop's: a thread's nice value is its own on Linux
    (elsewhere ``PRIO_PROCESS`` with a thread id would name a process: nothing is done)."""
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WEB_NICENESS)


class WebServer(ThreadingHTTPServer):
    """A threading HTTP server with a bound on connections; see the module docstring."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, context: Context, host: str, port: int,
                 max_connections: int = MAX_CONNECTIONS,
                 limits: ConnectionLimits | None = None) -> None:
        self.context = context
        self.limits = limits or ConnectionLimits(total=max_connections)
        self.slots = threading.BoundedSemaphore(self.limits.total)
        self._open: Counter[str] = Counter()
        self._open_lock = threading.Lock()
        self._tokens = ACCEPT_BURST
        self._filled = time.monotonic()
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__((host, port), HttpHandler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        shown = str(host)
        if shown in ("0.0.0.0", "::"):  # noqa: S104 - naming the wildcard, not binding it
            with contextlib.suppress(OSError):
                shown = socket.gethostname()
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{port}/"

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        lower_priority()
        super().serve_forever(poll_interval)

    def pace(self) -> None:
        """Wait (on the acceptor's thread) until the accept budget has room for one more."""
        now = time.monotonic()
        self._tokens = min(ACCEPT_BURST, self._tokens + (now - self._filled) * ACCEPTS_PER_SECOND)
        self._filled = now
        if self._tokens < 1.0:
            self.context.stopping.wait((1.0 - self._tokens) / ACCEPTS_PER_SECOND)
            self._tokens, self._filled = 1.0, time.monotonic()
        self._tokens -= 1.0

    def process_request(self, request: Any, client_address: Any) -> None:
        self.pace()
        address = client_key(str(client_address[0]))
        with self._open_lock:
            admitted = admit_connection(address, self._open[address], sum(self._open.values()),
                                        self.context.rules, self.limits)
            if admitted and self.slots.acquire(blocking=False):
                self._open[address] += 1
            else:
                admitted = False
        if not admitted:
            self.refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(address)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        lower_priority()
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(client_key(str(client_address[0])))

    def _release(self, address: str) -> None:
        with self._open_lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]
            self.slots.release()

    def refuse(self, request: socket.socket) -> None:
        """Too many connections: a short JSON 503 and close, without a thread."""
        body = b'{"error": "busy", "message": "too many connections; try again"}'
        head = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                b"Retry-After: 1\r\nConnection: close\r\nContent-Length: "
                + str(len(body)).encode() + b"\r\n\r\n")
        with contextlib.suppress(OSError):
            request.settimeout(1.0)
            request.sendall(head + body)
        self.shutdown_request(request)

    def stop(self) -> None:
        self.context.stopping.set()
        self.shutdown()
        self.server_close()


def own_names(host: str) -> frozenset[str]:
    """The host names a request may use for this machine (besides IP literals)."""
    names = {"localhost", host.lower()}
    with contextlib.suppress(OSError):
        hostname = socket.gethostname().lower()
        names |= {hostname, f"{hostname}.local", hostname.split(".")[0] + ".local"}
    return frozenset(names)
