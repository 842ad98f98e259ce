"""Where the table page is, as the box tells the table: its address and a QR code of it.

The composition root builds a :class:`TablePage` once the web server has bound its port
(companion/adapters/qr.py makes the code; the QR library is not the standard library, so the
pure core only ever receives the finished bit matrix). The menu offers "Table page" only while
there is one (:class:`~companion.core.app.App`).

Rules it enforces:
- The code is square and at most :data:`MAX_MODULES` modules a side (a version 3 QR code):
  at 2 px a module that leaves the panel's 64 px room for a quiet zone of lit pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_MODULES = 29
"""A version 3 QR code (29 x 29) is the largest that fits 64 px at 2 px a module."""

Matrix = tuple[tuple[bool, ...], ...]
"""QR modules, row by row; True is a dark module. No quiet zone."""


@dataclass(frozen=True)
class TablePage:
    """The page's address (``url``, the one the QR code holds), other ways to reach it
    (``also``: the IP address when ``url`` names the host by its .local name), and the code."""

    url: str
    qr: Matrix
    also: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        size = len(self.qr)
        if not 0 < size <= MAX_MODULES or any(len(row) != size for row in self.qr):
            raise ValueError(f"the QR code must be square with 1 to {MAX_MODULES} modules "
                             f"a side, got {size} rows")
