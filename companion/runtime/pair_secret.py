"""A pairing window's secret and its QR code, given when the window opens (issue #38, 6).

The core opens a window in a pure step (companion/core/table_page.py ``open_pairing``), which
draws no randomness; the controller hands every state it is about to draw to :func:`armed`,
so a window has its secret and QR code before its first frame. The secret comes from the
``secrets`` module, never from the game's seeded random source: a seed makes a game
reproducible (DESIGN.md rule 3), and a secret must be anything but. Its QR code is the
pairing link's (companion/adapters/qr.py ``pair_qr``). Without a table page (the web off, or
an address too long for the panel) a window gets neither: no one could scan it, and
``secrets`` (which imports ``hmac``, and with it OpenSSL, about 4 MB) is never loaded.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.adapters.qr import pair_qr
from companion.core.appstate import AppState
from companion.core.table_page import (
    SECRET_ALPHABET,
    SECRET_LENGTH,
    TablePage,
    arm_pairing,
    pair_link,
)


def new_pair_secret() -> str:
    """A fresh secret: :data:`SECRET_LENGTH` characters of :data:`SECRET_ALPHABET`."""
    import secrets

    return "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))


def armed(state: AppState, page: TablePage | None, draw: Callable[[], str]) -> AppState:
    """``state`` with an open window that has no secret yet given one from ``draw`` and the
    QR code of its link to ``page``; any other state (or no page) as it is."""
    if page is None or state.pairing is None or state.pairing.secret is not None:
        return state
    secret = draw()
    return arm_pairing(state, secret, pair_qr(pair_link(page.url, secret)))
