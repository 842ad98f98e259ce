"""The card's own device-tree overlays (tools/pi_image/overlays.py): SPI0 for the 7-pin
SSD1309 and the power-off LED, compiled with Debian's dtc and applied with fdtoverlay to a
base tree carrying the labels upstream's bcm283x device trees define; config.txt names them;
the image's static check finds each one missing. No built image needed."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from pi_image import card, check, layout, overlays  # noqa: E402

# The two nodes the overlays build on, under upstream's labels (bcm283x.dtsi: `gpio`, `spi`).
BASE = """\
/dts-v1/;
/ {
	compatible = "raspberrypi,4-model-b", "brcm,bcm2711";
	#address-cells = <1>;
	#size-cells = <1>;
	soc {
		#address-cells = <1>;
		#size-cells = <1>;
		gpio: gpio@7e200000 {
			compatible = "brcm,bcm2711-gpio";
			reg = <0x7e200000 0xb4>;
			gpio-controller;
			#gpio-cells = <2>;
		};
		spi: spi@7e204000 {
			compatible = "brcm,bcm2835-spi";
			reg = <0x7e204000 0x200>;
			status = "disabled";
		};
	};
};
"""
INSTALLED = """\
kernel=vmlinuz
# >>> table companion: added by tools/install.py, removed by --uninstall >>>
[all]
dtparam=i2c_arm=on
[all]
dtoverlay=gpio-poweroff,gpiopin=24,active_low=0
# <<< table companion <<<
"""


def _tool(name):
    found = shutil.which(name)
    assert found, f"{name} is needed: apt-get install device-tree-compiler"
    return found


def _fdtget(blob, *args):
    return subprocess.run([_tool("fdtget"), str(blob), *args], capture_output=True, text=True,
                          check=True, timeout=30).stdout.strip()


@pytest.fixture(scope="module")
def applied(tmp_path_factory):
    """The base tree with both overlays applied, as the firmware applies them."""
    folder = tmp_path_factory.mktemp("dt")
    written = overlays.compile_overlays(folder / "boot", dtc=_tool("dtc"))
    assert sorted(p.name for p in written) == ["companion-poweroff.dtbo", "companion-spi0.dtbo"]
    base = folder / "base.dtb"
    subprocess.run([_tool("dtc"), "-@", "-I", "dts", "-O", "dtb", "-o", str(base), "-"],
                   input=BASE, text=True, check=True, timeout=30)
    out = folder / "applied.dtb"
    subprocess.run([_tool("fdtoverlay"), "-i", str(base), "-o", str(out), *map(str, written)],
                   check=True, timeout=30)
    return folder, out


def test_overlays_need_only_the_labels_upstream_defines(applied):
    folder, _ = applied
    for name in overlays.SOURCES:
        fixups = _fdtget(folder / "boot/overlays" / f"{name}.dtbo", "-p", "/__fixups__")
        assert set(fixups.split()) <= {"gpio", "spi"}, (name, fixups)


def test_spi_overlay_gives_spi0_its_pins_a_chip_select_and_spidev(applied):
    _, tree = applied
    spi = "/soc/spi@7e204000"
    assert _fdtget(tree, spi, "status") == "okay"
    gpio = _fdtget(tree, "/soc/gpio@7e200000", "phandle")
    assert _fdtget(tree, spi, "cs-gpios").split() == [gpio, str(overlays.DEFAULT_CS_PIN), "1"]
    assert _fdtget(tree, f"{spi}/spidev@0", "compatible") == "rohm,dh2228fv"
    pins = _fdtget(tree, "/soc/gpio@7e200000/companion_spi0_pins", "brcm,pins").split()
    assert pins == ["9", "10", "11"]  # MOSI, SCLK, MISO: hardware/pinmap.toml's SPI0 lines


def test_poweroff_overlay_drives_the_leds_pin_active_high(applied):
    _, tree = applied
    gpio = _fdtget(tree, "/soc/gpio@7e200000", "phandle")
    assert _fdtget(tree, "/companion-poweroff", "compatible") == "gpio-poweroff"
    assert _fdtget(tree, "/companion-poweroff", "gpios").split() == [
        gpio, str(overlays.DEFAULT_LED_PIN), "0"]


def test_overlays_take_raspberry_pis_parameters(applied):
    """gpiopin and active_low, as gpio-poweroff names them, so the installer's line works on
    the card under the card's own overlay name."""
    folder, _ = applied
    dtbo = folder / "boot/overlays/companion-poweroff.dtbo"
    assert _fdtget(dtbo, "-p", "/__overrides__").split() == ["gpiopin", "active_low"]


def test_card_config_txt_names_the_cards_overlays_and_always_switches_spi0_on():
    text = overlays.card_config_txt(INSTALLED)
    assert "dtoverlay=companion-poweroff,gpiopin=24,active_low=0" in text
    assert "dtoverlay=gpio-poweroff" not in text
    assert "dtoverlay=companion-spi0\n# <<< table companion <<<" in text
    assert overlays.card_config_txt(text) == text  # once is enough
    spi = INSTALLED.replace("[all]\ndtoverlay=gpio", "[all]\ndtoverlay=spi0-1cs,cs0_pin=13\n"
                            "[all]\ndtoverlay=gpio")
    assert overlays.card_config_txt(spi).count("dtoverlay=companion-spi0") == 1
    assert "cs0_pin" not in overlays.card_config_txt(spi)


def test_add_card_parts_puts_the_overlays_on_the_boot_partition(tmp_path):
    staging, boot = tmp_path / "root", tmp_path / "boot"
    staging.mkdir()
    boot.mkdir()
    (boot / "config.txt").write_text(INSTALLED, encoding="utf-8")
    card.add_card_parts(staging, boot)
    assert sorted(p.name for p in (boot / "overlays").iterdir()) == [
        "companion-poweroff.dtbo", "companion-spi0.dtbo"]
    facts = _facts(config_txt=(boot / "config.txt").read_text(encoding="utf-8"),
                   overlays=[p.name for p in (boot / "overlays").iterdir()])
    assert check.overlay_problems(facts) == []
    template = card.BOOT_CONFIG_TEMPLATE
    assert '# interface = "spi"' in template and "keep \"i2c\"" not in template


def _facts(**changes):
    facts = check.ImageFacts(
        parts=[layout.Partition(1, 4 << 20, 256 << 20, "c", "RASPIFIRM")], boot_files=[],
        overlays=["companion-spi0.dtbo", "companion-poweroff.dtbo"], root_top=[], data_top=[],
        labels={}, config_txt=overlays.card_config_txt(INSTALLED), cmdline_txt="", fstab="",
        unit_enabled="", state_link="")
    for key, value in changes.items():
        setattr(facts, key, value)
    return facts


@pytest.mark.parametrize(("changes", "complaint"), [
    ({"overlays": ["companion-spi0.dtbo"]}, "overlays/companion-poweroff.dtbo missing"),
    ({"config_txt": INSTALLED}, "config.txt: no dtoverlay=companion-spi0"),
    ({"config_txt": INSTALLED}, "asks for dtoverlay=gpio-poweroff, which is not on the card"),
    ({"config_txt": "kernel=vmlinuz\n"}, "config.txt: no dtoverlay=companion-poweroff"),
])
def test_static_check_names_each_missing_overlay(changes, complaint):
    found = check.overlay_problems(_facts(**changes))
    assert any(complaint in problem for problem in found), found


def test_static_check_accepts_the_cards_overlays():
    assert check.overlay_problems(_facts()) == []
