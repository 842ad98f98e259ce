"""What the doctor asks of the machine: the `DoctorProbe` seam and the real `SystemProbe`.

Promises:
- Every touch of the operating system made by a check goes through a `DoctorProbe`, so a test
  can fake a whole Pi with one small object.
- `SystemProbe` imports smbus2, gpiozero and pyserial only inside the method that needs them,
  and never raises out of a method: a failure comes back as an error string (or None / False).
- Commands (`systemctl`, `vcgencmd`) run through an injectable `Runner`: an argument list,
  never a shell, with a timeout. Tests hand in a fake runner; the default one is `run_command`.
- An SPI panel is checked by sending it its init through luma's own SPI interface (the one the
  companion drives it with): spidev's SpiDev and the gpiozero pin factory are injectable, so a
  test runs the real path against a recording SpiDev and mock pins.
"""

from __future__ import annotations

import grp
import os
import socket
import subprocess
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from companion.adapters import pi_probe

__all__ = ["COMMAND_TIMEOUT_S", "DoctorProbe", "Runner", "SystemProbe", "run_command"]

COMMAND_TIMEOUT_S = 10

# Runs one command; answers (exit status, standard output). May raise OSError (no such
# program) or subprocess.SubprocessError (it timed out).
Runner = Callable[[Sequence[str]], tuple[int, str]]


def run_command(argv: Sequence[str]) -> tuple[int, str]:
    """The real runner: an argument list, no shell, a timeout, output captured as text."""
    done = subprocess.run(list(argv), capture_output=True, text=True,  # noqa: S603 (no shell)
                          timeout=COMMAND_TIMEOUT_S, check=False)
    return done.returncode, done.stdout


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

    def spi_panel_init(self, options: Mapping[str, Any]) -> str | None:
        """None if the SPI panel's init went out on SPI0 device 0 (luma's SPI interface, DC
        and RES on the config's GPIOs; the panel then closed), else the error. `options` are
        the config's [display] table."""

    def service_state(self, unit: str) -> str:
        """The output of `systemctl is-active UNIT` ("active", "inactive", "failed", ...)."""

    def service_properties(self, unit: str, names: Sequence[str]) -> dict[str, str] | None:
        """`systemctl show UNIT -p NAME,...` as a dict, or None when systemctl cannot tell."""

    def stop_service(self, unit: str) -> str | None:
        """`systemctl stop UNIT`: None when it stopped, else why not (root is needed)."""

    def start_service(self, unit: str) -> str | None:
        """`systemctl start UNIT`: None when it started, else why not."""

    def real_path(self, path: str) -> str | None:
        """Where a path leads after every symbolic link (/dev/serial0 -> /dev/ttyAMA10), or
        None when it does not exist."""

    def i2c_clock_hz(self, port: int) -> int | None:
        """The running I2C bus's clock from the device tree, or None when it cannot be read."""

    def throttled(self) -> str | None:
        """The output of `vcgencmd get_throttled` ("throttled=0x50000"), or None when
        vcgencmd is missing or does not answer."""

    def port_free(self, host: str, port: int) -> str | None:
        """None if a TCP socket could bind ``host:port`` now (as the page's server binds:
        address reuse on), else the error."""


class SystemProbe:
    """The real machine. Hardware libraries are imported inside the methods that need them."""

    def __init__(self, run: Runner = run_command, *, spi_dev: Callable[[], Any] | None = None,
                 pin_factory: Any = None) -> None:
        self._run = run
        self._spi_dev = spi_dev  # spidev.SpiDev by default
        self._pin_factory = pin_factory  # gpiozero's own choice by default (lgpio on a Pi)

    def is_raspberry_pi(self) -> bool:
        return pi_probe.is_raspberry_pi()

    def board_model(self) -> str | None:
        return pi_probe.board_model()

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

    def spi_panel_init(self, options: Mapping[str, Any]) -> str | None:
        os.environ.setdefault("LG_WD", os.environ.get("TMPDIR", "/tmp"))  # noqa: S108
        device = None
        try:
            from companion.adapters.oled import Display, GpiozeroLines, spi_device

            spi = self._spi_dev() if self._spi_dev is not None else None
            # luma's driver sends the panel's init (and a clear) as it is built.
            device = spi_device({"display": options.get("driver"), **options}, spi=spi,
                                lines=GpiozeroLines(self._pin_factory))
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
        finally:
            if device is not None:
                Display(device).close()  # the panel off, SPI closed, DC and RES released
        return None

    def service_state(self, unit: str) -> str:
        try:
            status, out = self._run(["systemctl", "is-active", unit])
        except (OSError, subprocess.SubprocessError) as exc:
            return f"unknown ({exc})"
        return out.strip() or f"unknown (exit {status})"

    def service_properties(self, unit: str, names: Sequence[str]) -> dict[str, str] | None:
        try:
            status, out = self._run(["systemctl", "show", unit, "-p", ",".join(names)])
        except (OSError, subprocess.SubprocessError):
            return None
        found = dict(line.partition("=")[::2] for line in out.splitlines() if "=" in line)
        return found if status == 0 and found else None

    def stop_service(self, unit: str) -> str | None:
        return self._systemctl("stop", unit)

    def start_service(self, unit: str) -> str | None:
        return self._systemctl("start", unit)

    def _systemctl(self, verb: str, unit: str) -> str | None:
        try:
            # --no-ask-password: without root, refuse at once rather than wait on a prompt.
            status, out = self._run(["systemctl", "--no-ask-password", verb, unit])
        except (OSError, subprocess.SubprocessError) as exc:
            return f"{type(exc).__name__}: {exc}"
        return None if status == 0 else (out.strip() or f"systemctl {verb} exit {status}")

    def real_path(self, path: str) -> str | None:
        return os.path.realpath(path) if os.path.exists(path) else None

    def i2c_clock_hz(self, port: int) -> int | None:
        # The device tree keeps the bus's clock-frequency as one big-endian 32-bit cell.
        node = Path(f"/sys/class/i2c-adapter/i2c-{port}/of_node/clock-frequency")
        try:
            raw = node.read_bytes()
        except OSError:
            return None
        return int.from_bytes(raw[:4], "big") if len(raw) >= 4 else None

    def throttled(self) -> str | None:
        try:
            status, out = self._run(["vcgencmd", "get_throttled"])
        except (OSError, subprocess.SubprocessError):
            return None
        return out.strip() if status == 0 and out.strip() else None

    def port_free(self, host: str, port: int) -> str | None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_STREAM) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind((host, port))
        except OSError as exc:
            return f"{type(exc).__name__}: {exc}"
        return None
