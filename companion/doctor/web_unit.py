"""The doctor's `web-unit` check: do the table page's config and the service's sandbox agree?

companion.service runs with `PrivateNetwork=yes`, `IPAddressDeny=any` and
`RestrictAddressFamilies=AF_UNIX`: without the table page's drop-in
(systemd/companion.service.d/web.conf, installed to :data:`DROPIN_PATH` by tools/install.py
while `[web] listen` is set) a box configured with the page exits at start with "Address
family not supported" (issue #19, 8). Rules this check keeps (as every check, see checks.py):

- The web off (`[web] listen = ""`) and no drop-in: OK. The web off but a drop-in there: FAIL,
  the sandbox is opened for nothing.
- The web on: the drop-in must be there, with `PrivateNetwork=no`, `AF_INET` (and `AF_INET6`
  for an IPv6 host) and `SocketBindAllow=tcp:<the port>`; a page served on the LAN (any host
  but loopback) also needs the LAN's ranges in `IPAddressAllow=` (a loopback-only drop-in drops
  every phone). Each FAIL says what differs; the fix is to run the installer again, which
  writes the drop-in from the config.
- The service runs as an unprivileged user with no capabilities (issue #28, 4): a `listen`
  port below 1024 cannot be bound (the service would exit 2 and restart until systemd gives
  up): FAIL, the fix says to choose 1024 or above (8080 is the default).
- The drop-in must re-allow `setpriority` (`SystemCallFilter=setpriority`): without it the
  unit's filter denies the web threads their lower priority.
- It reads the drop-in through the probe (a file read), so it needs no running systemd; the
  unit's own settings are the shipped file's (tests/deploy/test_systemd_web_dropin.py).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any

from companion.doctor.checks import Check, Context
from companion.doctor.probe import DoctorProbe

NAME = "web-unit"
WHAT = ("the table page's [web] listen and the service's network sandbox agree (the drop-in "
        "companion.service.d/web.conf)")
DROPIN_PATH = "/etc/systemd/system/companion.service.d/web.conf"
LAN_RANGE = "192.168.0.0/16"
"""One of the private ranges the LAN drop-in allows (its `IPAddressAllow=`)."""
RELOAD = "sudo systemctl daemon-reload && sudo systemctl restart companion"
INSTALL = "in the project folder: sudo python3 tools/install.py"
PRIVILEGED_PORTS = 1024
"""Ports below this need CAP_NET_BIND_SERVICE, which companion.service never has."""


def _settings(text: str) -> dict[str, list[str]]:
    """The drop-in's `Key=value` lines, each key's values in order (lists merge in systemd)."""
    found: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", ";", "[")) and "=" in line:
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _problems(host: str, port: int, settings: dict[str, list[str]]) -> list[str]:
    problems = []
    if settings.get("PrivateNetwork", ["yes"])[-1] != "no":
        problems.append("it does not set PrivateNetwork=no")
    families = " ".join(settings.get("RestrictAddressFamilies", [])).split()
    wanted = ["AF_INET", "AF_INET6"] if ":" in host else ["AF_INET"]
    missing = [family for family in wanted if family not in families]
    if missing:
        problems.append(f"RestrictAddressFamilies= lacks {' '.join(missing)}")
    filters = " ".join(settings.get("SystemCallFilter", [])).split()
    if "setpriority" not in filters:
        problems.append("SystemCallFilter= does not allow setpriority, so the web threads "
                        "cannot lower their CPU priority below the timer's")
    binds = " ".join(settings.get("SocketBindAllow", [])).split()
    if f"tcp:{port}" not in binds and str(port) not in binds:
        problems.append(f"SocketBindAllow= does not allow tcp:{port}, the page's port")
    allowed = " ".join(settings.get("IPAddressAllow", [])).split()
    if not _is_loopback(host) and LAN_RANGE not in allowed and "any" not in allowed:
        problems.append("IPAddressAllow= lets no LAN address in, but the page serves the LAN")
    return problems


def check_web_unit(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    from companion.config import parse_listen

    listen = str(config.get("web", {}).get("listen", "") or "")
    dropin = probe.read_text(DROPIN_PATH)
    if not listen.strip():
        if dropin is not None:
            return Check(NAME, False, f"[web] listen is off, but {DROPIN_PATH} opens the "
                         "service's network sandbox for it",
                         f"{INSTALL} (it removes the drop-in), or: sudo rm {DROPIN_PATH} "
                         f"&& {RELOAD}")
        return Check(NAME, True, "the table page is off; the service keeps no network")
    try:
        host, port = parse_listen(listen, "0.0.0.0")  # noqa: S104 - a bare PORT on a Pi
    except ValueError as error:
        return Check(NAME, False, f"[web] listen {listen!r}: {error}",
                     "write [web] listen as PORT or HOST:PORT, e.g. 0.0.0.0:8080")
    if port < PRIVILEGED_PORTS:
        return Check(NAME, False, f"[web] listen = {listen!r}: port {port} is below "
                     f"{PRIVILEGED_PORTS}, which the service (an unprivileged user with no "
                     "capabilities) cannot bind: it would exit and restart until systemd gives "
                     "up", f"choose a port of {PRIVILEGED_PORTS} or above in "
                     "/etc/companion/companion.toml ([web] listen = \"0.0.0.0:8080\"), then "
                     f"{INSTALL}")
    if dropin is None:
        return Check(NAME, False, f"[web] listen = {listen!r}, but {DROPIN_PATH} is missing: "
                     "the service's sandbox (PrivateNetwork=yes, RestrictAddressFamilies="
                     "AF_UNIX) stops the page with 'Address family not supported'",
                     f"{INSTALL} (it writes the drop-in for this port and restarts the "
                     "service)")
    problems = _problems(host, port, _settings(dropin))
    if problems:
        return Check(NAME, False, f"{DROPIN_PATH} does not fit [web] listen = {listen!r}: "
                     + "; ".join(problems),
                     f"{INSTALL} (it writes the drop-in from the config and restarts the "
                     "service)")
    where = "loopback" if _is_loopback(host) else "the LAN"
    return Check(NAME, True, f"[web] listen = {listen!r} and {DROPIN_PATH} agree (port {port}, "
                 f"{where})")


PORT_NAME = "web-port"
PORT_WHAT = ("the table page's port is free, or held by the companion service itself (a "
             "port another program holds makes the service exit 2 at start)")


def check_web_port(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    """Issue #38, 7: the doctor did not see that the page's port was taken, and the service
    then exited 2 at each start. Free: OK. Taken while the service runs: OK (it is the
    service's own, most likely; the FAIL of ``last-run`` says otherwise). Taken while it does
    not: FAIL, with how to find the holder and the fix."""
    from companion.config import parse_listen

    listen = str(config.get("web", {}).get("listen", "") or "")
    if not listen.strip():
        return Check(PORT_NAME, True, "the table page is off; it needs no port")
    try:
        host, port = parse_listen(listen, "0.0.0.0")  # noqa: S104 - a bare PORT on a Pi
    except ValueError:
        return Check(PORT_NAME, True, f"[web] listen {listen!r} does not parse (see {NAME})")
    error = probe.port_free(host, port)
    if error is None:
        return Check(PORT_NAME, True, f"port {port} on {host} is free for the page")
    if probe.service_state("companion") == "active":
        return Check(PORT_NAME, True, f"port {port} is held, and the companion service is "
                     "active: the page's own")
    return Check(PORT_NAME, False, f"port {port} on {host} is taken by another program "
                 f"({error}): the service would exit 2 at start",
                 f"see who holds it: sudo ss -ltnp 'sport = :{port}'; stop it, or choose "
                 "another port in /etc/companion/companion.toml ([web] listen), then "
                 f"{INSTALL}")
