"""Who gets a place on the table page, without a socket: companion/web/admission.py's pure
rules called with plain rows (docs/web.md, "Admission: three rooms"). The socket cases, from
127.0.0.x standing in for phones and guests, are tests/web/test_guest_flood.py."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.web.admission import (
    Admit,
    ConnectionLimits,
    Held,
    admit_newcomer,
    admit_request,
    admit_stream,
)

LIMITS = ConnectionLimits(newcomers=16, newcomers_per_client=8, unpaired=24, per_client=8,
                          trusted=24, per_holder=12, unpaired_streams=8, streams_per_client=2)
ASKING = 999
PHONE = "token:phone"


def held(count, client, *, holder=None, kind="waiting", first=0, since=0.0):
    return [Held(first + number, client, holder, kind, since + number)
            for number in range(count)]


def ask(client, rows, holder=None, now=0.0, limits=LIMITS):
    """A request head came on a fresh connection (number 999) from ``client``."""
    asking = Held(ASKING, client, None, "new", 1000.0)
    return admit_request(ASKING, client, holder, [*rows, asking], limits, now)


def test_admission_serves_an_unpaired_client_within_its_share():
    assert ask("10.0.0.9", held(7, "10.0.0.9")) == Admit()


def test_admission_past_a_clients_share_is_503_and_closes_nothing():
    assert ask("10.0.0.9", held(8, "10.0.0.9")) is None


@pytest.mark.parametrize(("newcomer", "verdict"), [
    ("10.0.0.1", None),        # holds 5: a swap with a 5-holder brings nothing
    ("10.0.0.5", None),        # holds 4: 4 -> 5 and 5 -> 4 is the same, turned
    ("10.0.0.9", Admit((0,))),  # holds 0: 5 -> 4 and 0 -> 1 brings them closer
])
def test_admission_swaps_a_place_only_when_the_shares_come_closer(newcomer, verdict):
    """Issue #28: a guest with 4 took the place of one with 5, which reconnected and took it
    back, forever: a swap needs the other to hold two more."""
    guests = [*held(5, "10.0.0.1"), *held(5, "10.0.0.2", first=100),
              *held(5, "10.0.0.3", first=200), *held(5, "10.0.0.4", first=300),
              *held(4, "10.0.0.5", first=400)]
    assert ask(newcomer, guests) == verdict


@given(st.lists(st.integers(0, 9), min_size=24, max_size=24), st.integers(0, 9))
def test_admission_guests_that_reconnect_at_once_settle(owners, newcomer):
    """Whatever the unpaired room holds, a newcomer whose place closes another client's
    connection, whose client reconnects at once, and so on, ends within a bounded number of
    swaps (each brings the shares strictly closer: their sum of squares falls)."""
    connections = [Held(number, f"10.0.0.{owner}", None, "waiting", float(number))
                   for number, owner in enumerate(owners)]
    client, numbers = f"10.0.0.{newcomer}", len(connections)
    for _swaps in range(LIMITS.unpaired ** 2):
        verdict = ask(client, connections)
        if verdict is None or not verdict.close:
            return
        (closed,) = [one for one in connections if one.number in verdict.close]
        connections = [one for one in connections if one is not closed]
        connections.append(Held(numbers, client, None, "waiting", float(numbers)))
        numbers += 1
        client = closed.client
    raise AssertionError("the guests never settled")


def test_admission_past_the_unpaired_room_closes_the_biggest_holders_oldest():
    guests = [*held(5, "10.0.0.1"), *held(8, "10.0.0.2", first=100, since=50.0),
              *held(5, "10.0.0.3", first=200), *held(6, "10.0.0.4", first=300)]
    assert ask("10.0.0.7", guests) == Admit((100,))


def test_admission_an_idle_place_past_its_grace_goes_to_a_client_holding_fewer():
    """Issue #38: guests holding one kept-alive place each filled the room with no fair swap
    left, and a new phone had none. An idle place past its grace goes to a client holding
    fewer; a busy, slow or fresh one does not, nor to a client holding as many."""
    singles = [Held(number, f"10.0.1.{number}", None, "waiting", 10.0 + number)
               for number in range(24)]
    assert ask("10.0.2.1", singles, now=11.0) is None            # none idle 2 s yet
    assert ask("10.0.2.1", singles, now=20.0) == Admit((0,))     # the oldest idle
    busy = [Held(one.number, one.client, None, "busy", one.since) for one in singles]
    assert ask("10.0.2.1", busy, now=100.0) is None
    assert ask("10.0.1.0", [*singles[1:], Held(50, "10.0.1.0", None, "waiting", 0.0)],
               now=100.0) is None  # it holds one: no single's place is its


def test_admission_the_trusted_room_is_no_guests():
    """Issue #38, 1: guests holding every unpaired place leave the paired phones' and the
    box's own room whole, and the other way round: nothing of one room closes for another."""
    guests = [one for number in range(3) for one in held(8, f"10.0.0.{number}",
                                                         first=100 * number)]
    assert ask("10.0.0.9", guests, holder=PHONE) == Admit()
    assert ask("127.0.0.1", guests, holder="loopback:127.0.0.1") == Admit()
    phones = [one for number in range(2) for one in held(12, f"10.0.1.{number}",
                                                         holder=f"token:{number}",
                                                         first=100 * number)]
    assert ask("10.0.0.9", phones) == Admit()


def test_admission_one_token_has_a_cap_of_its_own():
    """Issue #38, 3: one paired device kept 48 connections and the table's phone, the box's
    page and a new phone were refused. A holder past its own cap gives up its own oldest
    idle connection, or is refused when all of them are busy."""
    mine = held(12, "10.0.0.5", holder=PHONE, since=10.0)
    assert ask("10.0.0.5", mine, holder=PHONE) == Admit((0,))
    busy = held(12, "10.0.0.5", holder=PHONE, kind="busy")
    assert ask("10.0.0.5", busy, holder=PHONE) is None
    assert ask("10.0.0.6", busy, holder="token:table") == Admit()  # the table's phone


def test_admission_the_boxs_own_loopback_is_capped_only_by_the_room():
    own = held(20, "127.0.0.1", holder="loopback:127.0.0.1", kind="busy")
    assert ask("127.0.0.1", own, holder="loopback:127.0.0.1") == Admit()
    streams = held(10, "127.0.0.1", holder="loopback:127.0.0.1", kind="stream")
    asking = Held(ASKING, "127.0.0.1", "loopback:127.0.0.1", "busy", 1000.0)
    assert admit_stream(ASKING, [*streams, asking], LIMITS) == Admit()
    full = held(24, "127.0.0.1", holder="loopback:127.0.0.1", kind="busy")
    assert ask("127.0.0.1", full, holder="loopback:127.0.0.1") is None


def test_admission_a_full_trusted_room_closes_the_biggest_holders_idle():
    room = [*held(12, "10.0.0.5", holder="token:a"), *held(12, "10.0.0.6", holder="token:b",
                                                            first=100, kind="busy")]
    assert ask("10.0.0.7", room, holder="token:c") == Admit((0,))
    busy = [Held(one.number, one.client, one.holder, "busy", 0.0) for one in room]
    assert ask("10.0.0.7", busy, holder="token:c") is None


def test_admission_prefers_an_idle_connection_to_a_slow_writer_to_a_stream():
    guests = [*held(8, "10.0.0.1", kind="stream"), *held(8, "10.0.0.1", first=100,
                                                         kind="writing", since=500.0),
              *held(8, "10.0.0.2", first=200, kind="busy")]
    assert ask("10.0.0.3", guests) == Admit((100,))
    idle = [*guests[:16], *held(8, "10.0.0.1", first=300, since=900.0)][8:]
    assert ask("10.0.0.3", [*guests[:8], *idle]) == Admit((300,))


@pytest.mark.parametrize(("room", "client", "verdict"), [
    (held(7, "10.0.0.1", kind="new"), "10.0.0.1", Admit()),
    (held(8, "10.0.0.1", kind="new"), "10.0.0.1", None),       # its own newcomers' cap
    ([*held(8, "10.0.0.1", kind="new"), *held(8, "10.0.0.2", kind="new", first=100,
                                              since=5.0)], "10.0.0.9", Admit((0,))),
    ([one for number in range(16) for one in held(1, f"10.0.1.{number}", kind="new",
                                                  first=number)], "10.0.0.9", None),
])
def test_admission_newcomers_have_a_room_of_their_own(room, client, verdict):
    """A connection that has sent no head yet waits in the newcomers' room (3 s at most):
    a client's own cap, and a place for a place only when the shares come closer."""
    assert admit_newcomer(client, room, LIMITS) == verdict


def test_admission_the_boxs_own_newcomers_are_capped_by_the_room():
    room = held(12, "127.0.0.1", kind="new")
    assert admit_newcomer("127.0.0.1", room, LIMITS) is None
    assert admit_newcomer("127.0.0.1", room, LIMITS, own=True) == Admit()


@given(st.lists(st.tuples(st.integers(0, 6), st.sampled_from([None, "token:a", "token:b"]),
                          st.sampled_from(["new", "waiting", "busy", "writing", "stream"])),
                max_size=72),
       st.integers(0, 6), st.sampled_from([None, "token:a", "token:c"]),
       st.floats(0, 200))
def test_admission_keeps_its_bounds_whatever_is_held(rows, newcomer, holder, now):
    """Whatever is open, after the verdict each room and each owner's cap hold, nothing busy
    closes, and nothing of another room closes for the newcomer."""
    connections = [Held(number, f"10.0.0.{client}", owner, kind, float(number))
                   for number, (client, owner, kind) in enumerate(rows)]
    client = f"10.0.0.{newcomer}"
    verdict = ask(client, connections, holder=holder, now=now)
    if verdict is None:
        return
    closed = [one for one in connections if one.number in verdict.close]
    kept = [one for one in connections if one.number not in verdict.close]
    assert all(one.kind not in {"busy", "new"} for one in closed)
    assert all(one.trusted == (holder is not None) for one in closed)
    room = [one for one in kept if one.kind != "new" and one.trusted == (holder is not None)]
    before = [one for one in connections if one.kind != "new"
              and one.trusted == (holder is not None)]
    size = LIMITS.unpaired if holder is None else LIMITS.trusted
    assert len(room) + 1 <= max(len(before), size)
    owner = client if holder is None else holder
    cap = LIMITS.per_client if holder is None else LIMITS.per_holder
    mine = sum(1 for one in room if (one.holder or one.client) == owner)
    assert mine + 1 <= max(cap, mine)


@pytest.mark.parametrize(("existing", "holder", "verdict"), [
    (0, None, Admit()),
    (7, None, Admit()),
    (8, None, None),                    # the unpaired streams' cap: 503
    (40, PHONE, Admit()),               # a paired phone's stream: guests' streams aside
])
def test_admission_unpaired_event_streams_have_their_own_cap(existing, holder, verdict):
    streams = [Held(number, f"10.0.1.{number}", None, "stream", float(number))
               for number in range(existing)]
    asking = Held(ASKING, "10.0.2.1", holder, "busy", 1000.0)
    assert admit_stream(ASKING, [*streams, asking], LIMITS) == verdict


def test_admission_a_holders_streams_have_a_cap_too():
    streams = held(4, "10.0.0.5", holder=PHONE, kind="stream")
    asking = Held(ASKING, "10.0.0.5", PHONE, "busy", 1000.0)
    assert admit_stream(ASKING, [*streams, asking], LIMITS) is None
    assert admit_stream(ASKING, [*streams[1:], asking], LIMITS) == Admit()


def test_admission_no_live_stream_closes_for_its_own_clients_newcomer():
    """Issue #28: closing a client's oldest stream for its newest let a guest that reopens
    every closed stream spin the box; a reloaded page's old stream, hung up by its browser,
    is gone before the policy counts (tests/web/test_guest_flood.py)."""
    streams = held(2, "10.0.1.1", kind="stream")
    asking = Held(ASKING, "10.0.1.1", None, "busy", 1000.0)
    assert admit_stream(ASKING, [*streams, asking], LIMITS) is None
    assert admit_stream(ASKING, [streams[0], asking], LIMITS) == Admit()
