"""`companion doctor --report FILE`: every part passed, failed or not tested (and why); the
summary and the exit status honest whatever was or was not tested; the file claimed before
the first question; by default on the card's boot partition."""

import io
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion import cli
from companion.adapters.gpio import mock_pin_factory
from companion.adapters.oled import dummy_device
from companion.doctor import CHECKS, SystemProbe, hands_on, report, report_file
from companion.doctor.report import SEND_IT, ReportParts, write_report
from companion.doctor.report_file import ReportFile, ReportFileError
from tests.deploy.doctor_support import FakePi, defaults

SECTIONS = ("## Machine", "## Settings", "## Doctor checks", "## Panel, buttons, buzzer and LED",
            "## Short bench (companion bench --short)", "## Summary")
BENCH = "companion bench (short) on Linux: every figure within its target"
YES = {"The panel should show a test picture": "y", "The buzzer should sound": "y",
       "If you have a sound meter": "78", "The status LED": "y"}


class Maker:
    """The person at the box: presses each button the report asks for (on gpiozero's mock
    pins), answers its questions, and remembers every prompt."""

    def __init__(self, factory, config, *, dead=(), answers=None):
        self.factory = factory
        self.pins = {name.upper(): config["buttons"][name] for name in hands_on.FRONT_BUTTONS}
        self.pins["SHUTDOWN"] = config["shutdown"]["pin"]
        self.dead = set(dead)  # buttons whose wire is broken: pressing does nothing
        self.answers = YES if answers is None else answers
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
        return next((answer for start, answer in self.answers.items()
                     if prompt.startswith(start)), "")


def _card_config():
    """Every part testable: the companion watches the shutdown button (the card's way) and
    drives the LED (the countdown LED, not the kernel's power-off cue)."""
    config = defaults()
    config["shutdown"]["handler"] = "companion"
    config["led"]["shows"] = "countdown"
    return config


def _card_pi(**changes):
    """A Pi set up for _card_config: no gpio-shutdown or gpio-poweroff overlay in config.txt."""
    probe = FakePi(**changes)
    text = probe.files["/boot/firmware/config.txt"]
    for line in ("dtoverlay=gpio-shutdown,gpio_pin=21\n",
                 "dtoverlay=gpio-poweroff,gpiopin=24,active_low=0\n"):
        text = text.replace(line, "")
    probe.files["/boot/firmware/config.txt"] = text
    return probe


def _report(tmp_path, monkeypatch, *, probe=None, config=None, factory="mock", **maker):
    monkeypatch.setattr(report, "PRESS_TIMEOUT_S", 0)
    config = config or _card_config()
    pins = mock_pin_factory()
    person = Maker(pins, config, **maker)
    panels = []  # for each panel built, the frames it was sent

    def panel(display):
        device, shown = dummy_device(), []
        send = device.display
        device.display = lambda image: (shown.append(image.copy()), send(image))
        panels.append(shown)
        return device

    parts = ReportParts(probe or _card_pi(service="active"),
                        pins if factory == "mock" else factory, person, lambda: BENCH,
                        say=person, now=lambda: datetime(2026, 11, 28, 3, 0, tzinfo=UTC),
                        panel=panel)
    target = tmp_path / "report.md"
    try:
        status = write_report(ReportFile(target), config, parts,
                              config_path="/etc/companion/companion.toml")
    finally:
        pins.close()
    return status, target.read_text(encoding="utf-8"), person, panels


def _summary(text):
    return text[text.index("## Summary"):]


def test_report_with_the_service_running_stops_it_tests_every_part_and_starts_it_again(
        tmp_path, monkeypatch):
    probe = _card_pi(service="active")
    status, text, maker, panels = _report(tmp_path, monkeypatch, probe=probe)
    assert [text.index(section) for section in SECTIONS] == sorted(
        text.index(section) for section in SECTIONS)
    assert text.startswith(f"# companion doctor report, 2026-11-28 03:00 UTC\n\n{SEND_IT}")
    assert (probe.stopped, probe.started, probe.service) == (1, 1, "active")
    for name in CHECKS:
        assert f"- PASS {name.name}: " in text
    assert "- PASS pins: buzzer, LED and button pins are free" in text  # the pins were free
    presses = [p.split()[1] for p in maker.prompts if p.startswith("Press ")]
    assert presses == ["NEXT", "UP", "DOWN", "BACK", "SHUTDOWN"]
    assert "- PASS button SHUTDOWN (GPIO21): pressed and released" in text
    assert "- PASS panel (ssd1306, i2c): the maker saw the test picture" in text
    (shown,) = panels
    assert shown[0].tobytes() == hands_on.check_picture().tobytes()  # then a clear at close
    assert "- PASS buzzer (passive, speaker) at 2500 Hz: heard" in text
    assert "- PASS LED (GPIO24): lit" in text
    assert "- level at 50 cm: 78 dB (measured by the maker)" in text
    assert "- PASS service restart: stopped for these tests, started again" in text
    assert BENCH in text
    assert "NOT TESTED" not in text and "FAIL" not in text
    assert "every part passed" in _summary(text)
    assert "0 failed, 0 not tested" in _summary(text)
    assert status == 0


def test_report_with_the_service_it_cannot_stop_tests_no_part_and_says_so(tmp_path,
                                                                          monkeypatch):
    """The report was run without sudo: the service keeps the pins, no part is pressed, and
    nothing it did not test is counted as passed."""
    probe = FakePi(service="active", stop_error="Access denied")
    status, text, maker, panels = _report(tmp_path, monkeypatch, probe=probe)
    assert not maker.prompts and not panels and probe.started == 0
    assert text.count("- NOT TESTED ") >= 6
    assert "could not stop it (Access denied): run the report with sudo" in text
    assert "- NOT TESTED pins: the running service holds the pins" in text
    summary = _summary(text)
    assert "not everything was tested: pins, panel, buttons NEXT, UP, DOWN, BACK" in summary
    assert "every part passed" not in summary
    assert status == 1


def test_report_off_a_pi_tests_nothing_and_passes_nothing(tmp_path, monkeypatch):
    """Off a Pi with the real pins (no --backend fake): gpiozero has no pins to offer, the
    checks have no Pi to look at; every part says so, and the exit status is 1."""
    status, text, maker, panels = _report(tmp_path, monkeypatch, probe=FakePi(pi=False),
                                          factory=None)
    assert not maker.prompts and not panels
    assert "- PASS" not in text
    for check in CHECKS:
        assert f"- NOT TESTED {check.name}: not a Raspberry Pi" in text
    assert "- NOT TESTED buzzer: not a Raspberry Pi" in text
    summary = _summary(text)
    assert f"- 0 passed, 0 failed, {len(CHECKS) + 5} not tested" in summary
    assert "not everything was tested" in summary
    assert status == 1


def test_report_names_a_dead_button_a_silent_buzzer_a_dark_led_and_what_the_panel_shows(
        tmp_path, monkeypatch):
    status, text, _, _ = _report(tmp_path, monkeypatch, dead={"DOWN"}, answers={
        "The panel should show": "n", "What does the panel show": "snow on the right half",
        "The buzzer should sound": "n", "The status LED": "no"})
    assert "- FAIL button DOWN (GPIO22): no press seen" in text
    assert "- PASS button UP (GPIO27): pressed and released" in text
    assert ("- FAIL panel (ssd1306, i2c): answered 'n'; the maker sees: snow on the right half"
            in text)
    assert "- FAIL buzzer (passive, speaker) at 2500 Hz: answered 'n'" in text
    assert "- FAIL LED (GPIO24): answered 'no'" in text
    assert "- level at 50 cm: not measured" in text
    summary = _summary(text)
    assert "4 failed, 0 not tested" in summary
    assert "- failed: panel (ssd1306, i2c), button DOWN (GPIO22), buzzer" in summary
    assert "not everything was tested" not in summary
    assert status == 1


def test_report_under_the_shutdown_and_poweroff_overlays_cannot_pass_those_two(tmp_path,
                                                                              monkeypatch):
    """Raspberry Pi OS's way: the overlays own the shutdown button's pin (a press powers off)
    and the LED's (the kernel lights it only once halted), so neither is tried, and the
    report does not pretend they were."""
    probe = FakePi(service="active")
    status, text, maker, _ = _report(tmp_path, monkeypatch, config=defaults(), probe=probe)
    assert "Press SHUTDOWN" not in " ".join(maker.prompts)
    assert not any(prompt.startswith("The status LED") for prompt in maker.prompts)
    assert "- NOT TESTED shutdown button (GPIO21): the gpio-shutdown overlay owns its pin" in text
    assert "- NOT TESTED LED (GPIO24): the kernel's gpio-poweroff owns its pin" in text
    assert "- PASS boot-config: " in text  # both overlays on the configured pins
    assert "not everything was tested: shutdown button (GPIO21), LED (GPIO24)" in _summary(text)
    assert status == 1


def test_report_lists_a_part_not_fitted_and_counts_it_nowhere(tmp_path, monkeypatch):
    config = _card_config()
    config["led"]["pin"] = 0
    status, text, _, _ = _report(tmp_path, monkeypatch, config=config)
    assert "- NOT FITTED LED: led.pin = 0" in text
    assert "every part passed" in _summary(text) and status == 0


def test_report_with_an_spi_panel_sends_its_init_and_shows_the_picture(tmp_path, monkeypatch):
    probe = _card_pi(service="active")
    probe.devices.add("/dev/spidev0.0")
    probe.files["/boot/firmware/config.txt"] += "dtparam=spi=on\ndtoverlay=spi0-1cs,cs0_pin=13\n"
    probe.groups.add("spi")
    config = _card_config()
    config["display"].update(driver="ssd1309", interface="spi")
    status, text, _, panels = _report(tmp_path, monkeypatch, probe=probe, config=config)
    assert probe.spi_inits and panels
    assert "- PASS display: the panel's init went out on /dev/spidev0.0" in text
    assert "- PASS panel (ssd1309, spi): the maker saw the test picture" in text
    assert status == 0, _summary(text)


def test_report_section_that_breaks_says_why_and_is_not_counted_as_passed(tmp_path,
                                                                          monkeypatch):
    def broken_panel(display):
        raise OSError("[Errno 121] Remote I/O error")

    monkeypatch.setattr(report, "PRESS_TIMEOUT_S", 0)
    factory = mock_pin_factory()
    parts = ReportParts(_card_pi(service="active"), factory, Maker(factory, _card_config()),
                        lambda: BENCH, panel=broken_panel, say=lambda words: None)
    target = tmp_path / "report.md"
    status = write_report(ReportFile(target), _card_config(), parts, config_path="x.toml")
    factory.close()
    text = target.read_text(encoding="utf-8")
    assert "- FAIL panel (ssd1306, i2c): the panel did not open: OSError" in text
    assert status == 1
    for section in SECTIONS:
        assert section in text


def test_doctor_report_from_the_command_line_on_the_fake_backend(tmp_path, monkeypatch,
                                                                 capsys):
    """`companion doctor --report FILE --backend fake`: the maker's answers come from standard
    input; off a Pi the checks say they did not look, and the exit status is 1."""
    monkeypatch.setattr(report, "PRESS_TIMEOUT_S", 0)
    monkeypatch.setattr(report, "default_bench", lambda: BENCH)
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\ny\n\ny\n"))
    target = tmp_path / "build-report.md"
    status = cli.main(["doctor", "--report", str(target), "--backend", "fake"])
    assert f"Wrote {target}: attach it to a new issue" in capsys.readouterr().out
    text = target.read_text(encoding="utf-8")
    for section in SECTIONS:
        assert section in text
    assert "- PASS panel (ssd1306, i2c): the maker saw the test picture" in text
    assert "- PASS buzzer (passive, speaker) at 2500 Hz: heard" in text
    assert "FAIL button NEXT (GPIO17): no press seen" in text  # nobody pressed the mock pins
    assert "not everything was tested" in _summary(text)
    assert status == 1


@pytest.mark.parametrize("bad", ["/nonexistent-dir/report.md", "/proc/version"])
def test_doctor_report_to_a_place_it_cannot_write_is_refused_before_any_question(
        bad, monkeypatch, capsys):
    monkeypatch.setattr(report, "default_bench", lambda: pytest.fail("the bench ran"))
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail(f"asked {prompt!r}"))
    assert cli.main(["doctor", "--report", bad, "--backend", "fake"]) == 2
    err = capsys.readouterr().err
    assert f"--report: {bad}: cannot write it" in err or "read-only" in err


def test_doctor_report_goes_to_the_boot_partition_by_default(tmp_path, monkeypatch, capsys):
    boot = tmp_path / "firmware"
    boot.mkdir()
    monkeypatch.setattr(report_file, "BOOT_DIRS", (str(boot),))
    monkeypatch.setattr(report, "PRESS_TIMEOUT_S", 0)
    monkeypatch.setattr(report, "default_bench", lambda: BENCH)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    cli.main(["doctor", "--report", "--backend", "fake"])
    written = boot / "companion-report.md"
    assert f"Wrote {written}" in capsys.readouterr().out
    assert SEND_IT in written.read_text(encoding="utf-8")


class Mounts:
    """`mount -o remount,...` as a fake runner: the boot partition read-only until remounted."""

    def __init__(self, refuse=False):
        self.calls = []
        self.read_only = True
        self.refuse = refuse

    def run(self, argv):
        self.calls.append(list(argv))
        if self.refuse:
            return 32, "mount: only root can use \"--options\" option"
        self.read_only = argv[2] == "remount,ro"
        return 0, ""


def test_report_file_remounts_a_read_only_boot_partition_only_to_write(tmp_path):
    """The card mounts its boot partition read-only: each write remounts it read-write and
    read-only again straight after."""
    boot = tmp_path / "firmware"
    boot.mkdir()
    mounts = Mounts()
    target = ReportFile(boot / "companion-report.md", run=mounts.run,
                        read_only=lambda folder: mounts.read_only, boot_dirs=(str(boot),))
    target.claim("# first lines")
    target.write("# the whole report\n")
    assert mounts.calls == [["mount", "-o", f"remount,{mode}", str(boot)]
                            for mode in ("rw", "ro", "rw", "ro")]
    assert mounts.read_only
    assert (boot / "companion-report.md").read_text() == "# the whole report\n"


@pytest.mark.parametrize(("boot_dirs", "says"), [
    ("boot", "could not be made writable (mount: only root can use"),
    ("", "is on a read-only file system: name a FILE on the boot partition"),
])
def test_report_file_on_a_read_only_place_says_what_to_do(tmp_path, boot_dirs, says):
    folder = tmp_path / "boot"
    folder.mkdir()
    mounts = Mounts(refuse=True)
    target = ReportFile(folder / "r.md", run=mounts.run, read_only=lambda folder: True,
                        boot_dirs=(str(folder),) if boot_dirs else ())
    with pytest.raises(ReportFileError) as raised:
        target.claim("# first lines")
    assert says in str(raised.value)
    assert not (folder / "r.md").exists()
    assert all(call[3] == str(folder) for call in mounts.calls)


def test_default_path_is_the_boot_partition_or_the_current_folder(tmp_path):
    assert report_file.default_path((str(tmp_path),)) == tmp_path / "companion-report.md"
    assert report_file.default_path((str(tmp_path / "none"),)) == Path("companion-report.md")


@pytest.mark.parametrize(("answer", "says"), [
    ((0, ""), None),
    ((1, "Failed to stop companion.service: Access denied\n"),
     "Failed to stop companion.service: Access denied"),
    ((4, ""), "systemctl stop exit 4"),
])
def test_system_probe_stops_the_service_without_waiting_on_a_password_prompt(answer, says):
    ran = []

    def runner(argv):
        ran.append(list(argv))
        return answer

    assert SystemProbe(runner).stop_service("companion") == says
    assert ran == [["systemctl", "--no-ask-password", "stop", "companion"]]
