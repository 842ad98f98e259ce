"""The one error family: every error a user (a player, a peer, a file) can cause.

Rules this module sets for the whole package:

- Every such error derives from :class:`CompanionError` and is built as ``(code, message)``:
  ``code`` is the line protocol's error word (``not-allowed``, ``bad-argument``, ``busy``,
  ...), a lowercase word or words joined by ``-``; ``message`` is the sentence a person reads
  on the screen, on the ``err`` line or in the page.
- Transport details are mapped at the edge, never stored here: the HTTP status of a code is the
  web room's business, the exit status of a refusal the command line's.
- Library errors (``sqlite3.Error``, ``OSError``) never cross an adapter: the adapter that
  caught one raises a :class:`CompanionError` (or a subclass) in its place, chained with
  ``raise ... from``.

Pure: the standard library only, so the core, the games and the protocol may all import it.
"""

from __future__ import annotations

from typing import ClassVar


class CompanionError(Exception):
    """An error with a protocol code and a human message, in that order."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


class FixedCodeError(CompanionError):
    """A :class:`CompanionError` whose every instance has the same code, the class's ``CODE``;
    built from the message alone (the code is never passed in another position)."""

    CODE: ClassVar[str] = "error"

    def __init__(self, message: str) -> None:
        super().__init__(self.CODE, message)
