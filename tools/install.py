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
- `--uninstall` removes what the install added (the marked block, the unit, the udev rules, the
  module list, the venv) and puts the console word back into cmdline.txt if --free-serial took it
  out; /etc/companion and the service's state stay unless --purge.
- `--root DIR` writes every file under DIR (DIR/etc/..., DIR/boot/firmware/config.txt, ...) and
  only prints the apt-get, pip, groupadd, udevadm and systemctl commands it would run.
- The last lines say what changed and whether a reboot is needed (config.txt or cmdline.txt
  changed).
"""

from __future__ import annotations

import argparse
import contextlib
import grp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

SOURCE = Path(__file__).resolve().parent.parent

APT_PACKAGES = ("python3-venv", "python3-pip", "python3-lgpio", "python3-dev", "i2c-tools")
GROUPS = ("gpio", "i2c", "dialout")
PREFIX = "/opt/companion"
VENV = f"{PREFIX}/venv"
UNIT_NAME = "companion.service"
UNIT_PATH = f"/etc/systemd/system/{UNIT_NAME}"
RULES_PATH = "/etc/udev/rules.d/99-companion.rules"
MODULES_PATH = "/etc/modules-load.d/companion.conf"
CONFIG_DIR = "/etc/companion"
CONFIG_PATH = f"{CONFIG_DIR}/companion.toml"
INSTALL_STATE = f"{CONFIG_DIR}/install-state.json"
STATE_DIRS = ("/var/lib/companion", "/var/lib/private/companion")
COMMAND_LINK = "/usr/local/bin/companion"

BEGIN = "# >>> table companion: added by tools/install.py, removed by --uninstall >>>"
END = "# <<< table companion <<<"
_BLOCK = re.compile(rf"^{re.escape(BEGIN)}\n.*?^{re.escape(END)}\n?", re.S | re.M)
_SERIAL_CONSOLE = re.compile(r"^console=(?:serial0|ttyAMA0|ttyS0),\d+$")

CONFIG_HEADER = """\
# The table companion's settings, written by tools/install.py from the packaged defaults.
# Edit freely: installs and --uninstall keep this file. Apply with: sudo systemctl restart companion
# Check with: companion doctor

"""


def merge_block(text: str, body: str) -> str:
    """`text` with the marked block holding `body`: replaced in place, or appended at the end."""
    block = f"{BEGIN}\n{body.rstrip()}\n{END}\n"
    found = _BLOCK.search(text)
    if found:
        return text[:found.start()] + block + text[found.end():]
    if text and not text.endswith("\n"):
        text += "\n"
    return text + ("\n" if text else "") + block


def remove_block(text: str) -> str:
    """`text` without the marked block (and the blank line merge_block put before it)."""
    found = _BLOCK.search(text)
    if not found:
        return text
    before, after = text[:found.start()], text[found.end():]
    if before.endswith("\n\n") and not after:
        before = before[:-1]
    return before + after


def remove_serial_console(cmdline: str) -> tuple[str, list[str]]:
    """cmdline.txt without console=serial0,115200 (or ttyAMA0/ttyS0), and the words removed."""
    words = cmdline.split()
    removed = [w for w in words if _SERIAL_CONSOLE.match(w)]
    kept = [w for w in words if not _SERIAL_CONSOLE.match(w)]
    return " ".join(kept) + "\n", removed


def restore_serial_console(cmdline: str, words: Sequence[str]) -> str:
    """cmdline.txt with the console words put back in front (where Raspberry Pi OS has them)."""
    present = cmdline.split()
    return " ".join([*(w for w in words if w not in present), *present]) + "\n"


def conflicts(config_txt: str) -> list[str]:
    """Lines outside the companion block that fight the box's wiring."""
    outside = _BLOCK.sub("", config_txt)
    warnings = []
    for raw in outside.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("dtoverlay=gpio-shutdown") and "gpio_pin=21" not in line:
            warnings.append(f"'{line}' claims a pin the box uses (GPIO3 by default, the OLED's "
                            "I2C clock): remove it, the companion block has its own")
        if line.startswith("dtoverlay=pwm") and ("pin=18" in line or "pin=" not in line):
            warnings.append(f"'{line}' gives GPIO18 (the buzzer) to the PWM driver: remove it")
    return warnings


@dataclass
class Installer:
    """One run: where files go (root), what is run, and what happened (for the summary)."""

    root: Path | None
    out: TextIO
    source: Path = SOURCE
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    reboot_reasons: list[str] = field(default_factory=list)

    @property
    def staging(self) -> bool:
        return self.root is not None

    def path(self, absolute: str) -> Path:
        """Where an absolute path of the target system is on this machine."""
        return self.root / absolute.lstrip("/") if self.root is not None else Path(absolute)

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def run(self, argv: Sequence[str], *, timeout: float = 600, check: bool = True,
            env: dict[str, str] | None = None) -> bool:
        """Run a command (printed first); under --root only print it. False if it failed."""
        line = " ".join(argv)
        if self.staging:
            self.say(f"  $ {line}    [not run: --root]")
            return True
        self.say(f"  $ {line}")
        try:
            subprocess.run(list(argv), check=True, timeout=timeout,  # noqa: S603 (no shell)
                           env=None if env is None else {**os.environ, **env})
        except (OSError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            if check:
                raise InstallError(f"{line}: {exc}") from exc
            self.say(f"    (failed, carrying on: {exc})")
            return False
        return True

    def backup(self, target: Path) -> Path:
        """Copy `target` to NAME.companion-STAMP.bak beside it (a new name every time)."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        copy = target.with_name(f"{target.name}.companion-{stamp}.bak")
        n = 1
        while copy.exists():
            n += 1
            copy = target.with_name(f"{target.name}.companion-{stamp}-{n}.bak")
        shutil.copyfile(target, copy)  # content only: /boot/firmware is FAT
        return copy

    def write(self, absolute: str, content: str, *, mode: int = 0o644,
              backup: bool = False) -> bool:
        """Write a file if its content differs. True if it changed."""
        target = self.path(absolute)
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if old == content:
            self.unchanged.append(absolute)
            self.say(f"  = {absolute} (unchanged)")
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        note = ""
        if backup and old is not None:
            note = f" (backup: {self.backup(target).name})"
        tmp = target.with_name(f".{target.name}.companion-tmp")
        tmp.write_text(content, encoding="utf-8")
        with contextlib.suppress(OSError):  # FAT (/boot/firmware) has no modes to set
            tmp.chmod(mode)
        tmp.replace(target)
        self.changed.append(absolute)
        self.say(f"  + {absolute}{note}")
        return True

    def remove(self, absolute: str) -> bool:
        """Delete a file or a folder tree if present. True if something was removed."""
        target = self.path(absolute)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
        else:
            return False
        self.changed.append(absolute)
        self.say(f"  - {absolute}")
        return True

    def boot_file(self, name: str) -> str:
        """/boot/firmware/NAME on Bookworm, /boot/NAME on older images."""
        if not self.path("/boot/firmware").is_dir() and self.path(f"/boot/{name}").exists():
            return f"/boot/{name}"
        return f"/boot/firmware/{name}"

    def read_state(self) -> dict[str, list[str]]:
        try:
            data = json.loads(self.path(INSTALL_STATE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    # -- install -----------------------------------------------------------------------------

    def install(self, *, free_serial: bool) -> None:
        src = self.source
        unit = (src / "systemd" / UNIT_NAME).read_text(encoding="utf-8")
        if f"ExecStart={VENV}/bin/companion " not in unit:
            raise InstallError(f"systemd/{UNIT_NAME} does not start {VENV}/bin/companion")

        self.say("System packages:")
        apt_env = {"DEBIAN_FRONTEND": "noninteractive"}
        self.run(["apt-get", "update"], timeout=900, env=apt_env)
        self.run(["apt-get", "install", "-y", "--no-install-recommends", *APT_PACKAGES],
                 timeout=1800, env=apt_env)
        for group in GROUPS:
            if self.staging or not _group_exists(group):
                self.run(["groupadd", "--system", "-f", group], timeout=60)

        self.say("The program:")
        self.install_program()
        self.link_command()

        self.say("Boot configuration:")
        config_txt = self.boot_file("config.txt")
        body = (src / "firmware_config" / "config.txt.fragment").read_text(encoding="utf-8")
        target = self.path(config_txt)
        old = target.read_text(encoding="utf-8") if target.exists() else ""
        self.warnings += [f"{config_txt}: {w}" for w in conflicts(old)]
        if self.write(config_txt, merge_block(old, body), mode=0o755, backup=True):
            self.reboot_reasons.append(f"{config_txt} changed")
        if free_serial:
            self.free_serial()
        else:
            cmdline = self.path(self.boot_file("cmdline.txt"))
            if cmdline.exists() and remove_serial_console(
                    cmdline.read_text(encoding="utf-8"))[1]:
                self.say("  (the kernel console still uses the serial port; to use the serial "
                         "line, run again with --free-serial: firmware_config/cmdline.md)")

        self.say("Devices:")
        rules = (src / "firmware_config" / "99-companion.rules").read_text(encoding="utf-8")
        if self.write(RULES_PATH, rules):
            self.run(["udevadm", "control", "--reload-rules"], timeout=60, check=False)
            self.run(["udevadm", "trigger", "--subsystem-match=gpio",
                      "--subsystem-match=i2c-dev", "--subsystem-match=tty"],
                     timeout=60, check=False)
        if self.write(MODULES_PATH, "# The table companion's OLED: /dev/i2c-*\ni2c-dev\n"):
            self.run(["modprobe", "i2c-dev"], timeout=60, check=False)

        self.say("Service:")
        unit_changed = self.write(UNIT_PATH, unit)
        config = self.path(CONFIG_PATH)
        if config.exists():
            self.unchanged.append(CONFIG_PATH)
            self.say(f"  = {CONFIG_PATH} (kept as it is)")
        else:
            defaults = (src / "companion" / "default_config.toml").read_text(encoding="utf-8")
            self.write(CONFIG_PATH, CONFIG_HEADER + defaults)
        if unit_changed:
            self.run(["systemctl", "daemon-reload"], timeout=120)
        self.run(["systemctl", "enable", UNIT_NAME], timeout=120)
        if not self.reboot_reasons:
            self.run(["systemctl", "restart", UNIT_NAME], timeout=180, check=False)

    def install_program(self) -> None:
        python = f"{VENV}/bin/python"
        if self.staging or not Path(python).exists():
            self.run([sys.executable, "-m", "venv", "--system-site-packages", VENV],
                     timeout=600)
        if self.staging:
            self.run([python, "-m", "pip", "install", "--upgrade", f"{self.source}[pi]"])
            return
        # Build from a copy, so pip (as root) leaves no build/ or *.egg-info in the checkout.
        with tempfile.TemporaryDirectory(prefix="companion-src-") as tmp:
            copy = Path(tmp) / "src"
            shutil.copytree(self.source, copy, ignore=shutil.ignore_patterns(
                ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache"))
            self.run([python, "-m", "pip", "install", "--upgrade", f"{copy}[pi]"],
                     timeout=3600)
        self.changed.append(VENV)

    def link_command(self) -> None:
        """/usr/local/bin/companion -> the venv's script, so `companion doctor` just works."""
        link = self.path(COMMAND_LINK)
        wanted = f"{VENV}/bin/companion"
        if link.is_symlink() and os.readlink(link) == wanted:
            self.unchanged.append(COMMAND_LINK)
            self.say(f"  = {COMMAND_LINK} (unchanged)")
            return
        if link.exists() and not link.is_symlink():
            self.warnings.append(f"{COMMAND_LINK} exists and is not a link: left alone")
            return
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink():
            link.unlink()
        link.symlink_to(wanted)
        self.changed.append(COMMAND_LINK)
        self.say(f"  + {COMMAND_LINK} -> {wanted}")

    def free_serial(self) -> None:
        cmdline_txt = self.boot_file("cmdline.txt")
        target = self.path(cmdline_txt)
        if not target.exists():
            self.warnings.append(f"{cmdline_txt} not found: the serial console is not changed")
            return
        new, removed = remove_serial_console(target.read_text(encoding="utf-8"))
        if not removed:
            self.unchanged.append(cmdline_txt)
            self.say(f"  = {cmdline_txt} (no serial console)")
            return
        self.write(cmdline_txt, new, mode=0o755, backup=True)
        state = self.read_state()
        state["cmdline_removed"] = [*state.get("cmdline_removed", []), *removed]
        self.write(INSTALL_STATE, json.dumps(state, indent=2) + "\n")
        self.reboot_reasons.append(f"{cmdline_txt} changed")

    # -- uninstall ---------------------------------------------------------------------------

    def uninstall(self, *, purge: bool) -> None:
        self.say("Service:")
        self.run(["systemctl", "disable", "--now", UNIT_NAME], timeout=180, check=False)
        if self.remove(UNIT_PATH):
            self.run(["systemctl", "daemon-reload"], timeout=120, check=False)
        self.say("Devices:")
        if self.remove(RULES_PATH):
            self.run(["udevadm", "control", "--reload-rules"], timeout=60, check=False)
        self.remove(MODULES_PATH)
        self.say("Boot configuration:")
        config_txt = self.boot_file("config.txt")
        target = self.path(config_txt)
        if target.exists():
            old = target.read_text(encoding="utf-8")
            new = remove_block(old)
            if new != old and self.write(config_txt, new, mode=0o755, backup=True):
                self.reboot_reasons.append(f"{config_txt} changed")
        state = self.read_state()
        words = state.get("cmdline_removed", [])
        cmdline_txt = self.boot_file("cmdline.txt")
        if words and self.path(cmdline_txt).exists():
            old = self.path(cmdline_txt).read_text(encoding="utf-8")
            if self.write(cmdline_txt, restore_serial_console(old, words), mode=0o755,
                          backup=True):
                self.reboot_reasons.append(f"{cmdline_txt} changed")
        self.remove(INSTALL_STATE)
        self.say("The program:")
        link = self.path(COMMAND_LINK)
        if link.is_symlink() and os.readlink(link) == f"{VENV}/bin/companion":
            self.remove(COMMAND_LINK)
        self.remove(PREFIX)
        if purge:
            self.say("Settings and saved games (--purge):")
            self.remove(CONFIG_DIR)
            for folder in STATE_DIRS:
                self.remove(folder)
        else:
            kept = [p for p in (CONFIG_DIR, *STATE_DIRS) if self.path(p).exists()]
            if kept:
                self.say(f"  kept: {', '.join(kept)} (--purge deletes them)")


class InstallError(Exception):
    """A step failed; the message says which."""


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


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
    try:
        if args.uninstall:
            installer.uninstall(purge=args.purge)
        else:
            installer.install(free_serial=args.free_serial)
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
