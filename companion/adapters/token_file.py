"""The table page's paired tokens on disk: ``web-tokens.json`` in the state dir.

The web's pairing (companion/web/pairing.py) keeps token hashes; this file keeps them between
runs. The composition root hands a :class:`TokenFile` to the web, so the web itself touches no
file. Rules it enforces:

- Only SHA-256 hashes are written (the pairing hashes before it saves), as
  ``{"tokens": [...]}``, replaced whole (companion/adapters/atomic_file.py), mode 0600.
- A file that cannot be read or is not a list of strings is logged and read as empty: the
  phones pair again, the box starts all the same.
- A write that fails is logged: the pairing holds until the box restarts.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Final

from companion.adapters.atomic_file import write_atomically

log = logging.getLogger(__name__)

TOKENS_FILE: Final = "web-tokens.json"


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
        try:
            write_atomically(self.path, json.dumps({"tokens": hashes}), mode=0o600)
        except OSError as error:
            # The pairing still holds until a restart; say why it will not survive one.
            log.error("cannot save %s (%s); pairings last until restart", self.path, error)
