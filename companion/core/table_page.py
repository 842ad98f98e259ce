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

Rules it enforces (issue #28: a guest on the Wi-Fi cannot take the table away; issue #38, 6:
no budget a guest can spend):
- **Pairing opens at the box** (:func:`open_pairing`): the "Table page" screen's NEXT ("Pair
  a phone", companion/core/menu.py) or ``pair open`` on a trusted channel. It stays open
  :data:`WINDOW_SECONDS` (the display counts down), and closes when a phone pairs, on BACK
  there (:func:`end_pairing`), or when its time is up; nothing a phone types closes it.
  While it is closed no code is shown and nothing is judged (``closed``).
- **A long secret a window, on the box's QR code.** Before the window's first frame the
  runtime gives it a fresh secret of :data:`SECRET_LENGTH` characters from
  :data:`SECRET_ALPHABET` (about 82 bits) and the QR code of its pairing link
  (:func:`pair_link`, :func:`arm_pairing`), which the "Table page" screen shows in place of
  the plain address's. The right secret pairs at once whatever the typed codes did
  (:func:`judge_pair_secret`) and ends the window, so it works once and only in its window;
  a wrong one is a wrong answer and spends nothing.
- **One code a window**, the typed fallback. The first phone that asks gets a fresh code shown
  on the box; a later ask (any phone's) leaves that code where it is, so no one can take the
  display from the table's phone by asking, and the table reads one code.
- **Typed codes are judged at most** :data:`WINDOW_TYPED_CODES` **times a window**, from all
  clients together, and at most :data:`CLIENT_WRONG_CODES` wrong ones from one client (then
  it is ``locked`` until the next window). Past the window's budget a typed code is not
  judged (``spent``): the phone is told to scan the QR code, and the window stays open for
  it. A code typed before any is shown (``no-code``) is judged against nothing and counts for
  nothing. docs/web.md has the guessing odds.
- A typed code or a secret pairs only while its window is open, compared in constant time.
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
WINDOW_TYPED_CODES = 19
"""Typed codes judged in a window from all clients together, at most: 19 guesses at one of
10^6 codes keep a window's odds below 1 in 50,000 (20 made them exactly that: issue #28).
Past them typed codes are refused and the window stays open for its QR code (issue #38)."""
CLIENT_WRONG_CODES = 3
"""Wrong codes from one client that lock it until the next window."""
MAX_MODULES = 29
"""A version 3 QR code (29 x 29) is the largest that fits 64 px at 2 px a module."""
SECRET_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # noqa: S105 (an alphabet)
"""A window's secret is made of these: QR's alphanumeric mode holds them (with an upper-case
address) at 5.5 bits a character, and a URL's path carries them as they are."""
SECRET_LENGTH = 16
"""Characters of a window's secret: 36^16, about 2^82.7 secrets."""
PAIR_PATH = "P/"
"""What follows the page's address in the pairing link: ``http://box.local:8080/P/<secret>``
(the page served there reads the secret and sends it: companion/web/static/pairing.js)."""

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


PairOutcome = Literal["paired", "wrong-code", "no-code", "closed", "locked", "spent",
                      "wrong-secret"]
"""A typed pairing code: the one shown; another; typed while none is shown yet; typed while
pairing is closed; from a client out of wrong codes this window; past the window's budget of
typed codes (not judged; the window stays open for its QR code). A secret: the window's
("paired"), another ("wrong-secret"), or sent while pairing is closed ("closed")."""

ShowOutcome = Literal["shown", "closed", "spent"]
"""A phone asked for the code: shown (made now or already); pairing closed; the window's
typed codes used up (the QR code's secret is the way in)."""

PAIRED_NOTICE = "Phone paired: pairing closed"
ENDED_NOTICE = "Pairing closed"
OPEN_LINES = ("Pairing open", "Scan it on", "the box, or", "type a code.", "BACK: close")
"""The "Table page" screen's column while pairing is open, as the mirror shows it (12
characters a line; the box's own column has the countdown and the code: ui/views)."""


def pairing_open(state: AppState, now: float) -> bool:
    """Whether a phone may ask for a code and type it now."""
    return state.pairing is not None and now < state.pairing.until


def open_pairing(state: AppState, now: float) -> AppState:
    """Someone at the box opened pairing: a fresh window of :data:`WINDOW_SECONDS`, fresh
    budgets, no code and no secret yet (a press while one is open starts it again, its code
    and secret dropped)."""
    return replace(state, pairing=PairingWindow(now + WINDOW_SECONDS), notice=None)


def end_pairing(state: AppState, notice: str | None = ENDED_NOTICE) -> AppState:
    """The window closes (BACK at the box, "Forget phones"); a state without one is kept."""
    if state.pairing is None:
        return state
    return replace(state, pairing=None, notice=notice)


def pair_link(url: str, secret: str) -> str:
    """The address a window's QR code holds: the page's ``url`` (ending in ``/``), then
    :data:`PAIR_PATH` and the secret."""
    return f"{url}{PAIR_PATH}{secret}"


def arm_pairing(state: AppState, secret: str, qr: Matrix) -> AppState:
    """``state`` with its open window given ``secret`` and ``qr`` (the QR code of its pairing
    link; empty when none fits the panel), unless it has a secret already or none is open."""
    window = state.pairing
    if window is None or window.secret is not None:
        return state
    if len(secret) != SECRET_LENGTH or any(char not in SECRET_ALPHABET for char in secret):
        raise ValueError(f"a pairing secret is {SECRET_LENGTH} of {SECRET_ALPHABET}")
    return replace(state, pairing=replace(window, secret=secret, qr=qr))


def typed_codes_spent(window: PairingWindow) -> bool:
    """Whether ``window`` judged all the typed codes it may (:data:`WINDOW_TYPED_CODES`)."""
    return sum(count for _, count in window.wrong) >= WINDOW_TYPED_CODES


def code_shown(window: PairingWindow | None) -> bool:
    """Whether the box shows ``window``'s code to type: asked for, and typed codes left."""
    return window is not None and window.code is not None and not typed_codes_spent(window)


def show_pair_code(state: AppState, code: str, now: float) -> tuple[AppState, ShowOutcome]:
    """The window's code on the display: ``code`` if none is shown yet, else the one shown
    stays (``shown``). The state unchanged while pairing is closed (``closed``) and once its
    typed codes are used up (``spent``: no code to type is shown then)."""
    window = state.pairing
    if window is None or not pairing_open(state, now):
        return state, "closed"
    if typed_codes_spent(window):
        return state, "spent"
    if window.code is not None:
        return state, "shown"
    return replace(state, pairing=replace(window, code=code)), "shown"


def judge_pair_code(state: AppState, client: str, code: str,
                    now: float) -> tuple[AppState, PairOutcome]:
    """``client`` typed ``code`` at ``now``: the outcome, and the state after it (a right
    code ends the window; a wrong one is counted, and may lock the client; past the window's
    budget nothing is judged and the window stays open)."""
    window = state.pairing
    if window is None or not pairing_open(state, now):
        return state, "closed"
    counts = dict(window.wrong)
    if counts.get(client, 0) >= CLIENT_WRONG_CODES:
        return state, "locked"
    if window.code is None:
        return state, "no-code"
    if typed_codes_spent(window):
        return state, "spent"
    # hmac.compare_digest would do, but importing hmac loads OpenSSL (about 4 MB of RSS) into
    # every box, the web off included; this comparison is as even in its timing.
    if _same_code(code, window.code):
        return replace(state, pairing=None, notice=PAIRED_NOTICE), "paired"
    counts[client] = counts.get(client, 0) + 1
    outcome: PairOutcome = "locked" if counts[client] >= CLIENT_WRONG_CODES else "wrong-code"
    return replace(state, pairing=replace(window, wrong=tuple(counts.items()))), outcome


def judge_pair_secret(state: AppState, secret: str, now: float) -> tuple[AppState, PairOutcome]:
    """A phone sent ``secret`` (read off the box's QR code) at ``now``: the window's own
    pairs and ends the window, whatever its typed codes did; any other is ``wrong-secret``
    and changes nothing (there is no budget to spend: docs/web.md has the odds)."""
    window = state.pairing
    if window is None or not pairing_open(state, now):
        return state, "closed"
    if window.secret is None or not _same_code(secret.upper(), window.secret):
        return state, "wrong-secret"
    return replace(state, pairing=None, notice=PAIRED_NOTICE), "paired"


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
