"""The machinery of tools/install.py: where things go, how files change, how commands run.

Promises (tools/install.py's steps rely on them):
- Standard library only: it runs with the distribution's python3.
- `Installer.write` changes a file only when its content differs, atomically (a temporary file
  and a rename), and backs it up first when asked (NAME.companion-YYYYmmdd-HHMMSS.bak, beside
  it, a new name every time); `remove` deletes a file or a tree; both record what changed.
- `Installer.run` prints a command before it runs it, never through a shell, always with a
  timeout; under --root it only prints it.
- The config.txt block lives between BEGIN and END; merge_block and remove_block are inverses.
- `wants_uart` decides whether the block carries the UART lines (firmware_config/uart.fragment):
  only when the config's serial.url names an on-board UART or --free-serial asked for it (now or
  on an earlier run). A USB adapter, a pty or no serial line leaves GPIO14/15 alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

SOURCE = Path(__file__).resolve().parent.parent

APT_PACKAGES = ("python3-venv", "python3-pip", "python3-lgpio", "python3-spidev", "python3-dev",
                "i2c-tools")
GROUPS = ("gpio", "i2c", "spi", "dialout")
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
AVAHI_SERVICE_PATH = "/etc/avahi/services/companion.service"
POLKIT_RULE = "50-companion-poweroff.rules"
POLKIT_RULE_PATH = f"/etc/polkit-1/rules.d/{POLKIT_RULE}"
POWER_PACKAGES = ("polkitd",)  # the menu's "Power off" asks logind, which asks polkit

BEGIN = "# >>> table companion: added by tools/install.py, removed by --uninstall >>>"
END = "# <<< table companion <<<"
_BLOCK = re.compile(rf"^{re.escape(BEGIN)}\n.*?^{re.escape(END)}\n?", re.S | re.M)
_SERIAL_CONSOLE = re.compile(r"^console=(?:serial0|ttyAMA0|ttyS0),\d+$")
_ONBOARD_SERIAL = re.compile(r"^/dev/(?:serial[01]|ttyAMA\d+|ttyS\d+)$")


def serial_url(config_text: str | None) -> str:
    """The config's serial.url ("none" when unset or the file is not TOML: doctor names that)."""
    try:
        url = tomllib.loads(config_text or "").get("serial", {}).get("url", "none")
    except (tomllib.TOMLDecodeError, AttributeError):
        return "none"
    return url if isinstance(url, str) else "none"


def spi_cs_pin(config_text: str | None, defaults_text: str) -> int | None:
    """The chip-select GPIO when the config's display is on SPI (display.interface = "spi"),
    else None. An SPI display without display.spi_cs_pin takes the packaged default's."""
    try:
        display = tomllib.loads(config_text or "").get("display", {})
        default = tomllib.loads(defaults_text)["display"]["spi_cs_pin"]
    except (tomllib.TOMLDecodeError, AttributeError, KeyError):
        return None
    if not isinstance(display, dict) or display.get("interface") != "spi":
        return None
    pin = display.get("spi_cs_pin", default)
    return pin if isinstance(pin, int) and not isinstance(pin, bool) and pin > 1 else None


def poweroff_led_pin(config_text: str | None, defaults_text: str) -> int | None:
    """The LED's GPIO when it is the power-off cue (led.shows = "power-off", the default), else
    None (no LED fitted, or the companion's countdown LED)."""
    try:
        led = tomllib.loads(defaults_text)["led"] | tomllib.loads(config_text or "").get("led", {})
    except (tomllib.TOMLDecodeError, TypeError, KeyError):
        return None
    pin = led.get("pin")
    if led.get("shows") != "power-off" or not isinstance(pin, int) or isinstance(pin, bool):
        return None
    return pin if pin > 1 else None


def shutdown_by_companion(config_text: str | None) -> bool:
    """Whether the config has the companion watch the shutdown button itself
    (shutdown.handler = "companion"): then config.txt gets no gpio-shutdown overlay."""
    try:
        shutdown = tomllib.loads(config_text or "").get("shutdown", {})
    except (tomllib.TOMLDecodeError, AttributeError):
        return False
    return isinstance(shutdown, dict) and shutdown.get("handler") == "companion"


def wants_uart(config_text: str | None, free_serial: bool) -> bool:
    """Whether config.txt should switch on the UART on GPIO14/15."""
    return free_serial or bool(_ONBOARD_SERIAL.match(serial_url(config_text)))


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

    def read_state(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path(INSTALL_STATE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}


class InstallError(Exception):
    """A step failed; the message says which."""


@dataclass(frozen=True)
class Options:
    """What the command line asked for, as the steps see it."""

    free_serial: bool = False
    purge: bool = False




def source_text(inst: Installer, relative: str) -> str:
    """A file of the project being installed, as text."""
    return (inst.source / relative).read_text(encoding="utf-8")
