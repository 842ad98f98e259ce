"""Pairing: a code on the box's display buys a browser a long-lived token.

Rules it enforces:
- ``start`` makes a fresh 6-digit code (``secrets``), valid for :data:`CODE_SECONDS`; a new
  start replaces the old code. The code is shown on the box's display while it is pending.
- A right code gives a token of 32 random bytes (URL-safe text) and ends the pairing; the code
  cannot be used twice.
- :data:`MAX_WRONG_CODES` wrong codes in a row (a code entered when none is pending counts)
  lock pairing for :data:`LOCK_SECONDS`: every attempt meanwhile, right or wrong, is refused
  with the seconds left. The lock ends by itself; the count starts again.
- Tokens are kept as SHA-256 hashes in ``web-tokens.json`` in the state dir (written whole to
  a temporary file, then renamed; mode 0600), so pairings survive a restart and a copy of the
  file pairs nobody. At most :data:`MAX_TOKENS` are kept (the oldest go first). ``forget``
  revokes them all. A file that cannot be read is logged and treated as empty (re-pair).
- Time comes from an injected clock (monotonic seconds), so tests use the fake clock.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.adapters.atomic_file import write_atomically

log = logging.getLogger(__name__)

TOKENS_FILE = "web-tokens.json"
CODE_SECONDS = 120.0
"""How long a pairing code stays valid (and on the display)."""
MAX_WRONG_CODES = 5
LOCK_SECONDS = 60.0
MAX_TOKENS = 64
TOKEN_BYTES = 32


class PairingRefused(Exception):
    """A pairing attempt that failed: ``code`` is ``bad-code`` or ``locked``."""

    def __init__(self, code: str, message: str, retry_after: int = 0) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after


@dataclass(frozen=True)
class Pending:
    code: str
    until: float


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Pairing:
    """Codes, tokens and the lockout; thread-safe (the server's threads share it)."""

    def __init__(self, state_dir: Path | None, clock: Callable[[], float]) -> None:
        self.path = None if state_dir is None else Path(state_dir) / TOKENS_FILE
        self.clock = clock
        self._lock = threading.Lock()
        self._pending: Pending | None = None
        self._wrong = 0
        self._locked_until: float | None = None
        self._hashes: list[str] = self._load()

    # -- codes -------------------------------------------------------------------------------

    def start(self) -> Pending:
        """A fresh code, valid for :data:`CODE_SECONDS` from now."""
        with self._lock:
            self._pending = Pending(f"{secrets.randbelow(10**6):06d}",
                                    self.clock() + CODE_SECONDS)
            return self._pending

    def pending(self) -> Pending | None:
        """The code waiting to be entered, if it has not expired."""
        with self._lock:
            return self._current()

    def pair(self, code: str) -> str:
        """A new token for the right code; :class:`PairingRefused` otherwise."""
        with self._lock:
            now = self.clock()
            if self._locked_until is not None:
                if now < self._locked_until:
                    left = max(1, int(self._locked_until - now + 0.999))
                    raise PairingRefused("locked", f"too many wrong codes; try again in "
                                                   f"{left} s", left)
                self._locked_until = None
                self._wrong = 0
            pending = self._current()
            if pending is None or not hmac.compare_digest(code.encode(),
                                                          pending.code.encode()):
                self._wrong += 1
                if self._wrong >= MAX_WRONG_CODES:
                    self._locked_until = now + LOCK_SECONDS
                    self._pending = None
                    raise PairingRefused("locked", f"{MAX_WRONG_CODES} wrong codes; pairing "
                                                   f"is locked for {int(LOCK_SECONDS)} s",
                                         int(LOCK_SECONDS))
                why = ("no pairing is pending: start one first" if pending is None
                       else "wrong code")
                raise PairingRefused("bad-code", why)
            self._pending = None
            self._wrong = 0
            token = secrets.token_urlsafe(TOKEN_BYTES)
            self._hashes = [*self._hashes, token_hash(token)][-MAX_TOKENS:]
            self._save()
            return token

    def cancel(self) -> None:
        with self._lock:
            self._pending = None

    def _current(self) -> Pending | None:
        if self._pending is not None and self.clock() >= self._pending.until:
            self._pending = None
        return self._pending

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

    @property
    def paired(self) -> int:
        with self._lock:
            return len(self._hashes)

    def forget(self) -> None:
        """Revoke every token ("Forget phones")."""
        with self._lock:
            self._hashes = []
            self._pending = None
            self._save()

    def _load(self) -> list[str]:
        if self.path is None or not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            hashes = data["tokens"]
            if not isinstance(hashes, list) or not all(isinstance(h, str) for h in hashes):
                raise ValueError("tokens is not a list of strings")
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.error("%s cannot be read (%s); phones must pair again", self.path, error)
            return []
        return hashes[-MAX_TOKENS:]

    def _save(self) -> None:
        if self.path is None:
            return
        text = json.dumps({"tokens": self._hashes})
        try:
            write_atomically(self.path, text, mode=0o600)
        except OSError as error:
            # The pairing still holds until a restart; say why it will not survive one.
            log.error("cannot save %s (%s); pairings last until restart", self.path, error)
