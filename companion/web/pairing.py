"""Pairing: a code on the box's display buys a browser a long-lived token.

The code itself is the core's (``AppState.pair_code``, companion/core/table_page.py): this
module makes a fresh one (:func:`new_code`) for the loop to show, and the loop judges a typed
code against the one shown. What this module keeps is what only the web needs: the tokens
and the lockout.

Rules it enforces:
- A code is 6 digits from ``secrets``, shown for :data:`CODE_SECONDS`; a new start replaces
  the old code (on the display).
- A right code gives a token of 32 random bytes (URL-safe text); the display drops the code,
  so it cannot be used twice.
- :data:`MAX_WRONG_CODES` wrong codes in a row (a code entered when none is shown counts)
  lock pairing for :data:`LOCK_SECONDS`: every attempt meanwhile, right or wrong, is refused
  with the seconds left, before the code is even looked at. The lock ends by itself; the
  count starts again.
- Tokens are kept as SHA-256 hashes, through the :class:`TokenStore` the composition root
  hands in (companion/adapters/token_file.py: ``web-tokens.json``, mode 0600), so pairings
  survive a restart and a copy of the file pairs nobody. At most :data:`MAX_TOKENS` are kept
  (the oldest go first). A new token whose save fails still pairs until a restart (logged).
- ``forget`` revokes them all only once the store has written the empty list: if the save
  fails, the tokens stay trusted and the error is raised for the box to show (issue #19, 5).
- Time comes from an injected clock (monotonic seconds), so tests use the fake clock.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable
from typing import Final, Protocol

from companion.errors import CompanionError

CODE_SECONDS: Final = 120.0
"""How long a pairing code stays valid (and on the display)."""
MAX_WRONG_CODES: Final = 5
LOCK_SECONDS: Final = 60.0
MAX_TOKENS: Final = 64
TOKEN_BYTES: Final = 32


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
    """A fresh 6-digit pairing code."""
    return f"{secrets.randbelow(10**6):06d}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Pairing:
    """Tokens and the lockout; thread-safe (the server's threads share it)."""

    def __init__(self, tokens: TokenStore | None, clock: Callable[[], float]) -> None:
        self.store = tokens
        self.clock = clock
        self._lock = threading.Lock()
        self._wrong = 0
        self._locked_until: float | None = None
        self._hashes: list[str] = [] if tokens is None else tokens.load()[-MAX_TOKENS:]

    # -- attempts ----------------------------------------------------------------------------

    def admit(self) -> None:
        """Raise :class:`PairingRefused` ``locked`` while pairing is locked."""
        with self._lock:
            now = self.clock()
            if self._locked_until is None:
                return
            if now < self._locked_until:
                left = max(1, int(self._locked_until - now + 0.999))
                raise PairingRefused("locked", f"too many wrong codes; try again in {left} s",
                                     left)
            self._locked_until = None
            self._wrong = 0

    def settle(self, outcome: str) -> str:
        """After the display judged a code (``paired``, ``wrong-code`` or ``no-code``): a new
        token, or :class:`PairingRefused` (``locked`` at the last allowed wrong code)."""
        with self._lock:
            if outcome == "paired":
                self._wrong = 0
                token = secrets.token_urlsafe(TOKEN_BYTES)
                self._hashes = [*self._hashes, token_hash(token)][-MAX_TOKENS:]
                self._save()
                return token
            self._wrong += 1
            if self._wrong >= MAX_WRONG_CODES:
                self._locked_until = self.clock() + LOCK_SECONDS
                raise PairingRefused("locked", f"{MAX_WRONG_CODES} wrong codes; pairing is "
                                               f"locked for {int(LOCK_SECONDS)} s",
                                     int(LOCK_SECONDS))
            why = ("no pairing is pending: start one first" if outcome == "no-code"
                   else "wrong code")
            raise PairingRefused("bad-code", why)

    # -- tokens ------------------------------------------------------------------------------

    def knows(self, token: str | None) -> bool:
        """Whether ``token`` was given by a pairing that has not been forgotten."""
        if not token:
            return False
        digest = token_hash(token)
        with self._lock:
            hashes = self._hashes
        # Compare with every stored hash, in constant time each.
        return any([hmac.compare_digest(digest, known) for known in hashes])

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
