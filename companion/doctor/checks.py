"""The doctor's checks: one small function per check, each answering one `Check`.

Rules every check keeps:
- It asks the machine only through the `DoctorProbe` it is given (see probe.py).
- It answers exactly one `Check`; a FAIL carries the fix to apply (a command to run, a line to
  change, a wire to look at), written for someone at the table with a keyboard.
- Checks run in the order of the table in `companion.doctor`; a later check may read what an
  earlier one left in the shared `Context` (`i2c_ok`, `gpio_ok`) to say "fix that first"
  instead of failing for the same reason twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.bounded import BoundedInputError, loads_toml
from companion.doctor.probe import DoctorProbe
from companion.doctor.wiring import PANELS as WIRING
from companion.doctor.wiring import PanelWiring

BOOT_DIRS = ("/boot/firmware", "/boot")
SERVICE = "companion"
INSTALL_HINT = "in the project folder: sudo python3 tools/install.py, then sudo reboot"

# What the checks share while one doctor run goes: the config path, the service state, and
# what earlier checks found usable.
Context = dict[str, Any]


@dataclass(frozen=True)
class Check:
    """One check's outcome: `fix` says what to do when it failed. `tested` is False for a
    check that could not look (the service holds what it would test): `ok` then only means
    nothing was found wrong, and `detail` says why it did not look."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    tested: bool = True


CheckFunction = Callable[[Mapping[str, Any], DoctorProbe, Context], Check]


def _get(config: Mapping[str, Any], dotted: str, default: Any) -> Any:
    node: Any = config
    for key in dotted.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return default
        node = node[key]
    return node


SPI_ROLES = {"display DC": "display.spi_dc_pin", "display RES": "display.spi_reset_pin",
             "display CS": "display.spi_cs_pin"}
# SPI0's own lines (MOSI, SCLK, and MISO, which the spi0-1cs overlay claims too).
SPI0_BUS = {10: "MOSI", 11: "SCLK", 9: "MISO"}


def is_spi(config: Mapping[str, Any]) -> bool:
    return str(_get(config, "display.interface", "i2c")) == "spi"


def _pins(config: Mapping[str, Any]) -> dict[str, int]:
    """The BCM pins the config uses, by role (0 = not fitted, left out)."""
    roles = {f"button {b}": f"buttons.{b}" for b in ("next", "up", "down", "back")}
    roles |= {"buzzer": "buzzer.pin", "led": "led.pin", "shutdown button": "shutdown.pin"}
    if is_spi(config):
        roles |= SPI_ROLES
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
    boot_path = ctx.get("boot_config_path")
    boot_text = probe.read_text(boot_path) if boot_path else None
    if boot_path and boot_text is not None:
        # The SD card's own settings file, edited from any computer: every key is checked as
        # the companion checks it at start-up, so a mistake there is named here.
        from companion.config import ConfigError, defaults, merge

        try:
            merge(defaults(), loads_toml(boot_text, boot_path), boot_path)
        except (BoundedInputError, ConfigError) as exc:
            return Check("config", False, str(exc),
                         f"fix that line in {boot_path}: it is on the SD card's boot partition, "
                         "which any computer can edit")
        detail += f"; {boot_path} parses and overrides it"
    pins = _pins(config)
    seen: dict[int, str] = {}
    for role, pin in pins.items():
        if pin in seen:
            return Check("config", False, f"GPIO{pin} is both the {seen[pin]} and the {role}",
                         f"give each part its own pin in {path} (see hardware/pinmap.toml)")
        seen[pin] = role
        if pin in (2, 3) and not is_spi(config):
            return Check("config", False, f"the {role} is on GPIO{pin}, the OLED's I2C line",
                         f"move the {role} off GPIO2/GPIO3 in {path}")
        if pin in SPI0_BUS and is_spi(config):
            return Check("config", False, f"the {role} is on GPIO{pin}, SPI0's "
                         f"{SPI0_BUS[pin]} (the display's bus)",
                         f"move the {role} off GPIO9, GPIO10 and GPIO11 in {path}")
    return Check("config", True, detail)


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


SPI_DEVICE = "/dev/spidev0.0"


def check_spi_bus(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    """An SPI display's bus: SPI0 with its one chip select, /dev/spidev0.0, opens."""
    if not is_spi(config):
        return Check("spi-bus", True, "display.interface = 'i2c': no SPI display to check")
    if not probe.exists(SPI_DEVICE):
        return Check("spi-bus", False, f"{SPI_DEVICE} does not exist",
                     "switch SPI0 on with the display's chip select: sudo python3 "
                     "tools/install.py (it writes dtparam=spi=on and dtoverlay=spi0-1cs,"
                     f"cs0_pin={_get(config, 'display.spi_cs_pin', 0)} into config.txt), "
                     "then sudo reboot")
    if not probe.can_open(SPI_DEVICE):
        return Check("spi-bus", False, f"{SPI_DEVICE}: permission denied",
                     _group_fix("spi", probe))
    ctx["spi_ok"] = True
    return Check("spi-bus", True, f"{SPI_DEVICE} is there and opens")


def check_display(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    port = int(_get(config, "display.i2c_port", 1))
    address = int(_get(config, "display.i2c_address", 0x3C))
    if is_spi(config):
        return _check_spi_display(config, probe, ctx)
    if (skipped := _not_i2c(config, "display")) is not None:
        return skipped
    if not ctx.get("i2c_ok"):
        return Check("display", False, f"not checked: /dev/i2c-{port} is not usable",
                     "fix i2c-bus first")
    error = probe.i2c_answers(port, address)
    if error is not None:
        return Check("display", False, f"nothing answers at 0x{address:02X} on bus {port} "
                     f"({error})",
                     f"{wiring_advice(config)}; run i2cdetect -y {port} to see which "
                     "address answers (some modules use 0x3D: set display.i2c_address)")
    return Check("display", True, f"a device answers at 0x{address:02X} on bus {port}")


def _check_spi_display(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    """An SPI panel never answers back: the check opens SPI0 and sends the panel's init (the
    panel lights and clears); the picture itself is the report's question."""
    dc, reset = _get(config, "display.spi_dc_pin", 0), _get(config, "display.spi_reset_pin", 0)
    if ctx.get("service_holds_pins"):
        return Check("display", True, "not tested: the running service drives the panel (its "
                     "menu there is the test; sudo systemctl stop companion, then run the "
                     "doctor again to send the panel's init)", tested=False)
    if not ctx.get("spi_ok"):
        return Check("display", False, f"not checked: {SPI_DEVICE} is not usable",
                     "fix spi-bus first")
    error = probe.spi_panel_init(dict(_get(config, "display", {})))
    if error is not None:
        return Check("display", False, f"the panel's init could not go out on {SPI_DEVICE} "
                     f"(DC GPIO{dc}, RES GPIO{reset}): {error}",
                     f"{wiring_advice(config)}; something else may hold GPIO{dc} or "
                     f"GPIO{reset} (pinctrl get {dc},{reset})")
    return Check("display", True, f"the panel's init went out on {SPI_DEVICE} (DC GPIO{dc}, "
                 f"RES GPIO{reset}); SPI has no acknowledge, so only the picture proves the "
                 f"wiring: if the menu does not appear, {wiring_advice(config)}")


PANELS = {"ssd1309": "2.42 in SSD1309 (recommended)", "sh1106": "1.3 in SH1106",
          "ssd1306": "0.96 in SSD1306"}
"""The panels the box is built and tested for (hardware/README.md), by luma driver name. All
three take partial updates (adapters/oled_pages.py)."""


def panel_wiring(config: Mapping[str, Any]) -> PanelWiring | None:
    """The pin map's panel for the configured driver and interface (doctor/wiring.py, written
    from hardware/pinmap.toml), or None when the box is not built for it."""
    driver = str(_get(config, "display.driver", "ssd1306"))
    interface = str(_get(config, "display.interface", "i2c"))
    return next((panel for panel in WIRING.values()
                 if (panel.driver, panel.interface) == (driver, interface)), None)


def wiring_advice(config: Mapping[str, Any]) -> str:
    """"check the wiring: VCC to pin 1 (3V3), ..." for the configured panel, from the pin map:
    no pin is written here by hand."""
    panel = panel_wiring(config)
    if panel is None:
        return "check the wiring against hardware/wiring-<panel>.svg for your panel"
    wires = ", ".join(f"{terminal} to pin {pin} ({label})" for terminal, pin, label in panel.wires)
    return f"check the wiring ({panel.title}): {wires}"
PANEL_SIZE = (128, 64)


def check_display_driver(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    """The configured driver and size are a panel the screens are drawn for (config only)."""
    driver = str(_get(config, "display.driver", "ssd1306"))
    size = (_get(config, "display.width", 128), _get(config, "display.height", 64))
    choose = ("set display.driver in the config to ssd1309 (2.42 in panel), sh1106 (1.3 in) or "
              "ssd1306 (0.96 in), as hardware/README.md describes")
    if driver not in PANELS:
        return Check("display-driver", False, f"display.driver = {driver!r} is not a panel "
                     "the box is built for", choose)
    if size != PANEL_SIZE:
        return Check("display-driver", False, f"display size {size[0]}x{size[1]}: the screens "
                     "are drawn for 128x64", "set display.width = 128 and display.height = 64")
    return Check("display-driver", True, f"{driver}: the {PANELS[driver]} panel, 128x64, "
                 "partial updates")


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
    if ctx.get("service_holds_pins"):
        return Check("pins", True, "not tested: the running service holds the pins "
                     "(sudo systemctl stop companion, then run the doctor again to test them)",
                     tested=False)
    if not ctx.get("gpio_ok"):
        return Check("pins", False, "not checked: no usable GPIO chip", "fix gpio first")
    failures = []
    for role, pin in _pins(config).items():
        if role == "display CS" or (role == "shutdown button" and _get(
                config, "shutdown.handler", "overlay") != "companion") or (
                role == "led" and _get(config, "led.shows", "power-off") == "power-off"):
            continue  # the spi0-1cs, gpio-shutdown and gpio-poweroff overlays own them
        error = probe.claim_pin(pin, output=role in ("buzzer", "led", "display DC",
                                                     "display RES"))
        if error is not None:
            failures.append(f"{role} GPIO{pin}: {error}")
    if failures:
        return Check("pins", False, "; ".join(failures),
                     "find what holds the pin: pinctrl get <pin> (Bookworm) and "
                     "grep -n 'dtoverlay\\|dtparam' /boot/firmware/config.txt; a pwm overlay "
                     "on GPIO18 takes the buzzer pin from gpiozero: remove it")
    extra = ", display DC and RES" if is_spi(config) else ""
    return Check("pins", True, f"buzzer, LED{extra} and button pins are free")
