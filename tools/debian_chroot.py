"""A native Debian root entered with chroot, and left clean: tools/debian_root.py's `Chroot`.

Promises:
- `Chroot` runs commands under `chroot` with /proc, /dev, /dev/pts, /dev/shm and /sys bound
  (and the root bound onto itself, so that / inside is a mount point). Leaving the context,
  even by an exception or a signal, stops every process whose root is inside
  (`processes_inside`), unmounts the binds (lazily if busy) and checks with `findmnt` that
  nothing is mounted below the root any more; it raises RootError if something still is.
- Standard library only; every command an argument list, printed, with a timeout.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from debian_root import (
    CHROOT_BINDS,
    RootError,
    _require,
    _say,
    inside_env,
    run_logged,
    unmount_below,
)

__all__ = ["Chroot", "processes_inside"]


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def processes_inside(root: Path) -> list[int]:
    """PIDs of processes whose root directory is `root` (left behind by a chroot)."""
    wanted = str(root.resolve())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if os.readlink(entry / "root") == wanted:
                found.append(int(entry.name))
    return found


class Chroot:
    """A native root with /proc, /dev, /dev/pts and /sys bound, for `with`.

    Leaving (normally, by an exception, or by SIGTERM/SIGHUP turned into one) stops the
    processes still inside, unmounts every bind in reverse order and checks with findmnt that
    nothing stays mounted below the root."""

    def __init__(self, root: Path, out: TextIO = sys.stdout,
                 binds: Sequence[tuple[Path, str]] = ()) -> None:
        self.root = root.resolve()
        self.out = out
        # The root bound onto itself first: inside, / is then a mount point, which
        # `ip netns exec` needs (it runs `mount --make-rslave /`).
        self.binds = [(self.root, "/")] + [(Path(p), p) for p in CHROOT_BINDS] + list(binds)
        self.mounted: list[Path] = []
        self._old_handlers: dict[int, object] = {}

    def __enter__(self) -> Chroot:
        _require("mount", "umount", "findmnt", "chroot")
        for sig in (signal.SIGTERM, signal.SIGHUP):
            self._old_handlers[sig] = signal.signal(sig, _raise_interrupt)
        try:
            for source, target in self.binds:
                where = self.root / target.lstrip("/")
                where.mkdir(parents=True, exist_ok=True)
                run_logged(["mount", "--bind", str(source), str(where)], self.out, timeout=60)
                self.mounted.append(where)
        except BaseException:
            self._leave()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._leave()

    def _leave(self) -> None:
        try:
            for pid in processes_inside(self.root):
                _say(self.out, f"  stopping leftover process {pid} inside {self.root}")
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            # The binds and whatever was mounted inside (ip netns, a test's tmpfs), the
            # latest first; then findmnt must show nothing left below the root.
            self.mounted.clear()
            unmount_below(self.root, self.out)
        finally:
            for sig, handler in self._old_handlers.items():
                signal.signal(sig, handler)  # type: ignore[arg-type]
            self._old_handlers.clear()

    def run(self, argv: Sequence[str], *, timeout: float = 3600, cwd: str = "/",
            env: Mapping[str, str] | None = None, check: bool = True) -> int:
        """Run `argv` inside (as root, at native speed)."""
        if not self.mounted:
            raise RootError("Chroot.run outside its `with` block")
        inner = ["env", "-C", cwd, *argv] if cwd != "/" else list(argv)
        return run_logged(["chroot", str(self.root), *inner], self.out, timeout=timeout,
                          env=inside_env(env), check=check)


