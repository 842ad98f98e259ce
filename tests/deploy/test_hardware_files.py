"""hardware/pinmap.toml agrees with the packaged defaults, the boot config and the wiring SVG."""

import csv
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PINMAP = ROOT / "hardware" / "pinmap.toml"
DEFAULTS = ROOT / "companion" / "default_config.toml"


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
    # Every pin the defaults name is on the pin map.
    expected = {f"buttons.{b}" for b in ("next", "up", "down", "back")}
    expected |= {"buzzer.pin", "led.pin", "shutdown.pin", "display.i2c_port",
                 "display.i2c_address"}
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
    wires = [w for part in _load(PINMAP)["parts"].values() for w in part["wires"]]
    assert int(leads["qty"]) == len(wires)
    assert f"({len(wires)} with every option" in leads["notes"]
    card = next(row for row in rows if "microSD" in row["part"])
    assert "16 GB or more" in card["part"]


def test_the_panel_sizes_picture_is_up_to_date():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "panel_sizes.py"), "--check"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
