"""The table page as the core knows it: its address and QR code, and the pairing code shown.

The composition root builds a :class:`TablePage` once the web server has bound its port
(companion/adapters/qr.py makes the code; the QR library is not the standard library, so the
pure core only ever receives the finished bit matrix). The menu offers "Table page" only while
there is one (:class:`~companion.core.app.App`).

The pairing codes live in :class:`~companion.core.appstate.AppState` (``pairings``, a
:class:`~companion.core.appstate.PendingPair` per client) and nowhere else: the web makes a
code and asks the loop to show it for the client that asked (:func:`show_pair_code`), then
asks :func:`judge_pair_code` whether a code that client typed is the one shown for it; its
pairing keeps only tokens and the lockouts, and its mirror is drawn without the codes
(companion/ui/views).

Rules it enforces (issue #19: a stranger cannot jam pairing):
- Codes are per client: a client's new code replaces only its own; a code typed by one client
  is judged only against that client's code, so one address's restarts or wrong codes never
  cancel or use up another's.
- At most :data:`MAX_PENDING_PAIRS` codes are shown at once; a start past that is refused
  (the caller says "busy"), never replacing another client's code.
- A typed code pairs only while it is shown (until its ``until``), compared in constant time.
- Pairing can be closed (:func:`close_pairing`: the web's budget of wrong codes is spent; no
  code is shown then, and a start is refused) and only a press at the box reopens it
  (:func:`reopen_pairing`, NEXT on the "Table page" screen, companion/core/menu.py).
- The QR code is square and at most :data:`MAX_MODULES` modules a side (a version 3 QR code):
  at 2 px a module that leaves the panel's 64 px room for a quiet zone of lit pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from companion.core.appstate import AppState, PendingPair

MAX_PENDING_PAIRS = 2
"""Pairing codes on the display at once, at most (two codes fit the title bar)."""
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


def judge_pair_code(state: AppState, client: str, code: str, now: float) -> PairOutcome:
    """Whether ``code`` is the pairing code the display shows for ``client`` at ``now``."""
    pending = next((pair for pair in state.pairings if pair.client == client), None)
    if pending is None or now >= pending.until:
        return "no-code"
    # hmac.compare_digest would do, but importing hmac loads OpenSSL (about 4 MB of RSS) into
    # every box, the web off included; this comparison is as even in its timing.
    if _same_code(code, pending.code):
        return "paired"
    return "wrong-code"


def show_pair_code(state: AppState, client: str | None, code: str | None,
                   until: float) -> tuple[AppState, bool]:
    """``client``'s code on the display until ``until``, replacing only its own; ``code``
    None takes ``client``'s away (every client's when ``client`` is None). False, and the
    state unchanged, when :data:`MAX_PENDING_PAIRS` other clients' codes are shown."""
    others = tuple(pair for pair in state.pairings
                   if client is not None and pair.client != client)
    if code is None:
        return replace(state, pairings=others), True
    if client is None or len(others) >= MAX_PENDING_PAIRS or state.pairing_closed:
        return state, False
    return replace(state, pairings=(*others, PendingPair(client, code, until))), True


CLOSED_NOTICE = "Pairing closed: too many wrong codes"
CLOSED_LINES = ("Pairing", "closed: too", "many wrong", "codes.", "NEXT reopens")
"""The "Table page" screen's column while pairing is closed (12 characters a line)."""
REOPENED_NOTICE = "Pairing reopened"


def close_pairing(state: AppState) -> AppState:
    """The web spent its budget of wrong codes: pairing is closed, every code leaves the
    display, and the box says so wherever it is (the table sees the attack)."""
    return replace(state, pairing_closed=True, pairings=(), notice=CLOSED_NOTICE)


def reopen_pairing(state: AppState) -> AppState:
    """Someone at the box pressed NEXT on the "Table page" while pairing was closed."""
    return replace(state, pairing_closed=False, notice=REOPENED_NOTICE)


def expire_pair_codes(state: AppState, now: float) -> AppState:
    """The state without the codes whose time ran out at ``now``."""
    kept = tuple(pair for pair in state.pairings if now < pair.until)
    return state if len(kept) == len(state.pairings) else replace(state, pairings=kept)


def pair_wake(state: AppState) -> float | None:
    """When the next code leaves the display (None: none shown)."""
    return min((pair.until for pair in state.pairings), default=None)


def _same_code(typed: str, code: str) -> bool:
    """Whether ``typed`` is ``code``, comparing every character whatever the first mismatch."""
    if len(typed) != len(code):
        return False
    differences = 0
    for left, right in zip(typed, code, strict=True):
        differences |= ord(left) ^ ord(right)
    return differences == 0
