"""Static checks of a built SD image: what can be known about a board's boot without the board.

Promises:
- `inspect` reads an image back without mounting it (layout's readers) and returns a report:
  the partition table, a file listing of each partition, config.txt, cmdline.txt and fstab.
- `problems` lists everything that would stop a Pi 3, Pi 4 or Zero 2 W from booting this image
  that can be seen in the files: a missing device tree, a config.txt line the firmware would
  not understand or a kernel/initramfs it names that is not on the card, a cmdline.txt that is
  not one line or names another root, the companion's firmware block missing, an fstab that
  mounts the root read-write or the data partition read-only, the unit not enabled; and
  everything that would leave a maker without the card's promises (`card_problems`): the
  boot partition's files (companion.toml, the Wi-Fi example, companion-card.txt naming the
  boards it is for and not for), the network (networkd's files and units, the setup unit,
  sshd key-only with no host key baked in) and the shutdown path (the companion watching the
  button, no gpio-shutdown overlay line, the polkit rule for its power-off). An empty list
  means every static check passed; the firmware's own boot is not among them (see
  docs/pi-image.md: it needs a board).
"""

from __future__ import annotations

import contextlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pi_image import card
from pi_image.debian import BOOT_LABEL, DATA_LABEL, ROOT_LABEL
from pi_image.layout import (
    DATA_MOUNT,
    Partition,
    ext4_label,
    ext4_list,
    ext4_read,
    ext4_stat,
    fat_list,
    fat_read,
    partitions,
)

# The device trees the Pi's firmware loads for each board this image is for (upstream kernel
# names, as Debian's linux-image-arm64 ships them and raspi-firmware copies them).
BOARD_DTBS = {board: dtb for board, (dtb, _wifi) in card.BOARDS.items()}
# The firmware files each board family starts from (GPU bootloader, its memory map).
FIRMWARE = {"Pi 3 / Zero 2 W": ("bootcode.bin", "start.elf", "fixup.dat"),
            "Pi 4": ("start4.elf", "fixup4.dat")}
CONFIG_SECTIONS = re.compile(r"^\[(all|none|pi[0-9a-z0-9]*|cm[0-9a-z]*|board-type=.*|"
                             r"gpio[0-9]+=[01]|0x[0-9a-fA-F]+|EDID=.*|HDMI:[01]|tryboot)\]$")
CONFIG_LINE = re.compile(r"^(?:[a-z_0-9]+=.*|initramfs \S+(?: (?:followkernel|0x[0-9a-f]+))?|"
                         r"include \S+)$")
BEGIN = "# >>> table companion: added by tools/install.py"
END = "# <<< table companion <<<"


@dataclass
class ImageFacts:
    """What an image holds, read back from it."""

    parts: list[Partition]
    boot_files: list[str]
    overlays: list[str]
    root_top: list[str]
    data_top: list[str]
    labels: dict[int, str]
    config_txt: str
    cmdline_txt: str
    fstab: str
    unit_enabled: str
    state_link: str
    # The card's parts: boot partition files (name -> text) and root files (path -> text,
    # "" when absent), and the names in the folders that enable units.
    boot_card: dict[str, str] = field(default_factory=dict)
    root_card: dict[str, str] = field(default_factory=dict)
    enabled: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


# The card's files read back from the boot partition and from the root.
BOOT_CARD_FILES = ("companion.toml", "companion-card.txt", "wpa_supplicant.conf.example")
ROOT_CARD_FILES = (
    "/etc/companion/companion.toml", "/etc/systemd/network/20-wired.network",
    "/etc/systemd/network/25-wireless.network", "/etc/systemd/system/companion-card.service",
    "/usr/local/lib/companion-card/card_setup.py",
    "/etc/systemd/system/wpa_supplicant@wlan0.service.d/companion-card.conf",
    "/etc/udev/rules.d/80-companion-card-wifi.rules",
    "/etc/systemd/system/ssh.service.d/companion-card.conf",
    "/etc/ssh/sshd_config.d/companion-card.conf",
    "/etc/systemd/system/companion.service.d/card.conf",
    "/etc/systemd/system/companion.service.d/web.conf",
    "/etc/polkit-1/rules.d/50-companion-poweroff.rules",
)
ENABLING = ("/etc/systemd/system/multi-user.target.wants",
            "/etc/systemd/system/sockets.target.wants", "/etc/systemd/system", "/etc/ssh")


def inspect(image: Path) -> ImageFacts:
    """Read the image's table, listings and key files (nothing is mounted)."""
    parts = partitions(image)
    boot, root, data = parts[0], parts[1], parts[2]
    boot_files = fat_list(image, boot)
    overlays = fat_list(image, boot, "/overlays") if "overlays" in boot_files else []
    return ImageFacts(
        parts=parts, boot_files=boot_files, overlays=overlays,
        root_top=ext4_list(image, root), data_top=ext4_list(image, data),
        labels={2: ext4_label(image, root), 3: ext4_label(image, data)},
        config_txt=fat_read(image, boot, "config.txt"),
        cmdline_txt=fat_read(image, boot, "cmdline.txt"),
        fstab=ext4_read(image, root, "/etc/fstab"),
        unit_enabled=ext4_stat(image, root,
                               "/etc/systemd/system/multi-user.target.wants/companion.service"),
        state_link=ext4_stat(image, root, "/var/lib/companion"),
        boot_card={name: fat_read(image, boot, name) for name in BOOT_CARD_FILES
                   if name in boot_files},
        # debugfs prints nothing on standard output for a path that is not there: ""
        root_card={path: ext4_read(image, root, path) for path in ROOT_CARD_FILES},
        enabled={folder: ext4_list(image, root, folder) for folder in ENABLING})


def parse_config_txt(text: str) -> list[tuple[str, str]]:
    """(section, line) for every setting line; ValueError names a line the firmware would
    not read (config.txt is `key=value`, `initramfs FILE followkernel`, `[filter]` lines)."""
    section = "all"
    settings = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if not CONFIG_SECTIONS.match(line):
                raise ValueError(f"config.txt line {number}: unknown section {line}")
            section = line[1:-1]
            continue
        if not CONFIG_LINE.match(line):
            raise ValueError(f"config.txt line {number}: not a setting: {line}")
        settings.append((section, line))
    return settings


def fstab_entries(text: str) -> dict[str, tuple[str, str, list[str]]]:
    """mount point -> (source, type, options) from fstab text."""
    entries = {}
    for raw in text.splitlines():
        fields = raw.split()
        if len(fields) >= 4 and not fields[0].startswith("#"):
            entries[fields[1]] = (fields[0], fields[2], fields[3].split(","))
    return entries


def problems(facts: ImageFacts) -> list[str]:
    """Every static reason this image would not boot the companion on its boards."""
    found: list[str] = []
    names = [p.label for p in facts.parts]
    if names != [BOOT_LABEL, ROOT_LABEL, DATA_LABEL] or facts.parts[0].kind != "c":
        found.append(f"partition table: {facts.parts}")
    if facts.labels != {2: ROOT_LABEL, 3: DATA_LABEL}:
        found.append(f"file system labels: {facts.labels}")
    lower = {f.lower() for f in facts.boot_files}
    for board, dtb in BOARD_DTBS.items():
        if dtb not in lower:
            found.append(f"{board}: device tree {dtb} missing from the boot partition")
    for family, files in FIRMWARE.items():
        found += [f"{family}: firmware file {f} missing" for f in files if f not in lower]
    try:
        settings = parse_config_txt(facts.config_txt)
    except ValueError as exc:
        found.append(str(exc))
        settings = []
    for section, line in settings:
        key, _, value = line.partition("=")
        if key == "kernel" and value.lower() not in lower:
            found.append(f"config.txt [{section}] kernel={value}: not on the boot partition")
        if line.startswith("initramfs ") and line.split()[1].lower() not in lower:
            found.append(f"config.txt [{section}] {line}: initrd not on the boot partition")
    if not any(key.startswith("kernel=") for _, key in settings):
        found.append("config.txt names no kernel")
    if BEGIN not in facts.config_txt or END not in facts.config_txt:
        found.append("config.txt lacks the companion's block (firmware_config/)")
    cmdline = facts.cmdline_txt
    if cmdline.count("\n") > 1 or not cmdline.strip():
        found.append("cmdline.txt is not one line")
    words = cmdline.split()
    if f"root=LABEL={ROOT_LABEL}" not in words:
        found.append(f"cmdline.txt does not boot root=LABEL={ROOT_LABEL}")
    if "ro" not in words or "rw" in words:
        found.append("cmdline.txt does not mount the root read-only")
    found += [f"cmdline.txt: a kernel console on a serial port ({w})" for w in words
              if re.match(r"console=(serial|ttyS|ttyAMA)", w)]
    fstab = fstab_entries(facts.fstab)
    root = fstab.get("/")
    if root is None or root[0] != f"LABEL={ROOT_LABEL}" or "ro" not in root[2]:
        found.append(f"fstab: the root is not LABEL={ROOT_LABEL} read-only: {root}")
    data = fstab.get(DATA_MOUNT)
    if data is None or data[0] != f"LABEL={DATA_LABEL}" or "rw" not in data[2]:
        found.append(f"fstab: {DATA_MOUNT} is not LABEL={DATA_LABEL} read-write: {data}")
    if "companion.service" not in facts.unit_enabled or "symlink" not in facts.unit_enabled:
        found.append("companion.service is not enabled (multi-user.target.wants)")
    if '"private/companion"' not in facts.state_link:
        found.append("/var/lib/companion does not lead to the data partition")
    return found + card_problems(facts)


def card_problems(facts: ImageFacts) -> list[str]:
    """What would leave a maker without the card's promises: settings on the boot partition,
    a network and SSH, the shutdown button, a plain word on the boards it is for."""
    found = [f"boot partition: no {name}" for name in BOOT_CARD_FILES
             if not facts.boot_card.get(name, "").strip()]
    try:
        if tomllib.loads(facts.boot_card.get("companion.toml", "")):
            found.append("boot partition: companion.toml sets keys (it ships all comments)")
    except tomllib.TOMLDecodeError as exc:
        found.append(f"boot partition: companion.toml is not TOML: {exc}")
    text = facts.boot_card.get("companion-card.txt", "")
    found += [f"companion-card.txt does not name {board}" for board in card.BOARDS
              if board not in text]
    found += [f"companion-card.txt does not say the card is not for {board}"
              for board in card.NOT_FOR if board not in text.split("Not for:")[-1]]
    missing = [path for path in ROOT_CARD_FILES if not facts.root_card.get(path, "").strip()]
    found += [f"root: {path} missing" for path in missing]
    config = facts.root_card.get("/etc/companion/companion.toml", "")
    try:
        settings = tomllib.loads(config)
    except tomllib.TOMLDecodeError as exc:
        settings = {}
        found.append(f"root: /etc/companion/companion.toml is not TOML: {exc}")
    if settings.get("shutdown", {}).get("handler") != "companion":
        found.append("shutdown: the card's config does not have the companion watch the button "
                     "(shutdown.handler = \"companion\"), and the card has no overlay for it")
    if any(line.startswith("dtoverlay=gpio-shutdown") for line in facts.config_txt.splitlines()):
        found.append("shutdown: config.txt asks for the gpio-shutdown overlay, which is not on "
                     "the card, beside the companion's own watch")
    port = f":{card.CARD_WEB_PORT}"
    if not str(settings.get("web", {}).get("listen", "")).endswith(port):
        found.append(f"the table page is not on the LAN: [web] listen is not *{port}")
    wants = facts.enabled.get("/etc/systemd/system/multi-user.target.wants", [])
    found += [f"{unit} is not enabled" for unit in ("systemd-networkd.service",
                                                    "companion-card.service") if unit not in wants]
    if "systemd-networkd.socket" not in facts.enabled.get(
            "/etc/systemd/system/sockets.target.wants", []):
        found.append("systemd-networkd.socket is not enabled")
    found += [f"{unit} is not masked (it would fail on the read-only root or wait for "
              "nothing)" for unit in ("systemd-networkd-wait-online.service",
                                      "systemd-networkd-persistent-storage.service")
              if unit not in facts.enabled.get("/etc/systemd/system", [])]
    found += [f"root: an SSH host key baked into the image: /etc/ssh/{name}"
              for name in facts.enabled.get("/etc/ssh", []) if name.startswith("ssh_host_")]
    sshd = facts.root_card.get("/etc/ssh/sshd_config.d/companion-card.conf", "")
    if "PasswordAuthentication no" not in sshd:
        found.append("sshd is not key-only")
    return found


def overlay_problems(facts: ImageFacts) -> list[str]:
    """The card's own overlays (overlays.py): config.txt names companion-spi0 and
    companion-poweroff, their .dtbo files are in overlays/, and no Raspberry Pi overlay the
    card does not carry (spi0-1cs, gpio-poweroff) is asked for instead."""
    found: list[str] = []
    try:
        lines = [line for _, line in parse_config_txt(facts.config_txt)]
    except ValueError:
        return found  # problems() names a config.txt it cannot read
    have = {o.lower() for o in facts.overlays}
    for name, says in (("companion-spi0", "SPI0 for the 7-pin SSD1309"),
                       ("companion-poweroff", "the LED that shows when to unplug")):
        if not any(line.startswith(f"dtoverlay={name}") for line in lines):
            found.append(f"config.txt: no dtoverlay={name} ({says})")
        if f"{name}.dtbo" not in have:
            found.append(f"overlays/{name}.dtbo missing ({says})")
    found += [f"config.txt asks for {line.split(',')[0]}, which is not on the card (the card's "
              "own overlay does that job)" for line in lines
              if line.startswith(("dtoverlay=spi0-1cs", "dtoverlay=gpio-poweroff"))]
    return found


def missing_overlays(facts: ImageFacts) -> list[str]:
    """dtoverlay= names in config.txt with no overlays/NAME.dtbo on the card: the firmware
    skips them (a board-side effect that is lost, not a boot failure)."""
    names = [line.partition("=")[2].split(",")[0] for _, line in
             parse_config_txt(facts.config_txt) if line.startswith("dtoverlay=")]
    have = {o.lower() for o in facts.overlays}
    return [n for n in names if f"{n.lower()}.dtbo" not in have]


def report(image: Path, facts: ImageFacts) -> str:
    """A readable account of the image (tools/build-image --check prints it)."""
    lines = [f"image {image} ({image.stat().st_size // 2**20} MiB)", "partitions:"]
    lines += [f"  {p.number}: {p.label:<10} type {p.kind:<3} start {p.start // 2**20:>5} MiB"
              f"  size {p.size // 2**20:>5} MiB" for p in facts.parts]
    lines.append(f"boot partition ({len(facts.boot_files)} entries): "
                 + " ".join(facts.boot_files))
    if facts.overlays:
        lines.append(f"  overlays/ ({len(facts.overlays)}): {' '.join(facts.overlays[:12])} ...")
    lines.append(f"root partition /: {' '.join(facts.root_top)}")
    lines.append(f"data partition /: {' '.join(facts.data_top) or '(empty)'}")
    lines += ["config.txt:", *("  " + x for x in facts.config_txt.splitlines())]
    lines += ["cmdline.txt:", "  " + facts.cmdline_txt.strip()]
    lines += ["fstab:", *("  " + x for x in facts.fstab.splitlines() if not x.startswith("#"))]
    with contextlib.suppress(ValueError):
        lines += [f"NOTE: config.txt asks for dtoverlay={name}, but overlays/{name}.dtbo is "
                  "not on the card (Debian's raspi-firmware ships few overlays): the firmware "
                  "skips it" for name in missing_overlays(facts)]
    return "\n".join(lines)
