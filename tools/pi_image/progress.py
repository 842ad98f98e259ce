"""Progress lines for long build steps, so a person can tell a build is alive.

A step of tools/build-image or tools/pi-boot can run for many minutes with its output going to a
log file (debootstrap's second stage under emulation: half an hour cold). `Heartbeat` prints,
every `every` seconds while the step runs, one line: the step's name (it names the layer), the
packages installed so far (in the root's dpkg status file when the step builds a root, else
counted in the step's log: dpkg's "Setting up" and debootstrap's "I: Configuring" lines),
the log's last line, and the time elapsed. Nothing is printed for a step that ends sooner.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

BEAT_S = 30.0
# A package configured: dpkg's line (apt-get), and debootstrap's own in its second stage.
CONFIGURED = ("Setting up ", "I: Configuring ")


class LogProgress:
    """What a step has done since this was made: the packages installed in its root (dpkg's
    status file, when the step builds a root), else the packages its log says were set up,
    and the log's last line."""

    def __init__(self, log: TextIO, total: int | None = None, root: Path | None = None) -> None:
        log.flush()
        self.path = Path(log.name)
        self.start = self.path.stat().st_size if self.path.exists() else 0
        self.total = total
        self.root = root

    def __call__(self) -> str:
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.start)
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            text = ""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        last = lines[-1][:90] if lines else "(no output yet)"
        installed = dpkg_installed(self.root) if self.root is not None else None
        if installed is not None:
            done, known = installed
            return f"{done}/{known} packages installed in the root; log: {last}"
        done = sum(1 for line in lines if line.startswith(CONFIGURED))
        count = f"{done}/{self.total}" if self.total else f"{done}"
        return f"{count} packages set up; log: {last}"


def dpkg_installed(root: Path) -> tuple[int, int] | None:
    """(installed, known) packages in ``root``'s dpkg database; None before there is one.

    dpkg rewrites its status file only now and then: the packages it has set up since are
    in its journal (var/lib/dpkg/updates/, one stanza a file, applied in name order)."""
    database = root / "var/lib/dpkg"
    try:
        texts = [(database / "status").read_text(encoding="utf-8", errors="replace")]
        updates = sorted(p for p in (database / "updates").glob("*") if p.name.isdigit())
        texts += [p.read_text(encoding="utf-8", errors="replace") for p in updates]
    except OSError:
        return None
    states: dict[str, str] = {}
    for text in texts:
        for stanza in text.split("\n\n"):
            fields = dict(line.split(": ", 1) for line in stanza.splitlines()
                          if ": " in line and not line.startswith(" "))
            if "Package" in fields and "Status" in fields:
                states[fields["Package"]] = fields["Status"]
    if not states:
        return None
    return sum(1 for status in states.values() if status.endswith(" installed")), len(states)


class Heartbeat:
    """A thread saying `... name: detail (elapsed)` every `every` seconds until stopped."""

    def __init__(self, say: Callable[[str], None], name: str,
                 detail: Callable[[], str] | None = None, every: float = BEAT_S) -> None:
        self.say = say
        self.name = name
        self.detail = detail
        self.every = every
        self.began = time.monotonic()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"heartbeat: {name}", daemon=True)

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()

    def line(self) -> str:
        """The progress line as of now."""
        elapsed = time.monotonic() - self.began
        detail = self.detail() if self.detail else ""
        return (f"   ... {self.name}: {detail + ', ' if detail else ''}"
                f"{int(elapsed // 60)} min {int(elapsed % 60):02d} s so far")

    def _run(self) -> None:
        while not self.stopped.wait(self.every):
            self.say(self.line())
