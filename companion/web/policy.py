"""Who may do what on the table page: one pure function of plain request facts.

:func:`decide` takes the :class:`Facts` the HTTP handler gathered (method, path, whether the
client is on loopback and paired, its ``Host`` and ``Origin``, its body's framing), the box's
:class:`Rules` and the route table (:class:`Route` rows: method, path, the trust it needs, the
handler), and answers :class:`Allowed` (the route to run, the body length to read) or a
:class:`Refusal` (an error code, a message, whether the connection must close). It reads no
socket, clock or file, so every rule is tested by calling it with plain values
(tests/web/test_policy.py). docs/web.md is the interface; the rules, in the order applied:

1. **DNS rebinding**, on every route and for every client (issue #19): a request whose
   ``Host`` names something other than this machine (``localhost``, its host name,
   ``<hostname>.local`` and the home-router suffixes of :data:`LAN_SUFFIXES`) or an IP literal
   is refused (``foreign-host``): a rebinding page can neither borrow the loopback trust nor
   start or guess pairings from a LAN phone's browser. A request without ``Host`` (HTTP/1.0)
   has no name to rebind.
2. **Methods.** Only GET, HEAD and POST are used (``method-not-allowed`` otherwise).
3. **CSRF.** A POST whose ``Origin`` is not the server's own scheme-less host:port is refused
   (``foreign-origin``), and so is one whose ``Sec-Fetch-Site`` is sent and is not
   ``same-origin`` or ``none`` (``cross-site``). A POST without ``Origin`` (``Referer`` does
   not count) is refused (``no-origin``) unless it carries a valid token, or comes from the
   box's own loopback while loopback is trusted (a tool on the box such as ``curl``; every
   browser sends ``Origin`` with a POST, and rule 1 keeps rebinding pages off loopback).
4. **Trust.** A loopback client is trusted unless ``pair_loopback``; any other client must
   be paired (the ``companion_token`` cookie). A route needs ``open`` (anyone), ``mirror``
   (anyone with ``public_mirror``, else trusted) or ``trusted``. A path with no route needs
   trust too, so an unpaired client learns nothing of which paths exist (``unpaired``).
5. **Bodies** (POST): a ``Content-Length`` is required (``length-required`` for
   ``Transfer-Encoding``), one header of ASCII digits only (``bad-length``: ``+5``, ``5, 5``
   and two headers are refused), at most :data:`MAX_BODY_BYTES` (``too-large``; a body up to
   :data:`DISCARD_LIMIT_BYTES` is read and thrown away first, a longer one is drained after
   the answer, so the client sees the answer rather than a reset connection).
6. A refused POST leaves its body unread, so its connection closes (kept alive, the bytes would
   be read as the next request). Nothing changes on a refused request: the handler runs only
   for :class:`Allowed`.

Before any of that, bounded before trusted (issues #19, #28): companion/web/admission.py
decides whether a new connection gets a thread at all and which event streams may flow. The
handler reads at most :data:`HEAD_BYTES` of request line and headers within
:data:`HEAD_SECONDS` in all, and a body within :data:`BODY_SECONDS` in all. With
``pair_loopback`` every loopback address but the box's own is a client like a phone
(127.0.0.2 stands in for one).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from typing import Final, Literal
from urllib.parse import urlsplit

MAX_BODY_BYTES: Final = 64 * 1024
DISCARD_LIMIT_BYTES: Final = 4 * MAX_BODY_BYTES
COOKIE: Final = "companion_token"
HEAD_BYTES: Final = 16 * 1024
"""A request line and all its headers together, at most (nginx's default allows 1 KiB, then
four 8 KiB buffers; the page's own requests send under 1 KiB)."""
HEAD_SECONDS: Final = 10.0
"""The whole request line and headers must arrive within this (not per read: nginx's
``client_header_timeout``), else 408."""
BODY_SECONDS: Final = 10.0
"""A body must arrive whole within this, else 408 (``client_body_timeout``, but whole)."""
OWN_LOOPBACK: Final = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
"""The box's own loopback addresses: the connection reserve is theirs."""
LAN_SUFFIXES: Final = (".local", ".lan", ".home", ".home.arpa", ".internal", ".localdomain")
"""Names a home router gives the box (``<hostname><suffix>``) that a request may use."""
FETCH_SITES_ALLOWED: Final = frozenset({"same-origin", "none"})
_DIGITS: Final = re.compile(r"[0-9]{1,15}")


Need = Literal["open", "mirror", "trusted"]
"""What a route asks of its client (rule 4)."""


@dataclass(frozen=True)
class WebSettings:
    """The ``[web]`` config section, checked."""

    host: str = "127.0.0.1"
    port: int = 8080
    pair_loopback: bool = False
    public_mirror: bool = False


@dataclass(frozen=True)
class Rules:
    """The box's side of the policy: its settings and the names it answers to."""

    pair_loopback: bool = False
    public_mirror: bool = False
    own_names: frozenset[str] = frozenset({"localhost"})


@dataclass(frozen=True)
class Route:
    """One row of the route table. ``path`` ending in ``/`` (or ``prefix``) matches every path
    under it; ``handler`` is what the server runs for it (the policy never calls it)."""

    method: Literal["GET", "POST"]
    path: str
    need: Need
    handler: object
    prefix: bool = False

    def matches(self, method: str, path: str) -> bool:
        wanted = "GET" if method == "HEAD" else method
        if wanted != self.method:
            return False
        return path.startswith(self.path) if self.prefix else path == self.path


@dataclass(frozen=True)
class Facts:
    """What the handler saw of one request, as plain values."""

    method: str
    path: str
    loopback: bool = True
    paired: bool = False
    host: str = ""
    origin: str | None = None
    content_length: str | None = None
    chunked: bool = False
    sec_fetch_site: str | None = None


@dataclass(frozen=True)
class Allowed:
    """Run ``route``; read ``body_bytes`` of body first. ``trusted`` for routes that say it."""

    route: Route
    trusted: bool
    body_bytes: int = 0


@dataclass(frozen=True)
class Refusal:
    """Answer the error ``code`` with ``message``, after reading and throwing away ``discard``
    bytes of body; close the connection after it if ``close``."""

    code: str
    message: str
    close: bool = False
    discard: int = 0


UNPAIRED_MESSAGE: Final = ("pair this phone first: someone at the box opens pairing (Menu, "
                           "Table page, Pair a phone), then ask for the code (the page's "
                           "\"Show a code on the box\") and type the digits it shows")


def decide(facts: Facts, rules: Rules, routes: Sequence[Route]) -> Allowed | Refusal:
    """The policy (see the module docstring): what to do with one request."""
    if facts.host and not names_this_box(facts.host, rules.own_names):
        name = host_name(facts.host)
        return Refusal("foreign-host", f"this box does not answer to "
                                       f"{facts.host if name is None else name!r}")
    if facts.method not in ("GET", "HEAD", "POST"):
        return Refusal("method-not-allowed", f"{facts.method} is not used here")
    trusted = is_trusted(facts, rules)
    route = next((row for row in routes if row.matches(facts.method, facts.path)), None)
    need: Need = "trusted" if route is None else route.need
    if facts.method != "POST":
        if not trusted and not (need == "open" or (need == "mirror" and rules.public_mirror)):
            return Refusal("unpaired", UNPAIRED_MESSAGE)
        if route is None:
            return Refusal("not-found", f"no such page: {facts.path}")
        return Allowed(route, trusted)
    if facts.origin is not None and not same_origin(facts.origin, facts.host):
        return Refusal("foreign-origin", f"a request from {facts.origin!r} may not change "
                                         "this box", close=True)
    site = (facts.sec_fetch_site or "").strip().lower()
    if site and site not in FETCH_SITES_ALLOWED:
        return Refusal("foreign-origin", f"a {site} request may not change this box",
                       close=True)
    own_loopback = facts.loopback and not rules.pair_loopback
    if facts.origin is None and not (facts.paired or own_loopback):
        return Refusal("no-origin", "a request that changes this box must say its Origin",
                       close=True)
    if not trusted and need != "open":
        return Refusal("unpaired", UNPAIRED_MESSAGE, close=True)
    length = body_length(facts)
    if isinstance(length, Refusal):
        return length
    if route is None:  # its body is read and dropped: the connection stays usable
        return Refusal("not-found", f"nothing to post to at {facts.path}", discard=length)
    return Allowed(route, trusted, length)


def is_own_loopback(loopback: bool, rules: Rules) -> bool:
    """Whether a loopback client is the box itself (its own page, its tools): loopback
    without ``pair_loopback``. Only it may open pairing over the web (issue #28)."""
    return loopback and not rules.pair_loopback


def is_trusted(facts: Facts, rules: Rules) -> bool:
    """Loopback without ``pair_loopback``, or paired."""
    return (facts.loopback and not rules.pair_loopback) or facts.paired


def body_length(facts: Facts) -> int | Refusal:
    """The body's length from its ``Content-Length`` (rule 5)."""
    if facts.chunked:
        return Refusal("length-required", "send the body with a Content-Length", close=True)
    raw = "0" if facts.content_length is None else facts.content_length
    if not _DIGITS.fullmatch(raw):
        return Refusal("bad-length", f"Content-Length {raw[:40]!r} is not one number of "
                                     "digits", close=True)
    length = int(raw)
    if length > MAX_BODY_BYTES:
        return Refusal("too-large", f"bodies are at most {MAX_BODY_BYTES} bytes", close=True,
                       discard=length if length <= DISCARD_LIMIT_BYTES else 0)
    return length


def host_name(host: str) -> str | None:
    """The name in a ``Host`` header (``""`` for none), or None when it does not parse."""
    try:
        return urlsplit(f"//{host}").hostname or ""
    except ValueError:
        return None


def names_this_box(host: str, own_names: frozenset[str]) -> bool:
    """Whether a ``Host`` header names this machine: an IP literal or one of its names (a
    header that does not parse names nothing)."""
    name = host_name(host)
    if name is None:
        return False
    name = name.lower().rstrip(".")
    if is_ip(name) or name in own_names:
        return True
    first, _, suffix = name.partition(".")
    return f".{suffix}" in LAN_SUFFIXES and any(own.partition(".")[0] == first
                                                for own in own_names if own != "localhost")


def same_origin(origin: str, host: str) -> bool:
    """Whether ``Origin`` names the request's own ``Host``: the same host and port (an
    absent port is 80, or 443 for https; the scheme is not compared)."""
    try:
        parts, own = urlsplit(origin), urlsplit(f"//{host}")
    except ValueError:  # a bracket that does not close: no origin to compare
        return False
    try:
        origin_port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        origin_port = -1
    try:
        own_port = own.port or 80
    except ValueError:
        own_port = -2
    return (parts.hostname or "") == (own.hostname or "~") and origin_port == own_port


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def client_key(address: str) -> str:
    """Who a peer address is, for every per-client limit (places, pairing codes, lockouts):
    the address itself (an IPv4-mapped one as IPv4, a link-local one without its scope), but
    for any other IPv6 address its /64, which one household or one attacker holds whole.
    Link-local addresses each count as themselves (issue #38, 5): the interface's whole /64
    is every phone on the Wi-Fi, so one guest's wrong codes locked the table's phone out;
    a guest that takes many of them is bounded by the rooms' sizes instead."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        return str(mapped)
    if isinstance(ip, ipaddress.IPv6Address) and ip.is_link_local:
        return str(ipaddress.IPv6Address(int(ip)))  # without its %scope
    if ip.version == 6 and not ip.is_loopback:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def is_loopback(address: str) -> bool:
    """Whether a peer address is loopback (an IPv4-mapped IPv6 loopback counts)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool((mapped or ip).is_loopback)


def cookie_token(header: str | None) -> str | None:
    """The pairing token in a ``Cookie`` header, if any (a malformed header has none)."""
    if not header:
        return None
    cookie: SimpleCookie = SimpleCookie()
    try:
        cookie.load(header)
    except CookieError:
        return None
    morsel = cookie.get(COOKIE)
    return None if morsel is None else morsel.value
