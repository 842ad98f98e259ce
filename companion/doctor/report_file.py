"""Where `companion doctor --report` writes its file, and proof that it can before it asks.

What it promises:
- `default_path()` is `companion-report.md` on the SD card's boot partition (/boot/firmware,
  else /boot), the one folder any computer can read once the card is pulled: no SSH needed to
  get the report off a headless box. Where neither folder exists (a laptop), the current folder.
- `ReportFile.claim()` writes the file's first lines at once, before the report asks anything,
  so a place that cannot be written is refused before the maker presses a button; `write`
  then replaces them with the whole report. Both raise `ReportFileError`, whose message says
  what to do (run with sudo, or name another FILE).
- A boot partition mounted read-only (the project's card mounts it so, for power cuts) is
  remounted read-write only for each write and read-only again straight after, through an
  injectable runner (`mount -o remount,...`: an argument list, never a shell). No other
  read-only folder is ever remounted: the card's root stays read-only.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from companion.doctor.checks import BOOT_DIRS
from companion.doctor.probe import Runner, run_command
from companion.errors import FixedCodeError

__all__ = ["FILE_NAME", "ReportFile", "ReportFileError", "default_path", "is_read_only"]

FILE_NAME = "companion-report.md"


class ReportFileError(FixedCodeError):
    """The report cannot be written where it was asked to go; the message says what to do."""

    CODE = "report-file"


def default_path(boot_dirs: tuple[str, ...] | None = None) -> Path:
    """The boot partition's companion-report.md, or ./companion-report.md off a Pi."""
    for folder in BOOT_DIRS if boot_dirs is None else boot_dirs:
        if Path(folder).is_dir():
            return Path(folder) / FILE_NAME
    return Path(FILE_NAME)


def is_read_only(folder: Path) -> bool:
    """The file system holding ``folder`` is mounted read-only."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


class ReportFile:
    """The report's file: claimed before the first question, written whole at the end."""

    def __init__(self, path: Path, *, run: Runner = run_command,
                 read_only: Callable[[Path], bool] = is_read_only,
                 boot_dirs: tuple[str, ...] | None = None) -> None:
        self.path = path
        self._run = run
        self._read_only = read_only
        self._boot_dirs = BOOT_DIRS if boot_dirs is None else boot_dirs

    def claim(self, first_lines: str) -> None:
        """Write the first lines now: the proof that the whole report can be written later."""
        self.write(first_lines + "\n(The report stopped before it was finished: run it "
                   "again.)\n")

    def write(self, text: str) -> None:
        folder = self.path.parent if str(self.path.parent) else Path(".")
        remount = self._read_only(folder)
        if remount and str(folder.resolve()) not in self._boot_dirs:
            raise ReportFileError(f"{folder} is on a read-only file system: name a FILE on the "
                                  "boot partition (the default) or under /tmp (gone at power "
                                  "off)")
        if remount:
            self._mount(folder, "rw")
        try:
            self.path.write_text(text, encoding="utf-8")
        except OSError as error:
            hint = (" (the boot partition is root's: run it with sudo)"
                    if isinstance(error, PermissionError) else "")
            raise ReportFileError(f"{self.path}: cannot write it: "
                                  f"{error.strerror or error}{hint}") from None
        finally:
            if remount:
                self._mount(folder, "ro")

    def _mount(self, folder: Path, mode: str) -> None:
        try:
            status, out = self._run(["mount", "-o", f"remount,{mode}", str(folder)])
        except (OSError, subprocess.SubprocessError) as error:
            status, out = 1, str(error)
        if status != 0 and mode == "rw":
            raise ReportFileError(f"{folder} is mounted read-only and could not be made "
                                  f"writable ({out.strip() or f'mount exit {status}'}): run "
                                  "it as root (sudo companion doctor --report)")
