"""Splitting a byte stream into protocol lines, with bounded memory.

Rules (CONTRACT.md section 2):
- A line ends at LF, CR or CRLF (a CR followed by LF is one end, even across two reads).
- A line holds at most :data:`MAX_LINE_BYTES` bytes. A longer line yields one
  :class:`TooLong` as soon as it passes the limit; the rest of it, up to its end, is dropped
  without being kept, so an endless line costs no memory.
- Each complete line is decoded as UTF-8; a line that is not valid UTF-8 yields
  :class:`BadEncoding` (naming the byte offset), never an exception.
- :func:`one_line` reads a whole message that must hold one line (a web request's body): the
  same splitting and decoding, with one line end at the very end allowed, and
  :class:`NotOneLine` for more than one line.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LINE_BYTES = 65536


@dataclass(frozen=True)
class Line:
    text: str


@dataclass(frozen=True)
class PhoneLine(Line):
    """A line from a phone on the table page, not from the box's own channels (issue #38,
    7): its ``screen`` is the mirror's (no pairing code), and its presses cannot open
    pairing ("Pair a phone" is the box's)."""


@dataclass(frozen=True)
class TooLong:
    limit: int = MAX_LINE_BYTES


@dataclass(frozen=True)
class BadEncoding:
    offset: int
    reason: str


@dataclass(frozen=True)
class NotOneLine:
    """A message that was to hold one line holds ``lines`` of them."""

    lines: int


Item = Line | TooLong | BadEncoding


class LineSplitter:
    """Feed bytes in, get complete lines out; keeps at most one line's worth of bytes."""

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._discarding = False
        self._after_cr = False

    def feed(self, data: bytes) -> list[Item]:
        items: list[Item] = []
        start = 0
        if self._after_cr and data[:1] == b"\n":
            start = 1
        self._after_cr = False
        length = len(data)
        while start < length:
            end = _find_line_end(data, start)
            if end == -1:
                self._take(data[start:], items)
                break
            self._take(data[start:end], items)
            items.extend(self._finish_line())
            start = end + 1
            if data[end:end + 1] == b"\r":
                if start < length and data[start:start + 1] == b"\n":
                    start += 1
                elif start == length:
                    self._after_cr = True
        return items

    def finish(self) -> list[Item]:
        """The end of the input ends an unfinished line: it, if there is one."""
        if self._discarding:
            self._discarding = False
            return []
        self._after_cr = False
        return self._finish_line() if self._buffer else []

    @property
    def pending(self) -> int:
        """Bytes held for an unfinished line (never more than the limit)."""
        return len(self._buffer)

    def _take(self, chunk: bytes, items: list[Item]) -> None:
        if self._discarding or not chunk:
            return
        if len(self._buffer) + len(chunk) > self.limit:
            self._buffer.clear()
            self._discarding = True
            items.append(TooLong(self.limit))
            return
        self._buffer.extend(chunk)

    def _finish_line(self) -> list[Item]:
        if self._discarding:
            self._discarding = False
            return []
        raw = bytes(self._buffer)
        self._buffer.clear()
        try:
            return [Line(raw.decode("utf-8"))]
        except UnicodeDecodeError as error:
            return [BadEncoding(error.start, error.reason)]


def one_line(data: bytes, limit: int = MAX_LINE_BYTES) -> Item | NotOneLine:
    """The one line in ``data``, which may end in one line end (an empty message is a blank
    line); :class:`BadEncoding` if any line of it is not UTF-8, :class:`NotOneLine` if it
    holds more than one line."""
    splitter = LineSplitter(limit)
    items = splitter.feed(data) + splitter.finish()
    for item in items:
        if isinstance(item, BadEncoding):
            return item
    if len(items) > 1:
        return NotOneLine(len(items))
    return items[0] if items else Line("")


def _find_line_end(data: bytes, start: int) -> int:
    newline = data.find(b"\n", start)
    carriage = data.find(b"\r", start)
    if newline == -1:
        return carriage
    if carriage == -1:
        return newline
    return min(newline, carriage)


def line_digest(line: str) -> str:
    """What a kept idempotency key remembers of its line (issue #38, 4): the SHA-256 of its
    UTF-8 text, in hex, so a retry with another line is told apart without keeping the line.
    hashlib is imported here, not at the top: OpenSSL costs about 4 MB of RSS, and the box
    without its page never keys a line (tests/e2e/test_startup_imports.py)."""
    import hashlib

    return hashlib.sha256(line.encode("utf-8", "surrogatepass")).hexdigest()
