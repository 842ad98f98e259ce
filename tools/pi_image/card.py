"""What makes the image a maker's card: a network, SSH, settings on the boot partition, and the
shutdown button in software.

Promises:
- `BOARDS` is the one statement of which boards the card is for (Pi 3, Pi 4, Zero 2 W) and
  `NOT_FOR` of which it is not (Pi 5 and the others Debian's kernel and raspi-firmware do
  not boot); check.py and the boot partition's companion-card.txt are written from them.
- `seed_config` writes the card's /etc/companion/companion.toml before tools/install.py runs,
  so the installer does the rest from it: `shutdown.handler = "companion"` (Debian's
  raspi-firmware has no gpio-shutdown overlay: the companion watches GPIO21 itself, and
  config.txt gets no overlay line) and the table page on the LAN (`web.listen`,
  `CARD_WEB_PORT`, with the unit's web drop-in).
- `NETWORK_PACKAGES` are installed into the companion layer: wpa_supplicant, Debian's
  Broadcom Wi-Fi firmware, the regulatory database, openssh-server. systemd-networkd (in
  Debian's systemd) brings up any wired or wireless interface by DHCP.
- `add_card_parts` puts on the staged root and boot trees what no package does: networkd's
  two .network files and its enablement (wait-online masked: nothing waits for a network),
  companion-card.service with card_setup.py (the boot partition's Wi-Fi and SSH files to
  /run), wpa_supplicant@wlan0 (started by wlan0's arrival) and sshd running only when those
  files were there, sshd key-only
  with its host key on the data partition, the companion ordered after the boot partition's
  mount (it reads companion.toml there), and on the boot partition: companion.toml (every
  line a comment until a person changes one), wpa_supplicant.conf.example and
  companion-card.txt, which says what each file does and which boards the card is for; and the
  card's own device-tree overlays (overlays.py: SPI0 for the 7-pin SSD1309, always on, and
  the LED that lights once the box may be unplugged), with config.txt naming them.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from pi_image import overlays

SOURCE = Path(__file__).resolve().parents[2]
CARD_RECIPE = 1  # bump when seed_config or NETWORK_PACKAGES change (the companion layer's name)
CARD_WEB_PORT = 8080

# The boards the card is for: the device tree the firmware loads for each (upstream names,
# as Debian's linux-image-arm64 ships them), with the board's Wi-Fi chip.
BOARDS = {
    "Raspberry Pi 3 Model B": ("bcm2837-rpi-3-b.dtb", "BCM43438 (2.4 GHz)"),
    "Raspberry Pi 3 Model B+": ("bcm2837-rpi-3-b-plus.dtb", "BCM43455 (2.4 and 5 GHz)"),
    "Raspberry Pi 3 Model A+": ("bcm2837-rpi-3-a-plus.dtb", "BCM43455 (2.4 and 5 GHz)"),
    "Raspberry Pi 4 Model B": ("bcm2711-rpi-4-b.dtb", "BCM43455 (2.4 and 5 GHz)"),
    "Raspberry Pi Zero 2 W": ("bcm2837-rpi-zero-2-w.dtb", "BCM43438 (2.4 GHz)"),
}
# The one way the Zero 2 W's Wi-Fi is described: card_text, hardware/image.md and
# docs/pi-image.md say exactly this (tests/deploy/test_build_docs.py).
ZERO2_WIFI = ("Some Zero 2 W boards carry a BCM43436 Wi-Fi chip instead of the BCM43438: "
              "whether Debian's firmware-brcm80211 drives it is not yet tried on a board.")
# The board's Wi-Fi settings file in Debian's firmware-brcm80211 (the chip's firmware is beside
# it): the driver picks the one named after the board's device tree.
WIFI_NVRAM = {
    "Raspberry Pi 3 Model B": "brcmfmac43430-sdio.raspberrypi,3-model-b.txt",
    "Raspberry Pi 3 Model B+": "brcmfmac43455-sdio.raspberrypi,3-model-b-plus.txt",
    "Raspberry Pi 3 Model A+": "brcmfmac43455-sdio.raspberrypi,3-model-a-plus.txt",
    "Raspberry Pi 4 Model B": "brcmfmac43455-sdio.raspberrypi,4-model-b.txt",
    "Raspberry Pi Zero 2 W": "brcmfmac43430-sdio.raspberrypi,model-zero-2-w.txt",
}
NOT_FOR = ("Raspberry Pi 5", "Raspberry Pi 400", "Compute Module 4",
           "32-bit boards (Pi 1, Pi 2, Zero, Zero W)")

NETWORK_PACKAGES = ("wpasupplicant", "firmware-brcm80211", "wireless-regdb",
                    "openssh-server", "iproute2")

WIRED_NETWORK = """\
# The table companion's card: any wired interface, by DHCP (tools/pi_image/card.py).
[Match]
Type=ether

[Network]
DHCP=yes
LinkLocalAddressing=yes
"""
WIRELESS_NETWORK = """\
# The table companion's card: Wi-Fi (wlan0, joined by wpa_supplicant from the boot
# partition's wpa_supplicant.conf), by DHCP (tools/pi_image/card.py).
[Match]
Type=wlan

[Network]
DHCP=yes
LinkLocalAddressing=yes
"""
SETUP_UNIT = """\
# The table companion's card: the boot partition's wpa_supplicant.conf and authorized_keys to
# /run before the network and sshd start (tools/pi_image/card_setup.py). The root is read-only.
[Unit]
Description=Table companion card: Wi-Fi and SSH settings from the boot partition
DefaultDependencies=no
After=local-fs.target boot-firmware.mount var-lib-private.mount
Wants=boot-firmware.mount
Before=network-pre.target wpa_supplicant@wlan0.service ssh.service companion.service
Wants=network-pre.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/bin/python3 /usr/local/lib/companion-card/card_setup.py

[Install]
WantedBy=multi-user.target
"""
WPA_DROPIN = """\
# The table companion's card: Wi-Fi only when the boot partition has a wpa_supplicant.conf
# (companion-card.service copies it to /run; no file, no Wi-Fi, no failed unit).
[Unit]
After=companion-card.service
ConditionPathExists=/run/companion-card/wpa_supplicant-wlan0.conf
"""
SSH_DROPIN = """\
# The table companion's card: sshd only when the boot partition has an authorized_keys file
# (companion-card.service copies its keys to /run and makes the host key on the data partition).
[Unit]
After=companion-card.service var-lib-private.mount
ConditionPathExists=/run/companion-card/authorized_keys
"""
SSHD_CONFIG = """\
# The table companion's card (tools/pi_image/card.py): keys only, from the boot partition's
# authorized_keys; the host key lives on the data partition (the root is read-only), made once
# per card at its first boot with a key file.
HostKey /var/lib/private/card/ssh/ssh_host_ed25519_key
AuthorizedKeysFile /run/companion-card/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
"""
# wpa_supplicant@wlan0 is started by the Wi-Fi device's appearance, not at every boot: a box
# whose wlan0 never shows up waits for nothing and has no failed unit.
WIFI_UDEV_RULE = (
    "# The table companion's card: wlan0's arrival starts wpa_supplicant on it (which runs\n"
    "# only when the boot partition had a wpa_supplicant.conf: its drop-in's condition).\n"
    'ACTION=="add", SUBSYSTEM=="net", KERNEL=="wlan0", TAG+="systemd", '
    'ENV{SYSTEMD_WANTS}+="wpa_supplicant@wlan0.service"\n')
COMPANION_DROPIN = """\
# The table companion's card: the companion reads the boot partition's companion.toml, so it
# starts after that partition is mounted (fstab mounts it `nofail`).
[Unit]
After=boot-firmware.mount companion-card.service
Wants=boot-firmware.mount
"""
BOOT_CONFIG_TEMPLATE = """\
# The table companion's settings on this card. Edit this file from any computer (it is on the
# card's small FAT partition), put the card back and power on: it overrides the card's own
# settings key by key. Every key and its meaning: companion/default_config.toml in the
# project; `companion doctor` on the box checks them. A key the companion does not know, or a
# value of the wrong kind, stops it at start-up (the display stays blank): change one thing
# at a time. Lines starting with # are comments; take the # away to use a line.

# The display (hardware/README.md, "Which display"):
# [display]
# driver = "ssd1309"       # "ssd1306" 0.96 in, "ssd1309" 2.42 in, "sh1106" 1.3 in
# interface = "spi"        # the 7-pin 2.42 in board as sold; "i2c" for the 4-pin boards
# i2c_address = 0x3C       # 0x3D on some boards (the address jumper)
# rotate = 2               # upside down

# The buttons (BCM GPIO numbers, as in hardware/pinmap.toml):
# [buttons]
# next = 17
# up = 27
# down = 22
# back = 23

# [buzzer]
# pin = 18
# kind = "passive"         # "active" for a buzzer with its own oscillator
# sounder = "piezo"        # the budget piezo; "magnetic"; the default is the recommended "speaker"

# The shutdown button: on this card the companion watches it (no gpio-shutdown overlay here).
# [shutdown]
# pin = 21                 # 0 = no button fitted
# hold_ms = 1500

# The serial line on GPIO14/15 is /dev/ttyS1 on this card (no /dev/serial0 link on Debian):
# [serial]
# url = "/dev/ttyS1"

# The table page for phones is on, at port 8080 (http://<the box's address>:8080/).
# [web]
# listen = ""              # "" turns the page off; another port needs a rebuilt card
"""
WPA_EXAMPLE = """\
# Wi-Fi for the table companion's card. Copy this file to wpa_supplicant.conf (same folder),
# fill in your network's name and password and your country's two-letter code, and power the
# box on. The file stays here; the box reads it at every boot.
country=GB
network={
    ssid="Your network name"
    psk="your Wi-Fi password"
}
"""


def card_text() -> str:
    """companion-card.txt: what a person finds first on the boot partition."""
    boards = "\n".join(f"  - {name}: Wi-Fi {chip}" for name, (_, chip) in BOARDS.items())
    not_for = "\n".join(f"  - {name}" for name in NOT_FOR)
    return f"""\
THE TABLE COMPANION'S CARD

Which boards: this card is made for these boards only (64-bit, Debian 13; its
start on a real board is not yet tried, see the project's hardware/image.md):
{boards}
{textwrap.fill(ZERO2_WIFI, 78)}

Not for:
{not_for}
On a Pi 5, install Raspberry Pi OS Lite with
Raspberry Pi Imager and then the companion's installer (see the project's
hardware/image.md). A Pi 5 device tree is on this card (Debian's kernel package
ships it), but Debian 13's kernel has no driver for the Pi 5's RP1 chip, which
carries its GPIO header: the buttons and the display could not work there.

Raspberry Pi Imager's "OS customisation" settings do not apply to this card
(they are written for Raspberry Pi OS). Instead, the box reads these files
from this folder at every boot; write them with any text editor:

  wpa_supplicant.conf   Wi-Fi: copy wpa_supplicant.conf.example to this name
                        and fill in the network, password and country.
                        No file: Wi-Fi off. A network cable works without it.
  authorized_keys       SSH (optional): your public key, one line, such as the
                        contents of ~/.ssh/id_ed25519.pub. Then
                        ssh root@<the box's address> with that key; no
                        passwords. No file: SSH off.
  companion.toml        The box's settings: the display, the pins, the buzzer,
                        the serial line. Every line starts as a comment; take
                        the # away from the lines you change.

The table page for phones: http://<the box's address>:{CARD_WEB_PORT}/ (your router
lists the box as "companion").

The shutdown button (GPIO21 to ground): hold it for a second and a half; the
companion itself powers the box off (this card has no gpio-shutdown overlay).

The display: the 7-pin 2.42 in SSD1309 as sold is on SPI0, which this card
switches on (config.txt: dtoverlay=companion-spi0, its own overlay in
overlays/): in companion.toml take the # away from [display], driver =
"ssd1309" and interface = "spi". The 4-pin I2C boards need interface = "i2c".

Unplugging: the LED in the case lights once the box has shut down
(config.txt: dtoverlay=companion-poweroff,gpiopin=24). Unplug when it lights.

The root of this card is read-only; the box writes only to its small data
partition (the games' journal, settings, the phones' pairings, SSH's host key).
"""


def card_config_text(source: Path = SOURCE) -> str:
    """The card's /etc/companion/companion.toml: the packaged defaults with the shutdown
    button watched by the companion and the table page on the LAN."""
    text = (source / "companion/default_config.toml").read_text(encoding="utf-8")
    replaced = {'handler = "overlay"': 'handler = "companion"',
                'listen = ""': f'listen = "0.0.0.0:{CARD_WEB_PORT}"'}
    for old, new in replaced.items():
        if text.count(old) != 1:
            raise ValueError(f"default_config.toml: expected one {old!r} to change")
        text = text.replace(old, new)
    header = ("# The table companion's card (tools/pi_image/card.py): the packaged defaults with\n"
              "# the shutdown button watched by the companion (no gpio-shutdown overlay on this\n"
              "# card) and the table page on the LAN. The root is read-only: change settings in\n"
              "# companion.toml on the boot partition, which overrides this file key by key.\n\n")
    return header + text


def seed_config(root: Path, source: Path = SOURCE) -> Path:
    """Write the card's config before tools/install.py runs (which keeps a config file that is
    there, and acts on it: no overlay line, the web drop-in)."""
    config = root / "etc/companion/companion.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(card_config_text(source), encoding="utf-8")
    return config


def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)


def _link(path: Path, target: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.exists():
        path.unlink()
    path.symlink_to(target)


def add_card_parts(staging: Path, boot: Path) -> None:
    """The card's network, SSH, boot-partition settings and their units, on the staged trees."""
    etc = staging / "etc"
    system = etc / "systemd/system"
    _write(etc / "systemd/network/20-wired.network", WIRED_NETWORK)
    _write(etc / "systemd/network/25-wireless.network", WIRELESS_NETWORK)
    _link(system / "multi-user.target.wants/systemd-networkd.service",
          "/usr/lib/systemd/system/systemd-networkd.service")
    _link(system / "sockets.target.wants/systemd-networkd.socket",
          "/usr/lib/systemd/system/systemd-networkd.socket")
    # Nothing on the box waits for a network; unmasked, it would fail after 2 minutes on a
    # box with neither cable nor Wi-Fi file.
    _link(system / "systemd-networkd-wait-online.service", "/dev/null")
    # It keeps networkd's state in /var/lib/systemd/network (StateDirectory=), which the
    # read-only root cannot make: it would fail at every boot. Leases live in /run anyway.
    _link(system / "systemd-networkd-persistent-storage.service", "/dev/null")
    setup = staging / "usr/local/lib/companion-card/card_setup.py"
    setup.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(Path(__file__).with_name("card_setup.py"), setup)
    _write(system / "companion-card.service", SETUP_UNIT)
    _link(system / "multi-user.target.wants/companion-card.service",
          "/etc/systemd/system/companion-card.service")
    _write(system / "wpa_supplicant@wlan0.service.d/companion-card.conf", WPA_DROPIN)
    _write(etc / "udev/rules.d/80-companion-card-wifi.rules", WIFI_UDEV_RULE)
    _link(etc / "wpa_supplicant/wpa_supplicant-wlan0.conf",
          "/run/companion-card/wpa_supplicant-wlan0.conf")
    _write(system / "ssh.service.d/companion-card.conf", SSH_DROPIN)
    _write(etc / "ssh/sshd_config.d/companion-card.conf", SSHD_CONFIG)
    for old_key in (etc / "ssh").glob("ssh_host_*"):
        old_key.unlink()  # made by openssh-server's postinst: every card makes its own
    _write(system / "companion.service.d/card.conf", COMPANION_DROPIN)
    _write(boot / "companion.toml", BOOT_CONFIG_TEMPLATE)
    _write(boot / "wpa_supplicant.conf.example", WPA_EXAMPLE)
    _write(boot / "companion-card.txt", card_text())
    # Debian's firmware has neither Raspberry Pi overlay the box uses: the card's own.
    overlays.compile_overlays(boot)
    config_txt = boot / "config.txt"
    if config_txt.exists():
        config_txt.write_text(overlays.card_config_txt(config_txt.read_text(encoding="utf-8")),
                              encoding="utf-8")
