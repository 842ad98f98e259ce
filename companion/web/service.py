"""The table page's service: the HTTP server on its thread, wired to its channel and pairing.

What it promises: :class:`WebServer` binds when it is built (a port in use fails before the box
starts), holds at most ``max_connections`` connections (past that a short JSON 503 and close,
without a thread), and stops cleanly; :class:`WebService` is what the composition root starts:
the server, its :class:`~companion.web.channel.WebChannel` and the pairing, started and stopped
with the loop's channels. The routes and their rules are in companion/web/server.py.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from http.server import ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

from companion.web.channel import WebChannel
from companion.web.pairing import Pairing
from companion.web.server import (
    MAX_CONNECTIONS,
    Context,
    Handler,
    WebSettings,
    own_names,
)


class WebServer(ThreadingHTTPServer):
    """A threading HTTP server with a bound on connections; binds at construction, so a
    port in use fails before the box starts."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, context: Context, host: str, port: int,
                 max_connections: int = MAX_CONNECTIONS) -> None:
        self.context = context
        self.stopping = threading.Event()
        self.slots = threading.BoundedSemaphore(max_connections)
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__((host, port), Handler)

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
        if not self.slots.acquire(blocking=False):
            self.refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
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
        self.stopping.set()
        self.shutdown()
        self.server_close()


def static_root() -> Any:
    """The page's files (companion/web/static), packaged."""
    return resources.files("companion.web") / "static"


class WebService:
    """The server and its channel, wired: what the composition root starts."""

    def __init__(self, settings: WebSettings, *, state_dir: Path | None,
                 clock: Callable[[], float], channel: WebChannel | None = None,
                 max_connections: int = MAX_CONNECTIONS) -> None:
        self.channel = channel or WebChannel()
        self.pairing = Pairing(state_dir, clock)
        self.context = Context(channel=self.channel, pairing=self.pairing, settings=settings,
                               state_dir=state_dir, static=static_root(),
                               own_names=own_names(settings.host))
        self.context.on_pair_start = self.show_code
        self.context.on_pair_end = self.hide_code
        self.channel.pair_pending = lambda: self.pairing.pending() is not None
        self.server = WebServer(self.context, settings.host, settings.port, max_connections)
        self._thread: threading.Thread | None = None
        self.channel.on_start.append(self.serve)
        self.channel.on_close.append(self.stop)

    def show_code(self, code: str, seconds: float) -> None:
        """A pairing began: the box shows its code (through the loop)."""
        from companion.runtime.loop import PairCodeEvent

        self.channel.pairing_changed(True)
        self.channel.post(PairCodeEvent(code, seconds))

    def hide_code(self) -> None:
        from companion.runtime.loop import PairCodeEvent

        self.channel.pairing_changed(False)
        self.channel.post(PairCodeEvent(None))

    def forget(self) -> None:
        """"Forget phones" (loop thread): revoke every token, end every event stream."""
        self.pairing.forget()
        self.hide_code()
        self.channel.drop_streams()

    @property
    def url(self) -> str:
        return self.server.url

    def serve(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.2,),
                                        name="web-server", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is None:
            self.server.server_close()
            return
        self.server.stop()
        self._thread.join(timeout=5)
        self._thread = None
