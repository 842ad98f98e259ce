"""The bench's SD card: the real journal, each commit slowed as a plain card slows its sync.

A PC's SSD syncs SQLite's write-ahead log in well under a millisecond; a plain SD card takes
tens of milliseconds, and a worn or cheap one spikes past 100 ms. :class:`SdCard` models the
plain card: a journal it opens (:meth:`SdCard.opener`, for ``bootstrap.build_box``) is the real
SQLite journal (companion/testing/held_journal.py's :class:`GatedJournal`) that waits
:data:`SD_SYNC_SECONDS` inside every write's transaction, just before its commit, where SQLite
syncs. The model is the bench's own: nothing outside the bench can turn it on, and no
environment variable is involved. :attr:`SdCard.on` switches it per write, so one run measures
the same presses with and without it; :meth:`SdCard.wait_for_commit` tells the bench when a
write has landed, and :attr:`SdCard.commits` when each one did.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.adapters.journal import Journal
from companion.testing.held_journal import gated_opener

SD_SYNC_SECONDS = 0.030


class SdCard:
    """The modelled card (see the module docstring)."""

    def __init__(self, sync_seconds: float = SD_SYNC_SECONDS) -> None:
        self.sync_seconds = sync_seconds
        self.on = True
        self.commits: list[float] = []  # perf_counter when each write's wait ended
        self._landed = threading.Condition()

    def opener(self) -> Callable[[Path], Journal]:
        return gated_opener(self._sync)

    def _sync(self) -> None:
        if self.on:
            time.sleep(self.sync_seconds)
        with self._landed:
            self.commits.append(time.perf_counter())
            self._landed.notify_all()

    def wait_for_commit(self, seen: int, seconds: float = 2.0) -> None:
        """Wait until more than ``seen`` writes have reached their commit."""
        with self._landed:
            if not self._landed.wait_for(lambda: len(self.commits) > seen, seconds):
                raise RuntimeError("the journal write did not come")
