"""The table page's paired tokens on disk: ``web-tokens.json`` in the state dir.

The web's pairing (companion/web/pairing.py) keeps token hashes; this file keeps them between
runs. The composition root hands a :class:`TokenFile` to the web, so the web itself touches no
file. Rules it enforces:

- Only SHA-256 hashes are written (the pairing hashes before it saves), as
  ``{"tokens": [...]}``, replaced whole (companion/adapters/atomic_file.py), mode 0600.
- A file that cannot be read or is not a list of strings is logged and read as empty: the
  phones pair again, the box starts all the same.
- A write that fails raises :class:`TokensNotSaved` (the ``OSError`` translated here, at the
  adapter): the caller says what it means. A new pairing still holds until a restart; a
  revocation ("Forget phones") that could not be written is not done (issue #19, 5).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Final

from companion.adapters.atomic_file import write_atomically
from companion.errors import CompanionError

log = logging.getLogger(__name__)

TOKENS_FILE: Final = "web-tokens.json"


class TokensNotSaved(CompanionError):
    """The token file could not be replaced (a read-only or full card)."""

    def __init__(self, message: str) -> None:
        super().__init__("tokens-not-saved", message)


class TokenFile:
    """Token hashes in ``state_dir/web-tokens.json``."""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / TOKENS_FILE

    def load(self) -> list[str]:
        if not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            hashes = data["tokens"]
            if not isinstance(hashes, list) or not all(isinstance(h, str) for h in hashes):
                raise ValueError("tokens is not a list of strings")
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.error("%s cannot be read (%s); phones must pair again", self.path, error)
            return []
        return hashes

    def save(self, hashes: list[str]) -> None:
        """Replace the file with ``hashes``, or raise :class:`TokensNotSaved` (the old file
        stays as it was: the write is atomic)."""
        try:
            write_atomically(self.path, json.dumps({"tokens": hashes}), mode=0o600)
        except OSError as error:
            log.error("cannot save %s (%s)", self.path, error)
            raise TokensNotSaved(f"cannot write {self.path.name}: "
                                 f"{error.strerror or error}") from error
