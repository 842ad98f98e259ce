"""Pairing: a code on the box's display buys a browser a long-lived token.

The code itself is the core's (``AppState.pair_code``, companion/core/table_page.py): this
module makes a fresh one (:func:`new_code`) for the loop to show, and the loop judges a typed
code against the one shown. What this module keeps is what only the web needs: the tokens
and the lockout.

Rules it enforces (issue #19: pairing no stranger can jam; docs/web.md has the arithmetic):
- A code is :data:`CODE_DIGITS` digits from ``secrets``, shown for :data:`CODE_SECONDS`, for
  the client that asked (its address; an IPv6 /64 counts as one client). Its new start
  replaces only its own code; a code it types is judged only against its own.
- A right code gives a token of 32 random bytes (URL-safe text); the display drops the code,
  so it cannot be used twice.
- Lockout is per client: :data:`MAX_WRONG_CODES` wrong codes in a row (a code entered when
  none is shown for it counts) lock that client for :data:`LOCK_SECONDS`, doubled at each
  further lock up to :data:`MAX_LOCK_SECONDS` (a right code starts the doubling again). While
  locked, every attempt of that client (a start too), right or wrong, is refused with the
  seconds left, before the code is looked at. Another client is never locked by it.
- A code dies with its client's lock: the 5th wrong code in a row takes it off the display;
  a new start (once the lock is over) makes another, shown on the box.
- A budget closes pairing against a patient or spread-out guesser (issue #19): after
  :data:`GLOBAL_WRONG_CODES` wrong codes from all clients together since pairing was last
  opened, pairing is **closed** for everyone (403 ``pairing-closed``) until someone at the box
  reopens it (the menu's "Table page", NEXT: :meth:`Pairing.reopen`) or pairs with a right
  code read off the display (that too is someone at the table). No time window reopens it,
  so every :data:`GLOBAL_WRONG_CODES` judged guesses need a human at the box, who sees the
  attack said on the display (docs/web.md has the arithmetic). :attr:`Pairing.on_close` is
  told when it closes (the route tells the loop, which shows it).
- At most :data:`MAX_CLIENTS` clients' lockout records are kept (the oldest untouched go).
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
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from companion.errors import CompanionError

CODE_SECONDS: Final = 120.0
"""How long a pairing code stays valid (and on the display)."""
CODE_DIGITS: Final = 6
MAX_WRONG_CODES: Final = 5
LOCK_SECONDS: Final = 60.0
MAX_LOCK_SECONDS: Final = 4 * 3600.0
GLOBAL_WRONG_CODES: Final = 20
"""Wrong codes from everyone between two human acts at the box (a reopen, a pairing)."""
MAX_CLIENTS: Final = 1024
MAX_TOKENS: Final = 64
TOKEN_BYTES: Final = 32


CLOSED_MESSAGE: Final = ("pairing is closed after too many wrong codes; someone at the box "
                         "must reopen it (menu: Table page, NEXT)")


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


@dataclass
class Attempts:
    """One client's record: wrong codes in a row, locks so far, locked until when."""

    wrong: int = 0
    locks: int = 0
    locked_until: float | None = None
    seen: float = 0.0


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Pairing:
    """Tokens and the lockouts; thread-safe (the server's threads share it)."""

    def __init__(self, tokens: TokenStore | None, clock: Callable[[], float]) -> None:
        self.store = tokens
        self.clock = clock
        self._lock = threading.Lock()
        self._clients: OrderedDict[str, Attempts] = OrderedDict()
        self._wrong_since_open = 0
        self.on_close: list[Callable[[], None]] = []
        """Told (outside the lock) when a wrong code spends the budget and pairing closes."""
        self._hashes: list[str] = [] if tokens is None else tokens.load()[-MAX_TOKENS:]

    # -- attempts ----------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether the budget of wrong codes is spent (pairing closed until reopened)."""
        with self._lock:
            return self._wrong_since_open >= GLOBAL_WRONG_CODES

    def reopen(self) -> None:
        """Someone at the box reopened pairing: a fresh budget of wrong codes."""
        with self._lock:
            self._wrong_since_open = 0

    def admit(self, client: str = "") -> None:
        """Raise :class:`PairingRefused`: ``pairing-closed`` while the budget is spent,
        ``locked`` while ``client`` is locked."""
        with self._lock:
            now = self.clock()
            if self._wrong_since_open >= GLOBAL_WRONG_CODES:
                raise PairingRefused("pairing-closed", CLOSED_MESSAGE)
            record = self._clients.get(client)
            if record is None or record.locked_until is None:
                return
            if now < record.locked_until:
                left = seconds(record.locked_until - now)
                raise PairingRefused("locked", f"too many wrong codes; try again in {left} s",
                                     left)
            record.locked_until = None
            record.wrong = 0

    def settle(self, outcome: str, client: str = "") -> str:
        """After the display judged ``client``'s code (``paired``, ``wrong-code`` or
        ``no-code``): a new token, or :class:`PairingRefused` (``locked`` at the last
        allowed wrong code)."""
        with self._lock:
            now = self.clock()
            record = self._record(client, now)
            if outcome == "paired":
                record.wrong = record.locks = 0
                self._wrong_since_open = 0  # read off the display: someone is at the box
                token = secrets.token_urlsafe(TOKEN_BYTES)
                self._hashes = [*self._hashes, token_hash(token)][-MAX_TOKENS:]
                self._save()
                return token
            record.wrong += 1
            self._wrong_since_open += 1
            closing = self._wrong_since_open == GLOBAL_WRONG_CODES
            refusal = PairingRefused("bad-code", "no pairing is pending: start one first"
                                     if outcome == "no-code" else "wrong code")
            if record.wrong >= MAX_WRONG_CODES:
                record.locks += 1
                lock = min(LOCK_SECONDS * 2 ** (record.locks - 1), MAX_LOCK_SECONDS)
                record.locked_until = now + lock
                refusal = PairingRefused("locked", f"{MAX_WRONG_CODES} wrong codes; pairing "
                                                   f"is locked for {int(lock)} s", int(lock))
            if not closing:
                raise refusal
        for hook in self.on_close:
            hook()
        raise PairingRefused("pairing-closed", CLOSED_MESSAGE)

    def _record(self, client: str, now: float) -> Attempts:
        record = self._clients.pop(client, None) or Attempts()
        record.seen = now
        self._clients[client] = record  # the newest last: the oldest go first
        while len(self._clients) > MAX_CLIENTS:
            self._clients.popitem(last=False)
        return record

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


def seconds(left: float) -> int:
    """Seconds to wait, rounded up, at least 1."""
    return max(1, int(left + 0.999))
