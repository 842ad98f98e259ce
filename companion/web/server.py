"""The table page's HTTP server: the standard library's threading server, bounded.

What it promises: :class:`WebServer` binds when it is built (a port in use fails before the box
starts), holds at most ``max_connections`` connections, and knows who holds them (issue #28):
a connection that carried a valid token, or comes from the box's own loopback, is never
closed for room; unpaired ones share a bounded part, per client (an address, an IPv6 /64) and
in all, and the oldest idle or slow one closes when a newcomer needs its place; unpaired event
streams have their own cap (companion/web/admission.py's :func:`admit_connection` and
:func:`admit_stream` decide; with no room a short JSON 503 with ``Retry-After`` and close,
without a thread, a second later, so a guest that reconnects at once cannot fill the listen
backlog ahead of a phone). It stops cleanly, ending its event streams. Each connection is served by
companion/web/http_handler.py; companion/web/service.py wires the server to the box.

The timer is not for sale (issue #19): the web shares the process, the cores and the GIL with
the event loop, so it takes only so much of them, whatever the clients send:
- it takes at most :data:`ACCEPTS_PER_SECOND` new connections a second (a burst of
  :data:`ACCEPT_BURST`); the others wait in the kernel's listen backlog, which drops what
  overflows it at no cost to the box. A refused connection counts as much as a served one.
- its threads (the acceptor and one per connection) run at a lower CPU priority than the loop
  (:func:`lower_priority`: nice +:data:`WEB_NICENESS` per thread over the main thread's,
  Linux), so when the cores are short the kernel runs the loop's wake-up first.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import select
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from typing import Any, Final

from companion.web.admission import (
    REFUSAL_DELAY_SECONDS,
    Admit,
    ConnectionLimits,
    Held,
    Kind,
    admit_connection,
    admit_stream,
    peeked_token,
)
from companion.web.http_handler import HttpHandler
from companion.web.policy import HEAD_BYTES, OWN_LOOPBACK, client_key, is_loopback
from companion.web.routes import Context

log = logging.getLogger(__name__)

MAX_CONNECTIONS: Final = 48
ACCEPTS_PER_SECOND: Final = 200.0
"""New connections handled a second, at most (a page opens a handful)."""
ACCEPT_BURST: Final = 50.0
WEB_NICENESS: Final = 10
MAX_NICENESS: Final = 19
MAX_DELAYED_REFUSALS: Final = 256
"""Refused connections held for their delay at once, at most (past it: answered at once)."""
_BUSY_BODY: Final = b'{"error": "busy", "message": "too many connections; try again"}'
BUSY_ANSWER: Final = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                      b"Retry-After: 1\r\nConnection: close\r\nContent-Length: "
                      + str(len(_BUSY_BODY)).encode() + b"\r\n\r\n" + _BUSY_BODY)
"""The answer to a connection there is no room for (never silence: issue #28)."""


_PRIORITY = {"denied": False}
"""Whether setpriority(2) was refused once (then no thread asks again)."""


def lower_priority() -> None:
    """This thread's CPU priority below the loop's: a thread's nice value is its own on Linux
    (elsewhere ``PRIO_PROCESS`` with a thread id would name a process: nothing is done).

    Under companion.service the call is allowed by the web drop-in alone
    (systemd/companion.service.d/web.conf re-allows ``setpriority`` past the unit's
    ``SystemCallFilter=~@resources``): where a filter still denies it (EPERM), the first
    refusal is logged with why, and no thread tries again (issue #28, 4)."""
    if sys.platform != "linux" or _PRIORITY["denied"]:
        return
    thread = threading.get_native_id()
    try:
        # Relative to the main thread's (the process id names it): a box started under `nice`
        # keeps its web below its loop (an absolute 10 would ask to raise a web thread started
        # at 15, which is refused); a thread the acceptor starts inherits the value already.
        lowered = min(MAX_NICENESS, os.getpriority(os.PRIO_PROCESS, os.getpid()) + WEB_NICENESS)
        if os.getpriority(os.PRIO_PROCESS, thread) != lowered:
            os.setpriority(os.PRIO_PROCESS, thread, lowered)
    except PermissionError:
        _PRIORITY["denied"] = True
        log.warning("the web threads keep the loop's CPU priority: setpriority was refused "
                    "(a system-call filter without the web drop-in's SystemCallFilter="
                    "setpriority; run the installer again)")
    except OSError:
        return


@dataclass(eq=False)
class Connection:
    """One open connection, as the server keeps it for admission (companion/web/admission.py):
    the handler says what it is doing (:meth:`WebServer.mark`); ``stop`` ends its stream."""

    number: int
    client: str
    socket: socket.socket
    trusted: bool
    kind: Kind = "waiting"
    since: float = 0.0
    stop: Callable[[], None] | None = None
    flowing: bool = False
    """Its stream's head is written: closing it now ends it mid-stream, not before a word."""
    probation: bool = False
    """Admitted past the unpaired share: its first request must show it may stay."""

    def held(self) -> Held:
        return Held(self.number, self.client, self.trusted, self.kind, self.since,
                    self.probation)


class WebServer(ThreadingHTTPServer):
    """A threading HTTP server with a bound on connections; see the module docstring."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, context: Context, host: str, port: int,
                 max_connections: int = MAX_CONNECTIONS,
                 limits: ConnectionLimits | None = None) -> None:
        self.context = context
        self.limits = limits or ConnectionLimits(total=max_connections)
        self._connections: dict[int, Connection] = {}
        self._refused: deque[tuple[float, socket.socket]] = deque()
        self._numbers = itertools.count(1)
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
        address = str(client_address[0])
        own = is_loopback(address) and (not self.context.rules.pair_loopback
                                        or address in OWN_LOOPBACK)
        # A paired phone is known at accept when its head came with the handshake (issue #28).
        trusted = own or self.context.pairing.knows(peeked_token(_sent_so_far(request)))
        closing: list[Connection] = []
        with self._open_lock:
            verdict = admit_connection(client_key(address), trusted, self._held(), self.limits)
            if verdict is not None:
                connection = Connection(next(self._numbers), client_key(address), request,
                                        trusted, since=time.monotonic(),
                                        probation=verdict.probation)
                self._connections[id(request)] = connection
                closing = self._take(verdict)
        if verdict is None:
            self.refuse(request)
            return
        for gone in closing:
            self._close(gone)
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        lower_priority()
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(request)

    def mark(self, request: socket.socket, kind: Kind, trusted: bool | None = None) -> None:
        """The handler says what connection ``request`` does now (and whether its request
        carried a valid token or came from the box's own loopback)."""
        with self._open_lock:
            connection = self._connections.get(id(request))
            if connection is None:
                return
            if trusted is not None:
                connection.trusted = trusted
            if connection.kind != kind:
                connection.kind, connection.since = kind, time.monotonic()

    def on_probation(self, request: socket.socket) -> bool:
        """Whether connection ``request`` is on probation (its head has less time)."""
        with self._open_lock:
            connection = self._connections.get(id(request))
            return connection is not None and connection.probation

    def keep(self, request: socket.socket, trusted: bool, pairing: bool) -> bool:
        """Whether connection ``request`` may be served the request it sent: any not on
        probation; one on probation if the request is ``trusted`` (it leaves probation, a
        trusted connection like any other) or ``pairing`` (the page and the pairing calls
        while the box has pairing open: a phone pairs on a full box too). Kept, it leaves
        probation (its client's next connection may wait there in turn)."""
        with self._open_lock:
            connection = self._connections.get(id(request))
            if connection is None or not connection.probation:
                return True
            if trusted or pairing:
                connection.probation, connection.trusted = False, trusted
            return trusted or pairing

    def start_stream(self, request: socket.socket, stop: Callable[[], None]) -> bool:
        """Whether connection ``request`` may stream events now (companion/web/admission.py's
        :func:`admit_stream`), once the streams whose client hung up (a reloaded page's old
        one) are let go; ``stop`` ends it when it must close to make room."""
        with self._open_lock:
            connection = self._connections.get(id(request))
            if connection is None:
                return False
            hung_up = [one for one in self._connections.values()
                       if one.kind == "stream" and one.client == connection.client
                       and one is not connection and _hung_up(one.socket)]
            for one in hung_up:
                del self._connections[id(one.socket)]
            verdict = admit_stream(connection.number, self._held(), self.limits)
            closing = [] if verdict is None else self._take(verdict)
            if verdict is not None:
                connection.kind, connection.since = "stream", time.monotonic()
                connection.stop = stop
        for gone in [*hung_up, *closing]:
            self._close(gone)
        return verdict is not None

    def stream_flowing(self, request: socket.socket) -> None:
        """The stream on ``request`` has written its head."""
        with self._open_lock:
            connection = self._connections.get(id(request))
            if connection is not None:
                connection.flowing = True

    @property
    def open_connections(self) -> int:
        with self._open_lock:
            return len(self._connections)

    def held(self) -> list[Held]:
        """The open connections, as admission sees them."""
        with self._open_lock:
            return self._held()

    def _held(self) -> list[Held]:
        return [connection.held() for connection in self._connections.values()]

    def _take(self, verdict: Admit) -> list[Connection]:
        """The connections ``verdict`` closes, out of the table (under the lock)."""
        numbers = set(verdict.close)
        gone = [one for one in self._connections.values() if one.number in numbers]
        for one in gone:
            del self._connections[id(one.socket)]
        return gone

    def _close(self, connection: Connection) -> None:
        """Close an idle, slow or streaming unpaired connection to make room: one waiting for
        a request is told 503 first (never silence), a stream just ends; its thread wakes
        from its read (or its stream's wait) and ends."""
        if connection.stop is not None:
            connection.stop()
            if not connection.flowing:  # its thread writes the head, then finds it ended
                return
        elif connection.kind == "waiting":
            with contextlib.suppress(OSError):
                connection.socket.send(BUSY_ANSWER, socket.MSG_DONTWAIT)
        with contextlib.suppress(OSError):
            connection.socket.shutdown(socket.SHUT_RDWR)

    def _release(self, request: socket.socket) -> None:
        with self._open_lock:
            self._connections.pop(id(request), None)

    def refuse(self, request: socket.socket) -> None:
        """Too many connections: a short JSON 503 and close, without a thread, after
        :data:`REFUSAL_DELAY_SECONDS` (the acceptor answers it when it is due:
        :meth:`service_actions`)."""
        if len(self._refused) >= MAX_DELAYED_REFUSALS:
            self._answer_refused(request)
            return
        self._refused.append((time.monotonic() + REFUSAL_DELAY_SECONDS, request))

    def service_actions(self) -> None:
        """Each turn of the acceptor's loop: answer the refused connections that are due."""
        now = time.monotonic()
        while self._refused and self._refused[0][0] <= now:
            self._answer_refused(self._refused.popleft()[1])

    def _answer_refused(self, request: socket.socket) -> None:
        with contextlib.suppress(OSError):
            request.settimeout(1.0)
            request.sendall(BUSY_ANSWER)
        self.shutdown_request(request)

    def stop(self) -> None:
        self.context.stopping.set()
        self.shutdown()
        while self._refused:
            self._answer_refused(self._refused.popleft()[1])
        self.server_close()


def _readable(sock: socket.socket) -> bool:
    """Whether a read on ``sock`` would return now (data, or the end): polled, never waited
    for (a socket with a timeout waits that long in recv, flags or not; poll has no
    select's limit on descriptor numbers)."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def _sent_so_far(sock: socket.socket) -> bytes:
    """What a new connection has sent already (its head, if it came with the handshake),
    left on the socket for its thread to read: a peek, never a wait."""
    try:
        if not _readable(sock):
            return b""
        return sock.recv(HEAD_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except (OSError, ValueError):  # ValueError: closed already
        return b""


def _hung_up(sock: socket.socket) -> bool:
    """Whether the client of a stream closed its end (a read would end, not wait): its
    thread only learns it at its next write."""
    try:
        return _readable(sock) and sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except (OSError, ValueError):
        return True


def own_names(host: str) -> frozenset[str]:
    """The host names a request may use for this machine (besides IP literals)."""
    names = {"localhost", host.lower()}
    with contextlib.suppress(OSError):
        hostname = socket.gethostname().lower()
        names |= {hostname, f"{hostname}.local", hostname.split(".")[0] + ".local"}
    return frozenset(names)
