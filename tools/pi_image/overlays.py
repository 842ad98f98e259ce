"""The card's own device-tree overlays: SPI0 for the 7-pin SSD1309, and the power-off LED.

Debian's raspi-firmware ships neither Raspberry Pi's `spi0-1cs` nor its `gpio-poweroff`
overlay, and the card boots Debian's upstream device trees. So the card carries its own two,
compiled here from source with `dtc` (Debian's device-tree-compiler) at image build time, with
the same parameters as Raspberry Pi's, so config.txt reads the same on both:

- `companion-spi0`: SPI0 on GPIO9-11 (ALT0) with one chip select on GPIO13 (the pin map's
  CS, a GPIO: cs-gpios), and a spidev device on it: /dev/spidev0.0, as Raspberry Pi OS's
  `dtparam=spi=on` + `dtoverlay=spi0-1cs,cs0_pin=13` give. No parameter: a chip-select
  parameter would need a label on the fragment's __overlay__ node, which Debian's fdtoverlay
  (the static check) cannot apply; another CS pin on the card needs this source changed.
- `companion-poweroff` (`gpiopin=N`, default 24, and `active_low`, as Raspberry Pi's
  gpio-poweroff takes them): the kernel's gpio-poweroff driver on GPIO N, active high: held
  low while the system runs, driven high once it has halted, so the LED in the case lights
  when the box may be unplugged.

Promises:
- `SOURCES` are the overlays' source text; `compile_overlays` writes `overlays/NAME.dtbo` for
  each into the boot partition's tree (an argument list, no shell, a timeout) and raises
  OverlayError with dtc's words when one does not compile.
- `card_config_txt` turns the config.txt that tools/install.py wrote (Raspberry Pi OS's overlay
  names) into the card's: `spi0-1cs` and `gpio-poweroff` become the card's own (the SPI one
  without parameters), and SPI0 is
  always on (GPIO9-11 and the chip select are free in every build of the pin map, and a
  maker who switches `display.interface` to "spi" in the boot partition's companion.toml then
  needs nothing else changed).
- The overlays name only labels that upstream's bcm283x device trees define (`gpio`, `spi`);
  the firmware resolves them against the board's device tree when it applies them.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

__all__ = [
    "DEFAULT_CS_PIN",
    "DEFAULT_LED_PIN",
    "SOURCES",
    "OverlayError",
    "card_config_txt",
    "compile_overlays",
]

DEFAULT_CS_PIN = 13  # hardware/pinmap.toml: the SPI panel's CS, pin 33
DEFAULT_LED_PIN = 24  # hardware/pinmap.toml: the LED, pin 18
ALT0, OUTPUT, ACTIVE_LOW = 4, 1, 1

SOURCES = {
    "companion-spi0": f"""\
/dts-v1/;
/plugin/;

/* The table companion's card: SPI0 on GPIO9-11 with one chip select on cs0_pin, and
   /dev/spidev0.0 on it (tools/pi_image/overlays.py). */
/ {{
	compatible = "brcm,bcm2835";

	fragment@0 {{
		target = <&gpio>;
		__overlay__ {{
			companion_spi0_pins: companion_spi0_pins {{
				brcm,pins = <9 10 11>;
				brcm,function = <{ALT0}>;
			}};
			companion_spi0_cs: companion_spi0_cs {{
				brcm,pins = <{DEFAULT_CS_PIN}>;
				brcm,function = <{OUTPUT}>;
			}};
		}};
	}};

	fragment@1 {{
		target = <&spi>;
		__overlay__ {{
			#address-cells = <1>;
			#size-cells = <0>;
			pinctrl-names = "default";
			pinctrl-0 = <&companion_spi0_pins &companion_spi0_cs>;
			cs-gpios = <&gpio {DEFAULT_CS_PIN} {ACTIVE_LOW}>;
			status = "okay";

			spidev@0 {{
				compatible = "rohm,dh2228fv";
				reg = <0>;
				spi-max-frequency = <8000000>;
			}};
		}};
	}};
}};
""",
    "companion-poweroff": f"""\
/dts-v1/;
/plugin/;

/* The table companion's card: the LED on gpiopin lights once the system has halted
   (the kernel's gpio-poweroff, active high; tools/pi_image/overlays.py). */
/ {{
	compatible = "brcm,bcm2835";

	fragment@0 {{
		target-path = "/";
		__overlay__ {{
			companion_poweroff: companion-poweroff {{
				compatible = "gpio-poweroff";
				gpios = <&gpio {DEFAULT_LED_PIN} 0>;
				timeout-ms = <3000>;
			}};
		}};
	}};

	__overrides__ {{
		gpiopin = <&companion_poweroff>,"gpios:4";
		active_low = <&companion_poweroff>,"gpios:8";
	}};
}};
""",
}

END = "# <<< table companion <<<"


class OverlayError(RuntimeError):
    """An overlay did not compile; the message carries dtc's words."""


def compile_overlays(boot: Path, dtc: str = "dtc") -> list[Path]:
    """overlays/NAME.dtbo in the boot tree for each of SOURCES; the files written."""
    folder = boot / "overlays"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, source in SOURCES.items():
        target = folder / f"{name}.dtbo"
        done = subprocess.run([dtc, "-@", "-I", "dts", "-O", "dtb", "-o", str(target), "-"],  # noqa: S603
                              input=source, capture_output=True, text=True, timeout=60,
                              check=False)
        if done.returncode != 0:
            raise OverlayError(f"dtc could not compile {name}: {done.stderr.strip()}")
        written.append(target)
    return written


def card_config_txt(text: str) -> str:
    """config.txt with the card's overlay names, and SPI0 on (in the companion's block)."""
    lines = []
    for line in text.splitlines():
        if line.startswith("dtoverlay=spi0-1cs"):
            line = "dtoverlay=companion-spi0"  # noqa: PLW2901 (the line, renamed)
        elif line.startswith("dtoverlay=gpio-poweroff"):
            line = "dtoverlay=companion-poweroff" + line[len("dtoverlay=gpio-poweroff"):]  # noqa: PLW2901
        lines.append(line)
    out = "\n".join(lines) + "\n"
    if not re.search(r"^dtoverlay=companion-spi0$", out, re.M):
        spi = ("# SPI0 for the 7-pin SSD1309 (display.interface = \"spi\" in companion.toml), on "
               "in every card:\n[all]\ndtoverlay=companion-spi0\n")
        out = out.replace(END, spi + END) if END in out else out + spi
    return out
