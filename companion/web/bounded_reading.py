"""Reading and writing one connection's bytes within bounds, before anything parses them
(issues #19, #38).

The HTTP handler (companion/web/http_handler.py) reads through a :class:`BoundedReader` and
writes through :meth:`BoundedReader.send`, so its own class holds only the gathering of facts
and the writing of answers. All of it runs on the server's event loop: a connection waiting
for bytes costs its buffers, not a thread. What it promises:

- :meth:`BoundedReader.head`: the request line and headers up to their blank line, at most
  :data:`~companion.web.policy.HEAD_BYTES` in all and within one deadline for the whole head
  (dribbling a byte at a time buys nothing); past the budget a 431 refusal, past the deadline
  a 408 (or nothing, for a connection that sent nothing at all: an idle keep-alive one), a
  request line without ``HTTP/1.x`` a 505. Blank lines before a request are skipped, as
  HTTP/1.1 allows; bytes after the head (a body, a pipelined request) stay for what follows.
- :meth:`BoundedReader.body`: exactly the bytes the policy allowed, within the body deadline;
  a body cut short (the client closed) is a ``short-body`` refusal, one too slow a 408.
- :meth:`BoundedReader.send`: every write has a deadline (nginx's ``send_timeout``): the
  answer goes in pieces of :data:`SEND_PIECE_BYTES`, and a client that takes more than
  :data:`SEND_SECONDS` to take one (it reads nothing) is cut off. A slow reader holds its place
  only as long as its bytes come out.
- :meth:`BoundedReader.linger`: after a refusal that closes, stop writing, then read and drop
  what the client still sends, at most :data:`LINGER_SECONDS` and :data:`LINGER_BYTES`
  (nginx's lingering close), so the client reads its answer rather than a reset.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Final

from companion.web.policy import HEAD_BYTES, Refusal

SEND_SECONDS: Final = 5.0
"""A client that takes no byte of its answer for this long is cut off (``send_timeout``)."""
SEND_PIECE_BYTES: Final = 16 * 1024
WRITE_BUFFER_BYTES: Final = 32 * 1024
"""A connection's own write buffer above the kernel's, at most (then its writer waits)."""
READ_BYTES: Final = 16 * 1024
LINGER_SECONDS: Final = 2.0
LINGER_BYTES: Final = 8 * 1024 * 1024
_TIMEOUT = Refusal("request-timeout", "the request did not arrive in time", close=True)


class BoundedReader:
    """One connection's stream reader and writer, with the bytes read but not yet used."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 send_seconds: float = SEND_SECONDS) -> None:
        self.reader = reader
        self.writer = writer
        self.send_seconds = send_seconds
        self.buffer = bytearray()
        with contextlib.suppress(AttributeError, NotImplementedError):
            writer.transport.set_write_buffer_limits(high=WRITE_BUFFER_BYTES)

    async def head(self, seconds: float) -> bytes | Refusal | None:
        """The request line and headers up to their blank line, or a refusal (over the
        budget, past the deadline, not HTTP/1.x), or None for a client that closed (or sent
        nothing but blank lines) before a request."""
        deadline = time.monotonic() + seconds
        while True:
            del self.buffer[:len(self.buffer) - len(self.buffer.lstrip(b"\r\n"))]
            ends = [at + len(mark) for mark in (b"\r\n\r\n", b"\n\n", b"\n\r\n")
                    if (at := self.buffer.find(mark, 0, HEAD_BYTES + 4)) >= 0]
            if ends:
                end = min(ends)
                head = bytes(self.buffer[:end])
                del self.buffer[:end]
                return _version_refusal(head) or head
            if b"\n" in self.buffer and (refused := _version_refusal(bytes(self.buffer))):
                return refused
            if len(self.buffer) > HEAD_BYTES:
                return Refusal("request-header-fields-too-large",
                               f"a request's line and headers are at most {HEAD_BYTES} bytes",
                               close=True)
            chunk = await self.some(deadline)
            if isinstance(chunk, Refusal):
                # A connection idle between requests (keep-alive) is closed without a word,
                # as nginx's keepalive_timeout does; a request begun but late gets its 408.
                return chunk if self.buffer else None
            if not chunk:
                return None  # closed before its request ended: nobody to answer
            self.buffer += chunk

    async def some(self, deadline: float) -> bytes | Refusal:
        """What the socket has next (waiting at most until ``deadline``); empty when the
        client closed."""
        left = deadline - time.monotonic()
        if left <= 0:
            return _TIMEOUT
        try:
            return await asyncio.wait_for(self.reader.read(READ_BYTES), left)
        except TimeoutError:
            return _TIMEOUT
        except OSError:
            return b""

    async def body(self, length: int, seconds: float) -> bytes | Refusal:
        """Exactly ``length`` bytes of body within the body deadline, or a refusal."""
        deadline = time.monotonic() + seconds
        while len(self.buffer) < length:
            chunk = await self.some(deadline)
            if isinstance(chunk, Refusal):
                return chunk
            if not chunk:
                return Refusal("short-body", f"the body ended after {len(self.buffer)} of "
                                             f"the {length} bytes announced", close=True)
            self.buffer += chunk
        body = bytes(self.buffer[:length])
        del self.buffer[:length]
        return body

    async def send(self, data: bytes) -> bool:
        """Write ``data`` piece by piece, each within :attr:`send_seconds` of the last: False
        (and the connection cut off) when the client stopped taking it or went away."""
        for start in range(0, max(len(data), 1), SEND_PIECE_BYTES):
            if self.writer.is_closing():
                return False
            self.writer.write(data[start:start + SEND_PIECE_BYTES])
            try:
                await asyncio.wait_for(self.writer.drain(), self.send_seconds)
            except (TimeoutError, OSError):
                self.writer.transport.abort()
                return False
        return True

    async def linger(self) -> None:
        """Stop writing, then read and drop what the client still sends, briefly and bounded,
        so closing does not reset the connection before the client read its answer."""
        deadline = time.monotonic() + LINGER_SECONDS
        dropped = 0
        with contextlib.suppress(OSError, RuntimeError):
            if self.writer.can_write_eof() and not self.writer.is_closing():
                await asyncio.wait_for(self.writer.drain(), self.send_seconds)
                self.writer.write_eof()
            while dropped < LINGER_BYTES:
                chunk = await self.some(deadline)
                if isinstance(chunk, Refusal) or not chunk:
                    break
                dropped += len(chunk)


def _version_refusal(head: bytes) -> Refusal | None:
    if is_http1(head.split(b"\n", 1)[0]):
        return None
    return Refusal("http-version-not-supported", "send HTTP/1.0 or HTTP/1.1", close=True)


def is_http1(request_line: bytes) -> bool:
    """Whether a request line ends with an ``HTTP/1.x`` version (HTTP/0.9 has none)."""
    words = request_line.strip().split()
    return len(words) == 3 and words[2].startswith(b"HTTP/1.")
