"""How the daemon's runs end, kept in its state directory, so a restart and the doctor can tell.

Promises:
- One small JSON file, `run-record.json` in the state directory, replaced atomically (a
  temporary file, then a rename), so a power cut leaves the old record or the new one.
- `LastRunFile.begin()` at start reads how the previous run ended, then marks this run as running.
  `crashed(error)` records a one-line reason (`ValueError: bad line`, no traceback) and
  `stopped()` records a clean stop. A start that finds the previous run still marked running
  knows it did not end cleanly.
- Crashes are counted in a row: each crash adds one, a clean stop clears the count and the
  reason. A run marked running that died on the same boot counts as a crash (killed by the
  watchdog, the out-of-memory killer or a signal, so no reason was written); one from an
  earlier boot ended with the machine (a power cut, the usual way a board-game box goes off)
  and does not count.
- It never stops the box: a record that cannot be read counts as none (and is replaced), one
  that cannot be written is logged as a warning once and the box runs on.
- `parse(text)` and `ready_status(previous)` are pure, for the doctor and for sd_notify's STATUS.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from companion.adapters.atomic_file import write_atomically

__all__ = ["CRASHED", "FILE_NAME", "RUNNING", "STOPPED", "LastRun", "LastRunFile", "crash_reason",
           "current_boot_id", "parse", "ready_status"]

log = logging.getLogger(__name__)

FILE_NAME = "run-record.json"
BOOT_ID_PATH = "/proc/sys/kernel/random/boot_id"
MAX_REASON_CHARS = 300
KILLED = ("ended without a clean stop or a crash report (killed: the watchdog, out of memory "
          "or a signal; journalctl -u companion says which)")

RUNNING, STOPPED, CRASHED = "running", "stopped", "crashed"


@dataclass(frozen=True)
class LastRun:
    """What the record says: the last run's state, crashes in a row, and the last reason."""

    state: str = STOPPED
    crashes: int = 0
    last_crash: str = ""
    boot_id: str = ""
    pid: int = 0


def parse(text: str | None) -> LastRun | None:
    """The record in `text`, or None if there is none or it is not a record."""
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("state") not in (RUNNING, STOPPED, CRASHED):
        return None
    crashes, pid = data.get("crashes", 0), data.get("pid", 0)
    return LastRun(state=data["state"],
                   crashes=crashes if isinstance(crashes, int) and crashes >= 0 else 0,
                   last_crash=str(data.get("last_crash", "")),
                   boot_id=str(data.get("boot_id", "")),
                   pid=pid if isinstance(pid, int) else 0)


def crash_reason(error: BaseException) -> str:
    """One line: the exception's type and message, whitespace folded, cut to a sane length."""
    message = " ".join(str(error).split())
    reason = f"{type(error).__name__}: {message}" if message else type(error).__name__
    if len(reason) > MAX_REASON_CHARS:
        reason = reason[:MAX_REASON_CHARS - 3] + "..."
    return reason


def ready_status(previous: LastRun) -> str:
    """The `systemctl status` line once the box is up: "ready", or what it recovered from."""
    if previous.crashes <= 0:
        return "ready"
    times = "crash" if previous.crashes == 1 else "crashes"
    return f"ready; recovered after {previous.crashes} {times}, last: {previous.last_crash}"


def current_boot_id(path: str = BOOT_ID_PATH) -> str:
    """This boot's id (Linux), or "" where there is none (macOS): then every death counts."""
    try:
        return Path(path).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


class LastRunFile:
    """The record of one state directory. See the module docstring for what each call writes."""

    def __init__(self, state_dir: Path, *, boot_id: str | None = None,
                 pid: int | None = None) -> None:
        self.path = Path(state_dir) / FILE_NAME
        self.boot_id = current_boot_id() if boot_id is None else boot_id
        self.pid = os.getpid() if pid is None else pid
        self.current = LastRun(state=RUNNING, boot_id=self.boot_id, pid=self.pid)
        self._warned = False

    def read(self) -> LastRun | None:
        """The record as it is on disk (None: no record, or not one)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            log.warning("cannot read %s (%s): starting a new record", self.path, error)
            return None
        found = parse(text)
        if found is None:
            log.warning("%s is not a run record: starting a new one", self.path)
        return found

    def begin(self) -> LastRun:
        """Mark this run as running; answer how the runs before it ended (crashes in a row)."""
        before = self.read() or LastRun()
        if before.state == RUNNING and (not before.boot_id or before.boot_id == self.boot_id):
            before = replace(before, state=CRASHED, crashes=before.crashes + 1,
                             last_crash=KILLED)
        self.current = LastRun(state=RUNNING, crashes=before.crashes,
                               last_crash=before.last_crash, boot_id=self.boot_id,
                               pid=self.pid)
        self._write(self.current)
        return before

    def crashed(self, error: BaseException) -> None:
        """This run is ending on `error`: count it and keep its one-line reason."""
        self.current = replace(self.current, state=CRASHED, crashes=self.current.crashes + 1,
                               last_crash=crash_reason(error))
        self._write(self.current)

    def stopped(self) -> None:
        """This run ended cleanly: the crashes before it are over."""
        self.current = LastRun(state=STOPPED, boot_id=self.boot_id, pid=self.pid)
        self._write(self.current)

    def _write(self, record: LastRun) -> None:
        try:
            write_atomically(self.path, json.dumps(asdict(record)) + "\n")
        except OSError as error:
            if not self._warned:
                self._warned = True
                log.warning("cannot write the run record %s: %s (the box runs on)",
                            self.path, error)
