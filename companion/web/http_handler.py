"""The table page's HTTP plumbing: gather a request's facts, ask the policies, write the answer.

One :class:`HttpHandler` serves one connection on the server's event loop (asyncio streams,
with h11 as the HTTP/1.1 state machine: framing, keep-alive, pipelining). It holds no rule of
its own: who may do what is companion/web/policy.py's :func:`decide`, who gets a place is
companion/web/admission.py (asked through the server, companion/web/server.py), what each
route does is companion/web/routes.py, and the routes run on the server's worker threads (they
wait for the box's loop), never on the event loop. What it promises:

- Every answer is written whole with ``Content-Length``, ``Cache-Control: no-store``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``; the server names
  itself ``companion``.
- Errors are JSON ``{"error": code, "message": text}``, never a traceback: the policy's
  refusals, a handler's :class:`~companion.errors.CompanionError` (status from
  companion/web/answers.py's table), a head h11 will not parse (400 ``bad-request``), and
  anything unexpected (500 ``internal``, logged).
- Bounded before trusted (issues #19, #38): heads, bodies and every write go through
  companion/web/bounded_reading.py's :class:`~companion.web.bounded_reading.BoundedReader`
  (budgets and deadlines; a cut-off body never runs; a lingering close after a refusal).
- A request there is no room for is answered 503 ``busy`` with ``Retry-After`` a second
  later (:data:`~companion.web.admission.REFUSAL_DELAY_SECONDS`), event streams too.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import formatdate
from http import HTTPStatus
from typing import Final, Protocol, TypeVar
from urllib.parse import urlsplit

import h11

from companion.errors import CompanionError
from companion.web.admission import FIRST_HEAD_SECONDS, REFUSAL_DELAY_SECONDS, Held, Kind
from companion.web.answers import Answer, answer_for, error_answer, json_answer
from companion.web.bounded_reading import BoundedReader
from companion.web.policy import (
    HEAD_BYTES,
    Facts,
    Refusal,
    body_length,
    cookie_token,
    decide,
    is_loopback,
    is_own_loopback,
)
from companion.web.routes import (
    INLINE,
    KEEPALIVE_COMMENT,
    KEEPALIVE_SECONDS,
    ROUTES,
    STREAM_PREAMBLE,
    Context,
    Request,
    Stream,
)

log = logging.getLogger(__name__)

BASE_HEADERS: Final = (("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
                       ("Referrer-Policy", "no-referrer"))
STREAM_HEADERS: Final = (("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
                         ("X-Accel-Buffering", "no"), ("Connection", "close"))
BUSY_MESSAGE: Final = "too many connections; try again"
_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:(.*)$", re.IGNORECASE | re.MULTILINE)
T = TypeVar("T")


@dataclass(eq=False)
class Connection:
    """One open connection, as the server keeps it for admission."""

    number: int
    address: str
    client: str
    holder: str | None = None
    kind: Kind = "new"
    since: float = 0.0
    close: Callable[[], None] = lambda: None
    stop: Callable[[], None] | None = None
    """Ends its event stream (its subscriber), if it is one."""
    revoked: bool = False
    """Its token was revoked while it ran a request: it closes once that is answered."""
    row: Held | None = None

    def held(self) -> Held:
        """Its row for admission, made again only when it changed (admission reads every
        row at every accept and every request)."""
        row = self.row
        if row is None or (row.holder, row.kind, row.since) != (self.holder, self.kind,
                                                                self.since):
            row = self.row = Held(self.number, self.client, self.holder, self.kind,
                                  self.since)
        return row


class Served(Protocol):
    """What a connection's handler asks of its server (companion/web/server.py)."""

    context: Context
    head_seconds: float
    body_seconds: float

    def mark(self, connection: Connection, kind: Kind) -> None: ...

    def admit(self, connection: Connection, holder: str | None) -> bool: ...

    def start_stream(self, connection: Connection) -> bool: ...

    async def run(self, connection: Connection, work: Callable[[], T]) -> T: ...

    async def guest_turn(self) -> None: ...

    def listen(self, news: asyncio.Event) -> Callable[[], None]: ...


class HttpHandler:
    """One connection's requests, one after another; see the module docstring."""

    def __init__(self, server: Served, connection: Connection,
                 io: BoundedReader) -> None:
        self.server = server
        self.connection = connection
        self.io = io
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=HEAD_BYTES + 4)
        self.method = "GET"

    async def serve(self) -> None:
        """Requests until the client or a rule ends the connection."""
        first = True
        while await self.one(first):
            first = False
            self.h11.start_next_cycle()

    async def one(self, first: bool) -> bool:
        """One request read, judged and answered: whether the connection goes on."""
        server, connection = self.server, self.connection
        if not first:
            server.mark(connection, "waiting")
        seconds = min(server.head_seconds, FIRST_HEAD_SECONDS) if first else server.head_seconds
        head = await self.io.head(seconds)
        if head is None:
            return False
        if isinstance(head, Refusal):
            return await self.refuse(head)
        lengths = [value.strip().decode("latin-1") for value in _CONTENT_LENGTH.findall(head)]
        framing = body_length(Facts("POST", "/", content_length=", ".join(lengths) or None))
        if isinstance(framing, Refusal) and lengths:
            return await self.refuse(Refusal(framing.code, framing.message, close=True))
        try:
            self.h11.receive_data(head)
            event = self.h11.next_event()
        except h11.RemoteProtocolError as error:
            return await self.refuse(Refusal("bad-request", str(error), close=True))
        if not isinstance(event, h11.Request):
            return await self.refuse(Refusal("bad-request", "send one HTTP/1.1 request",
                                             close=True))
        headers = {name.decode("latin-1"): value.decode("latin-1")
                   for name, value in event.headers}
        self.method = event.method.decode("ascii")
        path = urlsplit(event.target.decode("latin-1")).path
        context = server.context
        holder = context.pairing.holder(cookie_token(headers.get("cookie")))
        if not server.admit(connection, holder):
            return await self.busy()
        if connection.holder is None:
            await server.guest_turn()  # the guests' requests, all together, at a bounded rate
        facts = Facts(method=self.method, path=path, loopback=is_loopback(connection.address),
                      paired=holder is not None, host=headers.get("host", ""),
                      origin=headers.get("origin"), content_length=", ".join(lengths) or None,
                      chunked="transfer-encoding" in headers,
                      sec_fetch_site=headers.get("sec-fetch-site"))
        verdict = decide(facts, context.rules, ROUTES)
        if isinstance(verdict, Refusal):
            if verdict.discard:
                discarded = await self.io.body(verdict.discard, server.body_seconds)
                if isinstance(discarded, Refusal) or not self.ended(discarded):
                    verdict = Refusal(verdict.code, verdict.message, close=True)
            return await self.refuse(verdict)
        if verdict.body_bytes and self.h11.they_are_waiting_for_100_continue:
            await self.io.send(self.h11.send(h11.InformationalResponse(
                status_code=100, headers=[], reason=b"Continue")) or b"")
        body = await self.io.body(verdict.body_bytes, server.body_seconds)
        if isinstance(body, Refusal) or not self.ended(body):
            # never run: a cut-off or late body is not the request sent
            return await self.refuse(body if isinstance(body, Refusal) else Refusal(
                "bad-request", "the body does not match its Content-Length", close=True))
        request = Request(context, self.method, path, body, verdict.trusted, facts.paired,
                          facts.loopback, connection.client, headers.get("idempotency-key"),
                          own=is_own_loopback(facts.loopback, context.rules),
                          holder=holder)
        handler = verdict.route.handler
        if handler in INLINE and context.channel.drawn:
            result = _call(handler, request)  # it waits for nothing: no worker's hop
        else:
            result = await server.run(connection, lambda: _call(handler, request))
        if isinstance(result, Stream):
            await stream(self, result)
            return False
        return await self.write(result)

    def ended(self, body: bytes) -> bool:
        """Hand ``body`` to h11: whether the request ended with it."""
        try:
            if body:  # h11 reads an empty chunk as the client's close
                self.h11.receive_data(body)
            while True:
                event = self.h11.next_event()
                if isinstance(event, h11.EndOfMessage):
                    return True
                if event is h11.NEED_DATA or isinstance(event, h11.ConnectionClosed):
                    return False
        except h11.RemoteProtocolError:
            return False

    async def refuse(self, refusal: Refusal) -> bool:
        """Answer a refusal; one that closes is answered, then lingered on."""
        kept = await self.write(error_answer(refusal.code, refusal.message),
                                close=refusal.close)
        if refusal.close:
            await self.io.linger()
        return kept and not refusal.close

    async def busy(self) -> bool:
        """No room for this request: 503 a second later, and close."""
        await asyncio.sleep(REFUSAL_DELAY_SECONDS)
        await self.write(error_answer("busy", BUSY_MESSAGE), close=True)
        return False

    async def write(self, answer: Answer, *, close: bool = False) -> bool:
        """Write ``answer`` within the send deadline: whether the connection stays open."""
        self.server.mark(self.connection, "writing")
        headers = [("Content-Type", answer.content_type),
                   ("Content-Length", str(len(answer.body))), *BASE_HEADERS, *answer.headers,
                   ("Server", "companion"), ("Date", formatdate(usegmt=True))]
        if close:
            headers.append(("Connection", "close"))
        try:
            data = self.h11.send(h11.Response(status_code=answer.status, headers=headers,
                                              reason=_phrase(answer.status)))
            if self.method != "HEAD":
                data = (data or b"") + (self.h11.send(h11.Data(data=answer.body)) or b"")
            data = (data or b"") + (self.h11.send(h11.EndOfMessage()) or b"")
        except h11.LocalProtocolError:  # a head h11 never parsed: the answer is ours alone
            data = raw_answer(answer, close=True)
            close = True
        sent = await self.io.send(data)
        done = self.h11.our_state is h11.DONE and self.h11.their_state is h11.DONE
        return sent and done and not close and not self.connection.revoked


def _call(handler: object, request: Request) -> Answer | Stream:
    """Run a route's handler (on a worker thread): a refusal it raises becomes its answer."""
    try:
        return handler(request)  # type: ignore[operator, no-any-return]
    except CompanionError as error:
        return answer_for(error)
    except Exception:
        log.exception("web request %s %s failed", request.method, request.path)
        return error_answer("internal", "the request failed; see the box's log")


async def stream(handler: HttpHandler, events: Stream) -> None:
    """An event stream on ``handler``'s connection, if the server has room for it (issue
    #28: an unpaired client's streams have their own cap), else 503 ``busy`` a second later.
    It ends when its subscriber closes, its client goes, or a write misses its deadline."""
    server, connection = handler.server, handler.connection
    if not server.start_stream(connection):
        await asyncio.sleep(REFUSAL_DELAY_SECONDS)
        await handler.write(error_answer("busy", "too many event streams; pair this phone, "
                                                 "or try again"), close=True)
        return
    loop = asyncio.get_running_loop()
    news = asyncio.Event()
    subscriber = events.subscriber

    def wake() -> None:
        if not loop.is_closed():
            loop.call_soon_threadsafe(news.set)

    subscriber.wake = wake  # on its close; news comes through the server's one wake-up
    connection.stop = subscriber.close
    unlisten = server.listen(news)
    events.channel.subscribe(subscriber)
    hung_up = asyncio.ensure_future(handler.io.reader.read(1))
    try:
        if not await handler.io.send(raw_answer(Answer(200, "text/event-stream", b""),
                                                stream=True) + STREAM_PREAMBLE):
            return
        while True:
            taken = subscriber.take(0)
            if taken is None:
                return
            if taken:
                chunk = b"".join(taken)
            else:
                waiting = asyncio.ensure_future(news.wait())
                done, _ = await asyncio.wait({waiting, hung_up}, timeout=KEEPALIVE_SECONDS,
                                             return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                news.clear()
                if hung_up in done:
                    return  # the client closed (a reloaded page): its place is free at once
                if done:
                    continue
                chunk = KEEPALIVE_COMMENT
            if not await handler.io.send(chunk):
                return
    finally:
        hung_up.cancel()
        unlisten()
        events.channel.unsubscribe(subscriber)


def raw_answer(answer: Answer, *, close: bool = True, stream: bool = False) -> bytes:
    """An answer's bytes written without h11 (a head it never parsed, an event stream's head,
    a refused connection): the same headers, and ``Connection: close``."""
    lines = [f"HTTP/1.1 {answer.status} {_phrase(answer.status)}"]
    if stream:
        lines += [f"{name}: {value}" for name, value in STREAM_HEADERS]
    else:
        lines += [f"Content-Type: {answer.content_type}",
                  f"Content-Length: {len(answer.body)}",
                  *(f"{name}: {value}" for name, value in (*BASE_HEADERS, *answer.headers))]
        if close:
            lines.append("Connection: close")
    lines += ["Server: companion", f"Date: {formatdate(usegmt=True)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + answer.body


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


BUSY_ANSWER: Final = raw_answer(error_answer("busy", BUSY_MESSAGE))
"""The answer to a connection there is no room for (never silence: issue #28)."""

__all__ = ["BUSY_ANSWER", "HttpHandler", "json_answer", "raw_answer", "stream"]
