"""Issue #19, 4: nothing done twice, nothing refused but done (CONTRACT section 6).

The audit froze the journal for 10 s (fsfreeze): a press got 503 ``busy``, ran anyway once the
disk thawed, and the client's retry ran it again (timer 60 -> 90, two journal rows). Here a
stand-in journal whose ``append`` waits on an Event holds the loop the same way, without root.
The rules are companion/web/idempotency.py's: a line not started when its request gives up is
withdrawn (503, never run); one started is "pending" (202) and a retry with its key gets its
first result. The requests wait on the real ReplySlot.wait with the real reply timeout
(channel.REPLY_TIMEOUT_SECONDS, 10 s), and each outcome is fixed by events, not by how fast a
loaded machine runs: the pending press is sent, and the others only once the loop is inside the
frozen append (it claimed that press, and nothing queued can start before the thaw).
"""

import json
import threading
import time

import pytest

from companion.web import idempotency
from companion.web.channel import REPLY_TIMEOUT_SECONDS, ReplySlot
from companion.web.idempotency import KEYS_PER_CLIENT, LineLedger


class StalledJournal:
    """The real journal, but ``append`` waits until ``thaw`` is set (a frozen card)."""

    def __init__(self, real, thaw):
        self.real = real
        self.thaw = thaw
        self.appends = 0
        self.entered = threading.Event()

    @property
    def frozen(self):
        """The loop is inside ``append``, held until the thaw."""
        return self.entered.is_set() and not self.thaw.is_set()

    def __getattr__(self, name):
        return getattr(self.real, name)

    def append(self, *args):
        self.appends += 1
        self.entered.set()
        assert self.thaw.wait(30), "the test never thawed the journal"
        return self.real.append(*args)


def keyed(box, text, key):
    return box.line(text, headers={"Idempotency-Key": key})


def duration(box):
    return box.state()["timer"]["duration"]


@pytest.fixture
def stalled_box(make_web_box):
    box = make_web_box()
    assert keyed(box, "new timer seconds=60", "new-game-0001").json == {"reply": "ok"}
    writer = box.controller.writer
    real = writer.journal
    thaw = threading.Event()
    stalled = StalledJournal(real, thaw)
    writer.journal = stalled
    yield box, thaw, writer, stalled
    thaw.set()
    writer.journal = real


def in_background(box, text, key):
    """Send a keyed line from a thread; its answer and how long it waited, once joined."""
    result = {}

    def send():
        began = time.monotonic()
        # the client waits longer than the box's own reply timeout
        result["answer"] = box.line(text, headers={"Idempotency-Key": key},
                                    timeout=REPLY_TIMEOUT_SECONDS + 20)
        result["waited"] = time.monotonic() - began
    thread = threading.Thread(target=send, name=f"request {key}")
    thread.start()
    return thread, result


def test_a_503_line_never_runs_and_a_pending_one_runs_once_however_often_retried(stalled_box):
    box, thaw, writer, stalled = stalled_box
    assert box.service.channel.reply_timeout == REPLY_TIMEOUT_SECONDS == 10.0  # the real one
    first = duration(box)
    # The loop starts the press, then waits on the frozen card.
    pending, pending_result = in_background(box, "press up", "press-a-0001")
    assert stalled.entered.wait(30), "the loop never reached the journal"
    # A second press queues behind it, and a retry of the first, while the card is frozen.
    refused, refused_result = in_background(box, "press up", "press-b-0001")
    retried, retried_result = in_background(box, "press up", "press-a-0001")
    for thread in (pending, refused, retried):
        thread.join(REPLY_TIMEOUT_SECONDS + 30)
        assert not thread.is_alive(), thread.name
    # The started press: "pending", with its key, once its request's 10 s ran out.
    answer = pending_result["answer"]
    assert (answer.status, answer.json) == (202, {"pending": True, "id": "press-a-0001"})
    # The queued one, withdrawn when its request's 10 s ran out: 503, never run.
    refused_answer = refused_result["answer"]
    assert refused_answer.status == 503 and refused_answer.json["error"] == "busy"
    assert "not carried out" in refused_answer.json["message"]
    # The retry, still frozen: pending again, not rerun.
    again = retried_result["answer"]
    assert (again.status, again.json) == (202, {"pending": True, "id": "press-a-0001"})
    # Each gave up at the real timeout, not before (a 503 sooner would refuse a slow box).
    for result in (pending_result, refused_result, retried_result):
        assert REPLY_TIMEOUT_SECONDS - 0.5 <= result["waited"] < REPLY_TIMEOUT_SECONDS + 15
    assert stalled.appends == 1
    thaw.set()
    # Thawed: the retry hears the first result; the press ran once, the refused one never.
    assert keyed(box, "press up", "press-a-0001").json == {"reply": "ok"}
    assert duration(box) == first + 15
    assert writer.journal.appends == 1
    stored = writer.journal.real.game(writer.game_id)
    assert len(stored.history) == 1
    # The refused press's key was forgotten: its retry runs it, once.
    assert keyed(box, "press up", "press-b-0001").json == {"reply": "ok"}
    assert keyed(box, "press up", "press-b-0001").json == {"reply": "ok"}
    assert duration(box) == first + 30
    assert len(writer.journal.real.game(writer.game_id).history) == 2


def test_a_key_answered_gives_its_first_reply_without_running_again(web_box):
    assert web_box.line("new timer seconds=60").json == {"reply": "ok"}
    before = web_box.state()["timer"]["duration"]
    replies = [keyed(web_box, "press up", "same-key-42").json for _ in range(3)]
    assert replies == [{"reply": "ok"}] * 3
    assert web_box.state()["timer"]["duration"] == before + 15


def test_a_key_reused_with_another_line_is_refused_and_runs_nothing(make_web_box):
    box = make_web_box()
    assert box.line("new timer seconds=60").json == {"reply": "ok"}
    assert keyed(box, "press up", "reused-key-1").json == {"reply": "ok"}
    other = keyed(box, "press down", "reused-key-1")
    assert (other.status, other.json["error"]) == (422, "key-reused")
    assert box.state()["timer"]["duration"] == 75


@pytest.mark.parametrize("key", ["short", "x" * 65, "has space1", "semi;colon1", "é" * 10])
def test_a_bad_key_is_a_400_and_runs_nothing(web_box, key):
    assert web_box.line("new timer seconds=60").json == {"reply": "ok"}
    before = web_box.state()["timer"]["duration"]
    answer = web_box.line("press up", headers={"Idempotency-Key": key})
    assert (answer.status, answer.json["error"]) == (400, "bad-key")
    assert web_box.state()["timer"]["duration"] == before


def test_the_ledger_keeps_at_most_its_bound_per_client_and_forgets_after_ten_minutes():
    from companion.protocol.lines import Line
    from companion.testing.clock import FakeClock

    clock = FakeClock()
    ledger = LineLedger(clock.monotonic)

    class Instant:
        """A channel whose loop answers at once."""

        reply_timeout = 1.0

        def submit(self, item, key=None):
            slot = ReplySlot(threading.BoundedSemaphore(1))
            slot._room.acquire()
            assert slot.claim()
            slot.answer(f"ok {item.text}")
            return slot

    channel = Instant()
    for number in range(KEYS_PER_CLIENT + 10):
        ledger.run(channel, "10.0.0.2", f"key-{number:05d}", Line(f"n {number}"))
    ledger.run(channel, "10.0.0.3", "key-00000", Line("other client"))
    assert len(ledger) == KEYS_PER_CLIENT + 1
    # The other client's key is its own: the same key there ran its own line.
    assert ledger.run(channel, "10.0.0.3", "key-00000", Line("other client")).reply == \
        "ok other client"
    clock.advance(idempotency.KEY_SECONDS + 1)
    ledger.run(channel, "10.0.0.4", "key-fresh-1", Line("x"))
    assert len(ledger) == 1


def test_browser_sends_a_fresh_idempotency_key_with_every_line(running_box, page):
    """The page's sendLine (companion/web/static/common.js) makes its key with
    crypto.getRandomValues, which a plain-http page has (crypto.randomUUID needs a secure
    context): every tap carries a key of its own, and a retry with it changes nothing."""
    keys = []
    for _ in range(2):
        with page.expect_response(lambda r: r.url.endswith("/api/line")) as answer:
            page.click("#button-down")
        assert answer.value.status == 200
        keys.append(answer.value.request.headers["idempotency-key"])
    assert all(len(key) == 32 and int(key, 16) >= 0 for key in keys)
    assert keys[0] != keys[1]
    before = running_box.state()
    replay = running_box.request("POST", "/api/line", b"press down",
                                 {"Idempotency-Key": keys[1]})
    assert replay.json == {"reply": "ok"}
    assert running_box.state() == before


def test_browser_asks_again_with_the_same_key_after_a_pending_answer(running_box, page):
    """A 202 "pending" (the box started the line but is held up) is asked again by the page
    with the same key, and the tap shows the first result, not an error. The line is one the
    box refuses (BACK in the menu with no game), so its result is text the page must write:
    the check waits for exactly that text, never reads the element before app.js writes it."""
    from playwright.sync_api import expect

    seen = []

    def pending_once(route, request):
        seen.append(request.headers["idempotency-key"])
        if len(seen) == 1:
            route.fulfill(status=202, content_type="application/json",
                          body=json.dumps({"pending": True, "id": seen[0]}))
        else:
            route.continue_()

    page.route("**/api/line", pending_once)
    refusal = running_box.line("press back")
    assert refusal.startswith("err not-allowed")
    with page.expect_response(lambda r: r.url.endswith("/api/line") and r.status == 200):
        page.click("#button-back")
    expect(page.locator("#button-reply")).to_have_text(f"press back: {refusal}")
    assert len(seen) == 2 and seen[0] == seen[1]
