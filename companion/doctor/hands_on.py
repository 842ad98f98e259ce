"""The report's hands-on tests: the maker presses, listens and looks, and says what happened.

What it promises:
- Every part it tests comes back as one `Part`: passed, failed, or not tested with the reason
  (a part the config says is not fitted, `led.pin = 0`, is listed as such and counted in no
  total).
  Nothing is ever counted as passed without the maker's press or answer: a part whose device
  cannot be claimed or built (the service holds the pins, gpiozero finds no pins off a Pi, the
  panel does not open) is "not tested", with the error, never "passed".
- Buttons are tested by pressing them (each has `PRESS_TIMEOUT_S` to be pressed and let go:
  the press itself answers, nothing is typed). The shutdown button is tested the same way when
  the companion watches it (`shutdown.handler = "companion"`, the card's way); under the
  gpio-shutdown overlay a press would power the Pi off, so it is not tested, and says so.
- The buzzer plays the alarm tone of the sounder fitted and asks whether it was heard; the LED
  is lit and the maker asked (when it is the companion's countdown LED: as the power-off cue
  the kernel owns it, so it is not tested, and says so); the panel shows a test picture (a
  frame round the edge, both diagonals, and "TEST" in the middle) and the maker is asked
  whether it does and, if not, what the panel shows, which goes into the report word for word.
- Every device goes through the seams it is given (the gpiozero pin factory, the panel
  builder, `ask` and `say`), so a test runs every path on mock pins and a dummy panel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from companion.doctor.checks import _get

__all__ = ["FAILED", "FRONT_BUTTONS", "NOT_FITTED", "NOT_TESTED", "PASSED", "Part", "buttons",
           "check_picture", "hands_on", "lamp", "panel_picture", "sounder"]

PASSED, FAILED, NOT_TESTED = "PASS", "FAIL", "NOT TESTED"
NOT_FITTED = "NOT FITTED"  # listed, and counted in no total: not a part of this build
FRONT_BUTTONS = ("next", "up", "down", "back")
Ask = Callable[[str], str]
Say = Callable[[str], object]
PanelBuilder = Callable[[Mapping[str, Any]], Any]  # the [display] table -> a luma device


@dataclass(frozen=True)
class Part:
    """One part of the build as the report saw it; `detail` says what happened or, for a part
    not tested, why not; `fix` what to do about a failure."""

    name: str
    outcome: str  # PASSED, FAILED or NOT_TESTED
    detail: str
    fix: str = ""


def _yes(answer: str) -> bool:
    return answer.strip().lower() in ("y", "yes")


def _could_not(name: str, exc: Exception) -> Part:
    return Part(name, NOT_TESTED, f"could not drive it: {type(exc).__name__}: {exc}")


def buttons(config: Mapping[str, Any], pin_factory: Any, say: Say,
            timeout_s: float) -> list[Part]:
    """Each front button pressed and released while the report watches its pin."""
    from gpiozero import Button

    parts = []
    pull_up = bool(_get(config, "buttons.pull_up", True))
    pins = {name: int(_get(config, f"buttons.{name}", 0)) for name in FRONT_BUTTONS}
    own_shutdown = _get(config, "shutdown.handler", "overlay") == "companion"
    shutdown_pin = int(_get(config, "shutdown.pin", 0))
    if own_shutdown and shutdown_pin > 0:
        pins["shutdown"] = shutdown_pin  # the companion's own pin: free while it is stopped
    for name, pin in pins.items():
        label = f"button {name.upper()} (GPIO{pin})"
        try:
            button = Button(pin, pull_up=pull_up, pin_factory=pin_factory)
        except Exception as exc:  # the pin cannot be claimed: not a test of the button
            parts.append(_could_not(label, exc))
            continue
        try:
            stuck = button.is_pressed
            say(f"Press {name.upper()} (GPIO{pin}) now, within {timeout_s:.0f} s.")
            pressed = button.is_pressed or button.wait_for_press(timeout=timeout_s)
            say(f"Let go of {name.upper()}." if pressed else f"No press of {name.upper()} seen.")
            released = not button.is_pressed or button.wait_for_release(timeout=timeout_s)
        finally:
            button.close()
        if stuck:
            parts.append(Part(label, FAILED, "read as pressed before it was pressed",
                              "look for a short to ground on its lead"))
        elif pressed and released:
            parts.append(Part(label, PASSED, "pressed and released"))
        elif pressed:
            parts.append(Part(label, FAILED, "pressed but never released",
                              "a stuck button, or its lead shorted to ground"))
        else:
            parts.append(Part(label, FAILED, "no press seen",
                              "its lead, its pin, or the ground bus: hardware/README.md, "
                              "If something is wrong"))
    if shutdown_pin <= 0:
        parts.append(Part("shutdown button", NOT_FITTED, "shutdown.pin = 0"))
    elif not own_shutdown:
        parts.append(Part(f"shutdown button (GPIO{shutdown_pin})", NOT_TESTED,
                          "the gpio-shutdown overlay owns its pin and a press powers the Pi "
                          "off, so it is not pressed here; the boot-config check above says "
                          "whether the overlay watches this pin. Try it last: hold it, and "
                          "the box powers off"))
    return parts


def sounder(config: Mapping[str, Any], pin_factory: Any, ask: Ask) -> tuple[Part, str]:
    """The buzzer's alarm tone, and the level at 50 cm if the maker has a meter."""
    from companion.adapters.gpio import GpioBuzzer
    from companion.core.tunes import SOUNDERS, tunes_for

    kind = str(_get(config, "buzzer.kind", "passive"))
    fitted = str(_get(config, "buzzer.sounder", "piezo"))
    loud = tunes_for(fitted if fitted in SOUNDERS else "piezo")["alarm"][0][0]
    label = f"buzzer ({kind}, {fitted}) at {loud} Hz"
    try:
        buzzer = GpioBuzzer(int(_get(config, "buzzer.pin", 18)), kind=kind,
                            pin_factory=pin_factory)
    except Exception as exc:
        return _could_not(label, exc), "not measured"
    try:
        buzzer.tone(loud)
        heard = ask(f"The buzzer should sound now ({kind}, {fitted}, {loud} Hz). "
                    "Do you hear it? [y/n] ")
    finally:
        buzzer.tone(None)
        buzzer.close()
    part = (Part(label, PASSED, "heard") if _yes(heard) else
            Part(label, FAILED, f"answered {heard.strip()!r}",
                 "passive or active buzzer, its polarity, the 100 ohm in series: "
                 "hardware/README.md, If something is wrong"))
    level = ask("If you have a sound meter (a phone app will do), the level at 50 cm "
                "in dB, else Enter: ").strip()
    return part, (f"{level} dB (measured by the maker)" if level else "not measured")


def lamp(config: Mapping[str, Any], pin_factory: Any, ask: Ask) -> Part:
    """The status LED lit, and the maker asked whether it is."""
    from companion.adapters.gpio import GpioLed

    pin = int(_get(config, "led.pin", 0))
    if pin <= 0:
        return Part("LED", NOT_FITTED, "led.pin = 0")
    label = f"LED (GPIO{pin})"
    if _get(config, "led.shows", "power-off") == "power-off":
        return Part(label, NOT_TESTED, "the kernel's gpio-poweroff owns its pin and lights it "
                    "only once the box has shut down; the boot-config check above says whether "
                    "the overlay drives this pin. Try it last: power off from the menu, and the "
                    "LED lights when the box may be unplugged")
    try:
        led = GpioLed(pin, pin_factory=pin_factory)
    except Exception as exc:
        return _could_not(label, exc)
    try:
        led.set(True)
        lit = ask(f"The status LED (GPIO{pin}) should be lit now. Is it? [y/n] ")
    finally:
        led.set(False)
        led.close()
    return (Part(label, PASSED, "lit") if _yes(lit) else
            Part(label, FAILED, f"answered {lit.strip()!r}",
                 "the LED's polarity (the long leg to the resistor) and its resistor"))


def check_picture(width: int = 128, height: int = 64) -> Image.Image:
    """What the panel shows for the test: a frame on the outermost pixels (a shifted or cut
    picture shows at once), both diagonals, and TEST in a clear box in the middle."""
    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=1)
    draw.line((0, 0, width - 1, height - 1), fill=1)
    draw.line((0, height - 1, width - 1, 0), fill=1)
    box = (width // 2 - 18, height // 2 - 8, width // 2 + 17, height // 2 + 7)
    draw.rectangle(box, fill=0, outline=1)
    draw.text((box[0] + 6, box[1] + 3), "TEST", fill=1)
    return image


def panel_picture(config: Mapping[str, Any], build: PanelBuilder, ask: Ask) -> Part:
    """The test picture on the panel, and what the maker sees there."""
    from companion.adapters.oled import Display

    display = dict(_get(config, "display", {}))
    label = f"panel ({display.get('driver', '?')}, {display.get('interface', 'i2c')})"
    try:
        device = build(display)
    except Exception as exc:
        return Part(label, FAILED, f"the panel did not open: {type(exc).__name__}: {exc}",
                    "the doctor's i2c-bus, spi-bus and display lines above say where to look")
    screen = Display(device)
    try:
        screen.show(check_picture(int(display.get("width", 128)),
                                 int(display.get("height", 64))))
        shows = ask("The panel should show a test picture now: a frame round its edge, a "
                    "cross from corner to corner and TEST in the middle. Does it? [y/n] ")
        seen = "" if _yes(shows) else ask(
            "What does the panel show (blank, snow, lines, part of the picture, "
            "shifted, upside down...)? ").strip()
    finally:
        screen.close()
    if _yes(shows):
        return Part(label, PASSED, "the maker saw the test picture")
    return Part(label, FAILED, f"answered {shows.strip()!r}; the maker sees: "
                f"{seen or '(nothing said)'}",
                "blank: power and wiring (hardware/README.md, If something is wrong); snow "
                "or shifted: display.driver (an SH1106 sold as SSD1306 shows a shifted "
                "picture)")


def hands_on(config: Mapping[str, Any], *, pin_factory: Any, build_panel: PanelBuilder,
             ask: Ask, say: Say, timeout_s: float) -> tuple[list[Part], str]:
    """Every hands-on test in the order the maker meets them; and the level at 50 cm."""
    parts = [panel_picture(config, build_panel, ask)]
    parts += buttons(config, pin_factory, say, timeout_s)
    buzzer, level = sounder(config, pin_factory, ask)
    parts.append(buzzer)
    parts.append(lamp(config, pin_factory, ask))
    return parts, level
