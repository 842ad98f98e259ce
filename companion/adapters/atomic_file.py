"""Small files replaced whole: a power cut leaves the old contents or the new, never a mix.

:func:`write_atomically` writes a temporary file beside the target, flushes and fsyncs it,
renames it over the target (``os.replace``) and fsyncs the directory, so the rename itself
survives a power cut. The temporary file is removed if anything fails, and the failure is an
``OSError`` for the caller to report in its own words (settings, run record, web tokens).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``text`` (UTF-8), made with permission bits ``mode`` if given."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp",
                                             dir=path.parent)
    try:
        if mode is not None:
            os.fchmod(descriptor, mode)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_directory(path.parent)


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable (a no-op where directories cannot be opened)."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
