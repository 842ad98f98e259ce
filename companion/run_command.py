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
import logging
import random
import sys
from functools import partial
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.exits import UsageError


def run_box(args: argparse.Namespace, config: Config, state_dir: Path,
            ready_status: str) -> int:
    """The box itself: hardware, controller, channels (serial, web), keyboard, the loop."""
    from companion.adapters.clock import MonotonicClock
    from companion.adapters.serial_link import PtyLink, open_device, open_link
    from companion.bootstrap import build_controller, build_hardware, resolve_backend
    from companion.runtime import EventLoop, SerialChannel

    backend = resolve_backend(args.backend)
    interactive = backend == "fake" and sys.stdin.isatty() and sys.stdout.isatty()
    loop: EventLoop | None = None

    def on_edge(button: Any, pressed: bool) -> None:
        if loop is not None:
            loop.post_edge(button, pressed)

    from companion.adapters.terminal import KEY_HELP, Keyboard

    hardware = build_hardware(config, backend, on_edge=on_edge,
                              preview=sys.stdout if interactive else None,
                              preview_footer=KEY_HELP)
    controller = build_controller(config, hardware, clock=MonotonicClock(),
                                  state_dir=state_dir, rng=random.Random())
    serial_url, baudrate = config["serial"]["url"], config["serial"]["baudrate"]
    try:
        link = open_link(serial_url, baudrate)
    except OSError as error:
        # A serial adapter not plugged in yet: play on, and keep trying to open it.
        logging.getLogger("companion").error("serial line %s: %s; retrying", serial_url, error)
        link = None
    preview = getattr(hardware.display, "preview", None)
    if isinstance(link, PtyLink):
        print(f"serial={link.peer_path}", flush=True)
        if preview is not None:
            # The line above scrolls away; the simulator's status line keeps the path.
            preview.show_serial(link.peer_path)
    channels = []
    if serial_url != "none":
        # A device that is missing or vanishes is reopened with backoff; a pty cannot be.
        reopen = None if serial_url == "pty" else partial(open_device, serial_url, baudrate)
        channels.append(SerialChannel(link, reopen=reopen))
    web = _web_service(args, config, backend, state_dir, controller)
    if web is not None:
        channels.append(web.channel)
        print(f"web={web.url}", flush=True)
    loop = EventLoop(controller, out=sys.stdout, channels=channels,
                     notifier=_notifier(ready_status))
    keyboard = None
    if interactive:
        keyboard = Keyboard(sys.stdin.fileno(), loop.post_gesture, loop.stop)
        keyboard.start()
    try:
        return loop.run()
    finally:
        if keyboard is not None:
            keyboard.close()
        if preview is not None:
            preview.close()
        # Checkpoint and close: after a clean stop no game lives only in the -wal file.
        controller.journal.close()
        hardware.close()


WEB_DEFAULT_PORT = 8080


def _web_service(args: argparse.Namespace, config: Config, backend: str, state_dir: Path,
                 controller: Any) -> Any:
    """The table page's server, bound (not yet serving), or None when the web is off.
    companion.web is imported only here, so a box without it starts as before."""
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
    from companion.bootstrap import build_web

    try:
        return build_web(config, controller, host=host, port=port, state_dir=state_dir)
    except OSError as error:
        raise UsageError(f"{source}: cannot listen on {host}:{port}: "
                         f"{error.strerror or error}") from None


def _notifier(ready_status: str) -> Any:
    try:
        from companion.adapters.sd_notify import SystemdNotifier
    except ImportError:
        return None
    return SystemdNotifier(ready_status=ready_status)
