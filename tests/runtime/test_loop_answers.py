"""The loop answers every line event once, and owns nothing of the pairing code but what the
core's state holds: it shows a code, judges a typed one, and mirrors a screen without it."""

import io
import threading

import pytest

from companion.protocol.lines import BadEncoding, Line, TooLong
from companion.runtime import EventLoop, SerialChannel
from companion.runtime.channels import LineEvent, PairCodeEntered, PairCodeEvent
from companion.testing.clock import FakeClock
from companion.testing.recording import RecordingMirror
from companion.testing.simulated import simulated_controller


class Target:
    """A reply target that records every answer."""

    def __init__(self):
        self.answers = []

    def answer(self, reply):
        self.answers.append(reply)


def run_until_stopped(loop):
    loop.stop("test")
    runner = threading.Thread(target=loop.run_without_signals)
    runner.start()
    runner.join(timeout=10)
    assert not runner.is_alive()


@pytest.fixture
def box(tmp_path):
    clock = FakeClock()
    controller = simulated_controller(tmp_path, clock=clock)
    mirror = RecordingMirror()
    loop = EventLoop(controller, out=io.StringIO(), channels=[mirror])
    return controller, loop, mirror, clock


@pytest.mark.parametrize(("item", "reply"), [
    (Line(""), None),
    (Line("   "), None),
    (Line("# a comment"), None),
    (Line("state"), "ok {"),
    (Line("nonsense"), "err unknown-command"),
    (TooLong(), "err too-long"),
    (BadEncoding(3, "invalid start byte"), "err bad-encoding"),
])
def test_loop_answers_every_line_once(box, item, reply):
    _, loop, _, _ = box
    target = Target()
    loop.post(LineEvent(item, target))
    run_until_stopped(loop)
    assert len(target.answers) == 1
    if reply is None:
        assert target.answers == [None]
    else:
        assert target.answers[0].startswith(reply)


def test_loop_a_line_nobody_wants_answered_is_still_performed(box):
    controller, loop, _, _ = box
    loop.post(LineEvent(Line("new timer seconds=30")))
    run_until_stopped(loop)
    assert controller.state.session.game == "timer"


def test_serial_channel_gives_a_lines_room_back_when_it_is_answered():
    channel = SerialChannel(None, pending_lines=1)
    assert channel.slots.acquire(blocking=False)
    assert not channel.slots.acquire(blocking=False)
    channel.answer(None)   # a blank line: room back, nothing to write
    assert len(channel.outbox) == 0
    assert channel.slots.acquire(blocking=False)
    channel.answer("ok")
    assert len(channel.outbox) == 1


PHONE = "192.168.1.20"


def test_loop_shows_a_code_judges_it_and_mirrors_a_screen_without_it(box):
    controller, loop, mirror, _ = box
    outcomes, shown_answers = [], []
    loop.post(PairCodeEvent("123456", PHONE, shown_answers.append))  # closed: not shown
    loop.post(LineEvent(Line("pair open")))
    loop.post(PairCodeEntered("123456", outcomes.append, PHONE))  # no code asked for yet
    loop.post(PairCodeEvent("123456", PHONE, shown_answers.append))
    loop.post(PairCodeEvent("999999", "192.168.1.66", shown_answers.append))  # one code
    loop.post(PairCodeEntered("654321", outcomes.append, PHONE))
    loop.post(PairCodeEntered("000000", outcomes.append, "192.168.1.66"))
    run_until_stopped(loop)
    assert shown_answers == ["closed", "shown", "shown"]
    assert outcomes == ["no-code", "wrong-code", "wrong-code"]
    assert controller.state.pairing.code == "123456"
    assert "Pair 123456 2:00" in controller.last_screen.text_lines()
    shown = mirror.snapshots[-1]
    assert shown.pairing and shown.pairing_open
    assert not any("123456" in line for line in shown.lines)
    assert not any("123456" in line for line in shown.screen.alert)

    loop.post(PairCodeEntered("123456", outcomes.append, "192.168.1.66"))
    run_until_stopped(loop)
    assert outcomes[-1] == "paired"
    assert controller.state.pairing is None   # used once: the window ended
    assert not mirror.snapshots[-1].pairing_open
    loop.post(PairCodeEntered("123456", outcomes.append, PHONE))
    run_until_stopped(loop)
    assert outcomes[-1] == "closed"


def test_loop_a_code_is_judged_against_the_windows_end(box):
    controller, loop, _, clock = box
    outcomes = []
    loop.post(LineEvent(Line("pair open")))
    loop.post(PairCodeEvent("123456", PHONE))
    run_until_stopped(loop)
    clock.advance(120.0)
    loop.post(PairCodeEntered("123456", outcomes.append, PHONE))
    run_until_stopped(loop)
    assert outcomes == ["closed"]
    assert controller.state.pairing is None


SECRET, OTHER_SECRET = "0123456789ABCDEF", "FEDCBA9876543210"


def test_loop_judges_a_secret_from_the_qr_code_apart_from_typed_codes(box):
    """Issue #38, 6: a secret (``secret=True``) is judged against the window's, which the
    controller drew before the window's first frame; it never reaches a snapshot."""
    from companion.adapters.qr import table_page

    controller, loop, mirror, _ = box
    controller.set_table_page(table_page("127.0.0.1", 8080))
    controller.draw_pair_secret = lambda: SECRET
    outcomes = []
    loop.post(PairCodeEntered(SECRET, outcomes.append, PHONE, secret=True))
    loop.post(LineEvent(Line("pair open")))
    loop.post(PairCodeEntered(SECRET, outcomes.append, PHONE))  # typed: no code
    loop.post(PairCodeEntered(OTHER_SECRET, outcomes.append, PHONE, secret=True))
    run_until_stopped(loop)
    assert outcomes == ["closed", "no-code", "wrong-secret"]
    assert controller.state.pairing.secret == SECRET
    assert not any(SECRET in repr(snapshot) for snapshot in mirror.snapshots)
    loop.post(PairCodeEntered(SECRET, outcomes.append, PHONE, secret=True))
    run_until_stopped(loop)
    assert outcomes[-1] == "paired" and controller.state.pairing is None
