"""`companion doctor`: check a Raspberry Pi build and say what to fix.

Promises:
- On a Raspberry Pi, every check prints one line, `OK` or `FAIL`, and each FAIL is followed by
  the fix to apply (a command to run or a wire to check). The exit status is 0 when every check
  passed and 1 otherwise.
- Off a Pi it touches nothing: it says so, lists what it would check, and returns 0.
- Every touch of the operating system goes through a `DoctorProbe` (probe.py), so tests can
  fake a Pi. The real probe (`SystemProbe`) imports smbus2, gpiozero and pyserial only when a
  check needs them, runs `systemctl` without a shell and with a timeout, and never raises out
  of a check.
- Pin claims (is the buzzer pin free?) and an SPI panel's init are not tested while the
  companion service is running, since the service itself holds the pins and the panel: such a
  check prints SKIP with the reason, never OK.
- A check that crashes is reported as a FAIL of that check; the others still run.

Layout: `CHECKS` below is the table, one named entry per check, in the order they run and are
listed. Each entry's function takes (config, probe, context) and answers one `Check`; the
hardware and config checks live in checks.py, the service checks in service.py, and the
`DoctorProbe` with the real `SystemProbe` in probe.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple, TextIO

from companion.config import BOOT_CONFIG, SYSTEM_CONFIG
from companion.core.words import plural
from companion.doctor import boot, checks, service, web_unit
from companion.doctor.checks import SERVICE, Check, CheckFunction, Context
from companion.doctor.probe import DoctorProbe, SystemProbe
from companion.doctor.service import PROPERTIES, STATE_DIR

__all__ = ["CHECKS", "Check", "DoctorCheck", "DoctorProbe", "SystemProbe", "run_checks",
           "run_doctor"]

DEFAULT_CONFIG_PATH = str(SYSTEM_CONFIG)


class DoctorCheck(NamedTuple):
    """One row of the table: the name printed, what it checks (listed off a Pi), the function."""

    name: str
    what: str
    run: CheckFunction


# What the doctor checks on a Pi, in order (also what it lists off a Pi).
CHECKS: tuple[DoctorCheck, ...] = (
    DoctorCheck("board", "the board model (from the device tree)", checks.check_board),
    DoctorCheck("config", "the config file parses and names no pin twice", checks.check_config),
    DoctorCheck("boot-config",
                "config.txt enables I2C, puts gpio-shutdown on shutdown.pin (never GPIO3), for "
                "an SPI display SPI0 with its chip select on display.spi_cs_pin and, for an "
                "on-board serial line, the UART this board needs",
                boot.check_boot_config),
    DoctorCheck("i2c-bus", "the I2C device for the display exists and this user may open it",
                checks.check_i2c_bus),
    DoctorCheck("spi-bus", "an SPI display's bus (/dev/spidev0.0) exists and this user may "
                "open it", checks.check_spi_bus),
    DoctorCheck("display", "something answers at the display's I2C address; an SPI panel "
                "gets its init over SPI0 (it lights and clears; with the service stopped)",
                checks.check_display),
    DoctorCheck("i2c-speed", "the I2C bus runs at 400 kHz (the running bus, else config.txt)",
                boot.check_i2c_speed),
    DoctorCheck("display-driver",
                "display.driver is a panel the box is built for (ssd1309, sh1106, ssd1306), "
                "128x64", checks.check_display_driver),
    DoctorCheck("gpio", "a GPIO chip exists and this user may open it", checks.check_gpio),
    DoctorCheck("pins",
                "the buzzer, LED and button pins can be claimed (skipped while the service runs)",
                checks.check_pins),
    DoctorCheck("serial",
                "the serial device exists and opens; an on-board UART is the one on GPIO14/15 "
                "for this board (/dev/serial0 followed) and no console or getty owns it",
                boot.check_serial),
    DoctorCheck("power", "no under-voltage or throttling since boot (vcgencmd get_throttled)",
                boot.check_power),
    DoctorCheck("service", "the companion service is active (systemctl is-active companion)",
                service.check_service),
    DoctorCheck("last-run",
                "how the service's last run ended (its run record; restarts and the start "
                "limit from systemctl show)",
                service.check_last_run),
    DoctorCheck(web_unit.NAME, web_unit.WHAT, web_unit.check_web_unit),
    DoctorCheck(web_unit.PORT_NAME, web_unit.PORT_WHAT, web_unit.check_web_port),
)


def run_checks(config: Mapping[str, Any], probe: DoctorProbe, *,
               config_path: str = DEFAULT_CONFIG_PATH, state_dir: str = STATE_DIR,
               service_state: str | None = None) -> Iterable[Check]:
    """Run every check in order (on a Pi), yielding each outcome as it is known. With the
    default config path, the boot partition's companion.toml is checked too (it overrides
    the system file: companion/config.py). `service_state` is the service's state before the
    report stopped it for its tests (the pins are then free to test)."""
    boot_config = str(BOOT_CONFIG) if config_path == DEFAULT_CONFIG_PATH else ""
    now = probe.service_state(SERVICE)
    ctx: Context = {"config_path": config_path, "boot_config_path": boot_config,
                    "state_dir": state_dir, "service_holds_pins": now == "active",
                    "service_state": service_state or now,
                    "service_properties": probe.service_properties(f"{SERVICE}.service",
                                                                   PROPERTIES)}
    for check in CHECKS:
        try:
            yield check.run(config, probe, ctx)
        except Exception as exc:  # a doctor that crashes helps nobody
            yield Check(check.name, False,
                        f"the check itself failed: {type(exc).__name__}: {exc}",
                        "report this as a bug, with the output of companion doctor")


def run_doctor(config: Mapping[str, Any], out: TextIO, *, probe: DoctorProbe | None = None,
               config_path: str = DEFAULT_CONFIG_PATH, state_dir: str = STATE_DIR) -> int:
    """Check the build and print the findings to `out`. 0: all good (or not a Pi), 1: a FAIL."""
    probe = SystemProbe() if probe is None else probe
    if not probe.is_raspberry_pi():
        out.write("companion doctor: this is not a Raspberry Pi (no Raspberry Pi GPIO chip), so "
                  "there is nothing to check here.\nOn a Pi it checks:\n")
        for check in CHECKS:
            out.write(f"  {check.name:<12} {check.what}\n")
        out.flush()
        return 0
    failed = skipped = 0
    for outcome in run_checks(config, probe, config_path=config_path, state_dir=state_dir):
        skipped += outcome.ok and not outcome.tested
        label = "FAIL" if not outcome.ok else "OK" if outcome.tested else "SKIP"
        out.write(f"{label:<4}  {outcome.name:<12} {outcome.detail}\n")
        if not outcome.ok:
            failed += 1
            out.write(f"      fix: {outcome.fix}\n")
        out.flush()
    if failed:
        out.write(f"{plural(failed, 'check')} failed.\n")
    elif skipped:
        out.write(f"No check failed; {skipped} not tested (SKIP: each says why).\n")
    else:
        out.write("All checks passed.\n")
    return 1 if failed else 0
