"""The table page as the core knows it: its address and QR code, and the pairing window.

The composition root builds a :class:`TablePage` once the web server has bound its port
(companion/adapters/qr.py makes the code; the QR library is not the standard library, so the
pure core only ever receives the finished bit matrix). The menu offers "Table page" only while
there is one (:class:`~companion.core.app.App`).

Pairing lives in :class:`~companion.core.appstate.AppState` (``pairing``, a
:class:`~companion.core.appstate.PairingWindow`) and nowhere else: the web makes a code and
asks the loop to show it (:func:`show_pair_code`), then asks :func:`judge_pair_code` about a
code a phone typed; the web's pairing keeps only the tokens, and its mirror is drawn without
the code (companion/ui/views).

Rules it enforces (issue #28: a guest on the Wi-Fi cannot take the table away):
- **Pairing opens at the box** (:func:`open_pairing`): the "Table page" screen's NEXT ("Pair
  a phone", companion/core/menu.py) or ``pair open`` on a trusted channel. It stays open
  :data:`WINDOW_SECONDS` (the display counts down), and closes when a phone pairs, on BACK
  there (:func:`end_pairing`), when its time is up, or when its budget of wrong codes is
  spent. While it is closed no code is shown and none is judged (``closed``).
- **One code a window.** The first phone that asks gets a fresh code shown on the box; a
  later ask (any phone's) leaves that code where it is, so no one can take the display from
  the table's phone by asking, and the table reads one code.
- **Wrong codes are counted per window**: at most :data:`CLIENT_WRONG_CODES` from one client
  (then it is ``locked`` until the next window), at most :data:`WINDOW_WRONG_CODES` from all
  clients together; the one that spends those closes the window and says why on the box
  (``spent``). The next press opens a fresh window with fresh budgets, so nothing a guest did
  in one window reaches the next. A code typed before any is shown (``no-code``) is judged
  against nothing and counts for nothing. docs/web.md has the guessing odds.
- A typed code pairs only while shown, compared in constant time.
- The QR code is square and at most :data:`MAX_MODULES` modules a side (a version 3 QR code):
  at 2 px a module that leaves the panel's 64 px room for a quiet zone of lit pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from companion.core.appstate import AppState, PairingWindow

WINDOW_SECONDS = 120.0
"""How long pairing stays open after a press at the box."""
WINDOW_WRONG_CODES = 19
"""Wrong codes from all clients together that close a window: 19 guesses at one of 10^6
codes, so a window's odds are below 1 in 50,000 (20 made them exactly that: issue #28)."""
CLIENT_WRONG_CODES = 3
"""Wrong codes from one client that lock it until the next window."""
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


PairOutcome = Literal["paired", "wrong-code", "no-code", "closed", "locked", "spent"]
"""A typed pairing code: the one shown; another; typed while none is shown yet; typed while
pairing is closed; from a client out of wrong codes this window; the wrong code that spent
the window's budget (the window closed with it)."""

PAIRED_NOTICE = "Phone paired: pairing closed"
ENDED_NOTICE = "Pairing closed"
CLOSED_NOTICE = "Pairing closed: too many wrong codes"
CLOSED_LINES = ("Pairing", "closed: too", "many wrong", "codes.", "NEXT: pair")
"""The "Table page" screen's column after a window closed on its wrong codes (12 characters
a line)."""
OPEN_LINES = ("Pairing open", "Type the", "code on the", "phone.", "BACK: close")
"""The "Table page" screen's column while pairing is open."""


def pairing_open(state: AppState, now: float) -> bool:
    """Whether a phone may ask for a code and type it now."""
    return state.pairing is not None and now < state.pairing.until


def open_pairing(state: AppState, now: float) -> AppState:
    """Someone at the box opened pairing: a fresh window of :data:`WINDOW_SECONDS`, fresh
    budgets, no code yet (a press while one is open starts it again, its code dropped)."""
    return replace(state, pairing=PairingWindow(now + WINDOW_SECONDS), pairing_closed=False,
                   notice=None)


def end_pairing(state: AppState, notice: str | None = ENDED_NOTICE) -> AppState:
    """The window closes (BACK at the box, "Forget phones"); a state without one is kept."""
    if state.pairing is None:
        return state
    return replace(state, pairing=None, notice=notice)


def show_pair_code(state: AppState, code: str, now: float) -> tuple[AppState, bool]:
    """The window's code on the display: ``code`` if none is shown yet, else the one shown
    stays. False, and the state unchanged, while pairing is closed."""
    window = state.pairing
    if window is None or not pairing_open(state, now):
        return state, False
    if window.code is not None:
        return state, True
    return replace(state, pairing=replace(window, code=code)), True


def judge_pair_code(state: AppState, client: str, code: str,
                    now: float) -> tuple[AppState, PairOutcome]:
    """``client`` typed ``code`` at ``now``: the outcome, and the state after it (a right
    code ends the window; a wrong one is counted, and may lock the client or close the
    window)."""
    window = state.pairing
    if window is None or not pairing_open(state, now):
        return state, "closed"
    counts = dict(window.wrong)
    if counts.get(client, 0) >= CLIENT_WRONG_CODES:
        return state, "locked"
    if window.code is None:
        return state, "no-code"
    # hmac.compare_digest would do, but importing hmac loads OpenSSL (about 4 MB of RSS) into
    # every box, the web off included; this comparison is as even in its timing.
    if _same_code(code, window.code):
        return replace(state, pairing=None, notice=PAIRED_NOTICE), "paired"
    counts[client] = counts.get(client, 0) + 1
    if sum(counts.values()) >= WINDOW_WRONG_CODES:
        return replace(state, pairing=None, pairing_closed=True, notice=CLOSED_NOTICE), "spent"
    outcome: PairOutcome = "locked" if counts[client] >= CLIENT_WRONG_CODES else "wrong-code"
    return replace(state, pairing=replace(window, wrong=tuple(counts.items()))), outcome


def expire_pairing(state: AppState, now: float) -> AppState:
    """The state without its window once the window's time ran out at ``now``."""
    return state if state.pairing is None or pairing_open(state, now) else replace(
        state, pairing=None)


def pairing_seconds_left(state: AppState, now: float) -> int:
    """Whole seconds the window stays open, rounded up (0: closed)."""
    if state.pairing is None or not pairing_open(state, now):
        return 0
    return math.ceil(state.pairing.until - now)


def pair_wake(state: AppState, now: float) -> float | None:
    """When the display's countdown next changes (each whole second left, then the end);
    None while pairing is closed."""
    if state.pairing is None:
        return None
    left = state.pairing.until - now
    if left <= 0:
        return now
    step = left - math.floor(left)
    return now + (step if step > 0 else 1.0)


def _same_code(typed: str, code: str) -> bool:
    """Whether ``typed`` is ``code``, comparing every character whatever the first mismatch."""
    if len(typed) != len(code):
        return False
    differences = 0
    for left, right in zip(typed, code, strict=True):
        differences |= ord(left) ^ ord(right)
    return differences == 0
