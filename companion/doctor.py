"""`companion doctor`: check a Raspberry Pi build and say what to fix.

Promises:
- On a Raspberry Pi, every check prints one line, `OK` or `FAIL`, and each FAIL is followed by
  the fix to apply (a command to run or a wire to check). The exit status is 0 when every check
  passed and 1 otherwise.
- Off a Pi it touches nothing: it says so, lists what it would check, and returns 0.
- Every touch of the operating system goes through a `DoctorProbe`, so tests can fake a Pi. The
  real probe (`SystemProbe`) imports smbus2, gpiozero and pyserial only when a check needs them,
  runs `systemctl` without a shell and with a timeout, and never raises out of a check.
- Pin claims (is the buzzer pin free?) are skipped while the companion service is running, since
  the service itself holds the pins.
"""

from __future__ import annotations

import grp
import os
import subprocess
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from companion.adapters import platform
from companion.config import SYSTEM_CONFIG
from companion.protocol.bounded import BoundedInputError, loads_toml

__all__ = ["CHECKS", "Check", "DoctorProbe", "SystemProbe", "run_doctor"]

DEFAULT_CONFIG_PATH = str(SYSTEM_CONFIG)
BOOT_DIRS = ("/boot/firmware", "/boot")
SERVICE = "companion"
INSTALL_HINT = "in the project folder: sudo python3 tools/install.py, then sudo reboot"

# What the doctor checks on a Pi, in order (also what it lists off a Pi).
CHECKS: tuple[tuple[str, str], ...] = (
    ("board", "the board model (from the device tree)"),
    ("config", "the config file parses and names no pin twice"),
    ("boot-config", "config.txt enables I2C and UART and keeps gpio-shutdown off GPIO3"),
    ("i2c-bus", "the I2C device for the display exists and this user may open it"),
    ("display", "something answers at the display's I2C address"),
    ("gpio", "a GPIO chip exists and this user may open it"),
    ("pins", "the buzzer, LED and button pins can be claimed (skipped while the service runs)"),
    ("serial", "the serial device exists, is free of the login console and opens"),
    ("service", "the companion service is active (systemctl is-active companion)"),
)


@dataclass(frozen=True)
class Check:
    """One check's outcome: `fix` says what to do when it failed."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


class DoctorProbe(Protocol):
    """Everything the doctor asks of the machine."""

    def is_raspberry_pi(self) -> bool:
        """A Raspberry Pi GPIO chip is present."""

    def board_model(self) -> str | None:
        """The device tree's model string."""

    def exists(self, path: str) -> bool:
        """A file or device exists."""

    def can_open(self, path: str) -> bool:
        """This user may open the device for reading and writing."""

    def glob(self, pattern: str) -> list[str]:
        """Paths matching a glob pattern, sorted."""

    def read_text(self, path: str) -> str | None:
        """A text file's content, or None if it cannot be read."""

    def user_groups(self) -> set[str]:
        """Names of the groups this process is in."""

    def i2c_answers(self, port: int, address: int) -> str | None:
        """None if a device acknowledges `address` on bus `port`, else the error."""

    def claim_pin(self, pin: int, output: bool) -> str | None:
        """None if gpiozero can claim BCM `pin` (then releases it), else the error."""

    def open_serial(self, url: str, baudrate: int) -> str | None:
        """None if pyserial opens `url` (then closes it), else the error."""

    def service_state(self, unit: str) -> str:
        """The output of `systemctl is-active UNIT` ("active", "inactive", "failed", ...)."""


class SystemProbe:
    """The real machine. Hardware libraries are imported inside the methods that need them."""

    def is_raspberry_pi(self) -> bool:
        return platform.is_raspberry_pi()

    def board_model(self) -> str | None:
        return platform.board_model()

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def can_open(self, path: str) -> bool:
        return os.access(path, os.R_OK | os.W_OK)

    def glob(self, pattern: str) -> list[str]:
        anchor = Path(pattern).anchor or "."
        return sorted(str(p) for p in Path(anchor).glob(pattern.removeprefix(anchor)))

    def read_text(self, path: str) -> str | None:
        try:
            return Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def user_groups(self) -> set[str]:
        names = set()
        for gid in {os.getegid(), *os.getgroups()}:
            try:
                names.add(grp.getgrgid(gid).gr_name)
            except KeyError:
                continue
        return names

    def i2c_answers(self, port: int, address: int) -> str | None:
        try:
            from smbus2 import SMBus  # lazy: a hardware library

            with SMBus(port) as bus:
                try:
                    bus.read_byte(address)
                except OSError:
                    # Some controllers NAK reads but acknowledge their address on a write.
                    bus.write_quick(address)
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
        return None

    def claim_pin(self, pin: int, output: bool) -> str | None:
        # lgpio creates a FIFO in its working directory, which may not be writable here.
        os.environ.setdefault("LG_WD", os.environ.get("TMPDIR", "/tmp"))  # noqa: S108
        try:
            from gpiozero import (  # lazy: a hardware library
                DigitalInputDevice,
                DigitalOutputDevice,
            )

            with warnings.catch_warnings():  # PinFactoryFallback noise; the error says enough
                warnings.simplefilter("ignore")
                device = DigitalOutputDevice(pin) if output else DigitalInputDevice(pin)
                device.close()
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
        return None

    def open_serial(self, url: str, baudrate: int) -> str | None:
        try:
            import serial  # lazy: a hardware library

            port = serial.serial_for_url(url, baudrate=baudrate, timeout=0)
            port.close()
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
        return None

    def service_state(self, unit: str) -> str:
        try:
            # A fixed argument list, no shell.
            done = subprocess.run(["systemctl", "is-active", unit],  # noqa: S603, S607
                                  capture_output=True, text=True, timeout=10, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"unknown ({exc})"
        return done.stdout.strip() or f"unknown (exit {done.returncode})"


def _get(config: Mapping[str, Any], dotted: str, default: Any) -> Any:
    node: Any = config
    for key in dotted.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return default
        node = node[key]
    return node


def _pins(config: Mapping[str, Any]) -> dict[str, int]:
    """The BCM pins the config uses, by role (0 = not fitted, left out)."""
    roles = {f"button {b}": f"buttons.{b}" for b in ("next", "up", "down", "back")}
    roles |= {"buzzer": "buzzer.pin", "led": "led.pin", "shutdown button": "shutdown.pin"}
    found = {}
    for role, key in roles.items():
        value = _get(config, key, 0)
        if isinstance(value, int) and value > 0:
            found[role] = value
    return found


def _boot_file(probe: DoctorProbe, name: str) -> tuple[str, str | None]:
    for folder in BOOT_DIRS:
        path = f"{folder}/{name}"
        text = probe.read_text(path)
        if text is not None:
            return path, text
    return f"{BOOT_DIRS[0]}/{name}", None


def _active_lines(text: str) -> list[str]:
    return [line.split("#", 1)[0].strip() for line in text.splitlines()
            if line.split("#", 1)[0].strip()]


def _group_fix(group: str, probe: DoctorProbe) -> str:
    if group in probe.user_groups():
        return f"check the device's group: ls -l the device; it should belong to group {group}"
    return f"sudo usermod -aG {group} $USER, then log out and in again"


# The checks. Each takes (config, probe, context) and returns one Check.
Context = dict[str, Any]


def check_board(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    model = probe.board_model()
    return Check("board", True, model or "a Raspberry Pi GPIO chip (no model string)")


def check_config(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    path = ctx["config_path"]
    text = probe.read_text(path)
    if text is None:
        detail = f"{path} not found: using the packaged defaults"
    else:
        try:
            loads_toml(text, path)
        except BoundedInputError as exc:
            return Check("config", False, str(exc),
                         f"fix the TOML syntax in {path} (sudoedit {path})")
        detail = f"{path} parses"
    pins = _pins(config)
    seen: dict[int, str] = {}
    for role, pin in pins.items():
        if pin in seen:
            return Check("config", False, f"GPIO{pin} is both the {seen[pin]} and the {role}",
                         f"give each part its own pin in {path} (see hardware/pinmap.toml)")
        seen[pin] = role
        if pin in (2, 3):
            return Check("config", False, f"the {role} is on GPIO{pin}, the OLED's I2C line",
                         f"move the {role} off GPIO2/GPIO3 in {path}")
    return Check("config", True, detail)


def check_boot_config(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    path, text = _boot_file(probe, "config.txt")
    if text is None:
        return Check("boot-config", False, f"cannot read {path}", INSTALL_HINT)
    lines = _active_lines(text)
    problems = []
    if not any(line.startswith("dtparam=") and "i2c_arm=on" in line for line in lines):
        problems.append("I2C is not enabled (dtparam=i2c_arm=on)")
    for line in lines:
        if line.startswith("dtoverlay=gpio-shutdown") and "gpio_pin=" not in line:
            problems.append("dtoverlay=gpio-shutdown without gpio_pin= takes GPIO3, the "
                            "OLED's I2C clock")
    if _serial_device(config) and not any(line == "enable_uart=1" for line in lines):
        problems.append("the serial line is configured but enable_uart=1 is missing")
    if problems:
        return Check("boot-config", False, f"{path}: " + "; ".join(problems),
                     f"{INSTALL_HINT} (or copy firmware_config/config.txt.fragment into {path})")
    return Check("boot-config", True, f"{path} enables what the box needs")


def _not_i2c(config: Mapping[str, Any], name: str) -> Check | None:
    interface = str(_get(config, "display.interface", "i2c"))
    if interface == "i2c":
        return None
    return Check(name, True, f"display.interface = {interface!r}: no I2C display to check")


def check_i2c_bus(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    if (skipped := _not_i2c(config, "i2c-bus")) is not None:
        return skipped
    device = f"/dev/i2c-{_get(config, 'display.i2c_port', 1)}"
    if not probe.exists(device):
        return Check("i2c-bus", False, f"{device} does not exist",
                     "enable I2C and load i2c-dev: add dtparam=i2c_arm=on to "
                     "/boot/firmware/config.txt, echo i2c-dev | sudo tee "
                     "/etc/modules-load.d/companion.conf, sudo reboot (tools/install.py does "
                     "all of this)")
    if not probe.can_open(device):
        return Check("i2c-bus", False, f"{device}: permission denied", _group_fix("i2c", probe))
    ctx["i2c_ok"] = True
    return Check("i2c-bus", True, f"{device} is there and opens")


def check_display(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    port = int(_get(config, "display.i2c_port", 1))
    address = int(_get(config, "display.i2c_address", 0x3C))
    if (skipped := _not_i2c(config, "display")) is not None:
        return skipped
    if not ctx.get("i2c_ok"):
        return Check("display", False, f"not checked: /dev/i2c-{port} is not usable",
                     "fix i2c-bus first")
    error = probe.i2c_answers(port, address)
    if error is not None:
        return Check("display", False, f"nothing answers at 0x{address:02X} on bus {port} "
                     f"({error})",
                     "check the wiring: VCC to pin 1 (3.3 V), GND to pin 6, SDA to pin 3, "
                     f"SCL to pin 5; run i2cdetect -y {port} to see which address answers "
                     "(some modules use 0x3D: set display.i2c_address)")
    return Check("display", True, f"a device answers at 0x{address:02X} on bus {port}")


def check_gpio(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    chips = probe.glob("/dev/gpiochip*")
    if not chips:
        return Check("gpio", False, "no /dev/gpiochip* device",
                     "use a kernel with the GPIO character device (Raspberry Pi OS Bookworm)")
    closed = [chip for chip in chips if not probe.can_open(chip)]
    if closed:
        return Check("gpio", False, f"permission denied: {', '.join(closed)}",
                     _group_fix("gpio", probe))
    ctx["gpio_ok"] = True
    return Check("gpio", True, f"{', '.join(chips)} open")


def check_pins(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    if ctx.get("service_state") == "active":
        return Check("pins", True, "skipped: the running service holds the pins "
                     "(sudo systemctl stop companion, then run the doctor again to test them)")
    if not ctx.get("gpio_ok"):
        return Check("pins", False, "not checked: no usable GPIO chip", "fix gpio first")
    failures = []
    for role, pin in _pins(config).items():
        if role == "shutdown button":
            continue  # the gpio-shutdown overlay owns it
        error = probe.claim_pin(pin, output=role in ("buzzer", "led"))
        if error is not None:
            failures.append(f"{role} GPIO{pin}: {error}")
    if failures:
        return Check("pins", False, "; ".join(failures),
                     "find what holds the pin: pinctrl get <pin> (Bookworm) and "
                     "grep -n 'dtoverlay\\|dtparam' /boot/firmware/config.txt; a pwm overlay "
                     "on GPIO18 takes the buzzer pin from gpiozero: remove it")
    return Check("pins", True, "buzzer, LED and button pins are free")


def _serial_device(config: Mapping[str, Any]) -> str | None:
    url = str(_get(config, "serial.url", "none"))
    return url if url.startswith("/dev/") else None


def check_serial(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    url = str(_get(config, "serial.url", "none"))
    device = _serial_device(config)
    if device is None:
        return Check("serial", True, f"serial.url = {url!r}: no serial device to check")
    if not probe.exists(device):
        return Check("serial", False, f"{device} does not exist",
                     "add enable_uart=1 to /boot/firmware/config.txt and reboot, or plug in the "
                     "USB-serial adapter (see firmware_config/cmdline.md)")
    _path, cmdline = _boot_file(probe, "cmdline.txt")
    if cmdline is not None and device in ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0"):
        name = device.removeprefix("/dev/")
        if f"console={name}" in cmdline or "console=serial0" in cmdline:
            return Check("serial", False, f"the kernel console and a login prompt use {device}",
                         "remove console=serial0,115200 from /boot/firmware/cmdline.txt and "
                         "reboot (firmware_config/cmdline.md)")
    if not probe.can_open(device):
        return Check("serial", False, f"{device}: permission denied", _group_fix("dialout", probe))
    error = probe.open_serial(device, int(_get(config, "serial.baudrate", 115200)))
    if error is not None:
        return Check("serial", False, f"{device}: {error}",
                     f"see what holds it: sudo fuser -v {device}")
    return Check("serial", True, f"{device} opens")


def check_service(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    state = ctx["service_state"]
    if state == "active":
        return Check("service", True, "companion.service is active")
    return Check("service", False, f"companion.service is {state}",
                 "sudo systemctl enable --now companion; if it fails: "
                 "journalctl -u companion -b --no-pager | tail -n 30")


CheckFunction = Callable[[Mapping[str, Any], DoctorProbe, Context], Check]
_FUNCTIONS: dict[str, CheckFunction] = {
    "board": check_board, "config": check_config, "boot-config": check_boot_config,
    "i2c-bus": check_i2c_bus, "display": check_display, "gpio": check_gpio,
    "pins": check_pins, "serial": check_serial, "service": check_service,
}


def run_checks(config: Mapping[str, Any], probe: DoctorProbe, *,
               config_path: str = DEFAULT_CONFIG_PATH) -> Iterable[Check]:
    """Run every check in order (on a Pi), yielding each outcome as it is known."""
    ctx: Context = {"config_path": config_path, "service_state": probe.service_state(SERVICE)}
    for name, _what in CHECKS:
        try:
            yield _FUNCTIONS[name](config, probe, ctx)
        except Exception as exc:  # a doctor that crashes helps nobody
            yield Check(name, False, f"the check itself failed: {type(exc).__name__}: {exc}",
                        "report this as a bug, with the output of companion doctor")


def run_doctor(config: Mapping[str, Any], out: TextIO, *, probe: DoctorProbe | None = None,
               config_path: str = DEFAULT_CONFIG_PATH) -> int:
    """Check the build and print the findings to `out`. 0: all good (or not a Pi), 1: a FAIL."""
    probe = SystemProbe() if probe is None else probe
    if not probe.is_raspberry_pi():
        out.write("companion doctor: this is not a Raspberry Pi (no Raspberry Pi GPIO chip), so "
                  "there is nothing to check here.\nOn a Pi it checks:\n")
        for name, what in CHECKS:
            out.write(f"  {name:<12} {what}\n")
        out.flush()
        return 0
    failed = 0
    for check in run_checks(config, probe, config_path=config_path):
        out.write(f"{'OK' if check.ok else 'FAIL':<4}  {check.name:<12} {check.detail}\n")
        if not check.ok:
            failed += 1
            out.write(f"      fix: {check.fix}\n")
        out.flush()
    out.write("All checks passed.\n" if not failed else
              f"{failed} check{'s' if failed > 1 else ''} failed.\n")
    return 1 if failed else 0

