"""``companion run``: the box, wired and run until SIGTERM / SIGINT (CONTRACT.md section 1).

What it promises: the chosen backend's hardware (or the simulated one, drawn in the terminal
with keys for buttons when both ends are a terminal), the journal in the state dir, the
serial line as a channel (``--serial pty`` prints ``serial=<path>``; a device that is missing
or vanishes is reopened with backoff), the table page when ``--web`` or ``[web]`` asks for it
(``web=<url>`` printed), systemd's notify protocol when it runs under systemd, then ``ready``.
How the run ends is recorded by the caller (companion/cli.py, adapters/last_run.py).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from companion.bootstrap import WebAddress
from companion.config import Config
from companion.exits import UsageError


def run_box(args: argparse.Namespace, config: Config, state_dir: Path,
            ready_status: str) -> int:
    """The box itself (bootstrap.build_box: hardware, controller, channels, keyboard), its
    ``serial=`` and ``web=`` lines, then the loop until SIGTERM / SIGINT."""
    from companion.adapters.clock import MonotonicClock
    from companion.bootstrap import build_box, resolve_backend

    backend = resolve_backend(args.backend)
    interactive = backend == "fake" and sys.stdin.isatty() and sys.stdout.isatty()
    box = build_box(config, backend=backend, clock=MonotonicClock(), state_dir=state_dir,
                    rng=random.Random(), out=sys.stdout, serial=True,
                    web=_web_address(args, config, backend), interactive=interactive,
                    notifier=_notifier(ready_status))
    if box.serial_path is not None:
        print(f"serial={box.serial_path}", flush=True)
    if box.web is not None:
        print(f"web={box.web.url}", flush=True)
    return box.run()


WEB_DEFAULT_PORT = 8080


def _web_address(args: argparse.Namespace, config: Config, backend: str) -> WebAddress | None:
    """Where the table page listens (``--web`` or ``[web] listen``), or None when the web is
    off. companion.web is imported only when it is on (bootstrap.build_web), so a box without
    it starts as before."""
    from companion.config import parse_listen

    listen = args.web if getattr(args, "web", None) is not None else config["web"]["listen"]
    if args.web is None and not listen:
        return None
    # On a Pi the phones at the table are on the LAN; pairing guards every other client.
    default_host = "127.0.0.1" if backend == "fake" else "0.0.0.0"  # noqa: S104
    source = "--web" if args.web is not None else "[web] listen"
    try:
        host, port = (parse_listen(listen, default_host) if listen
                      else (default_host, WEB_DEFAULT_PORT))
    except ValueError as error:
        raise UsageError(f"{source} {listen!r}: {error}") from None
    return WebAddress(host, port, source)


def _notifier(ready_status: str) -> Any:
    try:
        from companion.adapters.sd_notify import SystemdNotifier
    except ImportError:
        return None
    return SystemdNotifier(ready_status=ready_status)
