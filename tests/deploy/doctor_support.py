"""The doctor's fake Pi, shared by its tests: a healthy Pi 4 unless a test breaks something."""

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

DEFAULTS = Path(__file__).resolve().parents[2] / "companion" / "default_config.toml"
GOOD_CONFIG_TXT = ("dtparam=audio=on\n[all]\ndtparam=i2c_arm=on\n"
                   "dtparam=i2c_arm_baudrate=400000\nenable_uart=1\n"
                   "dtoverlay=gpio-shutdown,gpio_pin=21\n"
                   "dtoverlay=gpio-poweroff,gpiopin=24,active_low=0\n")
PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"


def defaults() -> dict:
    return tomllib.loads(DEFAULTS.read_text())


@dataclass
class FakePi:
    """A healthy Pi 4 unless a test breaks something."""

    pi: bool = True
    model: str = PI4
    devices: set = field(default_factory=lambda: {"/dev/i2c-1", "/dev/gpiochip0",
                                                  "/dev/serial0", "/dev/ttyS0"})
    files: dict = field(default_factory=lambda: {
        "/boot/firmware/config.txt": GOOD_CONFIG_TXT,
        "/boot/firmware/cmdline.txt": "console=tty1 root=PARTUUID=x rootwait\n",
    })
    groups: set = field(default_factory=lambda: {"pi", "gpio", "i2c", "dialout"})
    i2c_present: set = field(default_factory=lambda: {(1, 0x3C)})
    busy_pins: set = field(default_factory=set)
    service: str = "inactive"
    properties: dict | None = None  # systemctl show; None: systemctl could not tell
    claimed: list = field(default_factory=list)
    touched_hardware: bool = False
    links: dict = field(default_factory=lambda: {"/dev/serial0": "/dev/ttyS0"})
    units: dict = field(default_factory=dict)  # other systemd units' is-active answers
    i2c_clock: int | None = None  # the running bus's clock-frequency; None: not shown
    throttle: str | None = "throttled=0x0"  # vcgencmd get_throttled; None: no vcgencmd
    taken_ports: set = field(default_factory=set)  # ports another program holds
    spi_error: str | None = None  # the SPI panel's init: None when it went out
    spi_inits: list = field(default_factory=list)
    stop_error: str | None = None  # systemctl stop: None when it stopped (root)
    stopped: int = 0
    started: int = 0

    def is_raspberry_pi(self):
        return self.pi

    def board_model(self):
        return self.model

    def exists(self, path):
        return path in self.devices or path in self.files

    def can_open(self, path):
        return path in self.devices

    def glob(self, pattern):
        assert pattern == "/dev/gpiochip*"
        return sorted(d for d in self.devices if d.startswith("/dev/gpiochip"))

    def read_text(self, path):
        return self.files.get(path)

    def user_groups(self):
        return self.groups

    def i2c_answers(self, port, address):
        self.touched_hardware = True
        return None if (port, address) in self.i2c_present else "OSError: [Errno 121]"

    def claim_pin(self, pin, output):
        self.touched_hardware = True
        self.claimed.append(pin)
        return "GPIOPinInUse: pin busy" if pin in self.busy_pins else None

    def open_serial(self, url, baudrate):
        self.touched_hardware = True

    def service_state(self, unit):
        if unit == "companion":
            return self.service
        assert unit.startswith("serial-getty@"), unit
        return self.units.get(unit, "inactive")

    def service_properties(self, unit, names):
        assert unit == "companion.service"
        assert tuple(names) == ("ActiveState", "Result", "NRestarts")
        return self.properties

    def real_path(self, path):
        target = self.links.get(path, path)
        return target if target in self.devices else None

    def i2c_clock_hz(self, port):
        return self.i2c_clock

    def throttled(self):
        return self.throttle

    def port_free(self, host, port):
        return "OSError: [Errno 98] Address in use" if port in self.taken_ports else None

    def spi_panel_init(self, options):
        self.touched_hardware = True
        self.spi_inits.append(dict(options))
        return self.spi_error

    def stop_service(self, unit):
        assert unit == "companion"
        if self.stop_error is None:
            self.service = "inactive"
            self.stopped += 1
        return self.stop_error

    def start_service(self, unit):
        assert unit == "companion"
        self.service = "active"
        self.started += 1
