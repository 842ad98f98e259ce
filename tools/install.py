#!/usr/bin/env python3
"""Turn a fresh Raspberry Pi OS (Lite) into the table companion, in one command.

    sudo python3 tools/install.py                 install, or update an installed box
    sudo python3 tools/install.py --free-serial   also take the login console off /dev/serial0
    sudo python3 tools/install.py --uninstall     put things back (keeps config and state)
    sudo python3 tools/install.py --uninstall --purge   ... and delete config and state too
    python3 tools/install.py --root DIR           stage every file under DIR; run nothing

Promises:
- Standard library only; runs with the distribution's python3. No shell: every command is an
  argument list with a timeout, printed before it runs.
- Idempotent: a second run changes nothing. The firmware settings go into config.txt between
  two marker lines; a file is backed up (NAME.companion-YYYYmmdd-HHMMSS.bak, beside it) before
  the installer changes it, and only then.
- With the table page on for the LAN (`[web] listen` in the config names a port on a
  non-loopback address), an Avahi service file advertises it as _http._tcp on that port, so
  `<hostname>.local` and network browsers find it; with it off or on loopback, no file.
- `--uninstall` removes what the install added (the marked block, the unit, the udev rules, the
  module list, the polkit rule for the menu's "Power off", the Avahi service file, the venv)
  and puts the console word back into cmdline.txt if --free-serial took it out;
  /etc/companion and the service's state stay unless --purge.
- `--root DIR` writes every file under DIR (DIR/etc/..., DIR/boot/firmware/config.txt, ...) and
  only prints the apt-get, pip, groupadd, udevadm and systemctl commands it would run.
- The last lines say what changed and whether a reboot is needed (config.txt or cmdline.txt
  changed).

Layout: INSTALL_STEPS and UNINSTALL_STEPS are tables of named steps, run in order; each step is
a small function of (installer, options) that prints under its section's heading. The Installer
holds the primitives every step shares (write a file if it differs, back it up, remove, run a
command or only print it under --root) and what happened, for the summary.
"""

from __future__ import annotations

import argparse
import grp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TextIO

# Run as a script, Python puts this folder first on sys.path, and the machinery sits beside it.
from install_files import (
    APT_PACKAGES,
    AVAHI_SERVICE_PATH,
    COMMAND_LINK,
    CONFIG_DIR,
    CONFIG_PATH,
    GROUPS,
    INSTALL_STATE,
    MODULES_PATH,
    POLKIT_RULE,
    POLKIT_RULE_PATH,
    POWER_PACKAGES,
    PREFIX,
    RULES_PATH,
    SOURCE,
    STATE_DIRS,
    UNIT_NAME,
    UNIT_PATH,
    VENV,
    Installer,
    InstallError,
    conflicts,
    merge_block,
    remove_block,
    remove_serial_console,
    restore_serial_console,
    serial_url,
    shutdown_by_companion,
    spi_cs_pin,
    wants_uart,
)

LGPIO_PACKAGE = "python3-lgpio"
# PyPI's lgpio has wheels for CPython 3.9-3.12 only; pyproject's `pi` extra carries the same bound.
LGPIO_WHEELS_BELOW = (3, 13)
LGPIO_CHECK = "import lgpio, gpiozero.pins.lgpio; print('lgpio', hex(lgpio.LGPIO_PY_VERSION))"

CONFIG_HEADER = """\
# The table companion's settings, written by tools/install.py from the packaged defaults.
# Edit freely: installs and --uninstall keep this file. Apply with: sudo systemctl restart companion
# Check with: companion doctor

"""


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


@dataclass(frozen=True)
class Options:
    """What the command line asked for, as the steps see it."""

    free_serial: bool = False
    purge: bool = False


class Step(NamedTuple):
    """One row of a step table: its name, the heading it prints under ("" for none), the work."""

    name: str
    section: str
    run: Callable[[Installer, Options], None]


# -- install steps -------------------------------------------------------------------------------


def check_unit(inst: Installer, options: Options) -> None:
    """Refuse a unit file that would not start the program this installs (before any change)."""
    if f"ExecStart={VENV}/bin/companion " not in _source_text(inst, f"systemd/{UNIT_NAME}"):
        raise InstallError(f"systemd/{UNIT_NAME} does not start {VENV}/bin/companion")


def install_packages(inst: Installer, options: Options) -> None:
    """The system packages; lgpio from the distribution (python3-lgpio) wherever it has it."""
    apt_env = {"DEBIAN_FRONTEND": "noninteractive"}
    inst.run(["apt-get", "update"], timeout=900, env=apt_env)
    packages = list(APT_PACKAGES)
    if not inst.staging and apt_candidate(_query(["apt-cache", "policy", LGPIO_PACKAGE])) is None:
        packages.remove(LGPIO_PACKAGE)
        lgpio_without_apt(inst)
    inst.run(["apt-get", "install", "-y", "--no-install-recommends", *packages],
             timeout=1800, env=apt_env)


def apt_candidate(policy: str) -> str | None:
    """The version `apt-cache policy PACKAGE` would install, or None (unknown, or `(none)`)."""
    for line in policy.splitlines():
        key, _, value = line.strip().partition(":")
        if key == "Candidate":
            value = value.strip()
            return None if value in ("", "(none)") else value
    return None


def lgpio_without_apt(inst: Installer, version: tuple[int, int] | None = None,
                      imports_lgpio: Callable[[str], bool] | None = None) -> None:
    """python3-lgpio is not in this system's package sources (it comes from Raspberry Pi's
    archive, which Raspberry Pi OS has and plain Debian has not). On Python 3.13 and later
    PyPI's lgpio has no wheel and would build from source (it needs swig): never try that;
    use an lgpio already installed for the system's python3, or stop and say what to do.
    (`version` and `imports_lgpio` default to this Python and a real import: tests pass them.)"""
    version = (sys.version_info.major, sys.version_info.minor) if version is None else version
    imports_lgpio = _imports_lgpio if imports_lgpio is None else imports_lgpio
    if version < LGPIO_WHEELS_BELOW:
        inst.say(f"  ({LGPIO_PACKAGE} is not in the package sources: the `pi` extra installs "
                 "PyPI's lgpio wheel for this Python)")
        return
    if imports_lgpio(sys.executable):
        inst.say(f"  ({LGPIO_PACKAGE} is not in the package sources; the lgpio already "
                 "installed for python3 is used, the venv sees the system's site packages)")
        return
    raise InstallError(
        f"{LGPIO_PACKAGE} is not in this system's package sources, and PyPI's lgpio has no "
        f"wheel for Python {version[0]}.{version[1]} (pip would build "
        "it from source, which needs swig and fails without it). Raspberry Pi OS has it "
        "(from archive.raspberrypi.com): run the installer there, or install lgpio for "
        "python3 first; docs/pi-trial.md")


def _imports_lgpio(python: str) -> bool:
    """Whether `python` imports lgpio (in a scratch folder: lgpio leaves a FIFO where it runs)."""
    with tempfile.TemporaryDirectory(prefix="companion-lgpio-") as scratch:
        try:
            done = subprocess.run(  # noqa: S603 (an argument list, no shell)
                [python, "-c", "import lgpio"], cwd=scratch, capture_output=True,
                timeout=300, check=False, env={**os.environ, "LG_WD": scratch})
        except (OSError, subprocess.TimeoutExpired):
            return False
    return done.returncode == 0


def _query(argv: Sequence[str]) -> str:
    """The standard output of a read-only query (empty if it cannot run)."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True,  # noqa: S603
                              timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout


def add_groups(inst: Installer, options: Options) -> None:
    for group in GROUPS:
        if inst.staging or not _group_exists(group):
            inst.run(["groupadd", "--system", "-f", group], timeout=60)


def install_program(inst: Installer, options: Options) -> None:
    python = f"{VENV}/bin/python"
    if inst.staging or not Path(python).exists():
        inst.run([sys.executable, "-m", "venv", "--system-site-packages", VENV], timeout=600)
    if inst.staging:
        inst.run([python, "-m", "pip", "install", "--upgrade", f"{inst.source}[pi]"])
        return
    # Build from a copy, so pip (as root) leaves no build/ or *.egg-info in the checkout.
    with tempfile.TemporaryDirectory(prefix="companion-src-") as tmp:
        copy = Path(tmp) / "src"
        shutil.copytree(inst.source, copy, ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache"))
        inst.run([python, "-m", "pip", "install", "--upgrade", f"{copy}[pi]"], timeout=3600)
    inst.changed.append(VENV)


def check_lgpio(inst: Installer, options: Options) -> None:
    """The venv's Python imports lgpio and gpiozero's lgpio pins: the box's GPIO backend."""
    with tempfile.TemporaryDirectory(prefix="companion-lgpio-") as scratch:
        inst.run([f"{VENV}/bin/python", "-c", LGPIO_CHECK], timeout=600,
                 env={"LG_WD": scratch})


def link_command(inst: Installer, options: Options) -> None:
    """/usr/local/bin/companion -> the venv's script, so `companion doctor` just works."""
    link = inst.path(COMMAND_LINK)
    wanted = f"{VENV}/bin/companion"
    if link.is_symlink() and os.readlink(link) == wanted:
        inst.unchanged.append(COMMAND_LINK)
        inst.say(f"  = {COMMAND_LINK} (unchanged)")
        return
    if link.exists() and not link.is_symlink():
        inst.warnings.append(f"{COMMAND_LINK} exists and is not a link: left alone")
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.is_symlink():
        link.unlink()
    link.symlink_to(wanted)
    inst.changed.append(COMMAND_LINK)
    inst.say(f"  + {COMMAND_LINK} -> {wanted}")


def merge_config_txt(inst: Installer, options: Options) -> None:
    """The companion block: I2C and the shutdown button always; the board-aware UART lines
    only when the serial line is an on-board UART or --free-serial was given (now or before);
    SPI0 with its chip select on display.spi_cs_pin only for an SPI display."""
    config_txt = inst.boot_file("config.txt")
    body = _source_text(inst, "firmware_config/config.txt.fragment")
    config = inst.path(CONFIG_PATH)
    config_text = config.read_text(encoding="utf-8") if config.exists() else None
    if shutdown_by_companion(config_text):  # the companion watches the button itself
        body = "\n".join(line for line in body.splitlines()
                         if not line.startswith("dtoverlay=gpio-shutdown")) + "\n"
        inst.say("  (no gpio-shutdown overlay: shutdown.handler = 'companion')")
    free = options.free_serial or bool(inst.read_state().get("free_serial"))
    if wants_uart(config_text, free):
        body = body.rstrip() + "\n" + _source_text(inst, "firmware_config/uart.fragment")
        inst.say("  (UART on GPIO14/15: /dev/ttyAMA0 on a Pi 5, /dev/serial0 on the others)")
    else:
        inst.say(f"  (no UART lines: serial.url is {serial_url(config_text)!r}; an on-board "
                 "serial URL or --free-serial adds them)")
    cs_pin = spi_cs_pin(config_text, _source_text(inst, "companion/default_config.toml"))
    if cs_pin is not None:
        spi = _source_text(inst, "firmware_config/spi.fragment").replace("{cs_pin}", str(cs_pin))
        body = body.rstrip() + "\n" + spi
        inst.say(f"  (SPI0 for the display: /dev/spidev0.0, chip select on GPIO{cs_pin})")
    target = inst.path(config_txt)
    old = target.read_text(encoding="utf-8") if target.exists() else ""
    inst.warnings += [f"{config_txt}: {w}" for w in conflicts(old)]
    if inst.write(config_txt, merge_block(old, body), mode=0o755, backup=True):
        inst.reboot_reasons.append(f"{config_txt} changed")


def serial_console(inst: Installer, options: Options) -> None:
    """With --free-serial take the login console off the serial line (and remember the choice,
    so a later update keeps the UART lines); else say how to."""
    if options.free_serial:
        state = inst.read_state()
        if not state.get("free_serial"):
            state["free_serial"] = True
            inst.write(INSTALL_STATE, json.dumps(state, indent=2) + "\n")
        free_serial(inst)
        return
    cmdline = inst.path(inst.boot_file("cmdline.txt"))
    if cmdline.exists() and remove_serial_console(cmdline.read_text(encoding="utf-8"))[1]:
        inst.say("  (the kernel console still uses the serial port; to use the serial "
                 "line, run again with --free-serial: firmware_config/cmdline.md)")


def free_serial(inst: Installer) -> None:
    cmdline_txt = inst.boot_file("cmdline.txt")
    target = inst.path(cmdline_txt)
    if not target.exists():
        inst.warnings.append(f"{cmdline_txt} not found: the serial console is not changed")
        return
    new, removed = remove_serial_console(target.read_text(encoding="utf-8"))
    if not removed:
        inst.unchanged.append(cmdline_txt)
        inst.say(f"  = {cmdline_txt} (no serial console)")
        return
    inst.write(cmdline_txt, new, mode=0o755, backup=True)
    # Remember the words, so --uninstall can put them back.
    state = inst.read_state()
    state["cmdline_removed"] = [*state.get("cmdline_removed", []), *removed]
    inst.write(INSTALL_STATE, json.dumps(state, indent=2) + "\n")
    inst.reboot_reasons.append(f"{cmdline_txt} changed")


def install_udev_rules(inst: Installer, options: Options) -> None:
    if inst.write(RULES_PATH, _source_text(inst, "firmware_config/99-companion.rules")):
        inst.run(["udevadm", "control", "--reload-rules"], timeout=60, check=False)
        inst.run(["udevadm", "trigger", "--subsystem-match=gpio",
                  "--subsystem-match=i2c-dev", "--subsystem-match=tty"], timeout=60, check=False)


def load_i2c_dev(inst: Installer, options: Options) -> None:
    if inst.write(MODULES_PATH, "# The table companion's OLED: /dev/i2c-*\ni2c-dev\n"):
        inst.run(["modprobe", "i2c-dev"], timeout=60, check=False)


def install_power_rule(inst: Installer, options: Options) -> None:
    """The polkit rule that lets the service power off (the menu's "Power off"), and polkit."""
    inst.run(["apt-get", "install", "-y", "--no-install-recommends", *POWER_PACKAGES],
             timeout=1800, env={"DEBIAN_FRONTEND": "noninteractive"}, check=False)
    inst.write(POLKIT_RULE_PATH, _source_text(inst, f"firmware_config/{POLKIT_RULE}"))


def install_unit(inst: Installer, options: Options) -> None:
    inst.write(UNIT_PATH, _source_text(inst, f"systemd/{UNIT_NAME}"))


def install_config_file(inst: Installer, options: Options) -> None:
    """The packaged defaults, once: a config file already there is the owner's and stays."""
    if inst.path(CONFIG_PATH).exists():
        inst.unchanged.append(CONFIG_PATH)
        inst.say(f"  = {CONFIG_PATH} (kept as it is)")
        return
    inst.write(CONFIG_PATH, CONFIG_HEADER + _source_text(inst, "companion/default_config.toml"))


AVAHI_SERVICE = """\
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- The table companion's table page (tools/install.py writes it while [web] listen is on the
     LAN; --uninstall removes it). Avahi rereads this folder by itself. -->
<service-group>
  <name replace-wildcards="yes">Table companion on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>{port}</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
"""
LOOPBACK_HOSTS = ("localhost", "::1")


def web_port_on_lan(config_text: str) -> int | None:
    """The port of `[web] listen` when it serves the LAN; None when the web is off, bound to
    loopback, or the setting is not one the companion would accept (doctor names that)."""
    try:
        listen = tomllib.loads(config_text).get("web", {}).get("listen", "")
    except (tomllib.TOMLDecodeError, AttributeError):
        return None
    if not isinstance(listen, str) or not listen.strip():
        return None
    host, _, port = listen.strip().rpartition(":")
    host = host.strip("[]")
    if not port.isdigit() or not 0 < int(port) <= 65535:
        return None
    if host in LOOPBACK_HOSTS or host.startswith("127."):
        return None
    return int(port)  # a bare PORT binds every interface on a Pi (companion run --web)


def avahi_service(inst: Installer, options: Options) -> None:
    """Advertise the table page over mDNS while the config serves it on the LAN."""
    config = inst.path(CONFIG_PATH)
    port = web_port_on_lan(config.read_text(encoding="utf-8")) if config.exists() else None
    if port is None:
        if inst.remove(AVAHI_SERVICE_PATH):
            inst.say("  (the table page is off or on loopback: not advertised)")
        return
    if not inst.staging and not Path("/etc/avahi").is_dir():
        inst.warnings.append("avahi-daemon is not installed: <hostname>.local will not find "
                             "the table page (sudo apt install avahi-daemon)")
    inst.write(AVAHI_SERVICE_PATH, AVAHI_SERVICE.format(port=port))


WEB_DROPIN_PATH = f"/etc/systemd/system/{UNIT_NAME}.d/web.conf"


def web_dropin(inst: Installer, options: Options) -> None:
    """The table page's sandbox drop-in (systemd/companion.service.d/web.conf, issue #19) while
    `[web] listen` is set: for its port, and `IPAddressAllow=localhost` only when it listens
    on loopback. Removed when the web is off, so the unit keeps PrivateNetwork=yes."""
    config = inst.path(CONFIG_PATH)
    listen = web_listen(config.read_text(encoding="utf-8")) if config.exists() else None
    if listen is None:
        if inst.remove(WEB_DROPIN_PATH):
            inst.say("  (the table page is off: the service keeps no network)")
        return
    host, port = listen
    text = re.sub(r"^SocketBindAllow=tcp:\d+$", f"SocketBindAllow=tcp:{port}",
                  _source_text(inst, f"systemd/{UNIT_NAME}.d/web.conf"), flags=re.M)
    if host in LOOPBACK_HOSTS or host.startswith("127."):
        text = re.sub(r"^IPAddressAllow=.*$", "IPAddressAllow=localhost", text, flags=re.M)
    inst.write(WEB_DROPIN_PATH, text)


def web_listen(config_text: str) -> tuple[str, int] | None:
    """`[web] listen` as (host, port; a bare PORT is every interface), or None when it is off
    or not a setting the companion accepts (doctor names that)."""
    try:
        listen = tomllib.loads(config_text).get("web", {}).get("listen", "")
    except (tomllib.TOMLDecodeError, AttributeError):
        return None
    if not isinstance(listen, str) or not listen.strip():
        return None
    host, _, port = listen.strip().rpartition(":")
    if not port.isdigit() or not 0 < int(port) <= 65535:
        return None
    return host.strip("[]") or "0.0.0.0", int(port)  # noqa: S104 - what a Pi binds


def systemd_running() -> bool:
    """systemd is the running init (sd_booted(3): /run/systemd/system exists)."""
    return Path("/run/systemd/system").is_dir()


def enable_service(inst: Installer, options: Options) -> None:
    """Enable at boot; restart now unless a reboot is coming anyway. Where systemd is not
    running (an image being built, a chroot), only enable: the unit starts at the next boot."""
    running = inst.staging or systemd_running()
    if not running:
        inst.say("  (systemd is not running here, as in an image or a chroot: the unit is "
                 "enabled for the next boot, not started)")
    if running and (UNIT_PATH in inst.changed or WEB_DROPIN_PATH in inst.changed):
        inst.run(["systemctl", "daemon-reload"], timeout=120)
    inst.run(["systemctl", "enable", UNIT_NAME], timeout=120)
    if running and not inst.reboot_reasons:
        inst.run(["systemctl", "restart", UNIT_NAME], timeout=180, check=False)


# -- uninstall steps -----------------------------------------------------------------------------


def disable_service(inst: Installer, options: Options) -> None:
    inst.run(["systemctl", "disable", "--now", UNIT_NAME], timeout=180, check=False)


def remove_unit(inst: Installer, options: Options) -> None:
    if inst.remove(UNIT_PATH):
        inst.run(["systemctl", "daemon-reload"], timeout=120, check=False)


def remove_web_dropin(inst: Installer, options: Options) -> None:
    inst.remove(WEB_DROPIN_PATH)


def remove_udev_rules(inst: Installer, options: Options) -> None:
    if inst.remove(RULES_PATH):
        inst.run(["udevadm", "control", "--reload-rules"], timeout=60, check=False)


def remove_power_rule(inst: Installer, options: Options) -> None:
    inst.remove(POLKIT_RULE_PATH)


def remove_avahi_service(inst: Installer, options: Options) -> None:
    inst.remove(AVAHI_SERVICE_PATH)


def remove_modules(inst: Installer, options: Options) -> None:
    inst.remove(MODULES_PATH)


def remove_config_block(inst: Installer, options: Options) -> None:
    config_txt = inst.boot_file("config.txt")
    target = inst.path(config_txt)
    if target.exists():
        old = target.read_text(encoding="utf-8")
        new = remove_block(old)
        if new != old and inst.write(config_txt, new, mode=0o755, backup=True):
            inst.reboot_reasons.append(f"{config_txt} changed")


def restore_console(inst: Installer, options: Options) -> None:
    """Put back the console words --free-serial took out, then forget them."""
    words = inst.read_state().get("cmdline_removed", [])
    cmdline_txt = inst.boot_file("cmdline.txt")
    if words and inst.path(cmdline_txt).exists():
        old = inst.path(cmdline_txt).read_text(encoding="utf-8")
        if inst.write(cmdline_txt, restore_serial_console(old, words), mode=0o755, backup=True):
            inst.reboot_reasons.append(f"{cmdline_txt} changed")
    inst.remove(INSTALL_STATE)


def unlink_command(inst: Installer, options: Options) -> None:
    link = inst.path(COMMAND_LINK)
    if link.is_symlink() and os.readlink(link) == f"{VENV}/bin/companion":
        inst.remove(COMMAND_LINK)


def remove_program(inst: Installer, options: Options) -> None:
    inst.remove(PREFIX)


def remove_settings(inst: Installer, options: Options) -> None:
    """Settings and saved games go only with --purge; otherwise say where they stay."""
    if options.purge:
        inst.say("Settings and saved games (--purge):")
        inst.remove(CONFIG_DIR)
        for folder in STATE_DIRS:
            inst.remove(folder)
        return
    kept = [p for p in (CONFIG_DIR, *STATE_DIRS) if inst.path(p).exists()]
    if kept:
        inst.say(f"  kept: {', '.join(kept)} (--purge deletes them)")


INSTALL_STEPS: tuple[Step, ...] = (
    Step("unit-file", "", check_unit),
    Step("apt-packages", "System packages", install_packages),
    Step("groups", "System packages", add_groups),
    Step("venv", "The program", install_program),
    Step("lgpio", "The program", check_lgpio),
    Step("command-link", "The program", link_command),
    Step("config.txt", "Boot configuration", merge_config_txt),
    Step("serial-console", "Boot configuration", serial_console),
    Step("udev-rules", "Devices", install_udev_rules),
    Step("i2c-dev", "Devices", load_i2c_dev),
    Step("unit", "Service", install_unit),
    Step("power-off", "Service", install_power_rule),
    Step("config-file", "Service", install_config_file),
    Step("avahi-service", "Service", avahi_service),
    Step("web-dropin", "Service", web_dropin),
    Step("enable", "Service", enable_service),
)

UNINSTALL_STEPS: tuple[Step, ...] = (
    Step("disable", "Service", disable_service),
    Step("web-dropin", "Service", remove_web_dropin),
    Step("unit", "Service", remove_unit),
    Step("power-off", "Service", remove_power_rule),
    Step("avahi-service", "Service", remove_avahi_service),
    Step("udev-rules", "Devices", remove_udev_rules),
    Step("i2c-dev", "Devices", remove_modules),
    Step("config.txt", "Boot configuration", remove_config_block),
    Step("serial-console", "Boot configuration", restore_console),
    Step("command-link", "The program", unlink_command),
    Step("venv", "The program", remove_program),
    Step("settings", "", remove_settings),
)


def run_steps(inst: Installer, steps: Sequence[Step], options: Options) -> None:
    """Run the steps in order, printing each section's heading before its first step."""
    section = ""
    for step in steps:
        if step.section and step.section != section:
            inst.say(f"{step.section}:")
        section = step.section or section
        step.run(inst, options)


def _source_text(inst: Installer, relative: str) -> str:
    return (inst.source / relative).read_text(encoding="utf-8")


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Command line. 0: done, 1: a step failed, 2: bad usage (not root, bad --root)."""
    out = sys.stdout if out is None else out
    parser = argparse.ArgumentParser(
        description="Install the table companion on Raspberry Pi OS (or take it off again).")
    parser.add_argument("--root", type=Path, metavar="DIR",
                        help="stage every file under DIR; run no apt-get, pip or systemctl")
    parser.add_argument("--uninstall", action="store_true", help="remove the companion")
    parser.add_argument("--purge", action="store_true",
                        help="with --uninstall: also delete /etc/companion and saved games")
    parser.add_argument("--free-serial", action="store_true",
                        help="remove console=serial0,115200 from cmdline.txt (for the serial "
                             "line on GPIO14/15)")
    parser.add_argument("--source", type=Path, default=SOURCE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.purge and not args.uninstall:
        parser.error("--purge goes with --uninstall")
    if args.root is None and os.geteuid() != 0:
        parser.error("run it as root: sudo python3 tools/install.py (or stage with --root DIR)")
    if args.root is not None:
        args.root.mkdir(parents=True, exist_ok=True)
        args.root = args.root.resolve()

    installer = Installer(root=args.root, out=out, source=args.source.resolve())
    action = "uninstall" if args.uninstall else "install"
    where = f"staged under {args.root}; commands are printed, not run" if args.root else "/"
    installer.say(f"The table companion: {action} ({where})")
    steps = UNINSTALL_STEPS if args.uninstall else INSTALL_STEPS
    try:
        run_steps(installer, steps, Options(free_serial=args.free_serial, purge=args.purge))
    except (InstallError, OSError) as exc:
        installer.say(f"\nFAILED: {exc}\nNothing after this step was done; fix it and run "
                      "the same command again (it picks up where it stopped).")
        return 1

    installer.say("")
    installer.say(f"Summary: {len(installer.changed)} changed, "
                  f"{len(installer.unchanged)} already as wanted.")
    for warning in installer.warnings:
        installer.say(f"WARNING: {warning}")
    if installer.reboot_reasons:
        installer.say(f"Reboot needed: yes ({'; '.join(installer.reboot_reasons)}): "
                      "sudo reboot")
    else:
        installer.say("Reboot needed: no")
    if not args.uninstall:
        installer.say("Then check the build with: companion doctor    "
                      "(logs: journalctl -u companion -b)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
