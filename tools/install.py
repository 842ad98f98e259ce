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

Layout: this file is the command line and the two step tables, INSTALL_STEPS and
UNINSTALL_STEPS, run in order; each step is a small function of (installer, options) that
prints under its section's heading: install_program.py (packages, venv, command),
install_system.py (boot config, devices, service), install_removal.py (--uninstall). The
Installer (install_files.py) holds the primitives every step shares (write a file if it
differs, back it up, remove, run a command or only print it under --root) and what happened,
for the summary.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple, TextIO

# Run as a script, Python puts this folder first on sys.path, and the machinery sits beside it.
from install_files import (
    SOURCE,
    UNIT_PATH,
    Installer,
    InstallError,
    Options,
)
from install_program import (
    add_groups,
    apt_candidate,
    check_lgpio,
    check_unit,
    install_packages,
    install_program,
    lgpio_without_apt,
    link_command,
)
from install_removal import (
    disable_service,
    remove_avahi_service,
    remove_config_block,
    remove_modules,
    remove_power_rule,
    remove_program,
    remove_settings,
    remove_udev_rules,
    remove_unit,
    remove_web_dropin,
    restore_console,
    unlink_command,
)
from install_system import (
    avahi_service,
    enable_service,
    install_config_file,
    install_power_rule,
    install_udev_rules,
    install_unit,
    load_i2c_dev,
    merge_config_txt,
    serial_console,
    systemd_running,
    web_dropin,
)

__all__ = [
    "INSTALL_STEPS",
    "UNINSTALL_STEPS",
    "UNIT_PATH",
    "InstallError",
    "Installer",
    "Options",
    "Step",
    "apt_candidate",
    "check_unit",
    "enable_service",
    "lgpio_without_apt",
    "main",
    "run_steps",
    "systemd_running",
]


class Step(NamedTuple):
    """One row of a step table: its name, the heading it prints under ("" for none), the work."""

    name: str
    section: str
    run: Callable[[Installer, Options], None]



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
