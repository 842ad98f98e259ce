"""The table page's HTTP server: one event loop, where a connection costs bytes, not a thread.

What it promises (issues #28, #38; docs/web.md "Admission: three rooms"):
:class:`WebServer` binds when it is built (a port in use fails before the box starts) and
serves on one thread running an asyncio event loop (:meth:`WebServer.serve_forever`); each
connection is a task (companion/web/http_handler.py), and the routes, which wait for the
box's loop, run on a few worker threads: :data:`TRUSTED_WORKERS` for trusted requests and
:data:`GUEST_WORKERS` for the rest, one request per guest client at a time, so guests queue
among themselves and never ahead of a paired phone. It knows who holds every connection and
asks companion/web/admission.py at accept (:func:`admit_newcomer`), at each request head
(:func:`admit_request`: the trusted room is the paired phones' and the box's own, no guest
may take a place there) and for each event stream (:func:`admit_stream`); with no room, 503
``busy`` with ``Retry-After`` a second later. "Forget phones" closes at once every connection
and stream that carried a token (:meth:`WebServer.revoke`). It stops cleanly.

The timer is not for sale (issue #19): the web shares the process, the cores and the GIL with
the box's loop, so it takes only so much of them, whatever the clients send:
- it accepts at most :data:`ACCEPTS_PER_SECOND` new connections a second (a burst of
  :data:`ACCEPT_BURST`); the others wait in the kernel's listen backlog.
- its threads (the event loop's and the workers) run at a lower CPU priority than the box's
  loop (:func:`lower_priority`: nice +:data:`WEB_NICENESS` over the main thread's, Linux).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Final, TypeVar

from companion.web.admission import (
    OWN,
    REFUSAL_DELAY_SECONDS,
    Admit,
    ConnectionLimits,
    Held,
    Kind,
    admit_newcomer,
    admit_request,
    admit_stream,
)
from companion.web.bounded_reading import SEND_SECONDS, BoundedReader
from companion.web.http_handler import BUSY_ANSWER, Connection, HttpHandler
from companion.web.policy import BODY_SECONDS, HEAD_SECONDS, OWN_LOOPBACK, client_key, is_loopback
from companion.web.routes import Context
from companion.web.workers import Workers

log = logging.getLogger(__name__)

MAX_CONNECTIONS: Final = ConnectionLimits().total
ACCEPTS_PER_SECOND: Final = 200.0
"""New connections handled a second, at most (a page opens a handful)."""
ACCEPT_BURST: Final = 50.0
BACKLOG: Final = 128
WEB_NICENESS: Final = 10
MAX_NICENESS: Final = 19
MAX_DELAYED_REFUSALS: Final = 256
"""Refused connections held for their delay at once, at most (past it: answered at once)."""
TRUSTED_WORKERS: Final = 4
GUEST_WORKERS: Final = 2
GUEST_REQUESTS_PER_SECOND: Final = 100.0
"""Unpaired requests served a second, all guests together, at most (a page's first load is a
dozen): past it each waits its turn, first come first served, on its own connection. The
event loop's time is then the table's whatever guests pipeline (issue #38, 1)."""

T = TypeVar("T")

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
        # keeps its web below its loop.
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


class WebServer:
    """The page's server; see the module docstring."""

    def __init__(self, context: Context, host: str, port: int,
                 limits: ConnectionLimits | None = None) -> None:
        self.context = context
        self.limits = limits or ConnectionLimits()
        self.head_seconds = HEAD_SECONDS
        self.body_seconds = BODY_SECONDS
        self.send_seconds = SEND_SECONDS
        self._connections: dict[int, Connection] = {}
        self._numbers = itertools.count(1)
        self._tokens = ACCEPT_BURST
        self._filled = time.monotonic()
        self._refused: set[socket.socket] = set()
        self._thread_id: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._done: asyncio.Event | None = None
        self._turns: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Future[None]] = set()
        self._guest_next = 0.0
        self._streams: set[asyncio.Event] = set()
        self._trusted_workers = Workers(TRUSTED_WORKERS, "web-trusted", lower_priority)
        self._guest_workers = Workers(GUEST_WORKERS, "web-guest", lower_priority)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.socket.bind((host, port))
            self.socket.listen(BACKLOG)
        except OSError:
            self.socket.close()
            raise
        self.socket.setblocking(False)
        self.server_address = self.socket.getsockname()

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

    # -- the loop's thread -------------------------------------------------------------------

    def serve_forever(self) -> None:
        """Serve until :meth:`stop` (on the thread that calls it)."""
        lower_priority()
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread_id = threading.get_ident()
        self._done = asyncio.Event()
        if self.context.stopping.is_set():
            return
        loop = self._loop

        def news() -> None:  # the box's loop thread: one hand-over for every stream
            if not loop.is_closed():
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._wake_streams)

        self.context.channel.on_news.append(news)
        acceptor = asyncio.ensure_future(self._accept_forever())
        await self._done.wait()
        acceptor.cancel()
        for connection in list(self._connections.values()):
            if connection.stop is not None:
                connection.stop()
            connection.close()
        tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for sock in list(self._refused):  # answered now, as at any shutdown
            _answer_refused(sock)
        self._refused.clear()

    async def _accept_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            wait = self.pace()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                sock, address = await loop.sock_accept(self.socket)
            except OSError as error:  # out of descriptors: the backlog holds the rest
                log.warning("the web server could not accept: %s", error)
                await asyncio.sleep(0.1)
                continue
            self._accepted(sock, str(address[0]))

    def pace(self) -> float:
        """Take one from the accept budget: the seconds to wait before the next accept."""
        now = time.monotonic()
        self._tokens = min(ACCEPT_BURST, self._tokens + (now - self._filled) * ACCEPTS_PER_SECOND)
        self._filled = now
        self._tokens -= 1.0
        return 0.0 if self._tokens >= 0 else -self._tokens / ACCEPTS_PER_SECOND

    def _accepted(self, sock: socket.socket, address: str) -> None:
        client = client_key(address)
        verdict = admit_newcomer(client, self._held(), self.limits, self._own(address))
        if verdict is None:
            self._refuse(sock)
            return
        self._close(verdict)
        connection = Connection(next(self._numbers), address, client, since=time.monotonic())
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._connections[connection.number] = connection
        task = asyncio.ensure_future(self._run(connection, sock))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, connection: Connection, sock: socket.socket) -> None:
        try:
            reader, writer = await asyncio.open_connection(sock=sock)
        except OSError:
            self._connections.pop(connection.number, None)
            sock.close()
            return
        connection.close = writer.transport.abort
        try:
            await HttpHandler(self, connection,
                              BoundedReader(reader, writer, self.send_seconds)).serve()
        except (OSError, asyncio.IncompleteReadError):
            pass
        except Exception:
            log.exception("the web connection from %s failed", connection.address)
        finally:
            self._connections.pop(connection.number, None)
            writer.transport.abort() if writer.is_closing() else writer.close()

    def _refuse(self, sock: socket.socket) -> None:
        """No place for a newcomer: a short JSON 503 a second later, then close."""
        assert self._loop is not None
        if len(self._refused) >= MAX_DELAYED_REFUSALS:
            _answer_refused(sock)
            return
        self._refused.add(sock)

        def due() -> None:
            if sock in self._refused:
                self._refused.discard(sock)
                _answer_refused(sock)

        self._loop.call_later(REFUSAL_DELAY_SECONDS, due)

    def _close(self, verdict: Admit) -> None:
        for number in verdict.close:
            gone = self._connections.pop(number, None)
            if gone is not None:
                if gone.stop is not None:
                    gone.stop()
                gone.close()

    def _own(self, address: str) -> bool:
        """Whether ``address`` is the box's own loopback (its page, its tools)."""
        return is_loopback(address) and (not self.context.rules.pair_loopback
                                          or address in OWN_LOOPBACK)

    def _wake_streams(self) -> None:
        for news in self._streams:
            news.set()

    def listen(self, news: asyncio.Event) -> Callable[[], None]:
        """Set ``news`` whenever the channel has news for the streams; the call undoes it."""
        self._streams.add(news)
        return lambda: self._streams.discard(news)

    def _held(self) -> list[Held]:
        return [connection.held() for connection in self._connections.values()]

    # -- what a connection's handler asks (on the loop's thread) ------------------------------

    def mark(self, connection: Connection, kind: Kind) -> None:
        if connection.kind != kind:
            connection.kind, connection.since = kind, time.monotonic()

    def admit(self, connection: Connection, holder: str | None) -> bool:
        """A request head came on ``connection``, carrying ``holder``'s token (or None):
        whether it has a place (the room of what it asks as), closing what must go first."""
        if holder is not None:
            holder = f"token:{holder}"
        elif self._own(connection.address):
            holder = f"{OWN}{connection.client}"
        verdict = admit_request(connection.number, connection.client, holder, self._held(),
                                self.limits, time.monotonic())
        if verdict is None:
            return False
        self._close(verdict)
        connection.holder = holder
        self.mark(connection, "busy")
        return True

    def start_stream(self, connection: Connection) -> bool:
        """Whether ``connection`` may stream events now."""
        verdict = admit_stream(connection.number, self._held(), self.limits)
        if verdict is None:
            return False
        self._close(verdict)
        self.mark(connection, "stream")
        return True

    async def guest_turn(self) -> None:
        """Wait for an unpaired request's turn: :data:`GUEST_REQUESTS_PER_SECOND` in all."""
        now = time.monotonic()
        turn = max(now, self._guest_next)
        self._guest_next = turn + 1.0 / GUEST_REQUESTS_PER_SECOND
        if turn > now:
            await asyncio.sleep(turn - now)

    async def run(self, connection: Connection, work: Callable[[], T]) -> T:
        """Run a route on a worker thread: a trusted request on the trusted workers, a guest's
        on the guests' workers, one at a time per guest client (they queue in turn)."""
        assert self._loop is not None
        if connection.holder is not None:
            return await self._loop.run_in_executor(self._trusted_workers, work)
        turn = self._turns.setdefault(connection.client, asyncio.Lock())
        try:
            async with turn:
                return await self._loop.run_in_executor(self._guest_workers, work)
        finally:
            if not turn.locked() and self._turns.get(connection.client) is turn:
                del self._turns[connection.client]

    # -- any thread --------------------------------------------------------------------------

    def held(self) -> list[Held]:
        """The open connections, as admission sees them."""
        return self._call(self._held, [])

    @property
    def open_connections(self) -> int:
        return len(self.held())

    def revoke(self) -> None:
        """"Forget phones": close at once every connection and event stream that carried a
        token (their next request, from a fresh connection, is a guest's)."""

        def close_tokens() -> None:
            revoked = [one for one in self._connections.values()
                       if one.holder is not None and one.holder.startswith("token:")]
            for one in revoked:  # the request that asked (the phone's own "Forget phones")
                one.revoked = True  # is answered first
            self._close(Admit(tuple(one.number for one in revoked
                                    if one.kind in ("waiting", "stream"))))

        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(close_tokens)

    def _call(self, work: Callable[[], T], default: T) -> T:
        """``work`` on the loop's thread, waited for (``default`` when the loop is not
        running)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return default
        if threading.get_ident() == self._thread_id:
            return work()

        async def wrapped() -> T:
            return work()
        try:
            return asyncio.run_coroutine_threadsafe(wrapped(), loop).result(timeout=5)
        except (RuntimeError, TimeoutError):
            return default

    def stop(self) -> None:
        self.context.stopping.set()
        loop, done = self._loop, self._done
        if loop is not None and done is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(done.set)

    def server_close(self) -> None:
        self.socket.close()
        self._trusted_workers.shutdown(wait=False)
        self._guest_workers.shutdown(wait=False)


def _answer_refused(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.send(BUSY_ANSWER, socket.MSG_DONTWAIT)
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


def own_names(host: str) -> frozenset[str]:
    """The host names a request may use for this machine (besides IP literals)."""
    names = {"localhost", host.lower()}
    with contextlib.suppress(OSError):
        hostname = socket.gethostname().lower()
        names |= {hostname, f"{hostname}.local", hostname.split(".")[0] + ".local"}
    return frozenset(names)


