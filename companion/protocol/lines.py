"""Splitting a byte stream into protocol lines, with bounded memory.

Rules (CONTRACT.md section 2):
- A line ends at LF, CR or CRLF (a CR followed by LF is one end, even across two reads).
- A line holds at most :data:`MAX_LINE_BYTES` bytes. A longer line yields one
  :class:`TooLong` as soon as it passes the limit; the rest of it, up to its end, is dropped
  without being kept, so an endless line costs no memory.
- Each complete line is decoded as UTF-8; a line that is not valid UTF-8 yields
  :class:`BadEncoding` (naming the byte offset), never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LINE_BYTES = 65536


@dataclass(frozen=True)
class Line:
    text: str


@dataclass(frozen=True)
class TooLong:
    limit: int = MAX_LINE_BYTES


@dataclass(frozen=True)
class BadEncoding:
    offset: int
    reason: str


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


def _find_line_end(data: bytes, start: int) -> int:
    newline = data.find(b"\n", start)
    carriage = data.find(b"\r", start)
    if newline == -1:
        return carriage
    if carriage == -1:
        return newline
    return min(newline, carriage)
