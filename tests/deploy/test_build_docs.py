"""The build's words against the pin map (issue #37, item 6): the pins the steps name are the
pin map's, every lead has a length that agrees with the BOM, the checks cover the SPI panel as
well as the I2C ones, the Zero 2 W's Wi-Fi is described one way, and every tool the steps use
is in the list of tools."""

import csv
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from pi_image import card  # noqa: E402

README = (ROOT / "hardware/README.md").read_text(encoding="utf-8")
PINMAP = tomllib.loads((ROOT / "hardware/pinmap.toml").read_text(encoding="utf-8"))
# The 40-pin header's power and ground pins (the same on every Pi with the header).
GROUND_PINS = {6, 9, 14, 20, 25, 30, 34, 39}
PIN_3V3, PIN_5V = {1, 17}, {2, 4}


def _wires():
    """(part, terminal, pin) for every wire of every part and panel in the pin map."""
    for table in ("parts", "panels"):
        for name, part in PINMAP[table].items():
            for wire in part.get("wires", []):
                yield name, wire["terminal"], wire["pin"]


def _step(text, number):
    """A numbered step's paragraph, from "N. **" to the next numbered step."""
    found = re.search(rf"^ *{number}\. \*\*(.*?)(?=^ *{number + 1}\. \*\*|^## )", text, re.S | re.M)
    assert found, f"step {number} not found"
    return " ".join(found.group(0).split())


def _pins(text):
    """Every header pin a passage names: "pin 4", "pins 9, 14, 20, 25 and 34"."""
    pins = set()
    for run in re.findall(r"\bpins? (\d+(?:(?:, | and |/)\d+)*)", text):
        pins |= {int(n) for n in re.findall(r"\d+", run)}
    return pins


def _solder_steps():
    return README[README.index("### Solder these joints"):README.index("## Wiring")]


def test_check_before_power_names_the_pin_maps_power_and_ground_leads():
    """Step 8 of the solder steps: every ground lead the pin map wires is named (pin 6 only
    with the serial line: it exists in no other build), the 3.3 V and 5 V leads are the pin
    map's, and no pin is named that no lead goes to."""
    step = _step(_solder_steps(), 8)
    named = _pins(step)
    wired = {pin for _, _, pin in _wires()}
    grounds = wired & GROUND_PINS
    assert grounds <= named, sorted(grounds - named)
    assert named <= wired, sorted(named - wired)
    assert named & PIN_3V3 == wired & PIN_3V3 and named & PIN_5V == wired & PIN_5V
    serial_grounds = {pin for part, _, pin in _wires() if part == "uart"} & GROUND_PINS
    for pin in serial_grounds:
        assert re.search(rf"pin {pin} too with the serial line", step), pin
    buttons = {pin for part, terminal, pin in _wires() if part in ("next", "up", "down", "back")}
    assert buttons <= named


def test_the_checks_and_the_blank_display_help_cover_the_spi_panel_too():
    build = README[README.index("## Build the box"):README.index("## If something is wrong")]
    check = _step(build, 7)
    blank = README[README.index("- **Blank display**"):README.index("- **Service restarts")]
    for passage in (check, blank):
        assert "i2cdetect -y 1" in passage and "/dev/spidev0.0" in passage, passage
    spi = PINMAP["panels"]["ssd1309-spi"]
    for wire in spi["wires"]:
        if wire["terminal"] in ("SDA", "SCL", "RES", "DC", "CS"):
            assert f"{wire['terminal']} to pin {wire['pin']}" in " ".join(blank.split()) or \
                f"{wire['terminal']} pin {wire['pin']}" in " ".join(blank.split()), wire


def test_the_raspberry_pi_os_path_solders_everything_as_the_build_does():
    build = README[README.index("## Build the box"):README.index("## If something is wrong")]
    assert "one button" not in build
    assert "[Solder these joints](#solder-these-joints)" in _step(build, 2)


def test_every_lead_has_a_length_and_it_agrees_with_the_bom():
    with (ROOT / "hardware/bom.csv").open(encoding="utf-8") as rows:
        leads = next(row for row in csv.DictReader(rows) if row["item"] == "11")
    whole = int(re.search(r"(\d+) cm", leads["part"]).group(1))
    text = " ".join(README.split())
    assert f"a whole lead is {whole} cm, a half lead **{whole // 2} cm**" in text
    step_one = " ".join(_step(_solder_steps(), 1).split())
    assert f"whole leads ({whole} cm)" in step_one and f"{whole // 2} cm half leads" in step_one
    assert re.search(r"ground bus\*\*: one solid wire .*?about \d+ cm", text)


def test_the_zero_2_ws_wi_fi_is_described_one_way():
    said = " ".join(card.ZERO2_WIFI.split())
    for path in ("hardware/image.md", "docs/pi-image.md"):
        text = " ".join((ROOT / path).read_text(encoding="utf-8").split())
        assert said in text, path
        assert text.count("BCM43436") == said.count("BCM43436"), path
    card_text = " ".join(card.card_text().split())
    assert said in card_text and card_text.count("BCM43436") == 1


def test_every_tool_the_steps_use_is_in_the_list_of_tools():
    tools = README[README.index("### You will need"):README.index("### Solder these joints")]
    rest = README.replace(tools, "")
    for word, tool in (("glue", "hot glue gun"), ("drill", "drill"),
                       ("multimeter", "multimeter"), ("heat-shrink", "heat-shrink")):
        if word in rest.lower():
            assert tool in tools.lower(), tool


def test_the_power_off_leds_pin_is_the_pin_maps_led_and_nothing_else_uses_it():
    """gpio-poweroff takes the LED's GPIO from everything else: the pin map gives that GPIO to
    the LED alone, and it is none of the buses' (I2C 2/3, UART 14/15, SPI0 9-11) nor the SPI
    panel's RES, DC, CS, nor the I2S pins (18-21) the buzzer and shutdown button sit on."""
    defaults = tomllib.loads((ROOT / "companion/default_config.toml").read_text(encoding="utf-8"))
    pin = defaults["led"]["pin"]
    assert defaults["led"]["shows"] == "power-off"
    owners = {(part, wire["terminal"]) for table in ("parts", "panels")
              for part, spec in PINMAP[table].items() for wire in spec.get("wires", [])
              if wire.get("bcm") == pin}
    assert owners == {("led", "anode (via resistor)")}
    assert pin not in {2, 3, 9, 10, 11, 14, 15, 18, 19, 20, 21}
    fragment = (ROOT / "firmware_config/poweroff.fragment").read_text(encoding="utf-8")
    assert "dtoverlay=gpio-poweroff,gpiopin={led_pin},active_low=0" in fragment
