"""``companion run``: the box, wired and run until SIGTERM / SIGINT (CONTRACT.md section 1).

What it promises: the chosen backend's hardware (or the simulated one, drawn in the terminal
with keys for buttons when both ends are a terminal), the journal in the state dir, the
serial line as a channel (``--serial pty`` prints ``serial=<path>``; a device that is missing
or vanishes is reopened with backoff), the table page when ``--web`` or ``[web]`` asks for it,
and off a Pi (the fake backend) by default on loopback unless ``--no-web`` (``web=<url>``
printed; "Open <url> on this computer" on standard error for a loopback page), systemd's
notify protocol when it runs under systemd, then ``ready``.
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
        _announce_page(box.web.url, box.web.server.server_address[0],
                       getattr(box.hardware.display, "preview", None))
    return box.run()


WEB_DEFAULT_PORT = 8080
DEFAULT_SOURCE = "the default table page (--no-web turns it off)"


def _web_address(args: argparse.Namespace, config: Config, backend: str) -> WebAddress | None:
    """Where the table page listens, or None when the web is off.

    ``--web [HOST:]PORT`` or ``[web] listen`` choose; with neither, the fake backend serves
    it on loopback (127.0.0.1:8080, trusted, nothing exposed: the first face a newcomer on a
    laptop meets) and a Pi serves nothing. ``--no-web`` turns it off everywhere. Where no port
    was named (the default, ``--web`` alone) a busy 8080 falls back to a free port; a port
    that was named and is busy stops start-up (bootstrap._serve_web). companion.web is
    imported only when it is on (bootstrap.build_web)."""
    from companion.config import parse_listen

    if getattr(args, "no_web", False):
        return None
    web = getattr(args, "web", None)
    listen = web if web is not None else config["web"]["listen"]
    if web is None and not listen:
        if backend != "fake":
            return None
        return WebAddress("127.0.0.1", WEB_DEFAULT_PORT, DEFAULT_SOURCE, any_port=True)
    # On a Pi the phones at the table are on the LAN; pairing guards every other client.
    default_host = "127.0.0.1" if backend == "fake" else "0.0.0.0"  # noqa: S104
    source = "--web" if web is not None else "[web] listen"
    if not listen:
        return WebAddress(default_host, WEB_DEFAULT_PORT, source, any_port=True)
    try:
        host, port = parse_listen(listen, default_host)
    except ValueError as error:
        raise UsageError(f"{source} {listen!r}: {error}") from None
    return WebAddress(host, port, source)


def _announce_page(url: str, host: str, preview: Any) -> None:
    """Tell the person at the terminal where the page is: on standard error (standard output
    keeps its machine-read lines: ``web=<url>``, ``ready``) and in the terminal simulator's
    status line. Only for a loopback page: "this computer" is the only one that can open it."""
    if not host.startswith("127.") and host not in ("localhost", "::1"):
        return
    message = f"Open {url} on this computer"
    print(message, file=sys.stderr, flush=True)
    if preview is not None:
        preview.show_page(message)


def _notifier(ready_status: str) -> Any:
    try:
        from companion.adapters.sd_notify import SystemdNotifier
    except ImportError:
        return None
    return SystemdNotifier(ready_status=ready_status)
