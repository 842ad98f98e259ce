"""companion doctor: lists its checks off a Pi; on a faked Pi says what is wrong and the fix."""

import io
import json
import subprocess
import tomllib

import pytest
from gpiozero import DigitalOutputDevice

from companion.adapters.gpio import mock_pin_factory
from companion.doctor import CHECKS, SystemProbe, run_doctor
from tests.deploy.doctor_support import DEFAULTS, GOOD_CONFIG_TXT, PI4, PI5, FakePi
from tests.deploy.doctor_support import defaults as _defaults


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
    # The running service holds the pins: that check says it did not look, never OK.
    assert text.count("OK ") == len(CHECKS) - 1
    assert "SKIP  pins         not tested: the running service holds the pins" in text
    assert text.endswith("No check failed; 1 not tested (SKIP: each says why).\n")


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
    # The panel's init went out; nothing answers back over SPI, so the display line names
    # the pin map's SPI wiring to look at if no picture appears.
    assert probe.spi_inits == [config]
    line = next(line for line in text.splitlines() if line.startswith("OK    display "))
    assert "the panel's init went out on /dev/spidev0.0 (DC GPIO6, RES GPIO5)" in line
    for terminal, pin in (("SDA", 19), ("SCL", 23), ("RES", 29), ("DC", 31), ("CS", 33)):
        assert f"{terminal} to pin {pin} (" in line


@pytest.mark.parametrize(("changes", "label", "says"), [
    ({"spi_error": "GPIOPinInUse: pin 6 is in use"}, "FAIL",
     "the panel's init could not go out on /dev/spidev0.0 (DC GPIO6, RES GPIO5): GPIOPinInUse"),
    ({"service": "active"}, "SKIP", "not tested: the running service drives the panel"),
])
def test_doctor_sends_an_spi_panel_its_init_or_says_why_not(changes, label, says):
    probe = _spi_pi(**changes)
    _status, text = _run(probe, _spi_config())
    line = next(line for line in text.splitlines() if line.split()[1:2] == ["display"])
    assert line.startswith(label) and says in line, line
    assert bool(probe.spi_inits) == (label == "FAIL")


class RecordingSpiDev:
    """spidev.SpiDev as luma's SPI interface uses it: every write kept with the level of the
    data/command line (as the I2C stream's control byte: 0x00 command, 0x40 data)."""

    def __init__(self, dc_level):
        self.dc_level = dc_level
        self.opened = None
        self.closed = False
        self.max_speed_hz = None
        self.writes = []

    def open(self, port, device):
        self.opened = (port, device)

    def writebytes(self, data):
        self.writes.append((0x40 if self.dc_level() else 0x00, list(data)))

    def close(self):
        self.closed = True


def test_system_probe_sends_the_ssd1309_its_init_through_luma_spi_and_lets_go():
    """The real probe's SPI path (luma's own spi interface, DC and RES through gpiozero) on a
    recording SpiDev and mock pins: SPI0 device 0 opened, the SSD1309's init (display off,
    clock, multiplex 63, ..., display on) sent as commands, then the SpiDev closed and both
    GPIOs free again."""
    factory = mock_pin_factory()
    config = _spi_config()["display"]
    made = []

    def spidev():
        made.append(RecordingSpiDev(lambda: factory.pin(config["spi_dc_pin"]).state))
        return made[-1]

    assert SystemProbe(spi_dev=spidev, pin_factory=factory).spi_panel_init(config) is None
    (spi,) = made
    assert spi.opened == (0, 0) and spi.max_speed_hz == config["spi_speed_hz"]
    commands = [byte for control, data in spi.writes if control == 0x00 for byte in data]
    assert commands[0] == 0xAE  # display off first
    assert commands[commands.index(0xA8):commands.index(0xA8) + 2] == [0xA8, 0x3F]  # 64 rows
    assert 0xAF in commands  # display on: the panel lights
    assert spi.closed
    for pin in (config["spi_dc_pin"], config["spi_reset_pin"]):
        DigitalOutputDevice(pin, pin_factory=factory).close()  # released
    factory.close()


def test_system_probe_says_why_an_spi_panel_would_not_open():
    factory = mock_pin_factory()
    held = DigitalOutputDevice(6, pin_factory=factory)  # DC taken by something else
    config = _spi_config()["display"]
    error = SystemProbe(spi_dev=lambda: RecordingSpiDev(lambda: 0),
                        pin_factory=factory).spi_panel_init(config)
    assert error is not None and "GPIOPinInUse" in error
    held.close()
    factory.close()


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


POWEROFF = "dtoverlay=gpio-poweroff,gpiopin=24,active_low=0\n"


@pytest.mark.parametrize(("config_txt", "shows", "ok", "says"), [
    (GOOD_CONFIG_TXT, "power-off", True, "enables what the box needs"),
    (GOOD_CONFIG_TXT.replace(POWEROFF, ""), "power-off", False,
     "no dtoverlay=gpio-poweroff,gpiopin=24: the LED never shows when the box may be unplugged"),
    (GOOD_CONFIG_TXT.replace(POWEROFF, "dtoverlay=gpio-poweroff\n"), "power-off", False,
     "dtoverlay=gpio-poweroff drives GPIO26 but led.pin is 24"),
    (GOOD_CONFIG_TXT.replace("active_low=0", "active_low=1"), "power-off", False,
     "active_low=1 lights the LED while the box runs"),
    (GOOD_CONFIG_TXT.replace(POWEROFF, "dtoverlay=companion-poweroff,gpiopin=24\n"),
     "power-off", True, "enables what the box needs"),  # the card's own overlay
    (GOOD_CONFIG_TXT, "countdown", False, "takes GPIO24 from the companion's countdown LED"),
    (GOOD_CONFIG_TXT.replace(POWEROFF, ""), "countdown", True, "enables what the box needs"),
])
def test_doctor_checks_the_power_off_led_against_the_config(config_txt, shows, ok, says):
    """led.shows = "power-off": gpio-poweroff on led.pin, active high, so the LED lights once
    the box may be unplugged; "countdown": no such overlay, which would take the pin."""
    probe = FakePi(service="active")
    probe.files["/boot/firmware/config.txt"] = config_txt
    config = _defaults()
    config["led"]["shows"] = shows
    _status, text = _run(probe, config)
    line = next(line for line in text.splitlines() if " boot-config " in line)
    assert line.startswith("OK" if ok else "FAIL") and says in line, line


def test_doctor_accepts_the_cards_own_spi_overlay():
    """The card's companion-spi0 has the pin map's chip select (GPIO13) built in."""
    probe = _spi_pi(service="active")
    probe.files["/boot/firmware/config.txt"] = GOOD_CONFIG_TXT + "dtoverlay=companion-spi0\n"
    _status, text = _run(probe, _spi_config())
    line = next(line for line in text.splitlines() if " boot-config " in line)
    assert line.startswith("OK"), line


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
