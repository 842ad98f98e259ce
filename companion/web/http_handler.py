"""The table page's HTTP plumbing: gather a request's facts, ask the policy, write the answer.

Built on the standard library's ``BaseHTTPRequestHandler`` (measured: aiohttp alone adds 27 MB
of memory to a ~34 MB process; the standard library adds about 1 MB and no dependency). It holds
no rule of its own: who may do what is companion/web/policy.py's :func:`decide`, what each
route does is companion/web/routes.py. What it promises:

- Every answer is written whole with ``Content-Length``, ``Cache-Control: no-store``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``; the server names
  itself ``companion`` without Python's version.
- Errors are JSON ``{"error": code, "message": text}``, never a traceback: the policy's
  refusals, a handler's :class:`~companion.errors.CompanionError` (status from
  companion/web/answers.py's table), the base class's own (a bad request line, headers too
  long), and anything unexpected (500 ``internal``, logged).
- Bounded before trusted (issue #19): the request's head and body are read through
  companion/web/bounded_reading.py's :class:`~companion.web.bounded_reading.BoundedReader`
  (a whole-head budget and deadline, 431 / 408 / 505 answered, never silence; a body only as
  long as the policy allowed, a cut-off one never run; a lingering close after a refusal).
- Every other socket read and write times out after :data:`SOCKET_TIMEOUT_SECONDS`.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import Any, Final, Protocol, cast
from urllib.parse import urlsplit

from companion.errors import CompanionError
from companion.web.admission import PROBATION_HEAD_SECONDS, REFUSAL_DELAY_SECONDS, Kind
from companion.web.answers import Answer, answer_for, error_answer, json_answer
from companion.web.bounded_reading import SOCKET_TIMEOUT_SECONDS, BoundedReader
from companion.web.policy import (
    BODY_SECONDS,
    HEAD_SECONDS,
    Allowed,
    Facts,
    Refusal,
    client_key,
    cookie_token,
    decide,
    is_loopback,
    is_own_loopback,
)
from companion.web.routes import ROUTES, Context, Handler, Request, Stream

log = logging.getLogger(__name__)

BASE_HEADERS: Final = (("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
                       ("Referrer-Policy", "no-referrer"))
STREAM_HEADERS: Final = (("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
                         ("X-Accel-Buffering", "no"), ("Connection", "close"))


class Served(Protocol):
    """What the handler needs of its server (companion/web/server.py)."""

    context: Context

    def mark(self, request: Any, kind: Kind, trusted: bool | None = None) -> None: ...

    def start_stream(self, request: Any, stop: Callable[[], None]) -> bool: ...

    def on_probation(self, request: Any) -> bool: ...

    def keep(self, request: Any, trusted: bool, pairing: bool) -> bool: ...

    def stream_flowing(self, request: Any) -> None: ...


class HttpHandler(BaseHTTPRequestHandler):
    """One connection's requests; see the module docstring."""

    server_version = "companion"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = SOCKET_TIMEOUT_SECONDS
    disable_nagle_algorithm = True
    """An answer's head and body go as two writes: with Nagle's algorithm the body waited for
    the client's delayed ACK of the head, 40 ms on every kept-alive request (issue #28)."""

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.client_address[0], format % args)

    # Limits, as attributes so a test can shorten them on its own server's handler class.
    head_seconds: float = HEAD_SECONDS
    body_seconds: float = BODY_SECONDS

    def handle_one_request(self) -> None:
        """One request: its head read within the bounds, then parsed and answered."""
        self.command, self.request_version, self.requestline = "", "HTTP/1.0", ""
        served = cast(Served, self.server)
        served.mark(self.connection, "waiting")  # idle or slow: it may close to make room
        seconds = (min(self.head_seconds, PROBATION_HEAD_SECONDS)
                   if served.on_probation(self.connection) else self.head_seconds)
        head = self.reader().head(seconds)
        if head is None:
            self.close_connection = True
            return
        if isinstance(head, Refusal):
            self.refuse(head)
            return
        socket_file = self.rfile
        self.rfile = io.BytesIO(head)
        try:
            self.raw_requestline = self.rfile.readline()
            parsed = self.parse_request()
        finally:
            self.rfile = socket_file
        self.connection.settimeout(SOCKET_TIMEOUT_SECONDS)
        if not parsed:
            return
        try:
            getattr(self, "do_" + self.command, self.do_GET)()
            self.wfile.flush()
        except TimeoutError:
            self.close_connection = True

    def reader(self) -> BoundedReader:
        return BoundedReader(self.connection, cast(io.BufferedReader, self.rfile))

    def refuse(self, refusal: Refusal) -> None:
        """Answer a refusal; one that closes is answered, then lingered on."""
        with contextlib.suppress(OSError):
            self.connection.settimeout(SOCKET_TIMEOUT_SECONDS)
            self.write(error_answer(refusal.code, refusal.message), close=refusal.close)
        if refusal.close:
            self.close_connection = True
            self.reader().linger()

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The base class's errors (bad request line, headers too long...) as JSON."""
        if self.request_version == "HTTP/0.9":
            # A request line that did not parse: answer with a status line and headers all
            # the same, so the client sees a JSON error rather than bare text.
            self.request_version = "HTTP/1.0"
        with contextlib.suppress(OSError):
            status = HTTPStatus(code)
            self.write(json_answer({"error": status.phrase.lower().replace(" ", "-"),
                                    "message": message or status.description}, code),
                       close=True)
        self.close_connection = True
        self.reader().linger()

    def do_GET(self) -> None:
        context = cast(Served, self.server).context
        path = urlsplit(self.path).path
        try:
            self.answer(context, path)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True
        except Exception:
            log.exception("web request %s %s failed", self.command, path)
            with contextlib.suppress(OSError):
                self.write(error_answer("internal", "the request failed; see the box's log"),
                           close=True)

    do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_GET

    def answer(self, context: Context, path: str) -> None:
        loopback = is_loopback(self.client_address[0])
        holder = context.pairing.holder(cookie_token(self.headers.get("Cookie")))
        paired = holder is not None
        lengths = self.headers.get_all("Content-Length")
        facts = Facts(method=self.command, path=path, loopback=loopback, paired=paired,
                      host=self.headers.get("Host", ""), origin=self.headers.get("Origin"),
                      content_length=None if lengths is None else ", ".join(lengths),
                      chunked=bool(self.headers.get("Transfer-Encoding")),
                      sec_fetch_site=self.headers.get("Sec-Fetch-Site"))
        # A connection that carried a valid token is never closed for room (issue #28).
        cast(Served, self.server).mark(self.connection, "busy", trusted=True if paired else None)
        verdict = decide(facts, context.rules, ROUTES)
        if not kept(self, context, verdict):
            return
        if isinstance(verdict, Refusal):
            if verdict.discard:
                discarded = self.reader().body(verdict.discard, self.body_seconds)
                if isinstance(discarded, Refusal) and not verdict.close:
                    verdict = Refusal(verdict.code, verdict.message, close=True)
            self.refuse(verdict)
            return
        body = (self.reader().body(verdict.body_bytes, self.body_seconds)
                if verdict.body_bytes else b"")
        if isinstance(body, Refusal):
            self.refuse(body)  # never run: a cut-off or late body is not the request sent
            return
        request = Request(context, self.command, path, body, verdict.trusted, paired, loopback,
                          client_key(self.client_address[0]),
                          self.headers.get("Idempotency-Key"),
                          own=is_own_loopback(loopback, context.rules), holder=holder)
        try:
            result = cast(Handler, verdict.route.handler)(request)
        except CompanionError as error:
            result = answer_for(error)
        if isinstance(result, Stream):
            self.stream(result)
        else:
            self.write(result)

    def write(self, answer: Answer, *, close: bool = False) -> None:
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(answer.body)))
        for name, value in (*BASE_HEADERS, *answer.headers):
            self.send_header(name, value)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer.body)

    def stream(self, stream: Stream) -> None:
        write_stream(self, cast(Served, self.server), stream)


def kept(handler: HttpHandler, context: Context, verdict: Allowed | Refusal) -> bool:
    """Whether the request on ``handler``'s connection is served: every one is, but on a
    connection admitted on probation past the unpaired share (companion/web/admission.py)
    only a paired phone's, or the page and pairing while the box has pairing open; any other
    is answered 503 ``busy`` a second later, and the connection closes."""
    trusted, pairing = False, False
    if not isinstance(verdict, Refusal):
        trusted = verdict.trusted
        pairing = verdict.route.need == "open" and context.channel.pairing_open
    if cast(Served, handler.server).keep(handler.connection, trusted, pairing):
        return True
    context.stopping.wait(REFUSAL_DELAY_SECONDS)
    with contextlib.suppress(OSError):
        handler.write(error_answer("busy", "too many connections from unpaired phones; "
                                           "try again"), close=True)
    return False


def write_stream(handler: HttpHandler, server: Served, stream: Stream) -> None:
    """An event stream on ``handler``'s connection, if the server has room for it (issue
    #28: an unpaired client's streams have their own cap), else 503 ``busy``."""
    if not server.start_stream(handler.connection, stream.stop):
        stream.chunks.close()
        handler.write(error_answer("busy", "too many event streams from unpaired phones; "
                                           "pair this phone, or try again"), close=True)
        return
    handler.send_response(200)
    for name, value in STREAM_HEADERS:
        handler.send_header(name, value)
    handler.end_headers()
    server.stream_flowing(handler.connection)
    handler.close_connection = True
    try:
        for chunk in stream.chunks:
            handler.wfile.write(chunk)
            handler.wfile.flush()
    except OSError:
        return  # the client went away (or stopped reading: the write timed out)
    finally:
        stream.chunks.close()
