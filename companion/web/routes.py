"""The table page's routes, as data: method, path, the trust each needs, and its handler.

:data:`ROUTES` is the whole table (docs/web.md lists it); companion/web/policy.py decides from
it who may run which handler, and companion/web/http_handler.py runs the one allowed. A handler
takes a :class:`Request` (the path, the body already read and bounded, who is asking) and
returns an :class:`~companion.web.answers.Answer` or a :class:`Stream`, or raises a
:class:`~companion.errors.CompanionError` that the handler answers as JSON.

What the handlers promise:
- **They never touch the controller**: everything goes through the
  :class:`~companion.web.channel.WebChannel`, so a slow or hostile client cannot stall the box.
- ``POST /api/line`` decodes its body with the protocol's own decoder
  (:func:`companion.protocol.lines.one_line`): not UTF-8 is 400 ``bad-encoding``, more than one
  line 400 ``one-line``; the loop answers every other line, ``null`` for one that gets no reply.
  Its ``Idempotency-Key`` makes it run once (companion/web/idempotency.py): a line the loop did
  not take in time is withdrawn and 503 ``busy`` (never run), one it started but did not finish
  in time is 202 ``{"pending": true, "id": KEY}``, a retry gets the first result.
- ``pair open`` on ``POST /api/line`` opens pairing only from the box's own trusted loopback
  (403 ``box-only`` from a phone, paired or not: pairing opens at the box). Every other
  phone's line goes as a :class:`~companion.protocol.lines.PhoneLine`: its ``screen`` has no
  pairing code, and a press that would be "Pair a phone" is ``err box-only``.
- ``POST /api/pair/start`` asks the loop to show the pairing window's code (a fresh one if
  none is shown yet); while pairing is closed it answers 403 ``pairing-closed`` with the
  sentence that says how to open it. ``POST /api/pair`` asks the loop to judge the typed
  code (the core counts the window's typed codes, companion/core/table_page.py) or the
  secret of the QR code's link, and answers with the cookie, or the refusal's sentence (see
  companion/web/pairing.py). The link itself (``GET /P/<secret>``) is the page, whatever
  follows ``/P/``: a GET judges nothing (a QR reader's preview spends nothing), the page
  sends the secret.
- Static files are only the page's own (no ``..``, no hidden files); nothing is listed.
"""

from __future__ import annotations

import json
import mimetypes
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from companion.core.table_page import PAIR_PATH
from companion.protocol.commands import opens_pairing
from companion.protocol.lines import BadEncoding, Line, NotOneLine, PhoneLine, one_line
from companion.web.answers import Answer, HttpError, json_answer
from companion.web.channel import Subscriber, WebChannel, screen_body
from companion.web.idempotency import LineLedger, Pending, check_key
from companion.web.pairing import (
    CLOSED_MESSAGE,
    SPENT_MESSAGE,
    Pairing,
    PairingRefused,
    new_code,
)
from companion.web.policy import COOKIE, Route, Rules

KEEPALIVE_SECONDS: Final = 15.0
COOKIE_MAX_AGE: Final = 400 * 24 * 3600  # browsers cap cookies at 400 days
STATIC_HEADERS: Final = (
    ("Content-Security-Policy",
     "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
    ("X-Frame-Options", "DENY"))
FALLBACK_PAGE: Final = b"""<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>companion</title>
<p>The table page is not installed; the API is at <a href="/api/state">/api/state</a>.</p>
"""


@dataclass
class Context:
    """What every request shares: the channel, the pairing, the rules, the page's files, and
    what the composition root adds (the history)."""

    channel: WebChannel
    pairing: Pairing
    rules: Rules
    static: Any = None
    stopping: threading.Event = field(default_factory=threading.Event)
    history: Callable[[str], Answer | None] | None = None
    lines: LineLedger | None = None
    """What became of each client's keyed lines (companion/web/idempotency.py)."""


@dataclass(frozen=True)
class Request:
    """One allowed request, as its handler sees it."""

    context: Context
    method: str
    path: str
    body: bytes = b""
    trusted: bool = False
    paired: bool = False
    loopback: bool = False
    client: str = ""
    """Who is asking, for per-client limits (companion/web/policy.py's ``client_key``)."""
    idempotency_key: str | None = None
    """The request's ``Idempotency-Key`` header, if it sent one."""
    own: bool = False
    """The box's own trusted loopback (not a phone): it may open pairing."""
    holder: str | None = None
    """Whose keyed lines these are: the token's stored hash, or None (the box's own)."""


@dataclass(frozen=True)
class Stream:
    """An event stream: the server subscribes ``subscriber`` to ``channel`` once it has room
    for the stream, writes :data:`STREAM_PREAMBLE`, then what :meth:`Subscriber.take` gives
    as it comes (woken by the subscriber, never a thread waiting), a keep-alive comment
    after :data:`KEEPALIVE_SECONDS` of nothing, until the subscriber closes (the box
    stopping, "Forget phones") or the client goes."""

    channel: WebChannel
    subscriber: Subscriber


STREAM_PREAMBLE: Final = b"retry: 1000\n\n"
KEEPALIVE_COMMENT: Final = b": keepalive\n\n"


Handler = Callable[[Request], Answer | Stream]


# -- GET -----------------------------------------------------------------------------------------


def page(request: Request) -> Answer:
    return static_file(request.context, "index.html")


def static(request: Request) -> Answer:
    return static_file(request.context, request.path[len("/static/"):])


def whoami(request: Request) -> Answer:
    body = {"trusted": request.trusted, "paired": request.paired, "loopback": request.loopback}
    if request.context.rules.public_mirror:  # the page then shows the screen, read-only
        body["public_mirror"] = True
    return json_answer(body)


def state(request: Request) -> Answer:
    return json_answer(_snapshot(request).state)


def screen(request: Request) -> Answer:
    return json_answer(screen_body(_snapshot(request)))


def frame(request: Request) -> Answer:
    picture = request.context.channel.frame_png()
    if picture is None:
        raise HttpError("not-ready", "the box has drawn nothing yet")
    return Answer(200, "image/png", picture[1], (("X-Frame", str(picture[0])),))


def tunes(request: Request) -> Answer:
    from companion.core.tunes import TUNES

    return json_answer({name: [[frequency, seconds] for frequency, seconds in notes]
                        for name, notes in TUNES.items()})


def games(request: Request) -> Answer:
    """The games' facts the page needs (titles, form lists), from companion/games/registry.py:
    the page's script holds none of its own."""
    from companion.games.registry import page_facts

    return json_answer(page_facts())


def picture(request: Request) -> Answer:
    """A picture the page shows beside a step's words (companion/web/pictures_api.py)."""
    from companion.web.pictures_api import picture as drawn

    return drawn(request.path)


def history(request: Request) -> Answer:
    found = None if request.context.history is None else request.context.history(request.path)
    if found is None:
        raise HttpError("not-found", f"no such page: {request.path}")
    return found


def events(request: Request) -> Answer | Stream:
    """The event stream: a full ``update`` first, then news as it comes."""
    if request.method == "HEAD":
        return Answer(200, "text/event-stream", b"")
    return Stream(request.context.channel, Subscriber())


def _snapshot(request: Request) -> Any:
    snapshot = request.context.channel.snapshot()
    if snapshot is None:
        raise HttpError("not-ready", "the box is starting")
    return snapshot


def static_file(context: Context, name: str) -> Answer:
    parts = name.split("/")
    if not name or any(part in ("", ".", "..") or part.startswith(".") for part in parts):
        raise HttpError("not-found", f"no such file: {name}")
    target = context.static
    for part in parts:
        target = None if target is None else target / part
    try:
        if target is None or not target.is_file():
            raise FileNotFoundError(name)
        data = target.read_bytes()
    except OSError:
        if name == "index.html":
            return Answer(200, "text/html; charset=utf-8", FALLBACK_PAGE)
        raise HttpError("not-found", f"no such file: {name}") from None
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if content_type.startswith("text/") or content_type.endswith("javascript"):
        content_type += "; charset=utf-8"
    return Answer(200, content_type, data, STATIC_HEADERS)


# -- POST ----------------------------------------------------------------------------------------


def line(request: Request) -> Answer:
    item = one_line(request.body)
    if isinstance(item, BadEncoding):
        raise HttpError("bad-encoding", f"the line is not valid UTF-8 at byte {item.offset}")
    if isinstance(item, NotOneLine):
        raise HttpError("one-line", "send one protocol line per request")
    context = request.context
    if isinstance(item, Line) and opens_pairing(item.text) and not request.own:
        raise HttpError("box-only", "pairing opens at the box: Menu, Table page, Pair a phone")
    if isinstance(item, Line) and not request.own:
        item = PhoneLine(item.text)  # sees the mirror, cannot open pairing (issue #38, 7)
    if context.lines is None:
        return json_answer({"reply": context.channel.line(item)})
    key = check_key(request.idempotency_key)
    holder = "box" if request.holder is None else f"token:{request.holder}"
    outcome = context.lines.run(context.channel, holder, key, item,
                                durable=request.idempotency_key is not None)
    if isinstance(outcome, Pending):
        return json_answer({"pending": True, "id": outcome.key}, 202)
    return json_answer({"reply": outcome.reply})


def pair_start(request: Request) -> Answer:
    shown = request.context.channel.show_pair_code(request.client, new_code())
    if shown == "closed":
        raise PairingRefused("pairing-closed", CLOSED_MESSAGE)
    if shown == "spent":
        raise PairingRefused("codes-spent", SPENT_MESSAGE)
    return json_answer({"pending": True})


PAIR_BODY: Final = 'send {"code": "NNNNNN"} (typed) or {"secret": "..."} (the QR code\'s)'


def pair(request: Request) -> Answer:
    try:
        body = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise HttpError("bad-json", PAIR_BODY) from None
    given = [key for key in ("code", "secret") if isinstance(body, dict) and key in body]
    if len(given) != 1:  # one of the two (other keys are ignored, as they always were)
        raise HttpError("bad-json", PAIR_BODY)
    name = given[0]
    value = body[name]
    if not isinstance(value, str) or len(value) > 64:
        raise HttpError("bad-json", PAIR_BODY)
    context = request.context
    if name == "secret":
        outcome = context.channel.enter_pair_secret(request.client, value.strip())
    else:
        outcome = context.channel.enter_pair_code(request.client,
                                                  value.strip().replace(" ", ""))
    token = context.pairing.settle(outcome)
    cookie = f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={COOKIE_MAX_AGE}"
    return json_answer({"paired": True}, headers=(("Set-Cookie", cookie),))


INLINE: Final = frozenset({page, static, whoami, state, screen, tunes, games, events})
"""Handlers that wait for nothing once the box has drawn its first frame (a small file read,
the latest snapshot): the server runs them on its event loop, without a worker thread's hop
(two GIL hand-overs a request; issue #38). Every other handler waits for the box's loop, the
journal or a picture, and runs on a worker."""

ROUTES: Final[tuple[Route, ...]] = (
    Route("GET", "/", "open", page),
    Route("GET", "/index.html", "open", page),
    Route("GET", "/" + PAIR_PATH, "open", page, prefix=True),  # the QR code's pairing link
    Route("GET", "/static/", "open", static, prefix=True),
    Route("GET", "/api/whoami", "open", whoami),
    Route("GET", "/api/state", "mirror", state),
    Route("GET", "/api/screen", "mirror", screen),
    Route("GET", "/api/frame.png", "mirror", frame),
    Route("GET", "/api/events", "mirror", events),
    Route("GET", "/api/tunes", "trusted", tunes),
    Route("GET", "/api/games", "mirror", games),
    Route("GET", "/api/history", "trusted", history, prefix=True),
    Route("GET", "/api/picture/", "mirror", picture, prefix=True),
    Route("POST", "/api/line", "trusted", line),
    Route("POST", "/api/pair/start", "open", pair_start),
    Route("POST", "/api/pair", "open", pair),
)
"""Every route of the table page; see docs/web.md."""
