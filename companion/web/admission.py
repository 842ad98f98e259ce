"""Who gets a place on the table page, and which may stream: pure functions of what the
server holds (issues #19, #28, #38).

The server (companion/web/server.py) is an event loop: an open connection costs bytes, not a
thread, so the places below are counts of sockets, not of threads. It keeps a :class:`Held`
row per open connection and asks :func:`admit_newcomer` at each accept, :func:`admit_request`
when a request head has come (then it knows who asks: a token, the box's own loopback, or
nobody yet), and :func:`admit_stream` when a request asks for the event stream. They read no
socket, clock or file, so every rule is tested with plain values (tests/web/test_policy.py).
The rules (docs/web.md, "Admission: three rooms"):

- **Three rooms that never lend each other a place.** Newcomers (no head yet), unpaired
  requests (a guest, or a phone before it pairs), and trusted ones (a valid token, or the
  box's own loopback). A guest can fill the first two, never the third; what the pairing
  window lets through (the page, static files, pairing) is in the unpaired room like
  anything else.
- **Every client has a cap of its own in each room**: a guest address (or IPv6 /64) per
  client, a paired token per token. One token holding every trusted place is refused past
  its own cap, as a guest is. The box's own loopback (:data:`OWN`) is capped only by the
  trusted room.
- **A place for a place, only when the shares come closer.** With a room full, a newcomer
  takes the place of the oldest idle (else slow-writing, else streaming) connection of the
  client holding the most, when that client holds at least two more than the newcomer's
  own; otherwise it is refused (503, a second later). So guests that reconnect at once
  settle instead of churning, and the table's phone, holding few, always finds a place.
- A connection running a handler (``busy``) is never closed for room; a trusted one is
  closed only for its own holder's or for a holder's holding two more.
- Event streams have their caps inside the rooms: unpaired in all and per client, trusted
  per holder. No live stream closes for another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

REFUSAL_DELAY_SECONDS: Final = 1.0
"""A request (or connection) there is no room for is answered 503 after this (its
``Retry-After``), not at once, streams like the rest: a guest that reconnects the moment it
is refused would otherwise spin the acceptor ahead of a phone (issues #28, #38)."""
FIRST_HEAD_SECONDS: Final = 3.0
"""A newcomer must send its whole first head within this: a phone's browser sends it at
once, a guest that sends nothing holds a newcomer's place no longer."""


@dataclass(frozen=True)
class ConnectionLimits:
    """The rooms' sizes (docs/web.md has the reasons). ``total`` is their sum, the most
    sockets the server holds, well under the process's file limit."""

    newcomers: int = 64
    newcomers_per_client: int = 8
    unpaired: int = 96
    per_client: int = 8
    trusted: int = 96
    per_holder: int = 12
    unpaired_streams: int = 16
    streams_per_client: int = 2
    streams_per_holder: int = 4
    idle_grace: float = 2.0
    """With a room full and no fair swap, a connection idle this long (kept alive between
    requests) gives its place to a newcomer whose client holds fewer: reopening costs its
    client nothing, and guests holding one idle place each cannot shut out a new phone."""

    @property
    def total(self) -> int:
        return self.newcomers + self.unpaired + self.trusted


Kind = Literal["new", "waiting", "busy", "writing", "stream"]
"""What an open connection is doing: ``new`` (accepted, no head yet), ``waiting`` (kept alive
between requests, or its head is coming), ``busy`` (a handler runs for it), ``writing`` (its
answer is being written) or ``stream`` (an event stream)."""

OWN: Final = "loopback:"
"""The holder prefix of the box's own loopback (its page, its tools): trusted, and capped only
by the trusted room, since whatever runs on the box may stop the service anyway."""

CLOSABLE: Final[tuple[Kind, ...]] = ("new", "waiting", "writing", "stream")
"""What may close for room, first to last (never ``busy``)."""


@dataclass(frozen=True)
class Held:
    """One open connection as admission sees it: its client (``client_key`` of its address),
    its ``holder`` while trusted (``token:<hash>``, or ``loopback:<address>`` for the box's
    own), else None, what it is doing and since when (for "oldest first")."""

    number: int
    client: str
    holder: str | None
    kind: Kind
    since: float

    @property
    def trusted(self) -> bool:
        return self.holder is not None

    @property
    def owner(self) -> str:
        """Whom its place is counted for: its holder, else its client."""
        return self.holder if self.holder is not None else self.client


@dataclass(frozen=True)
class Admit:
    """Serve it, after closing the connections numbered ``close`` to make room."""

    close: tuple[int, ...] = ()


def admit_newcomer(client: str, held: Sequence[Held], limits: ConnectionLimits,
                   own: bool = False) -> Admit | None:
    """Whether a new connection from ``client`` may wait for its first head while ``held``
    are open (None: 503 a second later). The newcomers' room: ``newcomers_per_client`` from
    one client (the box's ``own`` loopback: the room's size), ``newcomers`` in all, a place
    for a place past that."""
    room = [one for one in held if one.kind == "new"]
    cap = limits.newcomers if own else limits.newcomers_per_client
    return _place(client, room, cap, limits.newcomers)


def admit_request(number: int, client: str, holder: str | None, held: Sequence[Held],  # noqa: PLR0917
                  limits: ConnectionLimits, now: float = 0.0) -> Admit | None:
    """Whether connection ``number`` (from ``client``) may be served the request whose head
    just came, trusted as ``holder`` (None: unpaired), and what closes first (None: 503 a
    second later, and it closes). It moves into the room of what it asks as: unpaired,
    ``per_client`` each and ``unpaired`` in all; trusted, ``per_holder`` each and
    ``trusted`` in all. A trusted holder at its own cap gives up its own oldest idle
    connection; nothing of another room ever closes for it. At ``now``, a connection idle
    past ``idle_grace`` of a client holding more gives way when no fair swap is left."""
    others = [one for one in held if one.number != number]
    if holder is None:
        room = [one for one in others if one.kind != "new" and not one.trusted]
        if sum(1 for one in room if one.client == client) >= limits.per_client:
            return None  # its own share is full: nothing else is closed for it
        return (_place(client, room, limits.per_client, limits.unpaired)
                or _idle_place(client, room, limits, now))
    room = [one for one in others if one.kind != "new" and one.trusted]
    mine = [one for one in room if one.holder == holder]
    closing: list[Held] = []
    if len(mine) >= limits.per_holder and not holder.startswith(OWN):
        own_idle = _oldest(mine, ("waiting",))
        if own_idle is None:
            return None
        closing.append(own_idle)
    if len(room) - len(closing) >= limits.trusted:
        found = (_place(holder, room, limits.per_holder, limits.trusted, kinds=("waiting",))
                 or _idle_place(holder, room, limits, now))
        if found is None:
            return None
        return Admit((*found.close, *(one.number for one in closing)))
    return Admit(tuple(one.number for one in closing))


def admit_stream(number: int, held: Sequence[Held], limits: ConnectionLimits) -> Admit | None:
    """Whether connection ``number`` (one of ``held``, its request just read) may become an
    event stream: an unpaired client's at most ``streams_per_client`` and
    ``unpaired_streams`` in all, a trusted holder's at most ``streams_per_holder`` (None: 503
    a second later). No live stream closes for another: a reloaded page's old stream, which
    its browser closed, is let go by the server before it asks (closing a live one for its
    own client's newcomer let a guest that reopens every closed stream spin the box)."""
    asking = next(one for one in held if one.number == number)
    streams = [one for one in held if one.kind == "stream" and one.number != number
               and one.trusted == asking.trusted]
    mine = [one for one in streams if one.owner == asking.owner]
    if asking.trusted:
        own = asking.owner.startswith(OWN)
        return Admit() if own or len(mine) < limits.streams_per_holder else None
    if len(mine) >= limits.streams_per_client or len(streams) >= limits.unpaired_streams:
        return None
    return Admit()


def _place(owner: str, room: Sequence[Held], per_owner: int, size: int,
           kinds: tuple[Kind, ...] = CLOSABLE) -> Admit | None:
    """A place in ``room`` for one more of ``owner``'s: within its own cap and the room's,
    else the oldest closable one of the biggest holder's when that holder holds at least two
    more than ``owner`` (each such swap brings the shares strictly closer), else None."""
    mine = sum(1 for one in room if one.owner == owner)
    if mine >= per_owner:
        return None
    if len(room) < size:
        return Admit()
    counts: dict[str, int] = {}
    for one in room:
        if one.kind in kinds:
            counts[one.owner] = counts.get(one.owner, 0) + 1
    if not counts:
        return None
    biggest = max(counts, key=lambda name: (sum(1 for one in room if one.owner == name),
                                            counts[name]))
    if sum(1 for one in room if one.owner == biggest) < mine + 2:
        return None
    victim = _oldest([one for one in room if one.owner == biggest], kinds)
    return None if victim is None else Admit((victim.number,))


def _idle_place(owner: str, room: Sequence[Held], limits: ConnectionLimits,
                now: float) -> Admit | None:
    """The place of the oldest connection idle past ``idle_grace`` whose owner holds more
    than ``owner`` (each such connection gives way at most once a grace), else None."""
    counts: dict[str, int] = {}
    for one in room:
        counts[one.owner] = counts.get(one.owner, 0) + 1
    mine = counts.get(owner, 0)
    idle = [one for one in room if one.kind == "waiting" and one.owner != owner
            and now - one.since >= limits.idle_grace and counts[one.owner] > mine]
    if not idle:
        return None
    return Admit((min(idle, key=lambda one: one.since).number,))


def _oldest(candidates: Sequence[Held], kinds: tuple[Kind, ...]) -> Held | None:
    """The connection to close first: the oldest of the first kind in ``kinds`` found."""
    for kind in kinds:
        found = [one for one in candidates if one.kind == kind]
        if found:
            return min(found, key=lambda one: one.since)
    return None
