"""companion doctor: lists its checks off a Pi; on a faked Pi says what is wrong and the fix."""

import io
import json
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion import cli
from companion.adapters.gpio import mock_pin_factory
from companion.doctor import CHECKS, SystemProbe, report, run_doctor
from companion.doctor.report import ReportParts, write_report

DEFAULTS = Path(__file__).resolve().parents[2] / "companion" / "default_config.toml"
GOOD_CONFIG_TXT = ("dtparam=audio=on\n[all]\ndtparam=i2c_arm=on\n"
                   "dtparam=i2c_arm_baudrate=400000\nenable_uart=1\n"
                   "dtoverlay=gpio-shutdown,gpio_pin=21\n")
PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"


def _defaults() -> dict:
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


def _run(probe, config=None) -> tuple[int, str]:
    out = io.StringIO()
    status = run_doctor(_defaults() if config is None else config, out, probe=probe)
    return status, out.getvalue()


def test_doctor_off_pi_exits_0_and_lists_its_checks():
    probe = FakePi(pi=False)
    status, text = _run(probe)
    assert status == 0
    assert "not a Raspberry Pi" in text
    for check in CHECKS:
        assert check.name in text and check.what in text
    assert not probe.touched_hardware


def test_doctor_on_a_healthy_pi_passes_every_check():
    probe = FakePi(service="active")
    status, text = _run(probe)
    assert status == 0, text
    assert "FAIL" not in text
    assert text.count("OK ") == len(CHECKS)


def test_doctor_reports_a_missing_i2c_device_with_the_fix():
    probe = FakePi()
    probe.devices.discard("/dev/i2c-1")
    status, text = _run(probe)
    assert status == 1
    lines = text.splitlines()
    fail = next(i for i, line in enumerate(lines) if line.startswith("FAIL  i2c-bus"))
    assert "/dev/i2c-1 does not exist" in lines[fail]
    assert lines[fail + 1].strip().startswith("fix:")
    assert "dtparam=i2c_arm=on" in lines[fail + 1] and "i2c-dev" in lines[fail + 1]
    assert any(line.startswith("FAIL  display") for line in lines)


@pytest.mark.parametrize("panel", ["ssd1309", "sh1106", "ssd1306"])
def test_doctor_reports_a_silent_display_with_the_pin_maps_wiring(panel):
    """The advice names each of the panel's wires on the pin the pin map gives it (GND on pin
    9, not a pin written by hand), read here from hardware/pinmap.toml itself."""
    pinmap = tomllib.loads((DEFAULTS.parents[1] / "hardware" / "pinmap.toml").read_text())
    config = _defaults()
    config["display"]["driver"] = pinmap["panels"][panel]["driver"]
    status, text = _run(FakePi(service="active", i2c_present=set()), config)
    assert status == 1
    assert "nothing answers at 0x3C on bus 1" in text
    fix = next(line for line in text.splitlines() if "i2cdetect -y 1" in line)
    for wire in pinmap["parts"]["oled"]["wires"]:
        assert f"{wire['terminal']} to pin {wire['pin']} (" in fix
    assert "GND to pin 9 (GND)" in fix and "pin 6" not in fix


def test_doctor_reports_a_busy_buzzer_pin_and_skips_pins_while_the_service_runs():
    probe = FakePi(busy_pins={18})
    status, text = _run(probe)
    assert status == 1
    assert "buzzer GPIO18" in text
    assert 21 not in probe.claimed  # the shutdown overlay owns it
    running = FakePi(service="active", busy_pins={18})
    status, text = _run(running)
    assert status == 0, text
    assert running.claimed == []


def _line_of(text, name):
    return next(line for line in text.splitlines() if line[6:].startswith(f"{name} "))


def _fix_of(text, name):
    lines = text.splitlines()
    return lines[lines.index(_line_of(text, name)) + 1]


PI5_CONFIG_TXT = GOOD_CONFIG_TXT.replace("enable_uart=1\n", "[pi5]\ndtparam=uart0=on\n[all]\n")
CONSOLE = "console=serial0,115200 console=tty1 rootwait\n"
PI5_LINKS = {"/dev/serial0": "/dev/ttyAMA10"}
PI5_DEVICES = {"/dev/i2c-1", "/dev/gpiochip0", "/dev/serial0", "/dev/ttyAMA10", "/dev/ttyAMA0"}


# (board, url, config.txt, cmdline.txt, links, devices, getty units) -> boot-config ok,
# serial ok, words in the serial line or its fix.
SERIAL_CASES = [
    # Pi 4: serial0 is the mini UART on GPIO14/15.
    ("pi4 serial0", PI4, "/dev/serial0", GOOD_CONFIG_TXT, None, None, None, {}, True, True,
     ["/dev/serial0 -> /dev/ttyS0 (GPIO14/15), no console on it"]),
    ("pi4 console on serial0", PI4, "/dev/serial0", GOOD_CONFIG_TXT, CONSOLE, None, None, {},
     True, False, ["a console owns /dev/ttyS0 (console=serial0,115200)", "--free-serial"]),
    ("pi4 getty on ttyS0", PI4, "/dev/serial0", GOOD_CONFIG_TXT, None, None, None,
     {"serial-getty@ttyS0.service": "active"}, True, False,
     ["serial-getty@ttyS0.service"]),
    ("pi4 no enable_uart", PI4, "/dev/serial0",
     GOOD_CONFIG_TXT.replace("enable_uart=1\n", ""), None, None, None, {}, False, True, []),
    ("pi4 no uart at all", PI4, "/dev/serial0", GOOD_CONFIG_TXT, None, {},
     {"/dev/i2c-1", "/dev/gpiochip0"}, {}, True, False,
     ["/dev/serial0 does not exist", "writes enable_uart=1"]),
    # Pi 5: serial0 is the debug connector; GPIO14/15 are ttyAMA0 with dtparam=uart0=on.
    ("pi5 serial0 is the debug header", PI5, "/dev/serial0", PI5_CONFIG_TXT, None, PI5_LINKS,
     PI5_DEVICES, {}, True, False,
     ["leads to /dev/ttyAMA10, the Pi 5's 3-pin debug connector", 'serial.url = "/dev/ttyAMA0"']),
    ("pi5 ttyAMA0", PI5, "/dev/ttyAMA0", PI5_CONFIG_TXT, CONSOLE, PI5_LINKS, PI5_DEVICES, {},
     True, True, ["/dev/ttyAMA0 -> /dev/ttyAMA0 (GPIO14/15), no console on it"]),
    ("pi5 console moved to GPIO14/15", PI5, "/dev/ttyAMA0", PI5_CONFIG_TXT,
     "console=ttyAMA0,115200 console=tty1 rootwait\n", PI5_LINKS, PI5_DEVICES, {}, True, False,
     ["a console owns /dev/ttyAMA0 (console=ttyAMA0,115200)"]),
    ("pi5 set up with enable_uart only", PI5, "/dev/ttyAMA0", GOOD_CONFIG_TXT, None, PI5_LINKS,
     PI5_DEVICES - {"/dev/ttyAMA0"}, {}, False, False,
     ["/dev/ttyAMA0 does not exist", "dtparam=uart0=on"]),
    # A USB adapter: no UART settings, no console question.
    ("usb adapter", PI5, "/dev/ttyUSB0", GOOD_CONFIG_TXT.replace("enable_uart=1\n", ""),
     CONSOLE, None, {"/dev/i2c-1", "/dev/gpiochip0", "/dev/ttyUSB0"}, {}, True, True,
     ["/dev/ttyUSB0 (a USB adapter: no UART settings needed) opens"]),
    ("usb adapter unplugged", PI4, "/dev/ttyACM0", GOOD_CONFIG_TXT.replace("enable_uart=1\n", ""),
     None, None, None, {}, True, False, ["/dev/ttyACM0 does not exist", "plug in the USB"]),
]


@pytest.mark.parametrize("case", SERIAL_CASES, ids=[case[0] for case in SERIAL_CASES])
def test_doctor_checks_the_serial_line_for_the_board(case):
    (_name, model, url, config_txt, cmdline, links, devices, units, boot_ok, serial_ok,
     says) = case
    config = _defaults()
    config["serial"]["url"] = url
    probe = FakePi(service="active", model=model, units=units)
    probe.files["/boot/firmware/config.txt"] = config_txt
    if cmdline is not None:
        probe.files["/boot/firmware/cmdline.txt"] = cmdline
    if links is not None:
        probe.links = links
    if devices is not None:
        probe.devices = set(devices)
    status, text = _run(probe, config)
    assert _line_of(text, "boot-config").startswith("OK " if boot_ok else "FAIL"), text
    serial = _line_of(text, "serial")
    assert serial.startswith("OK " if serial_ok else "FAIL"), text
    said = serial if serial_ok else serial + _fix_of(text, "serial")
    for words in says:
        assert words in said, said
    assert status == (0 if boot_ok and serial_ok else 1)


@pytest.mark.parametrize(("overlay", "shutdown_pin", "ok", "says"), [
    ("dtoverlay=gpio-shutdown,gpio_pin=21,active_low=1,gpio_pull=up", 21, True, ""),
    ("dtoverlay=gpio-shutdown", 21, False, "takes GPIO3, the OLED's I2C line"),
    ("dtoverlay=gpio-shutdown,gpio_pin=3", 21, False, "takes GPIO3"),
    ("dtoverlay=gpio-shutdown,gpio_pin=26", 21, False, "watches GPIO26 but shutdown.pin is 21"),
    ("", 21, False, "no dtoverlay=gpio-shutdown: the shutdown button on GPIO21 does nothing"),
    ("", 0, True, ""),
])
def test_doctor_checks_gpio_shutdown_against_the_config(overlay, shutdown_pin, ok, says):
    config = _defaults()
    config["shutdown"]["pin"] = shutdown_pin
    probe = FakePi(service="active")
    base = GOOD_CONFIG_TXT.replace("dtoverlay=gpio-shutdown,gpio_pin=21\n", "")
    probe.files["/boot/firmware/config.txt"] = base + overlay + "\n"
    status, text = _run(probe, config)
    line = _line_of(text, "boot-config")
    assert line.startswith("OK " if ok else "FAIL"), text
    assert says in line
    assert status == (0 if ok else 1)


@pytest.mark.parametrize(("config_txt", "running", "ok", "says"), [
    (GOOD_CONFIG_TXT, None, True, "bus 1 at 400 kHz (config.txt)"),
    (GOOD_CONFIG_TXT, 400_000, True, "bus 1 at 400 kHz (running)"),
    (GOOD_CONFIG_TXT.replace("dtparam=i2c_arm_baudrate=400000\n", ""), None, False,
     "bus 1 at 100 kHz (config.txt): a full frame takes about 90 ms"),
    (GOOD_CONFIG_TXT, 100_000, False, "asks for 400 kHz but bus 1 runs at 100 kHz"),
    (GOOD_CONFIG_TXT.replace("dtparam=i2c_arm_baudrate=400000\n", "").replace(
        "i2c_arm=on", "i2c_arm=on,i2c_arm_baudrate=1000000"), 1_000_000, True,
     "bus 1 at 1000 kHz (running)"),
])
def test_doctor_checks_the_i2c_speed(config_txt, running, ok, says):
    probe = FakePi(service="active", i2c_clock=running)
    probe.files["/boot/firmware/config.txt"] = config_txt
    status, text = _run(probe)
    line = _line_of(text, "i2c-speed")
    assert line.startswith("OK " if ok else "FAIL") and says in line, text
    assert status == (0 if ok else 1)


@pytest.mark.parametrize(("answer", "ok", "says", "fix"), [
    ("throttled=0x0", True, "no under-voltage or throttling since boot", ""),
    ("throttled=0x50000", False, "under-voltage since boot, throttled since boot",
     "use the official supply"),
    ("throttled=0x50005", False, "under-voltage now, throttled now", "5.1 V 5 A USB-C"),
    ("throttled=0x80008", False, "soft temperature limit now", "let air through the case"),
    (None, True, "not checked: vcgencmd get_throttled gave no answer", ""),
    ("garbled", True, "not checked: vcgencmd said 'garbled'", ""),
])
def test_doctor_reports_under_voltage_and_throttling(answer, ok, says, fix):
    probe = FakePi(service="active", throttle=answer)
    status, text = _run(probe)
    line = _line_of(text, "power")
    assert line.startswith("OK " if ok else "FAIL") and says in line, text
    if not ok:
        assert fix in _fix_of(text, "power")
    assert status == (0 if ok else 1)


def test_system_probe_asks_vcgencmd_with_an_argument_list():
    vcgencmd = FakeSystemctl((0, "throttled=0x50000\n"))
    assert SystemProbe(vcgencmd).throttled() == "throttled=0x50000"
    assert vcgencmd.calls == [["vcgencmd", "get_throttled"]]
    missing = FakeSystemctl(error=FileNotFoundError(2, "No such file", "vcgencmd"))
    assert SystemProbe(missing).throttled() is None


def test_system_probe_follows_links_and_reads_the_i2c_clock(tmp_path):
    probe = SystemProbe()
    (tmp_path / "ttyAMA10").write_text("")
    (tmp_path / "serial0").symlink_to(tmp_path / "ttyAMA10")
    assert probe.real_path(str(tmp_path / "serial0")) == str(tmp_path / "ttyAMA10")
    assert probe.real_path(str(tmp_path / "serial1")) is None
    assert probe.i2c_clock_hz(999) is None  # no such bus here


def test_doctor_reports_a_broken_config_file_and_gpio_shutdown_on_gpio3():
    probe = FakePi(service="active")
    probe.files["/etc/companion/companion.toml"] = "[buttons\nnext = 17\n"
    probe.files["/boot/firmware/config.txt"] = GOOD_CONFIG_TXT + "dtoverlay=gpio-shutdown\n"
    status, text = _run(probe)
    assert status == 1
    assert "FAIL  config" in text and "FAIL  boot-config" in text
    assert "GPIO3" in text


RECORD = "/var/lib/companion/run-record.json"
GAVE_UP = {"ActiveState": "failed", "Result": "start-limit-hit", "NRestarts": "4"}


def _record(state, crashes=0, last=""):
    return json.dumps({"state": state, "crashes": crashes, "last_crash": last,
                       "boot_id": "b", "pid": 7})


def _line(text, name):
    return next(line for line in text.splitlines() if line[6:].startswith(f"{name} "))


@pytest.mark.parametrize(("service", "properties", "record", "ok", "says"), [
    ("active", {"ActiveState": "active", "Result": "success", "NRestarts": "0"},
     _record("stopped"), True,
     ["the last run stopped cleanly", "systemd: active, result success, 0 automatic restarts"]),
    ("active", {"ActiveState": "active", "Result": "success", "NRestarts": "2"},
     _record("running", 2, "ValueError: bad line"), True,
     ["running, recovered after 2 crashes, last: ValueError: bad line", "2 automatic restarts"]),
    ("activating", {"ActiveState": "activating", "Result": "exit-code", "NRestarts": "1"},
     _record("crashed", 1, "OSError: [Errno 121] Remote I/O error"), False,
     ["the last run crashed (1 crash in a row): OSError: [Errno 121] Remote I/O error"]),
    ("failed", {"ActiveState": "failed", "Result": "oom-kill", "NRestarts": "0"},
     _record("running"), False, ["systemd: failed, result oom-kill"]),
    ("active", None, None, True,
     ["no run record at /var/lib/companion/run-record.json", "sudo companion doctor",
      "systemd: no answer from systemctl show"]),
    ("active", {"ActiveState": "active", "Result": "success", "NRestarts": "0"}, "{garbled",
     True, ["no run record"]),
])
def test_doctor_last_run_says_how_the_service_ended(service, properties, record, ok, says):
    probe = FakePi(service=service, properties=properties)
    if record is not None:
        probe.files[RECORD] = record
    status, text = _run(probe)
    line = _line(text, "last-run")
    assert line.startswith("OK " if ok else "FAIL"), text
    for words in says:
        assert words in line, line
    if ok:
        assert status == (0 if service == "active" else 1), text
    else:
        fix = text.splitlines()[text.splitlines().index(line) + 1]
        assert fix.strip().startswith("fix:") and "journalctl -u companion" in fix


def test_doctor_says_how_to_re_arm_a_service_systemd_gave_up_on():
    probe = FakePi(service="failed", properties=GAVE_UP)
    probe.files[RECORD] = _record("crashed", 5, "ValueError: bad line")
    status, text = _run(probe)
    assert status == 1
    lines = text.splitlines()
    line = _line(text, "last-run")
    assert "systemd gave up after repeated failures" in line
    assert "the last run crashed (5 crashes in a row): ValueError: bad line" in line
    assert "result start-limit-hit, 4 automatic restarts" in line
    fix = lines[lines.index(line) + 1]
    assert "sudo systemctl reset-failed companion && sudo systemctl start companion" in fix
    assert "5 times within 10 minutes" in fix  # and why it is needed
    # The service check no longer suggests a start that systemd would refuse.
    service_fix = lines[lines.index(_line(text, "service")) + 1]
    assert "reset-failed" in service_fix and "enable --now" not in service_fix


def test_doctor_reads_the_run_record_in_the_state_dir_it_is_given():
    probe = FakePi(service="active")
    probe.files["/srv/box/run-record.json"] = _record("stopped")
    out = io.StringIO()
    run_doctor(_defaults(), out, probe=probe, state_dir="/srv/box")
    assert "the last run stopped cleanly" in _line(out.getvalue(), "last-run")


class FakeSystemctl:
    """A runner standing in for systemctl: records each argument list, answers a script."""

    def __init__(self, answer=(0, ""), error=None):
        self.answer, self.error, self.calls = answer, error, []

    def __call__(self, argv):
        self.calls.append(list(argv))
        if self.error is not None:
            raise self.error
        return self.answer


def test_system_probe_asks_systemctl_show_with_an_argument_list():
    systemctl = FakeSystemctl((0, "NRestarts=4\nActiveState=failed\nResult=start-limit-hit\n"))
    found = SystemProbe(systemctl).service_properties("companion.service",
                                                      ("ActiveState", "Result", "NRestarts"))
    assert found == GAVE_UP
    assert systemctl.calls == [["systemctl", "show", "companion.service", "-p",
                                "ActiveState,Result,NRestarts"]]


@pytest.mark.parametrize("systemctl", [
    FakeSystemctl(error=FileNotFoundError(2, "No such file or directory", "systemctl")),
    FakeSystemctl(error=subprocess.TimeoutExpired(["systemctl"], 10)),
    FakeSystemctl((1, "")),
    FakeSystemctl((0, "\n")),
])
def test_system_probe_without_an_answer_from_systemctl(systemctl):
    probe = SystemProbe(systemctl)
    assert probe.service_properties("companion.service", ("ActiveState",)) is None
    assert probe.service_state("companion").startswith("unknown")


def test_doctor_reports_a_config_nested_too_deep_instead_of_crashing():
    # Issue #13: the doctor parsed the config with a recursive parser and no bounds.
    probe = FakePi(service="active")
    probe.files["/etc/companion/companion.toml"] = "a = " + "[" * 1000 + "\n"
    status, text = _run(probe)
    assert status == 1
    assert "FAIL  config" in text and "nested deeper than 32" in text


@pytest.mark.parametrize(("driver", "size", "ok", "said"), [
    ("ssd1309", (128, 64), True, "2.42 in SSD1309 (recommended)"),
    ("sh1106", (128, 64), True, "1.3 in SH1106"),
    ("ssd1306", (128, 64), True, "0.96 in SSD1306"),
    ("ssd1390", (128, 64), False, "'ssd1390' is not a panel"),
    ("ssd1309", (128, 32), False, "128x32"),
])
def test_doctor_checks_the_display_driver_is_a_recommended_panel(driver, size, ok, said):
    config = _defaults()
    config["display"].update(driver=driver, width=size[0], height=size[1])
    status, text = _run(FakePi(service="active"), config)
    line = next(line for line in text.splitlines() if "display-driver" in line)
    assert line.startswith("OK " if ok else "FAIL") and said in line
    assert status == (0 if ok else 1)


SPI_CONFIG_TXT = GOOD_CONFIG_TXT + "dtparam=spi=on\ndtoverlay=spi0-1cs,cs0_pin=13\n"


def _spi_config(**display):
    config = _defaults()
    config["display"].update(driver="ssd1309", interface="spi", **display)
    return config


def _spi_pi(**changes):
    probe = FakePi(**changes)
    probe.devices.add("/dev/spidev0.0")
    probe.files["/boot/firmware/config.txt"] = SPI_CONFIG_TXT
    probe.groups.add("spi")
    return probe


def test_doctor_passes_an_spi_panel_built_as_the_pin_map_says():
    probe = _spi_pi()  # the service stopped, so the doctor claims the pins itself
    status, text = _run(probe, _spi_config())
    assert status == 1  # only because the service is not running here
    assert [line.split()[1] for line in text.splitlines() if line.startswith("FAIL")] == \
        ["service"], text
    assert "OK    spi-bus      /dev/spidev0.0 is there and opens" in text
    assert "i2c-speed    no I2C display" in text
    # DC and RES are claimed as outputs; CS belongs to the spi0-1cs overlay.
    config = _spi_config()["display"]
    assert {config["spi_dc_pin"], config["spi_reset_pin"]} <= set(probe.claimed)
    assert config["spi_cs_pin"] not in probe.claimed
    assert "display DC and RES" in text
    # Nothing answers back over SPI: the display line names the pin map's SPI wiring.
    line = next(line for line in text.splitlines() if line.startswith("OK    display "))
    for terminal, pin in (("SDA", 19), ("SCL", 23), ("RES", 29), ("DC", 31), ("CS", 33)):
        assert f"{terminal} to pin {pin} (" in line


@pytest.mark.parametrize(("change", "check", "says", "fix"), [
    (lambda p, c: p.devices.discard("/dev/spidev0.0"), "spi-bus",
     "/dev/spidev0.0 does not exist", "dtoverlay=spi0-1cs,cs0_pin=13"),
    (lambda p, c: (p.devices.discard("/dev/spidev0.0"), p.devices.add("/dev/spidev0.0"),
                   setattr(p, "can_open", lambda path: path != "/dev/spidev0.0")),
     "spi-bus", "permission denied", "group spi"),
    (lambda p, c: p.files.update({"/boot/firmware/config.txt": GOOD_CONFIG_TXT}), "boot-config",
     "no dtoverlay=spi0-1cs,cs0_pin=13", "tools/install.py"),
    (lambda p, c: c["display"].update(spi_cs_pin=26), "boot-config",
     "puts the chip select on GPIO13 but display.spi_cs_pin is 26", "tools/install.py"),
    (lambda p, c: c["led"].update(pin=10), "config", "the led is on GPIO10, SPI0's MOSI",
     "off GPIO9, GPIO10 and GPIO11"),
    (lambda p, c: c["display"].update(spi_dc_pin=17), "config",
     "GPIO17 is both the button next and the display DC", "its own pin"),
])
def test_doctor_names_what_is_wrong_with_an_spi_panel(change, check, says, fix):
    probe, config = _spi_pi(), _spi_config()
    change(probe, config)
    status, text = _run(probe, config)
    assert status == 1
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"FAIL  {check} "))
    assert says in lines[at], lines[at]
    assert fix in lines[at + 1], lines[at + 1]


def test_doctor_skips_the_spi_bus_for_an_i2c_panel():
    status, text = _run(FakePi(service="active"))
    assert status == 0
    assert "OK    spi-bus      display.interface = 'i2c'" in text


# -- companion doctor --report FILE: one complete file on the fake backend ----------------------

SECTIONS = ("## Machine", "## Settings", "## Doctor checks", "## Buttons", "## Buzzer and LED",
            "## Short bench (companion bench --short)", "## Summary")
BENCH = "companion bench (short) on Linux: every figure within its target"


class Maker:
    """The person at the box: presses each button the report asks for (on gpiozero's mock
    pins), answers its questions, and remembers every prompt."""

    def __init__(self, factory, config, *, dead=(), answers=None):
        self.factory = factory
        self.pins = {name.upper(): config["buttons"][name] for name in report.FRONT_BUTTONS}
        self.dead = set(dead)  # buttons whose wire is broken: pressing does nothing
        self.answers = answers or {}
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        for name, pin in self.pins.items():
            if name in self.dead:
                continue
            if prompt.startswith(f"Press {name} "):
                self.factory.pin(pin).drive_low()  # pressed: the pull-up's line to ground
            elif prompt.startswith(f"Let go of {name}"):
                self.factory.pin(pin).drive_high()
        for start, answer in self.answers.items():
            if prompt.startswith(start):
                return answer
        return ""


def _report(tmp_path, *, dead=(), answers=None, probe=None, config=None):
    config = config or _defaults()
    factory = mock_pin_factory()
    maker = Maker(factory, config, dead=dead, answers=answers or {
        "The buzzer should sound": "y", "If you have a sound meter": "78",
        "The status LED": "y"})
    parts = ReportParts(probe or FakePi(), factory, maker, lambda: BENCH, say=maker,
                        now=lambda: datetime(2026, 11, 28, 3, 0, tzinfo=UTC))
    target = tmp_path / "report.md"
    try:
        status = write_report(target, config, parts, config_path="/etc/companion/companion.toml")
    finally:
        factory.close()
    return status, target.read_text(encoding="utf-8"), maker, factory


def test_report_on_a_good_build_is_complete_and_passes(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "PRESS_TIMEOUT_S", 0)
    status, text, maker, _ = _report(tmp_path)
    positions = [text.index(section) for section in SECTIONS]
    assert positions == sorted(positions)
    assert text.startswith("# companion doctor report, 2026-11-28 03:00 UTC")
    for fact in ("- board: Raspberry Pi 4 Model B Rev 1.5", "- OS: ", "- kernel: ",
                 "- Python: 3.", "- companion: ", "- display.driver = 'ssd1306'"):
        assert fact in text
    assert "- OK display: a device answers at 0x3C on bus 1" in text
    # One prompt per press and per release, in the order of the buttons.
    presses = [p.split()[1] for p in maker.prompts if p.startswith("Press ")]
    assert presses == ["NEXT", "UP", "DOWN", "BACK"]
    for name in ("NEXT", "UP", "DOWN", "BACK"):
        assert f"- {name} (GPIO" in text and "): OK: pressed and released" in text
    assert "- buzzer (passive, piezo) at 4000 Hz: OK: heard" in text
    assert "- level at 50 cm: 78 dB (measured by the maker)" in text
    assert "- LED (GPIO24): OK: lit" in text
    assert BENCH in text
    # The service is inactive in FakePi: that one doctor check fails, and the summary says so.
    assert "- FAIL service:" in text and "  - fix: sudo systemctl enable --now companion" in text
    assert "- 1 doctor check(s) failed, 0 hardware test(s) failed" in text
    assert status == 1


def test_report_names_a_dead_button_a_silent_buzzer_and_a_dark_led(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "PRESS_TIMEOUT_S", 0)
    status, text, _, _ = _report(tmp_path, dead={"DOWN"}, answers={
        "The buzzer should sound": "n", "The status LED": "no"})
    assert "- DOWN (GPIO22): FAIL: no press seen" in text
    assert "- UP (GPIO27): OK: pressed and released" in text
    assert "- buzzer (passive, piezo) at 4000 Hz: FAIL: answered 'n'" in text
    assert "- LED (GPIO24): FAIL: answered 'no'" in text
    assert "- level at 50 cm: not measured" in text
    assert "3 hardware test(s) failed" in text
    assert status == 1
    for section in SECTIONS:
        assert section in text


def test_report_plays_the_alarm_of_the_sounder_fitted(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "PRESS_TIMEOUT_S", 0)
    config = _defaults()
    config["buzzer"]["sounder"] = "speaker"
    _, text, _, _ = _report(tmp_path, config=config)
    assert "- buzzer (passive, speaker) at 2500 Hz: OK: heard" in text


def test_report_leaves_the_pins_alone_while_the_service_runs(tmp_path):
    status, text, maker, _ = _report(tmp_path, probe=FakePi(service="active"))
    assert not maker.prompts  # nothing asked: the service holds the pins
    assert text.count("- not run: the companion service is running") == 2
    assert "sudo systemctl stop companion" in text
    assert BENCH in text and "## Summary" in text
    assert status == 0


def test_report_section_that_breaks_says_why_and_the_file_is_still_complete(tmp_path):
    def broken_bench():
        raise RuntimeError("the bench could not start a worker")

    factory = mock_pin_factory()
    parts = ReportParts(FakePi(service="active"), factory, lambda prompt: "", broken_bench)
    target = tmp_path / "report.md"
    write_report(target, _defaults(), parts, config_path="x.toml")
    factory.close()
    text = target.read_text(encoding="utf-8")
    assert "- could not run: RuntimeError: the bench could not start a worker" in text
    for section in SECTIONS:
        assert section in text


def test_doctor_report_from_the_command_line_on_the_fake_backend(tmp_path, monkeypatch,
                                                                 capsys):
    """`companion doctor --report FILE --backend fake`: the maker's answers come from standard
    input; off a Pi the checks say so, the file is still complete."""
    monkeypatch.setattr(report, "PRESS_TIMEOUT_S", 0)
    monkeypatch.setattr(report, "default_bench", lambda: BENCH)
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n\ny\n"))
    target = tmp_path / "build-report.md"
    status = cli.main(["doctor", "--report", str(target), "--backend", "fake"])
    out = capsys.readouterr().out
    assert f"Wrote {target}" in out
    text = target.read_text(encoding="utf-8")
    for section in SECTIONS:
        assert section in text
    assert "- buzzer (passive, piezo) at 4000 Hz: OK: heard" in text
    assert "FAIL: no press seen" in text  # nobody pressed the mock buttons
    assert status == 1


@pytest.mark.parametrize("bad", ["/nonexistent-dir/report.md"])
def test_doctor_report_to_a_place_it_cannot_write_is_a_clear_error(bad, monkeypatch, capsys):
    monkeypatch.setattr(report, "PRESS_TIMEOUT_S", 0)
    monkeypatch.setattr(report, "default_bench", lambda: BENCH)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(["doctor", "--report", bad, "--backend", "fake"]) == 2
    assert "cannot write it" in capsys.readouterr().err


@pytest.mark.parametrize(("config_txt", "ok", "says"), [
    (GOOD_CONFIG_TXT.replace("dtoverlay=gpio-shutdown,gpio_pin=21\n", ""), True, "enables"),
    (GOOD_CONFIG_TXT, False, "both watch the shutdown button"),
])
def test_doctor_with_the_companion_watching_the_shutdown_button(config_txt, ok, says):
    """shutdown.handler = "companion" (the Debian card): no overlay is needed, an overlay as
    well is one handler too many, and the doctor claims the pin like the others."""
    probe = FakePi()
    probe.files["/boot/firmware/config.txt"] = config_txt
    config = _defaults()
    config["shutdown"]["handler"] = "companion"
    _status, text = _run(probe, config)
    line = next(line for line in text.splitlines() if " boot-config " in line)
    assert line.startswith("OK" if ok else "FAIL") and says in line
    assert config["shutdown"]["pin"] in probe.claimed


@pytest.mark.parametrize(("boot_toml", "ok", "says"), [
    (None, True, "/etc/companion/companion.toml parses"),
    ("[display]\ndriver = 'ssd1309'\n", True,
     "/boot/firmware/companion.toml parses and overrides it"),
    ("[display]\ndriver = 'ssd1309'\nrotation = 2\n", False,
     "/boot/firmware/companion.toml: unknown key display.rotation"),
    ("[display\n", False, "/boot/firmware/companion.toml"),
])
def test_doctor_checks_the_boot_partitions_companion_toml(boot_toml, ok, says):
    probe = FakePi(service="active")
    probe.files["/etc/companion/companion.toml"] = "[buttons]\nnext = 17\n"
    if boot_toml is not None:
        probe.files["/boot/firmware/companion.toml"] = boot_toml
    _status, text = _run(probe)
    line = next(line for line in text.splitlines() if line.split()[1:2] == ["config"])
    assert line.startswith("OK" if ok else "FAIL"), text
    assert says in line
    if not ok:
        assert "the SD card's boot partition" in text


def _with_page(listen="0.0.0.0:8080"):
    config = _defaults()
    config["web"]["listen"] = listen
    return config


@pytest.mark.parametrize(("taken", "service", "ok", "said"), [
    (set(), "inactive", True, "is free"),
    ({8080}, "active", True, "the page's own"),           # held by the service itself
    ({8080}, "inactive", False, "taken by another program"),
    ({9090}, "inactive", True, "is free"),
])
def test_doctor_checks_the_page_port_is_free_or_the_services(taken, service, ok, said):
    """Issue #38, 7: a port another program held made the service exit 2 at each start, and
    the doctor did not see it."""
    from companion.doctor.web_unit import check_web_port

    check = check_web_port(_with_page(), FakePi(taken_ports=taken, service=service), {})
    assert (check.name, check.ok) == ("web-port", ok)
    assert said in check.detail
    if not ok:
        assert "ss -ltnp 'sport = :8080'" in check.fix


def test_doctor_web_port_with_the_page_off_is_ok():
    from companion.doctor.web_unit import check_web_port

    assert check_web_port(_defaults(), FakePi(taken_ports={8080}), {}).ok


def test_the_system_probe_sees_a_taken_port():
    import socket

    from companion.doctor.probe import SystemProbe

    with socket.create_server(("127.0.0.1", 0)) as holder:
        port = holder.getsockname()[1]
        assert SystemProbe().port_free("127.0.0.1", port) is not None
    assert SystemProbe().port_free("127.0.0.1", port) is None
