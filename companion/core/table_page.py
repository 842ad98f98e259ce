"""The table page as the core knows it: its address and QR code, and the pairing code shown.

The composition root builds a :class:`TablePage` once the web server has bound its port
(companion/adapters/qr.py makes the code; the QR library is not the standard library, so the
pure core only ever receives the finished bit matrix). The menu offers "Table page" only while
there is one (:class:`~companion.core.app.App`).

The pairing code lives in :class:`~companion.core.appstate.AppState` (``pair_code``,
``pair_until``) and nowhere else: the web makes a code and asks the loop to show it, then asks
:func:`judge_pair_code` whether a typed code is the one shown; its pairing keeps only tokens
and the lockout, and its mirror is drawn without the code (companion/ui/views).

Rules it enforces:
- A typed code pairs only while it is shown (until ``pair_until``), compared in constant time.
- The QR code is square and at most :data:`MAX_MODULES` modules a side (a version 3 QR code):
  at 2 px a module that leaves the panel's 64 px room for a quiet zone of lit pixels.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Literal

from companion.core.appstate import AppState

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


PairOutcome = Literal["paired", "wrong-code", "no-code"]
"""A typed pairing code: the one shown, another, or typed while none is shown."""


def judge_pair_code(state: AppState, code: str, now: float) -> PairOutcome:
    """Whether ``code`` is the pairing code the display shows at ``now``."""
    if state.pair_code is None or now >= state.pair_until:
        return "no-code"
    if hmac.compare_digest(code.encode(), state.pair_code.encode()):
        return "paired"
    return "wrong-code"
