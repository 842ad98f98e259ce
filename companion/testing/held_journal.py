"""The real journal with a hook before every commit: to model a slow card, or hold a write.

:class:`GatedJournal` is the SQLite journal of :mod:`companion.adapters.journal`, unchanged,
except that its ``before_commit`` callable (if set) runs inside every write's transaction,
after the write's statements and before its commit (where SQLite syncs the write-ahead log).
:func:`gated_opener` opens one for ``bootstrap.build_box(journal_opener=...)``.

Two uses:

- the bench's modelled SD card (:mod:`companion.bench.sd_card`) waits there, as a card's
  fsync does;
- :class:`HoldGate` stops there: once armed, the next write tells whoever waits (with the
  frame the box showed at that moment) and then blocks for good, on an event nobody sets,
  never on a timer. A test then cuts the power (SIGKILL) with a press drawn and not yet on
  disk (tests/e2e/test_power_cut_after_frame.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from companion.adapters.journal import Journal


class GatedJournal(Journal):
    """The journal; ``before_commit`` runs before each write's commit (module docstring)."""

    before_commit: Callable[[], None] | None = None

    def _before_commit(self) -> None:
        if self.before_commit is not None:
            self.before_commit()


def gated_opener(before_commit: Callable[[], None]) -> Callable[[Path], Journal]:
    """A journal opener (``Journal.open_or_in_memory``'s shape) for a :class:`GatedJournal`
    that calls ``before_commit`` before every commit."""

    def open_journal(state_dir: Path) -> Journal:
        journal = GatedJournal.open_or_in_memory(state_dir)
        assert isinstance(journal, GatedJournal)
        journal.before_commit = before_commit
        return journal

    return open_journal


class HoldGate:
    """Lets every write through until :meth:`arm`; the next write then calls ``held`` and
    blocks its thread for good (module docstring)."""

    def __init__(self, held: Callable[[], None]) -> None:
        self.held = held
        self.armed = threading.Event()
        self._never = threading.Event()

    def arm(self) -> None:
        self.armed.set()

    def __call__(self) -> None:
        if not self.armed.is_set():
            return
        self.held()
        self._never.wait()  # until the process is killed
