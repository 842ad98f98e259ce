"""Reading one connection's bytes within bounds, before anything parses them (issue #19).

The HTTP handler (companion/web/http_handler.py) reads through a :class:`BoundedReader`, so
its own class holds only the gathering of facts and the writing of answers. What it promises:

- :meth:`BoundedReader.head`: the request line and headers up to their blank line, at most
  :data:`~companion.web.policy.HEAD_BYTES` in all and within one deadline for the whole head
  (each read waits only for what is left of it, so dribbling a byte at a time buys nothing);
  past the budget a 431 refusal, past the deadline a 408 (or nothing, for a connection that
  sent nothing at all: an idle keep-alive one), a request line without ``HTTP/1.x`` a 505.
  Blank lines before a request are skipped, as HTTP/1.1 allows.
- :meth:`BoundedReader.body`: exactly the bytes the policy allowed, within the body deadline;
  a body cut short (the client closed) is a ``short-body`` refusal, one too slow a 408.
- :meth:`BoundedReader.linger`: after a refusal that closes, stop writing, then read and drop
  what the client still sends, at most :data:`LINGER_SECONDS` and :data:`LINGER_BYTES`
  (nginx's lingering close), so the client reads its answer rather than a reset.
"""

from __future__ import annotations

import contextlib
import io
import socket
import time
from typing import Final

from companion.web.policy import HEAD_BYTES, Refusal

SOCKET_TIMEOUT_SECONDS: Final = 20.0
LINGER_SECONDS: Final = 2.0
LINGER_BYTES: Final = 8 * 1024 * 1024


class BoundedReader:
    """One connection's reads: its socket (for timeouts) and its buffered reader."""

    def __init__(self, connection: socket.socket, rfile: io.BufferedReader) -> None:
        self.connection = connection
        self.rfile = rfile

    def head(self, seconds: float) -> bytes | Refusal | None:
        """The request line and headers up to their blank line, or a refusal (over the
        budget, past the deadline, not HTTP/1.x), or None for a client that closed (or sent
        nothing but blank lines) before a request."""
        deadline = time.monotonic() + seconds
        head = bytearray()
        while True:
            chunk = self.some(deadline)
            if isinstance(chunk, Refusal):
                # A connection idle between requests (keep-alive) is closed without a word,
                # as nginx's keepalive_timeout does; a request begun but late gets its 408.
                return chunk if head else None
            if not chunk:
                return None  # closed before its request ended: nobody to answer
            if not head:
                skipped = len(chunk) - len(chunk.lstrip(b"\r\n"))  # blank lines before one
                if skipped:
                    self.rfile.read(skipped)
                    continue
            start = max(0, len(head) - 3)
            wanted = chunk[:HEAD_BYTES + 1 - len(head)]
            seen = bytes(head[start:]) + wanted
            ends = [at + len(mark) for mark in (b"\r\n\r\n", b"\n\n", b"\n\r\n")
                    if (at := seen.find(mark)) >= 0]
            taken = min(ends) - (len(head) - start) if ends else len(wanted)
            head += self.rfile.read(taken)
            if b"\n" in head and not is_http1(bytes(head).split(b"\n", 1)[0]):
                return Refusal("http-version-not-supported", "send HTTP/1.0 or HTTP/1.1",
                               close=True)
            if ends:
                return bytes(head)
            if len(head) > HEAD_BYTES:
                return Refusal("request-header-fields-too-large",
                               f"a request's line and headers are at most {HEAD_BYTES} bytes",
                               close=True)

    def some(self, deadline: float) -> bytes | Refusal:
        """What the socket has (waiting at most until ``deadline``), not yet consumed; empty
        when the client closed."""
        left = deadline - time.monotonic()
        if left <= 0:
            return Refusal("request-timeout", "the request did not arrive in time",
                           close=True)
        self.connection.settimeout(left)
        try:
            return self.rfile.peek(1)
        except TimeoutError:
            return Refusal("request-timeout", "the request did not arrive in time",
                           close=True)
        except OSError:
            return b""

    def body(self, length: int, seconds: float) -> bytes | Refusal:
        """Exactly ``length`` bytes of body within the body deadline, or a refusal."""
        deadline = time.monotonic() + seconds
        body = bytearray()
        while len(body) < length:
            chunk = self.some(deadline)
            if isinstance(chunk, Refusal):
                return chunk
            if not chunk:
                return Refusal("short-body", f"the body ended after {len(body)} of the "
                                             f"{length} bytes announced", close=True)
            body += self.rfile.read(min(len(chunk), length - len(body)))
        self.connection.settimeout(SOCKET_TIMEOUT_SECONDS)
        return bytes(body)

    def linger(self) -> None:
        """Stop writing, then read and drop what the client still sends, briefly and bounded,
        so closing does not reset the connection before the client read its answer."""
        deadline = time.monotonic() + LINGER_SECONDS
        dropped = 0
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
            while dropped < LINGER_BYTES and (left := deadline - time.monotonic()) > 0:
                self.connection.settimeout(left)
                chunk = self.rfile.read1(65536)
                if not chunk:
                    break
                dropped += len(chunk)


def is_http1(request_line: bytes) -> bool:
    """Whether a request line ends with an ``HTTP/1.x`` version (HTTP/0.9 has none)."""
    words = request_line.strip().split()
    return len(words) == 3 and words[2].startswith(b"HTTP/1.")
