"""`companion doctor --report FILE`: one file a maker attaches when they say how the build went.

What it promises:
- The file holds, in this order: when and where it was made (the board model, the OS, Python,
  the kernel, the companion's version), the config that matters for the hardware, every
  doctor check with its fix, a button test that asks for each press, the buzzer and LED tests
  (the maker says what they heard and saw), and the short bench. Every section is written
  even when something fails: a section that could not run says why, so the file is always
  complete.
- The hardware tests claim the pins through gpiozero (the pin factory it is given: lgpio on a
  Pi, mock pins in tests), so they run only while the companion service is stopped; with the
  service running the file says to stop it, and why.
- Nothing waits forever: each button gets `PRESS_TIMEOUT_S` to be pressed and released (no
  key to type: the press itself answers); a question answered with anything but yes is
  recorded as it was answered.
- The shutdown button is never tested by pressing it (the overlay would power the Pi off);
  the report shows whether its overlay watches the configured pin (the boot-config check).
- Every touch of the machine goes through the doctor's probe, the pin factory, the `ask`
  function (which prints a prompt and answers the maker's reply) and the `bench` function, so
  a test can run the whole report on the fake backend.
"""

from __future__ import annotations

import platform
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import __version__
from companion.doctor import run_checks
from companion.doctor.checks import SERVICE, _get, _pins, is_spi
from companion.doctor.probe import DoctorProbe
from companion.doctor.service import STATE_DIR

__all__ = ["PRESS_TIMEOUT_S", "ReportParts", "default_bench", "write_report"]

PRESS_TIMEOUT_S = 15.0
FRONT_BUTTONS = ("next", "up", "down", "back")
Ask = Callable[[str], str]


@dataclass
class ReportParts:
    """What the report needs from the machine and the maker (the seams tests replace)."""

    probe: DoctorProbe
    pin_factory: Any  # gpiozero's: None for its own choice (lgpio on a Pi)
    ask: Ask  # a question: prints it, answers the maker's reply
    bench: Callable[[], str]
    say: Callable[[str], object] = print  # an instruction: the maker acts, nothing typed
    now: Callable[[], datetime] = lambda: datetime.now(UTC)


def default_bench() -> str:
    """The short bench (`companion bench --short`), as its own report's text."""
    from companion.bench.command import run
    from companion.bench.report import format_report

    return format_report(run(short=True, progress=None))


def _machine(probe: DoctorProbe) -> list[str]:
    os_release = probe.read_text("/etc/os-release") or ""
    pretty = next((line.partition("=")[2].strip().strip('"') for line in os_release.splitlines()
                   if line.startswith("PRETTY_NAME=")), "unknown (no /etc/os-release)")
    uname = platform.uname()
    return [f"- board: {probe.board_model() or 'unknown (no device-tree model)'}",
            f"- Raspberry Pi GPIO chip: {'yes' if probe.is_raspberry_pi() else 'no'}",
            f"- OS: {pretty}",
            f"- kernel: {uname.release} ({uname.machine})",
            f"- Python: {platform.python_version()} ({platform.python_implementation()})",
            f"- companion: {__version__}"]


def _settings(config: Mapping[str, Any]) -> list[str]:
    keys = ["display.driver", "display.interface", "buzzer.kind", "buzzer.sounder",
            "serial.url", "web.listen"]
    if is_spi(config):
        keys += ["display.spi_cs_pin", "display.spi_dc_pin", "display.spi_reset_pin"]
    else:
        keys += ["display.i2c_port", "display.i2c_address"]
    lines = [f"- {key} = {_get(config, key, '(unset)')!r}" for key in keys]
    lines += [f"- {role}: GPIO{pin}" for role, pin in _pins(config).items()]
    return lines


def _checks(config: Mapping[str, Any], probe: DoctorProbe, config_path: str,
            state_dir: str) -> tuple[list[str], int]:
    if not probe.is_raspberry_pi():
        return ["Not a Raspberry Pi (no Raspberry Pi GPIO chip): the checks need one."], 0
    lines, failed = [], 0
    for outcome in run_checks(config, probe, config_path=config_path, state_dir=state_dir):
        lines.append(f"- {'OK' if outcome.ok else 'FAIL'} {outcome.name}: {outcome.detail}")
        if not outcome.ok:
            failed += 1
            lines.append(f"  - fix: {outcome.fix}")
    return lines, failed


def _yes(answer: str) -> bool:
    return answer.strip().lower() in ("y", "yes")


def _buttons(config: Mapping[str, Any], parts: ReportParts) -> list[str]:
    from gpiozero import Button

    lines = []
    pull_up = bool(_get(config, "buttons.pull_up", True))
    for name in FRONT_BUTTONS:
        pin = int(_get(config, f"buttons.{name}", 0))
        button = Button(pin, pull_up=pull_up, pin_factory=parts.pin_factory)
        try:
            stuck = button.is_pressed
            parts.say(f"Press {name.upper()} (GPIO{pin}) now, within {PRESS_TIMEOUT_S:.0f} s.")
            pressed = button.is_pressed or button.wait_for_press(timeout=PRESS_TIMEOUT_S)
            parts.say(f"Let go of {name.upper()}." if pressed else
                      f"No press of {name.upper()} seen.")
            released = (not button.is_pressed
                        or button.wait_for_release(timeout=PRESS_TIMEOUT_S))
        finally:
            button.close()
        if stuck:
            verdict = "FAIL: read as pressed before it was pressed (a short to ground?)"
        elif pressed and released:
            verdict = "OK: pressed and released"
        elif pressed:
            verdict = "FAIL: pressed but never released (stuck, or a short to ground)"
        else:
            verdict = ("FAIL: no press seen (its lead, its pin, or the ground bus: "
                       "hardware/README.md, If something is wrong)")
        lines.append(f"- {name.upper()} (GPIO{pin}): {verdict}")
    lines.append("- shutdown button: not pressed here (it powers the Pi off); see the "
                 "boot-config check above")
    return lines


def _sound_and_light(config: Mapping[str, Any], parts: ReportParts) -> list[str]:
    from companion.adapters.gpio import GpioBuzzer, GpioLed
    from companion.core.tunes import SOUNDERS, tunes_for

    lines = []
    kind, sounder = str(_get(config, "buzzer.kind", "passive")), str(
        _get(config, "buzzer.sounder", "piezo"))
    loud = tunes_for(sounder if sounder in SOUNDERS else "piezo")["alarm"][0][0]
    buzzer = GpioBuzzer(int(_get(config, "buzzer.pin", 18)), kind=kind,
                        pin_factory=parts.pin_factory)
    try:
        buzzer.tone(loud)
        heard = parts.ask(f"The buzzer should sound now ({kind}, {sounder}, {loud} Hz). "
                          "Do you hear it? [y/n] ")
    finally:
        buzzer.tone(None)
        buzzer.close()
    lines.append(f"- buzzer ({kind}, {sounder}) at {loud} Hz: "
                 + ("OK: heard" if _yes(heard) else f"FAIL: answered {heard.strip()!r}"))
    level = parts.ask("If you have a sound meter (a phone app will do), the level at 50 cm "
                      "in dB, else Enter: ").strip()
    measured = f"{level} dB (measured by the maker)" if level else "not measured"
    lines.append(f"- level at 50 cm: {measured}")
    led_pin = int(_get(config, "led.pin", 0))
    if led_pin <= 0:
        lines.append("- LED: not fitted (led.pin = 0)")
        return lines
    led = GpioLed(led_pin, pin_factory=parts.pin_factory)
    try:
        led.set(True)
        lit = parts.ask(f"The status LED (GPIO{led_pin}) should be lit now. Is it? [y/n] ")
    finally:
        led.set(False)
        led.close()
    lines.append(f"- LED (GPIO{led_pin}): "
                 + ("OK: lit" if _yes(lit) else f"FAIL: answered {lit.strip()!r}"))
    return lines


def _section(title: str, run: Callable[[], Iterable[str]]) -> list[str]:
    """A section of the file; one that fails says so and the report goes on."""
    try:
        body = list(run())
    except Exception as exc:  # the file must be complete whatever broke
        body = [f"- could not run: {type(exc).__name__}: {exc}"]
    return [f"## {title}", "", *body, ""]


def write_report(path: Path, config: Mapping[str, Any], parts: ReportParts, *,
                 config_path: str, state_dir: str = STATE_DIR) -> int:
    """Write the report to ``path``; 0 when every check and test passed, 1 otherwise."""
    probe = parts.probe
    stamp = parts.now().strftime("%Y-%m-%d %H:%M UTC")
    failed = 0

    def checks() -> list[str]:
        nonlocal failed
        lines, failed = _checks(config, probe, config_path, state_dir)
        return lines

    running = probe.service_state(SERVICE) == "active"
    stop_first = ["- not run: the companion service is running and holds the pins. Stop it "
                  "(sudo systemctl stop companion), run the report again, then start it "
                  "(sudo systemctl start companion)."]
    lines = [f"# companion doctor report, {stamp}", "",
             "Attach this file when you report how your build went (hardware/README.md, "
             "Build the box).", ""]
    lines += _section("Machine", lambda: _machine(probe))
    lines += _section(f"Settings ({config_path})", lambda: _settings(config))
    lines += _section("Doctor checks", checks)
    lines += _section("Buttons", (lambda: stop_first) if running else
                      (lambda: _buttons(config, parts)))
    lines += _section("Buzzer and LED", (lambda: stop_first) if running else
                      (lambda: _sound_and_light(config, parts)))
    lines += _section("Short bench (companion bench --short)",
                      lambda: ["```", *parts.bench().splitlines(), "```"])
    tests_failed = sum(1 for line in lines if line.startswith("- ") and ": FAIL" in line)
    problems = failed + tests_failed
    lines += ["## Summary", "",
              f"- {failed} doctor check(s) failed, {tests_failed} hardware test(s) failed"
              if problems else "- every check and test passed", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return 1 if problems else 0
