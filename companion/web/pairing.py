"""Pairing: a secret on the box's QR code, or a code on its display, buys a browser a token.

The pairing window, its code and its secret are the core's (``AppState.pairing``,
companion/core/table_page.py): pairing opens only at the box, for two minutes; the box's
Table page shows a QR code whose link carries the window's secret, the web makes a fresh
code (:func:`new_code`) for the loop to show, and the loop judges a typed code (counting the
window's typed codes per client and in all) or a secret. What this module keeps is what only
the web needs: the tokens, and what each refusal says.

Rules it enforces (issues #28 and #38; docs/web.md has the arithmetic):
- A code is :data:`CODE_DIGITS` digits from ``secrets``; a window shows one.
- A right code or secret gives a token of 32 random bytes (URL-safe text); the window ends
  with it, so neither can be used twice.
- Every refusal is a :class:`PairingRefused` with a sentence the page shows as it is:
  ``pairing-closed`` (no window open: :data:`CLOSED_MESSAGE` says how to open one),
  ``codes-spent`` (the window's typed codes are used up: :data:`SPENT_MESSAGE` says to scan
  the QR code), ``locked`` (this client's wrong codes for the window are spent),
  ``bad-code``, ``bad-secret`` (a link from another window).
- Tokens are kept as SHA-256 hashes, through the :class:`TokenStore` the composition root
  hands in (companion/adapters/token_file.py: ``web-tokens.json``, mode 0600), so pairings
  survive a restart and a copy of the file pairs nobody. At most :data:`MAX_TOKENS` are kept
  (the oldest go first). A new token whose save fails still pairs until a restart (logged).
- ``forget`` revokes them all only once the store has written the empty list: if the save
  fails, the tokens stay trusted and the error is raised for the box to show (issue #19, 5).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import threading
from typing import Final, Protocol

from companion.core.table_page import PairOutcome
from companion.errors import CompanionError

CODE_DIGITS: Final = 6
MAX_TOKENS: Final = 64
TOKEN_BYTES: Final = 32
CLOSED_MESSAGE: Final = ("Ask someone at the box to open pairing: Menu, Table page, "
                         "Pair a phone")
SCAN: Final = "scan the QR code on the box with this phone's camera"
SPENT_MESSAGE: Final = f"Typed codes are used up for this pairing: {SCAN}"
LOCKED_MESSAGE: Final = (f"This phone typed too many wrong codes: {SCAN}, or ask someone "
                         "at the box to open pairing again")
SECRET_MESSAGE: Final = (f"This link is from another pairing: {SCAN} now, or type the code "
                         "it shows")
RETRY_SECONDS: Final = 120
"""What a locked phone is told to wait: a window's length (the next one starts it afresh)."""


class PairingRefused(CompanionError):
    """A pairing attempt that failed: ``code`` is ``bad-code`` or ``locked`` (then
    ``retry_after`` says in how many seconds to try again)."""

    def __init__(self, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(code, message)
        self.retry_after = retry_after


class TokenStore(Protocol):
    """Where the token hashes live between runs."""

    def load(self) -> list[str]: ...

    def save(self, hashes: list[str]) -> None: ...


def new_code() -> str:
    """A fresh pairing code of :data:`CODE_DIGITS` digits."""
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Pairing:
    """The tokens; thread-safe (the server's threads share it)."""

    def __init__(self, tokens: TokenStore | None) -> None:
        self.store = tokens
        self._lock = threading.Lock()
        self._hashes: list[str] = [] if tokens is None else tokens.load()[-MAX_TOKENS:]

    def settle(self, outcome: PairOutcome) -> str:
        """After the box judged a typed code or a secret: a new token for ``paired``, else
        :class:`PairingRefused` saying why."""
        match outcome:
            case "paired":
                token = secrets.token_urlsafe(TOKEN_BYTES)
                with self._lock:
                    self._hashes = [*self._hashes, token_hash(token)][-MAX_TOKENS:]
                    self._save()
                return token
            case "closed":
                raise PairingRefused("pairing-closed", CLOSED_MESSAGE)
            case "spent":
                raise PairingRefused("codes-spent", SPENT_MESSAGE)
            case "locked":
                raise PairingRefused("locked", LOCKED_MESSAGE, RETRY_SECONDS)
            case "no-code":
                raise PairingRefused("bad-code", "no code is shown yet: ask for one first")
            case "wrong-secret":
                raise PairingRefused("bad-secret", SECRET_MESSAGE)
        raise PairingRefused("bad-code", "wrong code")

    # -- tokens ------------------------------------------------------------------------------

    def knows(self, token: str | None) -> bool:
        """Whether ``token`` was given by a pairing that has not been forgotten."""
        return self.holder(token) is not None

    def holder(self, token: str | None) -> str | None:
        """The stored hash of ``token`` while it pairs (what its keyed lines are filed
        under: companion/web/idempotency.py), else None."""
        if not token:
            return None
        digest = token_hash(token)
        with self._lock:
            hashes = self._hashes
        # Compare with every stored hash, in constant time each.
        found = [hmac.compare_digest(digest, known) for known in hashes]
        return digest if any(found) else None

    def forget(self) -> None:
        """Revoke every token ("Forget phones"), durably: the store writes the empty list
        first; if it cannot, every token stays trusted and its error is raised."""
        with self._lock:
            if self.store is not None:
                self.store.save([])
            self._hashes = []

    def _save(self) -> None:
        if self.store is None:
            return
        # A failure is logged by the store: this pairing lasts until a restart.
        with contextlib.suppress(CompanionError):
            self.store.save(list(self._hashes))


