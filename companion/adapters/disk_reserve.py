"""A ballast file that holds disk space in reserve for the journal.

A full SD card must not cost the table an acknowledged action. The journal keeps a file of
real (random, so incompressible) bytes beside itself; when a write fails for lack of space it
deletes the file and writes again at once, into the space that frees. Once the disk has room
again the ballast is written back, so the next time the disk fills there is a reserve again.

What it promises:
- :meth:`Reserve.ensure` never raises. It writes the ballast only when the file system shows
  at least twice its size free, so that writing it back never takes the last free space the
  journal needs; a failed attempt removes what it wrote and backs off (it then skips 1, 2, 4,
  ... up to :data:`MAX_SKIPPED` calls before it tries again).
- :meth:`Reserve.release` deletes the ballast and says whether there was one to delete.
- A reserve of size 0 is no reserve: it is always "present" and never released.
- :func:`write_on_a_full_disk` makes room in order (the reserve first, then whatever else may
  give way in the space it frees: the journal's kept keys, issue #38, 4), then writes again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from companion.adapters.journal_rows import JournalUnavailable

log = logging.getLogger(__name__)
_Result = TypeVar("_Result")

RESERVE_NAME = "reserve.bin"
RESERVE_BYTES = 1 << 20
"""Room for about 8,900 journaled actions once the disk is full (docs/journal.md)."""

MAX_SKIPPED = 64
_CHUNK = 64 * 1024


class Reserve:
    """The ballast file at ``path``, ``size`` bytes long; see the module docstring."""

    def __init__(self, path: Path, size: int = RESERVE_BYTES) -> None:
        self.path = path
        self.size = size
        self._failures = 0
        self._skip = 0
        try:
            self.present = size == 0 or path.stat().st_size == size
        except OSError:
            self.present = False

    def ensure(self) -> bool:
        """Write the ballast if it is missing and the disk has room; whether it is there."""
        if self.present:
            return True
        if self._skip > 0:
            self._skip -= 1
            return False
        try:
            stats = os.statvfs(self.path.parent)
            free = stats.f_bavail * stats.f_frsize
            if free < 2 * self.size:
                return False  # not an attempt: the disk is still (nearly) full
            self._write()
        except OSError as error:
            with contextlib.suppress(OSError):
                self.path.unlink()
            self._failures += 1
            self._skip = min(2 ** self._failures, MAX_SKIPPED)
            log.warning("could not write the disk reserve %s (%s); trying again later",
                        self.path, error)
            return False
        self._failures = 0
        self.present = True
        return True

    def release(self) -> bool:
        """Delete the ballast, freeing its space; whether there was one to free."""
        if self.size == 0:
            return False
        try:
            self.path.unlink()
        except FileNotFoundError:
            released = False
        except OSError as error:
            log.error("could not release the disk reserve %s: %s", self.path, error)
            return False
        else:
            released = True
        self.present = False
        return released

    def _write(self) -> None:
        descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            written = 0
            while written < self.size:
                written += os.write(descriptor, os.urandom(min(_CHUNK, self.size - written)))
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        # The new name must survive a power cut too, or the reserve silently vanishes.
        with contextlib.suppress(OSError):
            folder = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)


def write_on_a_full_disk(write: Callable[[], _Result], error: BaseException,
                         is_full: Callable[[BaseException], bool],
                         make_room: Sequence[Callable[[], bool]]) -> _Result:
    """``write`` failed with ``error``, a full disk: every way of ``make_room``, in order (the
    reserve first: its space is what the others need to write their own changes), then
    ``write`` once more; JournalUnavailable when none freed anything, or the disk still
    refuses."""
    freed = [free_some() for free_some in make_room]
    if not any(freed):
        raise JournalUnavailable(str(error)) from error
    try:
        return write()
    except (sqlite3.Error, OSError) as again:
        raise JournalUnavailable(str(again)) from again
