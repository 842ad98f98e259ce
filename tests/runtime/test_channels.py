"""Channels never let a peer stall the loop: the outbox is bounded and drops the oldest
replies. (The same through a real pseudo-terminal: tests/e2e/test_serial_flood.py.)"""

import logging
import threading

from companion.runtime.channels import Outbox, SerialChannel


def test_outbox_put_never_blocks_and_drops_the_oldest(caplog):
    outbox = Outbox("test client", limit=3)
    with caplog.at_level(logging.WARNING):
        for number in range(5):
            outbox.put(b"%d" % number)
    assert len(outbox) == 3
    assert outbox.dropped == 2
    assert [outbox.take() for _ in range(3)] == [b"2", b"3", b"4"]
    assert "test client is not reading" in caplog.text


def test_outbox_take_returns_none_once_closed():
    outbox = Outbox("test client")
    taker = threading.Thread(target=lambda: results.append(outbox.take()))
    results: list[bytes | None] = []
    taker.start()
    outbox.close()
    taker.join(timeout=10)
    assert results == [None]


class StuckLink:
    """A peer that never reads: every write finds no room."""

    description = "stuck"

    def __init__(self):
        self.cancelled = threading.Event()

    def read(self, timeout):
        self.cancelled.wait(timeout)
        return b""

    def write(self, data):
        return 0

    def cancel(self):
        self.cancelled.set()

    def close(self):
        pass


def test_serial_channel_send_does_not_block_on_a_peer_that_never_reads():
    channel = SerialChannel(StuckLink(), queued_replies=10)
    channel.start(lambda event: None)
    try:
        for number in range(100):
            channel.send(f"ok {number}")
        # The writer holds at most one reply; the outbox keeps the newest ten.
        assert len(channel.outbox) <= 10
        assert channel.outbox.dropped >= 89
    finally:
        channel.close()
    assert not any(thread.is_alive() for thread in channel._threads)
