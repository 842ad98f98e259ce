"""The doctor's checks of what the boot firmware set up: the serial line, the I2C clock, power.

Rules these checks keep (as every check, see checks.py), and the sources that decide them:
- **The board decides the serial device.** On a Pi Zero 2 W, 3 and 4, `enable_uart=1` puts
  the UART on GPIO14/15 and `/dev/serial0` leads to it (`ttyS0`, or `ttyAMA0` with
  `dtoverlay=disable-bt`). On a Pi 5, `/dev/serial0` leads to `/dev/ttyAMA10`, the 3-pin
  debug connector; GPIO14/15 are `/dev/ttyAMA0`, switched on by `dtparam=uart0=on`
  (Raspberry Pi's UART documentation; raspberrypi/documentation#3239 and #3294).
- **Only an on-board UART needs boot settings.** A USB adapter (`/dev/ttyUSB0`,
  `/dev/ttyACM0`, `/dev/serial/by-id/...`, the udev name `/dev/companion-serial`) is checked
  for existing, permissions and opening, nothing else.
- **A console owns a port** when cmdline.txt names it (`console=serial0,115200` counts for
  the device serial0 leads to) or a `serial-getty@TTY` unit is active on it.
- **gpio-shutdown** watches the pin `shutdown.pin` names (tools/install.py writes 21); with
  no `gpio_pin=` it takes GPIO3, the OLED's I2C clock, which is always wrong for this box.
- **The I2C clock** is read from the running bus (the device tree's clock-frequency) when the
  kernel shows it, else from config.txt; below 400 kHz a full frame takes about 90 ms.
- **Power**: `vcgencmd get_throttled` bits 0-3 are "now", 16-19 "since boot" (under-voltage,
  frequency capped, throttled, soft temperature limit). Any of them is a FAIL with its cause.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from companion.doctor.checks import (
    INSTALL_HINT,
    Check,
    Context,
    _active_lines,
    _boot_file,
    _get,
    _group_fix,
)
from companion.doctor.probe import DoctorProbe

__all__ = ["PI5_GPIO_UART", "check_boot_config", "check_i2c_speed", "check_power",
           "check_serial", "is_pi5", "serial_kind", "uart_lines_missing"]

PI5_GPIO_UART = "/dev/ttyAMA0"
PI5_DEBUG_UART = "/dev/ttyAMA10"
OLDER_GPIO_UARTS = ("/dev/ttyS0", "/dev/ttyAMA0")
FAST_I2C_HZ = 400_000
DEFAULT_I2C_HZ = 100_000
_ONBOARD = re.compile(r"^/dev/(serial[01]|ttyAMA\d+|ttyS\d+)$")
_BAUDRATE = re.compile(r"^dtparam=.*\bi2c(?:_arm)?_baudrate=(\d+)")

THROTTLE_BITS: dict[int, str] = {
    0: "under-voltage now", 1: "ARM frequency capped now", 2: "throttled now",
    3: "soft temperature limit now", 16: "under-voltage since boot",
    17: "ARM frequency capped since boot", 18: "throttled since boot",
    19: "soft temperature limit reached since boot",
}
UNDER_VOLTAGE = (0, 16)
SUPPLY_FIX = ("use the official supply for the board (5.1 V 2.5 A micro-USB for a Zero 2 W, "
              "5.1 V 3 A USB-C for a Pi 4, 5.1 V 5 A USB-C for a Pi 5) and its own short "
              "cable; under-voltage corrupts SD cards (hardware/README.md, Power)")
HEAT_FIX = ("let air through the case (the vents of hardware/case) or add a heatsink; "
            "check with vcgencmd measure_temp")


def is_pi5(model: str | None) -> bool:
    """A board of the Pi 5 family (Pi 5, Pi 500, Compute Module 5): RP1 and its UART names."""
    return model is not None and any(name in model for name in (
        "Raspberry Pi 5", "Raspberry Pi 500", "Compute Module 5"))


def serial_kind(url: str) -> str:
    """"none" (no device), "onboard" (a UART of the SoC) or "adapter" (anything else in /dev)."""
    if not url.startswith("/dev/"):
        return "none"
    return "onboard" if _ONBOARD.match(url) else "adapter"


def uart_lines_missing(lines: list[str], model: str | None) -> str | None:
    """What config.txt lacks for the UART on GPIO14/15 on this board (None: nothing)."""
    if is_pi5(model):
        if not any(line.startswith("dtparam=") and "uart0=on" in line for line in lines):
            return "a Pi 5 needs dtparam=uart0=on for the UART on GPIO14/15 (/dev/ttyAMA0)"
        return None
    if "enable_uart=1" not in lines:
        return "the serial line is on GPIO14/15 but enable_uart=1 is missing"
    return None


def _uart_fix(model: str | None) -> str:
    if is_pi5(model):
        return ('sudo python3 tools/install.py --free-serial (it writes dtparam=uart0=on '
                'under [pi5]), set serial.url = "/dev/ttyAMA0", sudo reboot')
    return ("sudo python3 tools/install.py --free-serial (it writes enable_uart=1), "
            "sudo reboot (firmware_config/cmdline.md)")


def _console_on(probe: DoctorProbe, target: str) -> str | None:
    """The cmdline.txt word or the getty unit that owns `target`, or None."""
    _path, cmdline = _boot_file(probe, "cmdline.txt")
    for word in (cmdline or "").split():
        if not word.startswith("console="):
            continue
        name = word.removeprefix("console=").split(",", 1)[0]
        if probe.real_path(f"/dev/{name}") == target:
            return word
    unit = f"serial-getty@{target.removeprefix('/dev/')}.service"
    if probe.service_state(unit) == "active":
        return unit
    return None


def check_serial(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    url = str(_get(config, "serial.url", "none"))
    kind = serial_kind(url)
    if kind == "none":
        return Check("serial", True, f"serial.url = {url!r}: no serial device to check")
    model = probe.board_model()
    target = probe.real_path(url)
    if target is None:
        if kind == "adapter":
            return Check("serial", False, f"{url} does not exist",
                         "plug in the USB-serial adapter and look for it: ls /dev/ttyUSB* "
                         "/dev/ttyACM* /dev/serial/by-id/ (no boot settings needed for it)")
        return Check("serial", False, f"{url} does not exist", _uart_fix(model))
    if kind == "onboard":
        if is_pi5(model) and target == PI5_DEBUG_UART:
            return Check("serial", False, f"{url} leads to {PI5_DEBUG_UART}, the Pi 5's 3-pin "
                         "debug connector, not GPIO14/15",
                         f'set serial.url = "{PI5_GPIO_UART}" in the config and make sure '
                         "config.txt has dtparam=uart0=on (" + _uart_fix(model) + ")")
        if not is_pi5(model) and target not in OLDER_GPIO_UARTS:
            return Check("serial", False, f"{url} leads to {target}, which is not the UART "
                         "on GPIO14/15", 'set serial.url = "/dev/serial0"')
        owner = _console_on(probe, target)
        if owner is not None:
            return Check("serial", False, f"a console owns {target} ({owner}): its boot "
                         "messages and login prompt would mix into the protocol",
                         "sudo python3 tools/install.py --free-serial (takes console=serial0 "
                         "out of cmdline.txt), sudo reboot; or by hand: "
                         "firmware_config/cmdline.md")
    if not probe.can_open(url):
        return Check("serial", False, f"{url}: permission denied", _group_fix("dialout", probe))
    error = probe.open_serial(url, int(_get(config, "serial.baudrate", 115200)))
    if error is not None:
        return Check("serial", False, f"{url}: {error}", f"see what holds it: sudo fuser -v {url}")
    where = (f"{url} -> {target} (GPIO14/15), no console on it," if kind == "onboard" else
             f"{url} (a USB adapter: no UART settings needed)")
    return Check("serial", True, f"{where} opens")


def check_i2c_speed(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    if str(_get(config, "display.interface", "i2c")) != "i2c":
        return Check("i2c-speed", True, "no I2C display: the bus speed does not matter")
    port = int(_get(config, "display.i2c_port", 1))
    path, text = _boot_file(probe, "config.txt")
    configured = DEFAULT_I2C_HZ
    for line in _active_lines(text or ""):
        if found := _BAUDRATE.match(line):
            configured = int(found.group(1))
    running = probe.i2c_clock_hz(port)
    fix = (f"put dtparam=i2c_arm_baudrate={FAST_I2C_HZ} in {path} (tools/install.py does), "
           "sudo reboot")
    if running is not None and running != configured:
        return Check("i2c-speed", False, f"{path} asks for {configured // 1000} kHz but bus "
                     f"{port} runs at {running // 1000} kHz", "sudo reboot to apply config.txt")
    speed = configured if running is None else running
    source = "config.txt" if running is None else "running"
    if speed < FAST_I2C_HZ:
        return Check("i2c-speed", False, f"bus {port} at {speed // 1000} kHz ({source}): a full "
                     "frame takes about 90 ms", fix)
    return Check("i2c-speed", True, f"bus {port} at {speed // 1000} kHz ({source})")


def check_power(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    answer = probe.throttled()
    if answer is None:
        return Check("power", True, "not checked: vcgencmd get_throttled gave no answer "
                     "(Raspberry Pi OS has it in raspi-utils)")
    try:
        flags = int(answer.rpartition("=")[2], 16)
    except ValueError:
        return Check("power", True, f"not checked: vcgencmd said {answer!r}")
    found = [text for bit, text in THROTTLE_BITS.items() if flags >> bit & 1]
    if not found:
        return Check("power", True, f"{answer}: no under-voltage or throttling since boot")
    fix = SUPPLY_FIX if any(flags >> bit & 1 for bit in UNDER_VOLTAGE) else HEAT_FIX
    return Check("power", False, f"{answer}: " + ", ".join(found), fix)


_SHUTDOWN_PIN = re.compile(r"\bgpio_pin=(\d+)")
_CS0_PIN = re.compile(r"\bcs0_pin=(\d+)")
_POWEROFF_PIN = re.compile(r"\bgpiopin=(\d+)")
# Raspberry Pi's overlays, and the card's own builds of them (tools/pi_image/overlays.py:
# Debian's firmware package ships neither), with the same parameters.
SPI_OVERLAYS = ("dtoverlay=spi0-1cs", "dtoverlay=companion-spi0")
POWEROFF_OVERLAYS = ("dtoverlay=gpio-poweroff", "dtoverlay=companion-poweroff")


def _poweroff_lines_wrong(lines: list[str], config: Mapping[str, Any]) -> list[str]:
    """The LED as the power-off cue (led.shows = "power-off"): one gpio-poweroff overlay on
    led.pin, driving it high (lit) once halted; as the countdown LED: no such overlay, which
    would take the pin from the companion."""
    pin = _get(config, "led.pin", 0)
    overlays = [line for line in lines if line.startswith(POWEROFF_OVERLAYS)]
    if not isinstance(pin, int) or pin <= 0:
        return []
    if _get(config, "led.shows", "power-off") != "power-off":
        return [f"{line} takes GPIO{pin} from the companion's countdown LED: remove it, or "
                "set led.shows = 'power-off'" for line in overlays
                if _pin_of(line, _POWEROFF_PIN, 26) == pin]
    if not overlays:
        return [f"no dtoverlay=gpio-poweroff,gpiopin={pin}: the LED never shows when the box "
                "may be unplugged"]
    # gpio-poweroff's own default is GPIO26; the card's companion-poweroff's is GPIO24.
    found = _pin_of(overlays[-1], _POWEROFF_PIN,
                    24 if overlays[-1].startswith("dtoverlay=companion-") else 26)
    if found != pin:
        return [f"{overlays[-1]} drives GPIO{found} but led.pin is {pin}"]
    if "active_low=1" in overlays[-1]:
        return [f"{overlays[-1]}: active_low=1 lights the LED while the box runs and puts it "
                "out when it may be unplugged (and at every reboot): use active_low=0"]
    return []


def _pin_of(line: str, pattern: re.Pattern[str], default: int) -> int:
    found = pattern.search(line)
    return int(found.group(1)) if found else default


def _spi_lines_missing(lines: list[str], cs_pin: Any) -> list[str]:
    """What config.txt lacks for an SPI display: SPI0 with one chip select on the config's
    display.spi_cs_pin (firmware_config/spi.fragment)."""
    overlays = [line for line in lines if line.startswith(SPI_OVERLAYS)]
    if not overlays:
        return [f"no dtoverlay=spi0-1cs,cs0_pin={cs_pin}: the SPI display has no bus"]
    # spi0-1cs's own default is CE0 (GPIO8); the card's companion-spi0 has GPIO13 built in.
    pin = _pin_of(overlays[-1], _CS0_PIN,
                  13 if overlays[-1].startswith("dtoverlay=companion-spi0") else 8)
    if pin != cs_pin:
        return [f"{overlays[-1]} puts the chip select on GPIO{pin} but display.spi_cs_pin "
                f"is {cs_pin}"]
    return []


def check_boot_config(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    """I2C on; gpio-shutdown on the config's shutdown pin (never GPIO3); gpio-poweroff on the
    LED's pin while it shows the power-off; the UART lines for this board when the serial line
    is an on-board UART (boot.py says which)."""
    path, text = _boot_file(probe, "config.txt")
    if text is None:
        return Check("boot-config", False, f"cannot read {path}", INSTALL_HINT)
    lines = _active_lines(text)
    problems = []
    if not any(line.startswith("dtparam=") and "i2c_arm=on" in line for line in lines):
        problems.append("I2C is not enabled (dtparam=i2c_arm=on)")
    wanted = _get(config, "shutdown.pin", 0)
    by_companion = _get(config, "shutdown.handler", "overlay") == "companion"
    overlays = [line for line in lines if line.startswith("dtoverlay=gpio-shutdown")]
    for line in overlays:
        found = _SHUTDOWN_PIN.search(line)
        pin = int(found.group(1)) if found else 3  # the overlay's own default
        if pin in (2, 3):
            problems.append(f"{line} takes GPIO{pin}, the OLED's I2C line")
        elif by_companion:
            problems.append(f"{line} and the companion (shutdown.handler = 'companion') both "
                            f"watch the shutdown button: remove the line, or set "
                            f"shutdown.handler = 'overlay'")
        elif isinstance(wanted, int) and wanted > 0 and pin != wanted:
            problems.append(f"{line} watches GPIO{pin} but shutdown.pin is {wanted}")
    if isinstance(wanted, int) and wanted > 0 and not overlays and not by_companion:
        problems.append(f"no dtoverlay=gpio-shutdown: the shutdown button on GPIO{wanted} "
                        "does nothing")
    if str(_get(config, "display.interface", "i2c")) == "spi":
        problems += _spi_lines_missing(lines, _get(config, "display.spi_cs_pin", 0))
    problems += _poweroff_lines_wrong(lines, config)
    if serial_kind(str(_get(config, "serial.url", "none"))) == "onboard":
        missing = uart_lines_missing(lines, probe.board_model())
        if missing:
            problems.append(missing)
    if problems:
        return Check("boot-config", False, f"{path}: " + "; ".join(problems),
                     f"{INSTALL_HINT} (or copy firmware_config/config.txt.fragment into {path})")
    return Check("boot-config", True, f"{path} enables what the box needs")
