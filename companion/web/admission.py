"""Who gets a connection on the table page, and which may stream: pure functions of what the
server holds (issues #19, #28).

The server (companion/web/server.py) keeps a :class:`Held` row per open connection and asks
:func:`admit_connection` at each accept and :func:`admit_stream` when a request asks for the
event stream; both read no socket, clock or file, so every rule is tested with plain values
(tests/web/test_policy.py). The rules (docs/web.md, "Admission knows who asks"):

- A connection with a valid token (known at accept when its head came with the handshake:
  :func:`peeked_token`), or from the box's own loopback, is never closed for room and never
  counted in the unpaired share.
- Unpaired connections share a bounded part of the slots, per client and in all. Past the
  share, a newcomer takes the place of the oldest waiting unpaired connection of the client
  holding the most only when that client holds two more than the newcomer's (so guests that
  reconnect at once settle), else it waits on probation: its first request must show a token
  (or pairing, while the box has pairing open), else 503.
- Unpaired event streams have their own cap; no live stream closes for another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from companion.web.policy import cookie_token

PROBATION_HEAD_SECONDS: Final = 2.0
"""A connection on probation (:class:`Admit`) must send its whole first head within this:
a phone's browser sends it at once, a slow guest's holds a probation place no longer."""
REFUSAL_DELAY_SECONDS: Final = 1.0
"""A connection there is no room for is answered 503 after this (its ``Retry-After``), not at
once: a guest that reconnects the moment it is refused would otherwise fill the listen
backlog, and a paired phone's new connection would wait behind it (issue #28)."""


@dataclass(frozen=True)
class ConnectionLimits:
    """How many connections the server holds (issue #28): in all (each is a thread), and of
    those not known to be trusted (no valid token yet, not the box's own loopback) in all,
    from one client, and as event streams; and how many newcomers wait on probation (admitted
    past the unpaired share, to show a token in their first request or be refused), in all
    and from one client."""

    total: int = 48
    unpaired: int = 24
    per_client: int = 8
    unpaired_streams: int = 8
    streams_per_client: int = 2
    probation: int = 8
    probation_per_client: int = 1


Kind = Literal["waiting", "busy", "stream"]
"""What an open connection is doing: waiting for a request head (a new connection, an idle
kept-alive one, or a slow one: all may be closed to make room), running a handler (never
closed), or streaming events."""


@dataclass(frozen=True)
class Held:
    """One open connection as admission sees it: its client (``client_key``), whether it is
    trusted (it carried a valid token, or is the box's own loopback), what it is doing and
    since when (for "oldest first"), and whether it is on probation (never closed for room:
    its first request settles it within a few seconds)."""

    number: int
    client: str
    trusted: bool
    kind: Kind
    since: float
    probation: bool = False


@dataclass(frozen=True)
class Admit:
    """Serve it, after closing the connections numbered ``close`` to make room; on
    ``probation``: its first request must carry a valid token (or, while pairing is open, be
    the page or the pairing calls), else it is answered 503 and closed."""

    close: tuple[int, ...] = ()
    probation: bool = False


def admit_connection(client: str, trusted: bool, held: Sequence[Held],
                     limits: ConnectionLimits) -> Admit | None:
    """Whether a new connection from ``client`` is served while ``held`` are open, and which
    to close first; None: answer 503 (nothing may go). ``trusted``: known trusted already
    (the box's own loopback, or a valid token in the head it sent at once:
    :func:`peeked_token`).

    Another new connection counts as unpaired until its head is read (the handler marks it
    trusted if it carries a valid token). Unpaired connections get at most
    ``per_client`` from one client (past it: 503) and ``unpaired`` in all. Past that share, a
    newcomer takes the place of the oldest waiting (idle or slow) unpaired connection, else
    a stream, of the client holding the most, when that client holds at least two more than
    the newcomer's: each such swap brings the shares closer, so guests that reconnect the
    moment they are closed settle instead of closing each other's connections forever (the
    churn that kept a phone's new connection waiting behind theirs at accept: issue #28).
    Otherwise the newcomer waits on probation, outside the unpaired share, if there is room
    (``probation`` in all, ``probation_per_client`` from one client): its first request
    settles it (a paired phone's token, or the page and pairing while the box has pairing
    open) or is answered 503; a client whose place there is taken gets 503 (so a guest cannot
    turn it into a swap). With all of probation taken by other clients (at least 8 more
    than the share's), it takes the biggest holder's oldest waiting place all the same:
    guests that many may then take turns, but a newcomer that may be a paired phone is not
    refused for want of a slot (CONTRACT.md section 6). Past the total, the oldest waiting
    unpaired connection, else stream, closes for it. A trusted connection, or one on
    probation, is never closed for room."""
    unpaired = [one for one in held if not one.trusted and not one.probation]
    closing: list[Held] = []
    probation = False
    if not trusted:
        mine = [one for one in unpaired if one.client == client]
        if len(mine) >= limits.per_client:
            return None  # its own share is full: 503, and nothing else is closed for it
        if len(unpaired) >= limits.unpaired:
            victim = _oldest(_biggest_holder(unpaired))
            waiting = [one for one in held if one.probation]
            if victim is not None and _holding(unpaired, victim.client) >= len(mine) + 2:
                closing.append(victim)
            elif len(waiting) < limits.probation:
                if (sum(1 for one in waiting if one.client == client)
                        >= limits.probation_per_client):
                    return None  # its newcomer before is being judged: 503, a second later
                probation = True
            elif victim is not None:
                closing.append(victim)  # probation is full too: a place for a place
            else:
                return None
    if len(held) - len(closing) >= limits.total:
        victim = _oldest([one for one in unpaired if one not in closing])
        if victim is None:
            return None
        closing.append(victim)
    return Admit(tuple(one.number for one in closing), probation)


def admit_stream(number: int, held: Sequence[Held], limits: ConnectionLimits) -> Admit | None:
    """Whether connection ``number`` (one of ``held``) may become an event stream: always when
    it is trusted; an unpaired client's at most ``streams_per_client`` and ``unpaired_streams``
    in all (past either, None: 503 with Retry-After). No live stream closes for another: a
    reloaded page's old stream, which its browser closed, is gone before it is counted (the
    server reaps streams whose client hung up), and closing a live one for its own client's
    newcomer let a guest that reopens every closed stream spin the box (issue #28)."""
    asking = next(one for one in held if one.number == number)
    if asking.trusted:
        return Admit()
    streams = [one for one in held if not one.trusted and one.kind == "stream"
               and one.number != number]
    mine = [one for one in streams if one.client == asking.client]
    if len(mine) >= limits.streams_per_client or len(streams) >= limits.unpaired_streams:
        return None
    return Admit()


def peeked_token(head: bytes) -> str | None:
    """The pairing token in the ``Cookie`` header of what a new connection has sent so far
    (read without taking it off the socket), or None: admission then knows a paired phone
    before its thread reads the head (issue #28). Only a header whose line ended counts."""
    ended, blank, _ = head.partition(b"\r\n\r\n")
    lines = ended.split(b"\r\n") if blank else ended.split(b"\r\n")[:-1]
    for raw in lines[1:]:
        name, colon, value = raw.partition(b":")
        if colon and name.strip().lower() == b"cookie":
            token = cookie_token(value.decode("latin-1").strip())
            if token:
                return token
    return None


def _oldest(candidates: Sequence[Held]) -> Held | None:
    """The connection to close first: the oldest waiting one, else the oldest stream."""
    for kind in ("waiting", "stream"):
        found = [one for one in candidates if one.kind == kind]
        if found:
            return min(found, key=lambda one: one.since)
    return None


def _holding(unpaired: Sequence[Held], client: str) -> int:
    return sum(1 for one in unpaired if one.client == client)


def _biggest_holder(unpaired: Sequence[Held]) -> list[Held]:
    """The unpaired connections of the client that holds the most of them."""
    counts: dict[str, int] = {}
    for one in unpaired:
        if one.kind != "busy":
            counts[one.client] = counts.get(one.client, 0) + 1
    if not counts:
        return []
    biggest = max(counts, key=lambda client: counts[client])
    return [one for one in unpaired if one.client == biggest]
