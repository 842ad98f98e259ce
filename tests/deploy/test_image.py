"""tools/build-image: the SD card image, read back without mounting it.

The image is built once per session by the real tool in its quick variant (`--quick`): the
same cached Debian layers, partitions, boot files, config.txt, cmdline.txt and fstab as the
flashable card, with tools/install.py's files staged by `--root` instead of a venv built under
emulation (tools/pi-boot boots the full card). The Debian layers are cached outside the
checkout; building needs root (debootstrap, files owned by the root's users): these tests
fail, never skip, without it.
The static checks' rules are also tested on made-up facts, without an image: those are in
the default run; every test that needs a built image carries @pytest.mark.card and runs only in
`sudo tools/test --card` (CI's step of its own; tests/conftest.py). The build's progress shows
live in pytest's output (tests/deploy/card_support.py).
"""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from pi_image import card, check, debian, layout  # noqa: E402

from companion import config  # noqa: E402
from tests.deploy.card_support import run_live  # noqa: E402

# Building the quick image from cold Debian layers takes about 50 minutes on 2 loaded cores
# (the module's first card test pays for it); the full card has a bound of its own below.
pytestmark = pytest.mark.timeout(2 * 3600 + 600)
needs_card = pytest.mark.card

FRAGMENT = (ROOT / "firmware_config/config.txt.fragment").read_text(encoding="utf-8")
UNIT = (ROOT / "systemd/companion.service").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def image(request):
    """The flashable image, built by tools/build-image (cached layers reused)."""
    assert os.geteuid() == 0, "building the image needs root (debootstrap): run as root"
    out = debian.cache_dir() / "test-card.img"
    status, stdout = run_live(
        request.config, "the quick SD card: tools/build-image --quick (its Debian layers: about "
        "50 minutes cold, under a minute cached)",
        [sys.executable, str(ROOT / "tools/build-image"), "--quick", "--out", str(out)],
        timeout=2 * 3600)
    assert status == 0, stdout[-6000:]
    assert "all static checks passed" in stdout
    return out


@pytest.fixture(scope="module")
def facts(image):
    return check.inspect(image)


@needs_card
def test_image_has_three_partitions_boot_root_data(image, facts):
    parts = layout.partitions(image)
    assert [(p.number, p.kind) for p in parts] == [(1, "c"), (2, "83"), (3, "83")]
    assert parts[0].start == 4 * layout.MIB
    assert all(p.start % layout.MIB == 0 for p in parts)
    assert parts[1].start == parts[0].start + parts[0].size
    assert parts[2].size == layout.DATA_MIB * layout.MIB
    assert facts.labels == {2: "RASPIROOT", 3: "COMPANION"}
    assert "RASPIFIRM" in subprocess.run(
        ["mlabel", "-s", "-i", f"{image}@@{parts[0].start}", "::"],
        capture_output=True, text=True, check=True, timeout=60).stdout


@needs_card
def test_image_boot_partition_lists_firmware_kernel_and_device_trees(facts):
    files = {f.lower() for f in facts.boot_files}
    print("boot partition:", " ".join(sorted(files)))
    assert {"config.txt", "cmdline.txt", "bootcode.bin", "start.elf", "fixup.dat",
            "start4.elf", "fixup4.dat"} <= files
    assert set(check.BOARD_DTBS.values()) <= files
    assert any(f.startswith("vmlinuz-") for f in files)
    assert any(f.startswith("initrd.img-") for f in files)


@needs_card
def test_image_config_txt_carries_the_firmware_config_block(facts):
    text = facts.config_txt
    print(text)
    settings = check.parse_config_txt(text)
    block = text[text.index(check.BEGIN):text.index(check.END)]
    # the fragment, less the overlay line: the card's companion watches the button itself
    without_overlay = "\n".join(line for line in FRAGMENT.strip().splitlines()
                                if not line.startswith("dtoverlay=gpio-shutdown"))
    assert without_overlay in block
    assert "dtoverlay=gpio-shutdown" in FRAGMENT
    assert ("all", "dtparam=i2c_arm=on") in settings
    assert ("all", "enable_uart=1") in settings
    assert any(line.startswith("kernel=vmlinuz-") for _, line in settings)
    assert any(line.startswith("initramfs initrd.img-") for _, line in settings)
    assert any(line == "arm_64bit=1" for _, line in settings)


@needs_card
def test_image_cmdline_txt_is_one_line_read_only_root_no_serial_console(facts):
    text = facts.cmdline_txt
    print(text)
    assert text.count("\n") <= 1
    words = text.split()
    assert "root=LABEL=RASPIROOT" in words
    assert "ro" in words
    assert "rw" not in words
    assert not [w for w in words if w.startswith(("console=serial", "console=ttyS",
                                                  "console=ttyAMA"))]


@needs_card
def test_image_fstab_root_read_only_data_read_write(facts):
    print(facts.fstab)
    entries = check.fstab_entries(facts.fstab)
    source, kind, options = entries["/"]
    assert (source, kind) == ("LABEL=RASPIROOT", "ext4")
    assert "ro" in options
    assert "rw" not in options
    source, kind, options = entries["/var/lib/private"]
    assert (source, kind) == ("LABEL=COMPANION", "ext4")
    assert {"rw", "data=journal", "barrier=1", "noatime"} <= set(options)
    assert "ro" in entries["/boot/firmware"][2]
    assert entries["/var/tmp"][1] == "tmpfs"


@needs_card
def test_image_root_holds_the_installers_files_and_its_real_unit(image, facts):
    root = layout.partitions(image)[1]
    print("root /:", " ".join(facts.root_top))
    assert {"etc", "usr", "var", "opt", "boot"} <= set(facts.root_top)
    assert layout.ext4_read(image, root, "/etc/systemd/system/companion.service") == UNIT
    assert "/etc/systemd/system/companion.service" in facts.unit_enabled
    assert "99-companion.rules" in layout.ext4_list(image, root, "/etc/udev/rules.d")
    assert "[serial]" in layout.ext4_read(image, root, "/etc/companion/companion.toml")
    assert '"private/companion"' in facts.state_link
    assert layout.ext4_list(image, root, "/boot/firmware") == []  # the FAT's mount point
    # tools/pi-boot's test parts never reach a flashable image: the unit's drop-ins are the
    # card's (its boot-partition config) and the table page's, not pi-boot's fake backend.
    assert "pi-boot-agent.service" not in layout.ext4_list(image, root, "/etc/systemd/system")
    assert layout.ext4_list(image, root, "/etc/systemd/system/companion.service.d") == [
        "card.conf", "web.conf"]
    assert layout.ext4_read(image, root, "/etc/machine-id") == ""


@needs_card
def test_image_data_partition_is_empty_and_private(image, facts):
    data = layout.partitions(image)[2]
    assert facts.data_top == ["lost+found"]
    stat = layout.ext4_stat(image, data, "/")
    assert "Mode:  0700" in stat


@needs_card
def test_image_passes_every_static_check(facts):
    assert check.problems(facts) == []


# -- the card's promises, read back from the image ----------------------------------------------


@needs_card
def test_image_boot_partition_holds_the_files_a_person_edits(image, facts):
    boot = layout.partitions(image)[0]
    print("boot partition:", " ".join(facts.boot_files))
    assert {"companion.toml", "companion-card.txt", "wpa_supplicant.conf.example"} <= set(
        facts.boot_files)
    # Never a network or a key of its own: those are the maker's to write.
    assert "wpa_supplicant.conf" not in facts.boot_files
    assert "authorized_keys" not in facts.boot_files
    boot_config = layout.fat_read(image, boot, "companion.toml")
    assert tomllib.loads(boot_config) == {}  # every line a comment until a person changes one
    # each commented setting, once uncommented, is one the companion accepts
    uncommented = "\n".join(line.removeprefix("# ") for line in boot_config.splitlines()
                            if re.match(r"# (\[\w+\]$|\w+ = )", line))
    merged = config.merge(config.defaults(), tomllib.loads(uncommented), "companion.toml")
    assert merged["display"]["driver"] == "ssd1309"
    example = layout.fat_read(image, boot, "wpa_supplicant.conf.example")
    assert "network={" in example and "ssid=" in example and "country=" in example


@needs_card
def test_image_network_configuration_brings_up_any_interface_by_dhcp(image, facts):
    root = layout.partitions(image)[1]
    assert layout.ext4_list(image, root, "/etc/systemd/network") == [
        "20-wired.network", "25-wireless.network"]
    wired = layout.ext4_read(image, root, "/etc/systemd/network/20-wired.network")
    wireless = layout.ext4_read(image, root, "/etc/systemd/network/25-wireless.network")
    assert "Type=ether" in wired and "DHCP=yes" in wired
    assert "Type=wlan" in wireless and "DHCP=yes" in wireless
    wants = facts.enabled["/etc/systemd/system/multi-user.target.wants"]
    assert {"systemd-networkd.service", "companion-card.service", "companion.service"} <= set(
        wants)
    for masked in ("systemd-networkd-wait-online.service",
                   "systemd-networkd-persistent-storage.service"):
        assert '"/dev/null"' in layout.ext4_stat(image, root, f"/etc/systemd/system/{masked}")
    # Wi-Fi and SSH come from the boot partition, through /run (the root is read-only)
    assert '"/run/companion-card/wpa_supplicant-wlan0.conf"' in layout.ext4_stat(
        image, root, "/etc/wpa_supplicant/wpa_supplicant-wlan0.conf")
    setup = layout.ext4_read(image, root, "/usr/local/lib/companion-card/card_setup.py")
    assert setup == (ROOT / "tools/pi_image/card_setup.py").read_text(encoding="utf-8")
    assert "ConditionPathExists=/run/companion-card/authorized_keys" in layout.ext4_read(
        image, root, "/etc/systemd/system/ssh.service.d/companion-card.conf")
    sshd = layout.ext4_read(image, root, "/etc/ssh/sshd_config.d/companion-card.conf")
    assert "PasswordAuthentication no" in sshd
    assert "HostKey /var/lib/private/card/ssh/" in sshd


@needs_card
def test_image_shutdown_button_is_watched_by_the_companion(image, facts):
    root = layout.partitions(image)[1]
    settings = tomllib.loads(layout.ext4_read(image, root, "/etc/companion/companion.toml"))
    assert settings["shutdown"] == {"pin": 21, "handler": "companion", "hold_ms": 1500}
    # no overlay line for a file the card does not have; the companion's power-off may ask logind
    assert not [line for line in facts.config_txt.splitlines() if "gpio-shutdown" in line
                and not line.startswith("#")]
    assert check.missing_overlays(facts) == []
    assert "org.freedesktop.login1.power-off" in layout.ext4_read(
        image, root, "/etc/polkit-1/rules.d/50-companion-poweroff.rules")
    # the same pin as the wiring (hardware/pinmap.toml)
    pinmap = tomllib.loads((ROOT / "hardware/pinmap.toml").read_text(encoding="utf-8"))
    wires = pinmap["parts"]["shutdown"]["wires"]
    assert [w["bcm"] for w in wires if w.get("config") == "shutdown.pin"] == [21]


@needs_card
def test_image_states_the_boards_it_is_for_and_carries_their_device_trees(image, facts):
    text = facts.boot_card["companion-card.txt"]
    print(text)
    files = {f.lower() for f in facts.boot_files}
    for board, (dtb, _wifi) in card.BOARDS.items():
        assert board in text
        assert dtb in files
    assert "Not for:\n  - Raspberry Pi 5\n" in text
    # Debian's kernel package ships a Pi 5 device tree, but the kernel has no driver for the
    # RP1 chip that carries the Pi 5's GPIO header: the reason the card is not for it.
    root = layout.partitions(image)[1]
    configs = [n for n in layout.ext4_list(image, root, "/boot") if n.startswith("config-")]
    kernel_config = layout.ext4_read(image, root, f"/boot/{configs[-1]}")
    assert "CONFIG_ARCH_BCM2835=y" in kernel_config  # the Pi 3, 4 and Zero 2 W's SoC family
    assert "RP1" not in kernel_config.upper()
    assert "RP1" in text
    image_md = (ROOT / "hardware/image.md").read_text(encoding="utf-8")
    for board, (dtb, _wifi) in card.BOARDS.items():
        assert f"| {board} | `{dtb}` |" in image_md


# -- the static checks' rules, on made-up facts ------------------------------------------------

GOOD_CONFIG = """\
# generated
[pi4]
arm_boost=1
[all]
arm_64bit=1
kernel=vmlinuz-6.12.0-1-arm64
initramfs initrd.img-6.12.0-1-arm64 followkernel

# >>> table companion: added by tools/install.py, removed by --uninstall >>>
[all]
dtparam=i2c_arm=on
# <<< table companion <<<
"""


def _facts(**changes):
    boot_files = ["config.txt", "cmdline.txt", "bootcode.bin", "start.elf", "fixup.dat",
                  "start4.elf", "fixup4.dat", "vmlinuz-6.12.0-1-arm64",
                  "initrd.img-6.12.0-1-arm64", *check.BOARD_DTBS.values()]
    facts = check.ImageFacts(
        parts=[layout.Partition(1, 4 << 20, 256 << 20, "c", "RASPIFIRM"),
               layout.Partition(2, 260 << 20, 1 << 30, "83", "RASPIROOT"),
               layout.Partition(3, 1284 << 20, 64 << 20, "83", "COMPANION")],
        boot_files=boot_files, overlays=[], root_top=["etc"], data_top=["lost+found"],
        labels={2: "RASPIROOT", 3: "COMPANION"}, config_txt=GOOD_CONFIG,
        cmdline_txt="console=tty0 root=LABEL=RASPIROOT ro rootwait\n",
        fstab=layout.FSTAB,
        unit_enabled='Type: symlink\nFast link dest: "/etc/systemd/system/companion.service"',
        state_link='Type: symlink\nFast link dest: "private/companion"',
        boot_card=dict(GOOD_BOOT_CARD), root_card=dict(GOOD_ROOT_CARD),
        enabled={folder: list(names) for folder, names in GOOD_ENABLED.items()})
    for key, value in changes.items():
        setattr(facts, key, value)
    return facts


# The card's parts as card.py writes them (the image tests above read the real ones back).
GOOD_BOOT_CARD = {"companion.toml": card.BOOT_CONFIG_TEMPLATE,
                  "companion-card.txt": card.card_text(),
                  "wpa_supplicant.conf.example": card.WPA_EXAMPLE}
GOOD_ROOT_CARD = {path: "# a file\n" for path in check.ROOT_CARD_FILES} | {
    "/etc/companion/companion.toml": card.card_config_text(),
    "/etc/ssh/sshd_config.d/companion-card.conf": card.SSHD_CONFIG}
GOOD_ENABLED = {
    "/etc/systemd/system/multi-user.target.wants": [
        "companion.service", "companion-card.service", "systemd-networkd.service"],
    "/etc/systemd/system/sockets.target.wants": ["systemd-networkd.socket"],
    "/etc/systemd/system": ["companion.service", "systemd-networkd-wait-online.service",
                            "systemd-networkd-persistent-storage.service"],
    "/etc/ssh": ["sshd_config", "sshd_config.d"],
}


def _without(mapping, key):
    return {k: v for k, v in mapping.items() if k != key}


@pytest.mark.parametrize(("changes", "complaint"), [
    ({"boot_card": _without(GOOD_BOOT_CARD, "companion.toml")},
     "boot partition: no companion.toml"),
    ({"boot_card": GOOD_BOOT_CARD | {"companion.toml": "[display]\ndriver = 'sh1106'\n"}},
     "companion.toml sets keys"),
    ({"boot_card": GOOD_BOOT_CARD | {"companion-card.txt": "THE CARD\nNot for: nothing\n"}},
     "does not name Raspberry Pi Zero 2 W"),
    ({"boot_card": GOOD_BOOT_CARD | {"companion-card.txt": card.card_text().replace(
        "Raspberry Pi 5", "Raspberry Pi 6")}}, "not for Raspberry Pi 5"),
    ({"root_card": GOOD_ROOT_CARD | {"/etc/systemd/network/20-wired.network": ""}},
     "20-wired.network missing"),
    ({"root_card": GOOD_ROOT_CARD | {"/etc/companion/companion.toml": card.card_config_text(
        ).replace('handler = "companion"', 'handler = "overlay"')}}, "shutdown: the card's"),
    ({"config_txt": GOOD_CONFIG + "dtoverlay=gpio-shutdown,gpio_pin=21\n"},
     "asks for the gpio-shutdown overlay"),
    ({"root_card": GOOD_ROOT_CARD | {"/etc/companion/companion.toml": card.card_config_text(
        ).replace('listen = "0.0.0.0:8080"', 'listen = ""')}}, "the table page is not on"),
    ({"enabled": GOOD_ENABLED | {"/etc/systemd/system/multi-user.target.wants": [
        "companion.service", "companion-card.service"]}}, "systemd-networkd.service is not"),
    ({"enabled": GOOD_ENABLED | {"/etc/systemd/system": ["companion.service"]}},
     "wait-online.service is not masked"),
    ({"enabled": GOOD_ENABLED | {"/etc/systemd/system": [
        "systemd-networkd-wait-online.service"]}}, "persistent-storage.service is not masked"),
    ({"enabled": GOOD_ENABLED | {"/etc/ssh": ["ssh_host_ed25519_key", "sshd_config"]}},
     "an SSH host key baked into the image"),
    ({"root_card": GOOD_ROOT_CARD | {"/etc/ssh/sshd_config.d/companion-card.conf": "# empty\n"}},
     "sshd is not key-only"),
])
def test_static_checks_name_each_missing_card_promise(changes, complaint):
    found = check.problems(_facts(**changes))
    assert any(complaint in problem for problem in found), found


def test_static_checks_accept_a_good_card():
    assert check.problems(_facts()) == []


@pytest.mark.parametrize(("changes", "complaint"), [
    ({"boot_files": ["config.txt"]}, "device tree bcm2711-rpi-4-b.dtb missing"),
    ({"config_txt": GOOD_CONFIG.replace("kernel=vmlinuz-6.12.0-1-arm64", "kernel=Image")},
     "kernel=Image: not on the boot partition"),
    ({"config_txt": GOOD_CONFIG + "this is not a setting\n"}, "not a setting"),
    ({"config_txt": GOOD_CONFIG + "[pi9000x\n"}, "unknown section"),
    ({"config_txt": GOOD_CONFIG.split("# >>>", maxsplit=1)[0]}, "lacks the companion's block"),
    ({"cmdline_txt": "root=LABEL=RASPIROOT ro\nrootwait\n"}, "not one line"),
    ({"cmdline_txt": "root=/dev/mmcblk0p2 ro rootwait\n"}, "does not boot root=LABEL"),
    ({"cmdline_txt": "root=LABEL=RASPIROOT rw rootwait\n"}, "read-only"),
    ({"cmdline_txt": "console=ttyS1,115200 root=LABEL=RASPIROOT ro\n"}, "serial port"),
    ({"fstab": layout.FSTAB.replace("ro,noatime,errors", "rw,noatime,errors")},
     "the root is not"),
    ({"fstab": layout.FSTAB.replace(layout.DATA_OPTIONS, "ro,noatime")}, "is not LABEL"),
    ({"unit_enabled": "File not found by ext2_lookup"}, "not enabled"),
    ({"state_link": "Type: directory"}, "does not lead to the data partition"),
    ({"labels": {2: "ROOT", 3: "COMPANION"}}, "file system labels"),
])
def test_static_checks_name_each_fault(changes, complaint):
    found = check.problems(_facts(**changes))
    assert any(complaint in problem for problem in found), found


@pytest.mark.parametrize(("text", "settings"), [
    ("a=1\n", [("all", "a=1")]),
    ("[pi4]\nb=2\n[all]\nc=3\n", [("pi4", "b=2"), ("all", "c=3")]),
    ("# comment\n\n[cm4]\notg_mode=1\n", [("cm4", "otg_mode=1")]),
    ("initramfs initrd.img followkernel\n", [("all", "initramfs initrd.img followkernel")]),
])
def test_parse_config_txt_reads_sections_and_settings(text, settings):
    assert check.parse_config_txt(text) == settings


@pytest.mark.parametrize(("overlays", "missing"), [
    ([], ["gpio-shutdown"]),
    (["gpio-shutdown.dtbo", "README.md"], []),
])
def test_missing_overlays_names_dtoverlays_without_their_file(overlays, missing):
    config = GOOD_CONFIG + "dtoverlay=gpio-shutdown,gpio_pin=21,active_low=1\n"
    assert check.missing_overlays(_facts(config_txt=config, overlays=overlays)) == missing


# The full (flashable) variant: the companion layer, with tools/install.py's venv built inside
# under qemu-user. Building that layer takes 10-20 minutes on 2 shared cores, so these run when
# it is already cached for this checkout (after `sudo tools/pi-boot` or `sudo tools/build-image`)
# or when COMPANION_PI_BOOT=1 asks; otherwise they are left out of the run (tests/conftest.py).
FULL_READY = (os.environ.get("COMPANION_PI_BOOT") == "1"
              or debian.companion_layer_cached() is not None)
needs_full_layer = pytest.mark.full_system(ready=FULL_READY)


@pytest.fixture(scope="module")
def full_image(request):
    """The flashable image, built by tools/build-image without --quick."""
    assert os.geteuid() == 0, "building the image needs root (debootstrap): run as root"
    out = debian.cache_dir() / "test-card-full.img"
    status, stdout = run_live(
        request.config, "the flashable SD card: tools/build-image (the companion layer: "
        "10-20 minutes when cold)",
        [sys.executable, str(ROOT / "tools/build-image"), "--out", str(out)],
        timeout=3 * 3600)
    assert status == 0, stdout[-6000:]
    assert "all static checks passed" in stdout
    yield out
    out.unlink(missing_ok=True)


@needs_card
@needs_full_layer
@pytest.mark.timeout(3 * 3600 + 600)
def test_full_image_passes_every_static_check_and_holds_the_installers_venv(full_image):
    facts = check.inspect(full_image)
    assert check.problems(facts) == []
    root = layout.partitions(full_image)[1]
    venv_bin = layout.ext4_list(full_image, root, "/opt/companion/venv/bin")
    print("venv bin:", " ".join(venv_bin))
    assert {"companion", "python3"} <= set(venv_bin)
    assert "include-system-site-packages = true" in layout.ext4_read(
        full_image, root, "/opt/companion/venv/pyvenv.cfg")
    # lgpio for the system's python3, where python3-lgpio would put it; the venv sees it.
    assert any(name.startswith("lgpio") for name in layout.ext4_list(
        full_image, root, "/usr/local/lib/python3.13/dist-packages"))
    site = layout.ext4_list(full_image, root, "/opt/companion/venv/lib/python3.13/site-packages")
    assert "companion" in site and "gpiozero" in site
    assert layout.ext4_read(full_image, root, "/etc/systemd/system/companion.service") == UNIT
    assert "/etc/systemd/system/companion.service" in facts.unit_enabled
    # the card's network: Wi-Fi and sshd, each board's Wi-Fi settings file, no host key baked in
    sbin = layout.ext4_list(full_image, root, "/usr/sbin")
    assert {"wpa_supplicant", "sshd"} <= set(sbin)
    firmware = set(layout.ext4_list(full_image, root, "/usr/lib/firmware/brcm"))
    assert set(card.WIFI_NVRAM.values()) <= firmware, set(card.WIFI_NVRAM.values()) - firmware
    assert {"brcmfmac43430-sdio.bin", "brcmfmac43455-sdio.bin"} <= firmware
    assert "regulatory.db" in layout.ext4_list(full_image, root, "/usr/lib/firmware")
    assert not [n for n in layout.ext4_list(full_image, root, "/etc/ssh")
                if n.startswith("ssh_host_")]
    # the companion's power-off asks logind, which asks polkit (the shutdown button's path)
    assert "polkitd" in layout.ext4_list(full_image, root, "/usr/lib/polkit-1")
    # nothing of tools/pi-boot, and no user-site install (the old proot fault)
    assert "pi-boot-agent.service" not in layout.ext4_list(full_image, root,
                                                           "/etc/systemd/system")
    assert ".local" not in layout.ext4_list(full_image, root, "/root")
