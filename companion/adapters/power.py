"""Power the box off: the runtime's way to perform the menu's "Power off" (core/power.py).

Promises:
- On a Pi it runs `systemctl poweroff` (an argument list, no shell, a timeout). systemd then
  stops the service like any stop (SIGTERM: save, blank, exit 0) and halts. The service runs
  as an unprivileged DynamicUser, so logind allows it only through the polkit rule that
  tools/install.py installs (firmware_config/50-companion-poweroff.rules). If the command
  fails, the reason is logged and the box plays on.
- On the fake backend there is no power to switch: it says so on standard output, in one line,
  and stops the program cleanly (exit 0), the same way as SIGTERM.
- Errors of the OS (no systemctl, a refusal) are caught here and never reach the loop.
"""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Callable, Sequence
from typing import TextIO

__all__ = ["FAKE_MESSAGE", "POWER_OFF_COMMAND", "power_off"]

log = logging.getLogger(__name__)

POWER_OFF_COMMAND = ("systemctl", "poweroff")
FAKE_MESSAGE = ("power off: the fake backend has no power to switch off, so the companion "
                "stops here instead (on a Pi: systemctl poweroff)")
Runner = Callable[[Sequence[str]], int]


def _run(argv: Sequence[str]) -> int:
    return subprocess.run(list(argv), check=False, timeout=30).returncode  # noqa: S603


def power_off(*, pi: bool, stop: Callable[[str], None], out: TextIO,
              run: Runner = _run) -> bool:
    """Switch the box off (a Pi) or stop the program (the fake backend). True if asked of
    the system (or stopped); False if the system refused, which is logged."""
    if not pi:
        out.write(FAKE_MESSAGE + "\n")
        out.flush()
        stop("power off (fake backend)")
        return True
    try:
        status = run(POWER_OFF_COMMAND)
    except (OSError, subprocess.SubprocessError) as error:
        log.error("power off: %s failed: %s", " ".join(POWER_OFF_COMMAND), error)
        return False
    if status != 0:
        log.error("power off: %s exited %d (is the polkit rule of tools/install.py "
                  "installed?)", " ".join(POWER_OFF_COMMAND), status)
        return False
    return True
