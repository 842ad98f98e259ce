"""tools/install.py --uninstall's steps: take off what the install put on.

Promises:
- The service disabled and stopped, the unit, its web drop-in, the udev rules, the module
  list, the polkit rule, the Avahi file and the venv and command link removed; the companion
  block taken out of config.txt (after a backup) and the console word put back into
  cmdline.txt if --free-serial took it out.
- /etc/companion and the saved games stay unless --purge.
Standard library only; every command through the Installer (printed, a timeout, no shell).
"""

from __future__ import annotations

import os

from install_files import (
    AVAHI_SERVICE_PATH,
    COMMAND_LINK,
    CONFIG_DIR,
    INSTALL_STATE,
    MODULES_PATH,
    POLKIT_RULE_PATH,
    PREFIX,
    RULES_PATH,
    STATE_DIRS,
    UNIT_NAME,
    UNIT_PATH,
    VENV,
    Installer,
    Options,
    remove_block,
    restore_serial_console,
)

# Run as a script, Python puts this folder first on sys.path: the machinery sits beside it.
from install_system import WEB_DROPIN_PATH


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


