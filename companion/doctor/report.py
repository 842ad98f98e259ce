"""`companion doctor --report FILE`: one file a maker sends when they say how the build went.

What it promises:
- The file's first lines say how to send it (attach it to a new issue on the project's page;
  from the boot partition, where it goes by default, any computer reads it once the card is
  pulled). Then, in this order: when and where it was made (the board model, the OS, Python,
  the kernel, the companion's version), the config that matters for the hardware, every part
  of the build, the short bench, and the summary.
- Every part is PASS, FAIL or NOT TESTED with the reason: each doctor check, the panel's test
  picture (the maker says what they see), each button, the shutdown button, the buzzer and
  the LED. A part that could not be tested (the service holds the pins, not a Raspberry Pi,
  a device that would not open) is never counted as passed.
- The summary counts all three and says "not everything was tested" whenever a part was not;
  `write_report` answers 0 only when every part passed, 1 otherwise.
- The file is claimed (its first lines written) before the first question, so a place that
  cannot be written is refused before the maker presses anything (`ReportFileError`).
- The hands-on tests (hands_on.py) claim the pins through gpiozero (the pin factory it is
  given: lgpio on a Pi, mock pins in tests), so they run only while the companion service is
  stopped; with the service running each says to stop it, and why.
- Nothing waits forever: each button gets `PRESS_TIMEOUT_S` to be pressed and released; a
  question answered with anything but yes is recorded as it was answered.
- Every touch of the machine goes through the doctor's probe, the pin factory, the panel
  builder, the `ask` and `say` functions and the `bench` function, so a test runs the whole
  report on the fake backend.
"""

from __future__ import annotations

import platform
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import __version__
from companion.doctor import run_checks
from companion.doctor.checks import SERVICE, _get, _pins, is_spi
from companion.doctor.hands_on import (
    FAILED,
    FRONT_BUTTONS,
    NOT_TESTED,
    PASSED,
    PanelBuilder,
    Part,
    hands_on,
)
from companion.doctor.probe import DoctorProbe
from companion.doctor.report_file import ReportFile, default_path
from companion.doctor.service import STATE_DIR

__all__ = ["FRONT_BUTTONS", "PRESS_TIMEOUT_S", "SEND_IT", "ReportParts", "default_bench",
           "default_panel", "run_report", "write_report"]

PRESS_TIMEOUT_S = 15.0
Ask = Callable[[str], str]
SEND_IT = ("To send it: open a new issue on the project's page (README.md, \"Send us your "
           "build\") and attach this file. On the box's SD card it is on the boot partition, "
           "which any computer opens once the card is pulled (the Pi switched off first).")
HANDS_ON_PARTS = ("panel", "buttons NEXT, UP, DOWN, BACK", "shutdown button", "buzzer", "LED")
COUNTED = (PASSED, FAILED, NOT_TESTED)  # a part not fitted is listed, not counted


def default_bench() -> str:
    """The short bench (`companion bench --short`), as its own report's text."""
    from companion.bench.command import run
    from companion.bench.report import format_report

    return format_report(run(short=True, progress=None))


def default_panel(display: Mapping[str, Any]) -> Any:
    """The real panel from the config's [display] table, as the companion builds it."""
    from companion.adapters.oled import real_device

    return real_device({"display": display.get("driver"), **display})


@dataclass
class ReportParts:
    """What the report needs from the machine and the maker (the seams tests replace)."""

    probe: DoctorProbe
    pin_factory: Any  # gpiozero's: None for its own choice (lgpio on a Pi)
    ask: Ask  # a question: prints it, answers the maker's reply
    bench: Callable[[], str]
    say: Callable[[str], object] = print  # an instruction: the maker acts, nothing typed
    now: Callable[[], datetime] = lambda: datetime.now(UTC)
    panel: PanelBuilder = field(default=default_panel)  # [display] -> a luma device


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
            state_dir: str, service_state: str) -> list[Part]:
    if not probe.is_raspberry_pi():
        from companion.doctor import CHECKS

        return [Part(check.name, NOT_TESTED, "not a Raspberry Pi (no Raspberry Pi GPIO chip)")
                for check in CHECKS]
    return [Part(c.name, FAILED if not c.ok else PASSED if c.tested else NOT_TESTED,
                 c.detail.removeprefix("not tested: "), c.fix)
            for c in run_checks(config, probe, config_path=config_path, state_dir=state_dir,
                                service_state=service_state)]


def _lines(parts: Iterable[Part]) -> list[str]:
    lines = []
    for part in parts:
        lines.append(f"- {part.outcome} {part.name}: {part.detail}")
        if part.outcome == FAILED and part.fix:
            lines.append(f"  - fix: {part.fix}")
    return lines


def _untested(why: str) -> list[Part]:
    return [Part(name, NOT_TESTED, why) for name in HANDS_ON_PARTS]


def _why_untested(probe: DoctorProbe, parts: ReportParts, state: str) -> str | None:
    """Why the hands-on tests cannot run here, or None (a running service is stopped first,
    and started again after them)."""
    if parts.pin_factory is None and not probe.is_raspberry_pi():
        return "not a Raspberry Pi (no Raspberry Pi GPIO chip), and no --backend fake asked for"
    if state == "active":
        error = probe.stop_service(SERVICE)
        if error is not None:
            return (f"the companion service is running and holds the pins, and the report "
                    f"could not stop it ({error}): run the report with sudo, or stop the "
                    "service first (sudo systemctl stop companion)")
    return None


def summary(parts: list[Part]) -> list[str]:
    """The closing lines: the three counts, and what they mean."""
    passed, failed, untested = (sum(1 for p in parts if p.outcome == o) for o in COUNTED)
    lines = [f"- {passed} passed, {failed} failed, {untested} not tested "
             f"({passed + failed + untested} parts)"]
    if failed:
        lines.append(f"- failed: {', '.join(p.name for p in parts if p.outcome == FAILED)}")
    if untested:
        lines.append("- not everything was tested: "
                     + ", ".join(p.name for p in parts if p.outcome == NOT_TESTED))
    if not failed and not untested:
        lines.append("- every part passed")
    return lines


def heading(stamp: str) -> str:
    return f"# companion doctor report, {stamp}\n\n{SEND_IT}\n"


def write_report(target: ReportFile, config: Mapping[str, Any], parts: ReportParts, *,
                 config_path: str, state_dir: str = STATE_DIR) -> int:
    """Claim ``target``, run every check and test, write the report; 0 only when every part
    passed, 1 otherwise. Raises ReportFileError (before any question) when it cannot write."""
    probe = parts.probe
    stamp = parts.now().strftime("%Y-%m-%d %H:%M UTC")
    target.claim(heading(stamp))
    found: list[Part] = []
    level = "not measured"

    def section(title: str, run: Callable[[], list[Part]]) -> list[str]:
        try:
            got = run()
        except Exception as exc:  # the file must be complete whatever broke
            got = [Part(title.lower(), NOT_TESTED,
                        f"could not run: {type(exc).__name__}: {exc}")]
        found.extend(got)
        return [f"## {title}", "", *_lines(got), ""]

    state = probe.service_state(SERVICE)
    why_not = _why_untested(probe, parts, state)
    stopped = state == "active" and why_not is None

    def tests() -> list[Part]:
        nonlocal level
        if why_not is not None:
            return _untested(why_not)
        got, level = hands_on(config, pin_factory=parts.pin_factory, build_panel=parts.panel,
                              ask=parts.ask, say=parts.say, timeout_s=PRESS_TIMEOUT_S)
        return got

    try:
        lines = [heading(stamp), "## Machine", "", *_machine(probe), "",
                 f"## Settings ({config_path})", "", *_settings(config), ""]
        lines += section("Doctor checks", lambda: _checks(config, probe, config_path,
                                                          state_dir, state))
        lines += section("Panel, buttons, buzzer and LED", tests)
    finally:
        restarted = probe.start_service(SERVICE) if stopped else None
    lines.insert(-1, f"- level at 50 cm: {level}")
    if stopped:
        again = (Part("service restart", PASSED, "stopped for these tests, started again")
                 if restarted is None else
                 Part("service restart", FAILED, f"stopped for these tests, not started "
                      f"again: {restarted}", "sudo systemctl start companion"))
        found.append(again)
        lines[-1:-1] = _lines([again])
    try:
        bench = ["```", *parts.bench().splitlines(), "```"]
    except Exception as exc:
        bench = [f"- could not run: {type(exc).__name__}: {exc}"]
    lines += ["## Short bench (companion bench --short)", "", *bench, ""]
    lines += ["## Summary", "", *summary(found), ""]
    target.write("\n".join(lines))
    counted = [part for part in found if part.outcome in COUNTED]
    return 0 if counted and all(part.outcome == PASSED for part in counted) else 1


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:  # no one at the keyboard: an empty answer
        print()
        return ""


def run_report(path: Path | None, config: Mapping[str, Any], *, fake: bool,
               config_path: str) -> int:
    """`companion doctor --report [FILE]`: the real machine (or gpiozero's mock pins and a
    dummy panel with `fake`), the maker at the keyboard; FILE by default on the boot
    partition. Raises ReportFileError before any question when FILE cannot be written."""
    import os
    import tempfile

    from companion.adapters.gpio import mock_pin_factory
    from companion.adapters.oled import dummy_device
    from companion.doctor.probe import SystemProbe

    # lgpio makes a FIFO in its working directory, which may not be writable here.
    os.environ.setdefault("LG_WD", tempfile.gettempdir())

    def fake_panel(display: Mapping[str, Any]) -> Any:
        return dummy_device(int(display.get("width", 128)), int(display.get("height", 64)))

    parts = ReportParts(SystemProbe(), mock_pin_factory() if fake else None, _ask,
                        default_bench, say=lambda words: print(words, flush=True),
                        panel=fake_panel if fake else default_panel)
    target = default_path() if path is None else path
    status = write_report(ReportFile(target), config, parts, config_path=config_path)
    print(f"Wrote {target}: attach it to a new issue on the project's page (README.md, "
          "\"Send us your build\").")
    return status
