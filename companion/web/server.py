"""The table page's HTTP server: the standard library's threading server, bounded.

What it promises: :class:`WebServer` binds when it is built (a port in use fails before the box
starts), holds at most ``max_connections`` connections, at most
:attr:`~companion.web.policy.ConnectionLimits.per_address` from one address and keeps the last
few for the box's own loopback (companion/web/policy.py's :func:`admit_connection` decides;
past it a short JSON 503 and close, without a thread), and stops cleanly, ending its event
streams. Each connection is served by
companion/web/http_handler.py; companion/web/service.py wires the server to the box.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import Counter
from http.server import ThreadingHTTPServer
from typing import Any, Final

from companion.web.http_handler import HttpHandler
from companion.web.policy import ConnectionLimits, admit_connection, client_key
from companion.web.routes import Context

MAX_CONNECTIONS: Final = 48


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

    def process_request(self, request: Any, client_address: Any) -> None:
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
