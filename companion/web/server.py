"""The table page's HTTP server: routes and the rules that keep a LAN's open door closed.

Built on the standard library's ``ThreadingHTTPServer`` (measured: aiohttp alone adds 27 MB
of memory to a ~34 MB process; the standard library adds about 1 MB and no dependency).
docs/web.md is the interface; companion/web/service.py runs it. What it promises:

- **It never touches the controller**: everything goes through the
  :class:`~companion.web.channel.WebChannel`, so a slow or hostile client cannot stall the box.
- **Trust.** A loopback client is trusted unless ``pair_loopback``; any other client needs the
  ``companion_token`` cookie that pairing gives. Without it: every POST but ``/api/pair/start``
  and ``/api/pair`` is refused (403 ``unpaired``), and so is every GET but ``/``,
  ``/static/*`` and ``/api/whoami``; with ``public_mirror`` the read-only mirror
  (``/api/state``, ``/api/screen``, ``/api/frame.png``, ``/api/events``) is open to all.
- **CSRF and DNS rebinding.** A POST whose ``Origin`` is not the server's own host:port is
  refused (403 ``foreign-origin``). A loopback request whose ``Host`` is a name other than
  this machine's (``localhost``, its hostname, ``<hostname>.local``) or an IP literal is
  refused (403 ``foreign-host``): a rebinding page cannot borrow the loopback trust.
- **Bounds.** At most :data:`MAX_CONNECTIONS` connections at once (past that: 503 and close);
  request bodies at most :data:`MAX_BODY_BYTES` (413, unread); every socket read and write
  times out after :data:`SOCKET_TIMEOUT_SECONDS`; headers are bounded by ``http.client``'s
  limits (100 headers of 64 KiB).
- **Errors are JSON** ``{"error": code, "message": text}``, never a traceback; the server
  names itself ``companion`` without Python's version; nothing is listed.
- Nothing changes on a refused request.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import mimetypes
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from companion.protocol.commands import gets_reply
from companion.web.channel import Busy, WebChannel, screen_body
from companion.web.pairing import CODE_SECONDS, Pairing, PairingRefused

if TYPE_CHECKING:  # the service builds the server around this handler
    from companion.web.service import WebServer

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 48
MAX_BODY_BYTES = 64 * 1024
DISCARD_LIMIT_BYTES = 4 * MAX_BODY_BYTES
SOCKET_TIMEOUT_SECONDS = 20.0
KEEPALIVE_SECONDS = 15.0
COOKIE = "companion_token"
COOKIE_MAX_AGE = 400 * 24 * 3600  # browsers cap cookies at 400 days
MIRROR_PATHS = frozenset({"/api/state", "/api/screen", "/api/frame.png", "/api/events"})
OPEN_PATHS = frozenset({"/", "/index.html", "/api/whoami"})
OPEN_POSTS = frozenset({"/api/pair/start", "/api/pair"})

FALLBACK_PAGE = b"""<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>companion</title>
<p>The table page is not installed; the API is at <a href="/api/state">/api/state</a>.</p>
"""


@dataclass
class WebSettings:
    """The ``[web]`` config section, checked."""

    host: str = "127.0.0.1"
    port: int = 8080
    pair_loopback: bool = False
    public_mirror: bool = False


class HttpError(Exception):
    """An answer of ``status`` with a JSON error body."""

    def __init__(self, status: int, code: str, message: str,
                 extra: dict[str, Any] | None = None, close: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra or {}
        self.close = close


Route = Callable[["Handler", str], bool]
"""An extra GET route (the history API): answers and returns True, or returns False."""


@dataclass
class Context:
    """What every request handler shares."""

    channel: WebChannel
    pairing: Pairing
    settings: WebSettings
    state_dir: Path | None = None
    static: Any = None
    routes: list[Route] = field(default_factory=list)
    own_names: frozenset[str] = frozenset()
    on_pair_start: Callable[[str, float], None] | None = None
    on_pair_end: Callable[[], None] | None = None


def own_names(host: str) -> frozenset[str]:
    """The host names a request may use for this machine (besides IP literals)."""
    names = {"localhost", host.lower()}
    with contextlib.suppress(OSError):
        hostname = socket.gethostname().lower()
        names |= {hostname, f"{hostname}.local", hostname.split(".")[0] + ".local"}
    return frozenset(names)


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def is_loopback(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool((mapped or ip).is_loopback)


class Handler(BaseHTTPRequestHandler):
    """One connection's requests; see the module docstring."""

    server: WebServer
    server_version = "companion"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = SOCKET_TIMEOUT_SECONDS

    # -- plumbing ----------------------------------------------------------------------------

    def version_string(self) -> str:
        return self.server_version

    @property
    def context(self) -> Context:
        return self.server.context

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.client_address[0], format % args)

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The base class's errors (bad request line, headers too long...) as JSON."""
        if self.request_version == "HTTP/0.9":
            # A request line that did not parse: answer with a status line and headers all
            # the same, so the client sees a JSON error rather than bare text.
            self.request_version = "HTTP/1.0"
        with contextlib.suppress(OSError):
            status = HTTPStatus(code)
            self.close_connection = True
            self.send_json(code, {"error": status.phrase.lower().replace(" ", "-"),
                                  "message": message or status.description}, close=True)

    def send_json(self, status: int, body: dict[str, Any], *, close: bool = False,
                  headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_bytes(status, "application/json", data, close=close, headers=headers)

    def send_bytes(self, status: int, content_type: str, data: bytes, *, close: bool = False,
                   headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_GET(self) -> None:
        self.dispatch(self.get)

    def do_HEAD(self) -> None:
        self.dispatch(self.get)

    def do_POST(self) -> None:
        self.dispatch(self.post)

    def do_PUT(self) -> None:
        self.dispatch(self.not_allowed)

    do_DELETE = do_PATCH = do_OPTIONS = do_PUT

    def dispatch(self, method: Callable[[str], None]) -> None:
        path = urlsplit(self.path).path
        try:
            self.check_host()
            method(path)
        except HttpError as error:
            body = {"error": error.code, "message": error.message, **error.extra}
            headers = ({"Retry-After": str(error.extra["retry_after"])}
                       if "retry_after" in error.extra else None)
            self.send_json(error.status, body, close=error.close, headers=headers)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True
        except Exception:
            log.exception("web request %s %s failed", self.command, path)
            with contextlib.suppress(OSError):
                self.send_json(500, {"error": "internal", "message": "the request failed; "
                                     "see the box's log"}, close=True)

    def not_allowed(self, path: str) -> None:
        raise HttpError(405, "method-not-allowed", f"{self.command} is not used here")

    # -- who is asking -----------------------------------------------------------------------

    @property
    def loopback(self) -> bool:
        return is_loopback(self.client_address[0])

    def token(self) -> str | None:
        raw = self.headers.get("Cookie")
        if not raw:
            return None
        cookie: SimpleCookie = SimpleCookie()
        try:
            cookie.load(raw)
        except CookieError:
            return None
        morsel = cookie.get(COOKIE)
        return None if morsel is None else morsel.value

    def paired(self) -> bool:
        return self.context.pairing.knows(self.token())

    def trusted(self) -> bool:
        if self.loopback and not self.context.settings.pair_loopback:
            return True
        return self.paired()

    def require_trust(self) -> None:
        if not self.trusted():
            raise HttpError(403, "unpaired", "pair this browser with the code the box shows "
                                             "(POST /api/pair/start, then /api/pair)")

    def host_header(self) -> str:
        return self.headers.get("Host", "")

    def check_host(self) -> None:
        """Refuse a loopback request made to a foreign name (DNS rebinding: a page of
        evil.example whose name now points at 127.0.0.1 would borrow the loopback trust).
        Other clients may use any name the LAN gives the box (``raspberrypi.lan``): their
        trust is the cookie, which a rebinding page's name does not carry."""
        host = self.host_header()
        if not self.loopback or not host:
            return  # HTTP/1.0 clients may leave it out; there is no name to rebind
        name = urlsplit(f"//{host}").hostname or ""
        if is_ip(name) or name.lower() in self.context.own_names:
            return
        raise HttpError(403, "foreign-host", f"this box does not answer to {name!r}")

    def check_origin(self) -> None:
        origin = self.headers.get("Origin")
        if origin is None:
            return  # not a browser's cross-site request (curl, the tests, the serial tools)
        parts = urlsplit(origin)
        try:
            origin_port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            origin_port = -1
        own = urlsplit(f"//{self.host_header()}")
        try:
            own_port = own.port or 80
        except ValueError:
            own_port = -2
        if (parts.hostname or "") != (own.hostname or "~") or origin_port != own_port:
            raise HttpError(403, "foreign-origin",
                            f"a request from {origin!r} may not change this box")

    def body(self) -> bytes:
        if self.headers.get("Transfer-Encoding"):
            raise HttpError(411, "length-required", "send the body with a Content-Length",
                            close=True)
        raw = self.headers.get("Content-Length", "0")
        try:
            length = int(raw)
        except ValueError:
            raise HttpError(400, "bad-length", f"Content-Length {raw!r} is not a number",
                            close=True) from None
        if length < 0:
            raise HttpError(400, "bad-length", "Content-Length is negative", close=True)
        if length > MAX_BODY_BYTES:
            # Not kept, and the connection closes. A body up to a few times the limit is read
            # and thrown away first: closing on unread bytes resets the connection, and the
            # client might never see the 413.
            if length <= DISCARD_LIMIT_BYTES:
                left = length
                while left > 0 and (chunk := self.rfile.read(min(left, 65536))):
                    left -= len(chunk)
            raise HttpError(413, "too-large", f"bodies are at most {MAX_BODY_BYTES} bytes",
                            close=True)
        return self.rfile.read(length)

    # -- GET ---------------------------------------------------------------------------------

    def get(self, path: str) -> None:
        if path in ("/", "/index.html"):
            self.static_file("index.html")
            return
        if path.startswith("/static/"):
            self.static_file(path[len("/static/"):])
            return
        if path == "/api/whoami":
            self.send_json(200, {"trusted": self.trusted(), "paired": self.paired(),
                                 "loopback": self.loopback})
            return
        if not (path in MIRROR_PATHS and self.context.settings.public_mirror):
            self.require_trust()
        if path == "/api/state":
            self.send_json(200, self.snapshot().state)
        elif path == "/api/screen":
            self.send_json(200, screen_body(self.snapshot()))
        elif path == "/api/frame.png":
            frame = self.context.channel.frame_png()
            if frame is None:
                raise HttpError(503, "not-ready", "the box has drawn nothing yet")
            self.send_bytes(200, "image/png", frame[1], headers={"X-Frame": str(frame[0])})
        elif path == "/api/events":
            self.events()
        elif path == "/api/tunes":
            from companion.core.tunes import TUNES

            self.send_json(200, {name: [[frequency, seconds] for frequency, seconds in notes]
                                 for name, notes in TUNES.items()})
        else:
            for route in self.context.routes:
                if route(self, path):
                    return
            raise HttpError(404, "not-found", f"no such page: {path}")

    def snapshot(self) -> Any:
        snapshot = self.context.channel.snapshot()
        if snapshot is None:
            raise HttpError(503, "not-ready", "the box is starting")
        return snapshot

    def static_file(self, name: str) -> None:
        static = self.context.static
        parts = name.split("/")
        if not name or any(part in ("", ".", "..") or part.startswith(".") for part in parts):
            raise HttpError(404, "not-found", f"no such file: {name}")
        target = static
        for part in parts:
            target = None if target is None else target / part
        try:
            if target is None or not target.is_file():
                raise FileNotFoundError(name)
            data = target.read_bytes()
        except OSError:
            if name == "index.html":
                self.send_bytes(200, "text/html; charset=utf-8", FALLBACK_PAGE)
                return
            raise HttpError(404, "not-found", f"no such file: {name}") from None
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if content_type.startswith("text/") or content_type.endswith("javascript"):
            content_type += "; charset=utf-8"
        self.send_bytes(200, content_type, data, headers={
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                       "frame-ancestors 'none'",
            "X-Frame-Options": "DENY"})

    def events(self) -> None:
        """The event stream: a full ``update`` first, then news as it comes."""
        if self.command == "HEAD":
            self.send_bytes(200, "text/event-stream", b"")
            return
        channel = self.context.channel
        subscriber = channel.subscribe()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(b"retry: 1000\n\n")
            self.wfile.flush()
            while not self.server.stopping.is_set():
                news = subscriber.take(KEEPALIVE_SECONDS)
                if news is None:
                    return
                self.wfile.write(b"".join(news) if news else b": keepalive\n\n")
                self.wfile.flush()
        except OSError:
            return  # the client went away (or stopped reading: the write timed out)
        finally:
            channel.unsubscribe(subscriber)

    # -- POST --------------------------------------------------------------------------------

    def post(self, path: str) -> None:
        try:
            self.check_origin()
            if path not in OPEN_POSTS:
                self.require_trust()
        except HttpError as refused:
            # The body stays unread, so the connection must close: kept alive, its bytes
            # would be read as the start of the browser's next request on it.
            refused.close = True
            raise
        data = self.body()
        if path == "/api/line":
            self.line(data)
        elif path == "/api/pair/start":
            pending = self.context.pairing.start()
            if self.context.on_pair_start is not None:
                self.context.on_pair_start(pending.code, CODE_SECONDS)
            self.send_json(200, {"pending": True})
        elif path == "/api/pair":
            self.pair(data)
        else:
            raise HttpError(404, "not-found", f"nothing to post to at {path}")

    def line(self, data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise HttpError(400, "bad-encoding",
                            f"the line is not valid UTF-8 at byte {error.start}") from None
        text = text.removesuffix("\n").removesuffix("\r")
        if "\n" in text or "\r" in text:
            raise HttpError(400, "one-line", "send one protocol line per request")
        if not gets_reply(text):
            # A blank line or a comment: the protocol answers nothing, so neither does the
            # loop; say so at once rather than wait for a reply that never comes.
            self.send_json(200, {"reply": None})
            return
        try:
            reply = self.context.channel.line(text)
        except Busy as error:
            raise HttpError(503, "busy", str(error)) from None
        self.send_json(200, {"reply": reply})

    def pair(self, data: bytes) -> None:
        try:
            body = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise HttpError(400, "bad-json", 'send {"code": "NNNNNN"}') from None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or len(code) > 16:
            raise HttpError(400, "bad-json", 'send {"code": "NNNNNN"}')
        try:
            token = self.context.pairing.pair(code.strip())
        except PairingRefused as refused:
            if refused.code == "locked":
                if self.context.on_pair_end is not None:
                    self.context.on_pair_end()
                raise HttpError(429, "locked", str(refused),
                                {"retry_after": refused.retry_after}) from None
            raise HttpError(403, "bad-code", str(refused)) from None
        if self.context.on_pair_end is not None:
            self.context.on_pair_end()
        cookie = (f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; "
                  f"Max-Age={COOKIE_MAX_AGE}")
        self.send_json(200, {"paired": True}, headers={"Set-Cookie": cookie})
