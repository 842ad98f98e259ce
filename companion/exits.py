"""The command line's exit statuses and its one usage error (CONTRACT.md section 1).

What it promises: ``EXIT_OK`` (0) for success, ``EXIT_FAILED`` (1) for a failed check or game
action, ``EXIT_USAGE`` (2) for bad usage or a bad input file; a :class:`UsageError` anywhere
in a command's handler ends the command with ``EXIT_USAGE`` and its one-line message.

It is its own module so that ``cli.py`` (parsing) and the commands it calls
(``run_command.py``, ``score_command.py``) all import it and never each other back.
"""

from __future__ import annotations

from typing import Final

from companion.errors import CompanionError

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2


class UsageError(CompanionError):
    """Bad usage or a bad input file: exit 2 with this message (code ``usage``)."""

    def __init__(self, message: str) -> None:
        super().__init__("usage", message)
