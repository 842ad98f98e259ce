"""Issue #19, 7: one reply per line on the serial line, for a client that reads.

Through a real pseudo-terminal (companion/adapters/serial_link.py's ``PtyLink``) and the real
:class:`~companion.runtime.channels.SerialChannel`, with a stand-in loop on a thread that
answers every line at once with a reply as long as a ``state`` reply: 10,000 lines written at
once while the client reads all along get 10,000 replies, in order (the audit counted 4,426 to
5,104 when a line's room came back before its reply was written). A client that stops reading
loses replies, and only then, counted.
"""

import contextlib
import os
import queue
import select
import threading
import time

from companion.adapters.serial_link import PtyLink
from companion.runtime.channels import MAX_PENDING_LINES, MAX_QUEUED_REPLIES, SerialChannel

LINES = 10_000
NL = b"\n"
REPLY = "ok " + "{" + "x" * 240 + "}"  # about a `state` reply's length


class AnsweringLoop:
    """The loop's part: take each line event and answer it, on a thread of its own."""

    def __init__(self):
        self.events = queue.SimpleQueue()
        self.answered = 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while (event := self.events.get()) is not None:
            self.answered += 1
            event.reply_to.answer(f"{REPLY} {self.answered}")

    def stop(self):
        self.events.put(None)
        self.thread.join(timeout=10)


def open_peer(link):
    peer = os.open(link.peer_path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    return peer


def test_the_bounds_leave_room_for_every_reply_of_the_lines_let_in():
    assert MAX_PENDING_LINES <= MAX_QUEUED_REPLIES


def test_10000_lines_written_at_once_by_a_reading_client_get_10000_replies_in_order():
    link = PtyLink()
    channel = SerialChannel(link)
    loop = AnsweringLoop()
    channel.start(loop.events.put)
    peer = open_peer(link)
    try:
        blob = b"state\n" * LINES
        sent, replies = 0, bytearray()
        deadline = time.monotonic() + 120
        while replies.count(b"\n") < LINES:
            assert time.monotonic() < deadline, f"{bytes(replies).count(NL)} replies so far"
            want_write = [peer] if sent < len(blob) else []
            readable, writable, _ = select.select([peer], want_write, [], 1.0)
            if readable:
                replies += os.read(peer, 65536)
            if writable:
                with contextlib.suppress(BlockingIOError):
                    sent += os.write(peer, blob[sent:sent + 4096])
        lines = bytes(replies).splitlines()
        assert len(lines) == LINES
        assert [int(line.rsplit(b" ", 1)[1]) for line in lines] == list(range(1, LINES + 1))
        assert channel.outbox.dropped == 0
    finally:
        channel.close()
        loop.stop()
        os.close(peer)


def test_a_client_that_stops_reading_loses_replies_counted_and_logged(caplog):
    link = PtyLink()
    channel = SerialChannel(link)
    channel.stalled_seconds = 1.0
    loop = AnsweringLoop()
    channel.start(loop.events.put)
    peer = open_peer(link)
    try:
        with caplog.at_level("WARNING"):
            written = 0
            deadline = time.monotonic() + 60
            # Write, never read: past the pty's buffer the writer stalls and drops.
            while channel.outbox.dropped == 0:
                assert time.monotonic() < deadline, "no reply was ever dropped"
                if select.select([], [peer], [], 1.0)[1]:
                    with contextlib.suppress(BlockingIOError):
                        written += os.write(peer, b"state\n" * 64)
            # The writer thread counts a drop, then logs it: wait for the line (bounded).
            while "serial client is not reading; oldest replies dropped" not in caplog.text:
                assert time.monotonic() < deadline, "the drop was never logged"
                select.select([], [], [], 0.01)
        # The channel still reads and answers: a line's room came back with its dropped reply.
        answered = loop.answered
        deadline = time.monotonic() + 30
        os.write(peer, b"state\n")
        while loop.answered <= answered:
            assert time.monotonic() < deadline, "the channel stopped reading"
            select.select([peer], [], [], 0.1)
    finally:
        channel.close()
        loop.stop()
        os.close(peer)
