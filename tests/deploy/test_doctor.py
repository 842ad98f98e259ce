"""companion doctor: lists its checks off a Pi; on a faked Pi says what is wrong and the fix."""

import io
import json
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.doctor import CHECKS, SystemProbe, run_doctor

DEFAULTS = Path(__file__).resolve().parents[2] / "companion" / "default_config.toml"
GOOD_CONFIG_TXT = ("dtparam=audio=on\n[all]\ndtparam=i2c_arm=on\nenable_uart=1\n"
                   "dtoverlay=gpio-shutdown,gpio_pin=21\n")


def _defaults() -> dict:
    return tomllib.loads(DEFAULTS.read_text())


@dataclass
class FakePi:
    """A healthy Pi 4 unless a test breaks something."""

    pi: bool = True
    devices: set = field(default_factory=lambda: {"/dev/i2c-1", "/dev/gpiochip0",
                                                  "/dev/serial0"})
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

    def is_raspberry_pi(self):
        return self.pi

    def board_model(self):
        return "Raspberry Pi 4 Model B Rev 1.5"

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
        assert unit == "companion"
        return self.service

    def service_properties(self, unit, names):
        assert unit == "companion.service"
        assert tuple(names) == ("ActiveState", "Result", "NRestarts")
        return self.properties


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


def test_doctor_reports_a_silent_display_with_the_wiring():
    probe = FakePi(service="active", i2c_present=set())
    status, text = _run(probe)
    assert status == 1
    assert "nothing answers at 0x3C on bus 1" in text
    assert "i2cdetect -y 1" in text


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


def test_doctor_reports_the_login_console_on_the_serial_line():
    config = _defaults()
    config["serial"]["url"] = "/dev/serial0"
    probe = FakePi(service="active")
    probe.files["/boot/firmware/cmdline.txt"] = "console=serial0,115200 console=tty1 rootwait\n"
    status, text = _run(probe, config)
    assert status == 1
    assert "remove console=serial0,115200" in text


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
