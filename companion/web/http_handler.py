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
- Bounded before trusted (issue #19): the request line and headers are read by
  :meth:`HttpHandler.read_head`, at most :data:`~companion.web.policy.HEAD_BYTES` in all and
  within :data:`~companion.web.policy.HEAD_SECONDS` in all (each read waits only for what is
  left of that deadline, so dribbling a byte at a time buys nothing), before anything else
  parses them. Past the budget: 431; past the deadline: 408 (a connection that sent nothing
  at all by then, an idle keep-alive one, is just closed); a request line without an
  ``HTTP/1.x`` version (HTTP/0.9): 505 at once, never silence.
- A body is read only when the policy allowed it, only as many bytes as it said, whole within
  :data:`~companion.web.policy.BODY_SECONDS`: a body cut short (the client closed) is 400
  ``short-body`` and one too slow 408, and neither ever reaches a handler.
- A refusal that closes the connection is answered first, then the server stops writing and
  reads and drops what the client still sends for at most :data:`LINGER_SECONDS` (nginx's
  lingering close), so the client reads the answer rather than a reset.
- Every other socket read and write times out after :data:`SOCKET_TIMEOUT_SECONDS`.
"""

from __future__ import annotations

import contextlib
import io
import logging
import socket
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import Any, Final, Protocol, cast
from urllib.parse import urlsplit

from companion.errors import CompanionError
from companion.web.answers import Answer, answer_for, error_answer, json_answer
from companion.web.policy import (
    BODY_SECONDS,
    HEAD_BYTES,
    HEAD_SECONDS,
    Facts,
    Refusal,
    client_key,
    cookie_token,
    decide,
    is_loopback,
)
from companion.web.routes import ROUTES, Context, Handler, Request, Stream

log = logging.getLogger(__name__)

SOCKET_TIMEOUT_SECONDS: Final = 20.0
LINGER_SECONDS: Final = 2.0
LINGER_BYTES: Final = 8 * 1024 * 1024
BASE_HEADERS: Final = (("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
                       ("Referrer-Policy", "no-referrer"))


class Served(Protocol):
    """What the handler needs of its server (companion/web/server.py)."""

    context: Context


class HttpHandler(BaseHTTPRequestHandler):
    """One connection's requests; see the module docstring."""

    server_version = "companion"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = SOCKET_TIMEOUT_SECONDS

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
        head = self.read_head()
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

    def read_head(self) -> bytes | Refusal | None:
        """The request line and headers up to their blank line, or a refusal (over the
        budget, past the deadline, not HTTP/1.x), or None for a client that closed (or sent
        nothing but blank lines) before a request."""
        deadline = time.monotonic() + self.head_seconds
        head = bytearray()
        while True:
            chunk = self.read_some(deadline)
            if isinstance(chunk, Refusal):
                # A connection idle between requests (keep-alive) is closed without a word,
                # as nginx's keepalive_timeout does; a request begun but late gets its 408.
                return chunk if head else None
            if not chunk:
                return None  # closed before its request ended: nobody to answer
            if not head:
                skipped = len(chunk) - len(chunk.lstrip(b"\r\n"))  # blank lines before one
                if skipped:
                    self.rfile.read(skipped)
                    continue
            start = max(0, len(head) - 3)
            wanted = chunk[:HEAD_BYTES + 1 - len(head)]
            seen = bytes(head[start:]) + wanted
            ends = [at + len(mark) for mark in (b"\r\n\r\n", b"\n\n", b"\n\r\n")
                    if (at := seen.find(mark)) >= 0]
            taken = min(ends) - (len(head) - start) if ends else len(wanted)
            head += self.rfile.read(taken)
            if b"\n" in head and not is_http1(bytes(head).split(b"\n", 1)[0]):
                return Refusal("http-version-not-supported", "send HTTP/1.0 or HTTP/1.1",
                               close=True)
            if ends:
                return bytes(head)
            if len(head) > HEAD_BYTES:
                return Refusal("request-header-fields-too-large",
                               f"a request's line and headers are at most {HEAD_BYTES} bytes",
                               close=True)

    def read_some(self, deadline: float) -> bytes | Refusal:
        """What the socket has (waiting at most until ``deadline``), not yet consumed; empty
        when the client closed."""
        left = deadline - time.monotonic()
        if left <= 0:
            return Refusal("request-timeout", "the request did not arrive in time",
                           close=True)
        self.connection.settimeout(left)
        try:
            return cast(io.BufferedReader, self.rfile).peek(1)
        except TimeoutError:
            return Refusal("request-timeout", "the request did not arrive in time",
                           close=True)
        except OSError:
            return b""

    def read_body(self, length: int) -> bytes | Refusal:
        """Exactly ``length`` bytes of body within the body deadline, or a refusal."""
        deadline = time.monotonic() + self.body_seconds
        body = bytearray()
        while len(body) < length:
            chunk = self.read_some(deadline)
            if isinstance(chunk, Refusal):
                return chunk
            if not chunk:
                return Refusal("short-body", f"the body ended after {len(body)} of the "
                                             f"{length} bytes announced", close=True)
            body += self.rfile.read(min(len(chunk), length - len(body)))
        self.connection.settimeout(SOCKET_TIMEOUT_SECONDS)
        return bytes(body)

    def refuse(self, refusal: Refusal) -> None:
        """Answer a refusal; one that closes is answered, then lingered on."""
        with contextlib.suppress(OSError):
            self.connection.settimeout(SOCKET_TIMEOUT_SECONDS)
            self.write(error_answer(refusal.code, refusal.message), close=refusal.close)
        if refusal.close:
            self.linger()

    def linger(self) -> None:
        """Stop writing, then read and drop what the client still sends, briefly and bounded,
        so closing does not reset the connection before the client read its answer."""
        self.close_connection = True
        deadline = time.monotonic() + LINGER_SECONDS
        dropped = 0
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
            while dropped < LINGER_BYTES and (left := deadline - time.monotonic()) > 0:
                self.connection.settimeout(left)
                chunk = cast(io.BufferedReader, self.rfile).read1(65536)
                if not chunk:
                    break
                dropped += len(chunk)

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
        self.linger()

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
        paired = context.pairing.knows(cookie_token(self.headers.get("Cookie")))
        lengths = self.headers.get_all("Content-Length")
        facts = Facts(method=self.command, path=path, loopback=loopback, paired=paired,
                      host=self.headers.get("Host", ""), origin=self.headers.get("Origin"),
                      content_length=None if lengths is None else ", ".join(lengths),
                      chunked=bool(self.headers.get("Transfer-Encoding")),
                      sec_fetch_site=self.headers.get("Sec-Fetch-Site"))
        verdict = decide(facts, context.rules, ROUTES)
        if isinstance(verdict, Refusal):
            if verdict.discard:
                discarded = self.read_body(verdict.discard)
                if isinstance(discarded, Refusal) and not verdict.close:
                    verdict = Refusal(verdict.code, verdict.message, close=True)
            self.refuse(verdict)
            return
        body = self.read_body(verdict.body_bytes) if verdict.body_bytes else b""
        if isinstance(body, Refusal):
            self.refuse(body)  # never run: a cut-off or late body is not the request sent
            return
        request = Request(context, self.command, path, body, verdict.trusted, paired, loopback,
                          client_key(self.client_address[0]))
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
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            for chunk in stream.chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
        except OSError:
            return  # the client went away (or stopped reading: the write timed out)
        finally:
            stream.chunks.close()


def is_http1(request_line: bytes) -> bool:
    """Whether a request line ends with an ``HTTP/1.x`` version (HTTP/0.9 has none)."""
    words = request_line.strip().split()
    return len(words) == 3 and words[2].startswith(b"HTTP/1.")
