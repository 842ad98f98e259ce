"""hardware/pinmap.toml agrees with the packaged defaults, the boot config and the wiring SVG."""

import csv
import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from companion.config import merge

ROOT = Path(__file__).resolve().parents[2]
PINMAP = ROOT / "hardware" / "pinmap.toml"
DEFAULTS = ROOT / "companion" / "default_config.toml"
README = ROOT / "hardware" / "README.md"

sys.path.insert(0, str(ROOT / "tools"))  # the tools are scripts beside each other
WIRING = importlib.import_module("wiring_diagram")
SOLDER = importlib.import_module("solder_steps")


def _load(path: Path) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


def _lookup(config: dict, dotted: str):
    node = config
    for key in dotted.split("."):
        node = node[key]
    return node


def test_pinmap_agrees_with_default_config():
    pinmap, defaults = _load(PINMAP), _load(DEFAULTS)
    checked = set()
    for part_id, part in pinmap["parts"].items():
        for key, value in part.get("config", {}).items():
            assert _lookup(defaults, key) == value, f"parts.{part_id}: {key}"
            checked.add(key)
        for wire in part["wires"]:
            if "config" in wire:
                assert _lookup(defaults, wire["config"]) == wire["bcm"], \
                    f"parts.{part_id} {wire['terminal']}: {wire['config']}"
                checked.add(wire["config"])
    for panel_id, panel in pinmap["panels"].items():
        for wire in panel.get("wires", []):
            if "config" in wire:
                assert _lookup(defaults, wire["config"]) == wire["bcm"], \
                    f"panels.{panel_id} {wire['terminal']}: {wire['config']}"
                checked.add(wire["config"])
        for key, value in panel.get("config", {}).items():
            # A panel's own setting (display.interface = "spi") is a key the config takes.
            assert merge(defaults, {key.split(".")[0]: {key.split(".")[1]: value}}, panel_id)
    # Every pin the defaults name is on the pin map.
    expected = {f"buttons.{b}" for b in ("next", "up", "down", "back")}
    expected |= {"buzzer.pin", "led.pin", "shutdown.pin", "display.i2c_port",
                 "display.i2c_address", "display.spi_cs_pin", "display.spi_dc_pin",
                 "display.spi_reset_pin"}
    assert expected <= checked


def test_pinmap_matches_the_header_and_the_svgs_are_up_to_date(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "wiring_diagram.py"),
                           "--pinmap", str(PINMAP), "--out-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr  # 2: a bcm number is not on its pin; 1: geometry
    fresh = sorted(tmp_path.glob("wiring-*.svg"))
    assert [f.name for f in fresh] == sorted(f.name for f in
                                             (ROOT / "hardware").glob("wiring-*.svg"))
    for svg in fresh:
        committed = (ROOT / "hardware" / svg.name).read_text(encoding="utf-8")
        assert svg.read_text(encoding="utf-8") == committed, \
            f"hardware/{svg.name} is stale: run python3 tools/wiring_diagram.py"


def test_wiring_diagram_refuses_a_bcm_number_on_the_wrong_pin(tmp_path):
    bad = tmp_path / "pinmap.toml"
    bad.write_text(PINMAP.read_text().replace("pin = 11, bcm = 17", "pin = 11, bcm = 18"))
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "wiring_diagram.py"),
                           "--pinmap", str(bad), "--out-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "bcm 18 is not on pin 11" in done.stderr


def test_boot_fragment_matches_the_pinmap():
    fragment = (ROOT / "firmware_config" / "config.txt.fragment").read_text()
    shutdown = _load(DEFAULTS)["shutdown"]["pin"]
    active = [line for line in fragment.splitlines() if line and not line.startswith("#")]
    assert f"dtoverlay=gpio-shutdown,gpio_pin={shutdown},active_low=1,gpio_pull=up" in active
    assert "dtparam=i2c_arm=on" in active
    assert "dtparam=i2c_arm_baudrate=400000" in active
    assert not any("uart" in line for line in active)  # only with a serial line: uart.fragment
    assert active[0] == "[all]"


def _sections(fragment: str) -> dict[str, list[str]]:
    """The active lines of a config.txt fragment under each conditional filter."""
    found: dict[str, list[str]] = {}
    section = "[all]"
    for line in fragment.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
            found.setdefault(section, [])
        else:
            found.setdefault(section, []).append(line)
    return found


def test_uart_fragment_is_board_aware():
    # Pi 5: UART0 on GPIO14/15 is dtparam=uart0=on, never enable_uart (which moves the console
    # onto GPIO14/15 with the 2024-12 bootloader); the others need enable_uart=1.
    fragment = (ROOT / "firmware_config" / "uart.fragment").read_text()
    sections = _sections(fragment)
    assert sections["[pi5]"] == ["dtparam=uart0=on"]
    for board in ("[pi02]", "[pi3]", "[pi4]"):
        assert sections[board] == ["enable_uart=1"], board
    assert fragment.rstrip().endswith("[all]")  # whatever follows applies to every board again
    assert sections["[all]"] == []


def test_bom_lists_every_part_of_the_pinmap():
    with (ROOT / "hardware" / "bom.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and {"item", "qty", "part", "example", "notes"} <= set(rows[0])
    listed = {part for row in rows for part in row["pinmap_part"].split(";") if part}
    assert set(_load(PINMAP)["parts"]) <= listed
    assert all(row["price_eur"] for row in rows)  # a range for every part (README: the date)


def test_bom_has_one_jumper_lead_per_header_wire():
    with (ROOT / "hardware" / "bom.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    leads = next(row for row in rows if "jumper leads" in row["part"])
    pinmap = _load(PINMAP)
    most = max(sum(len(part["wires"]) for _, part in WIRING.parts_for(pinmap, panel))
               for panel in pinmap["panels"])
    assert int(leads["qty"]) == most
    assert f"({most} with every option" in leads["notes"]
    card = next(row for row in rows if "microSD" in row["part"])
    assert "16 GB or more" in card["part"]


def test_the_panel_sizes_picture_is_up_to_date():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "panel_sizes.py"), "--check"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def _builds(pinmap):
    """Every build a maker can follow: a panel, and the buzzer direct or through the NPN."""
    specs = SOLDER.steps(pinmap)
    for panel in pinmap["panels"]:
        for buzzer in ("direct", "npn"):
            yield panel, buzzer, [SOLDER.picture(pinmap, spec) for spec in specs
                                  if spec.buzzer in ("", buzzer) and spec.panel in ("", panel)]


def test_readme_step_one_keeps_whole_every_lead_a_later_step_plugs_on():
    """Read hardware/README.md's steps in order against the pin map: step 1 says how many leads
    to keep whole before the ribbon is cut, and that is at least what any build plugs on at a
    part (a plug at both ends); every wire of the build is a lead of some step, whole or half,
    and the leads block is the one the tool writes."""
    pinmap = _load(PINMAP)
    text = README.read_text(encoding="utf-8")
    steps = re.findall(r"^(\d+)\. \*\*(.+?)\*\*", text, flags=re.M)
    first = next(title for number, title in steps if number == "1")
    assert first.startswith("Leads")
    step_one = text[text.index("1. **Leads."):text.index("2. **Buttons.")]
    peeled = int(re.search(r"peel (\d+) leads off the ribbon and keep them\s+whole", step_one)[1])
    assert step_one.index("peel") < step_one.index("cut the rest")
    for panel, buzzer, pictures in _builds(pinmap):
        whole = [pin for pic in pictures for pin in SOLDER.lead_ends(pic)[0]]
        half = [pin for pic in pictures for pin in SOLDER.lead_ends(pic)[1]]
        assert len(whole) <= peeled, (panel, buzzer)
        assert len(whole) + len(half) <= 40, (panel, buzzer)  # one ribbon
        wired = sorted(w["pin"] for _, part in WIRING.parts_for(pinmap, panel)
                       for w in part["wires"] if buzzer == "npn" or not w.get("optional"))
        assert sorted(whole + half) == wired, (panel, buzzer)
    assert SOLDER.lead_plan(pinmap) in text, "run python3 tools/solder_steps.py"
    # The display's leads keep both plugs: its module has pins, no solder at its end.
    for spec in SOLDER.steps(pinmap):
        if spec.panel:
            assert SOLDER.lead_ends(SOLDER.picture(pinmap, spec))[1] == []


def test_readme_says_to_label_each_lead_and_thread_heat_shrink_first():
    text = README.read_text(encoding="utf-8")
    habits = text[text.index("Three habits"):text.index("1. **Leads.")]
    assert "**Heat-shrink goes on first.**" in habits and "*before* you solder" in habits
    assert "**Label each lead" in habits
    for spec in SOLDER.steps(_load(PINMAP)):
        pic = SOLDER.picture(_load(PINMAP), spec)
        footer = " ".join(t.text for t in pic.texts if t.group == "plugs")
        assert "Label each lead with its header pin" in footer
        assert ("thread a 15 mm piece of heat-shrink" in footer) == bool(
            SOLDER.lead_ends(pic)[1]), spec.name


def test_readme_has_a_tools_list_with_prices():
    text = README.read_text(encoding="utf-8")
    tools = text[text.index("### You will need"):text.index("### Solder these joints")]
    rows = [line for line in tools.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) >= 9
    assert all(re.search(r"EUR \d", row) for row in rows[1:])
    for tool in ("soldering iron", "solder", "side cutters", "wire stripper", "heat-shrink",
                 "multimeter", "masking tape"):
        assert tool in tools


def test_image_page_and_schematic_agree_with_the_readme_and_bom():
    image = (ROOT / "hardware" / "image.md").read_text(encoding="utf-8")
    assert "companion/tools/install.py" not in image
    assert "sudo python3 tools/install.py" in image
    schematic = (ROOT / "hardware" / "buzzer-5v.svg").read_text(encoding="utf-8")
    bom = (ROOT / "hardware" / "bom.csv").read_text(encoding="utf-8")
    assert "2N2222" not in schematic + bom + README.read_text(encoding="utf-8")
    assert "PN2222A" in schematic and "PN2222A" in bom


def test_readme_sound_table_recommends_an_option_loud_enough_for_a_table():
    """Every sound option of the table has its level at 50 cm; the recommended one reaches
    75 dB there, its config names a sounder the box has tunes for, and the page's sound is
    said to be the fallback."""
    from companion.core.tunes import SOUNDERS

    text = README.read_text(encoding="utf-8")
    sound = text[text.index("## Sound: loud enough"):text.index("## Power: off and on")]
    rows = [line for line in sound.splitlines() if line.startswith("| ") and "---" not in line]
    options = rows[1:]
    assert len(options) >= 4  # piezo direct, piezo on 5 V, magnetic on 5 V, speaker + class D
    for row in options:
        level = re.search(r"\*\*(?:about )?(\d+) dB", row.split("|")[4])
        assert level, row
        assert re.search(r"`sounder = \"(\w+)\"`", row)[1] in SOUNDERS
    recommended = [row for row in options if "(recommended)" in row]
    assert len(recommended) == 1
    assert int(re.search(r"\*\*(\d+) dB", recommended[0].split("|")[4])[1]) >= 75
    assert 'sounder = "speaker"' in sound and "**The phones' sound is the fallback" in sound
