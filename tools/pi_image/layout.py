"""The SD card: a FAT boot partition, a read-only ext4 root, a small ext4 data partition.

Promises:
- `stage_root` copies the companion layer and adds what makes it an appliance: an fstab with
  the root read-only and the data partition read-write with power-cut-safe options (`FSTAB`),
  the service's state directory on the data partition (/var/lib/private, where systemd keeps a
  DynamicUser's StateDirectory; /var/lib/companion links there), logs in RAM, an empty
  machine-id (a new one each boot on a read-only root), no first-boot prompts; and the card's
  network, SSH and boot-partition settings (`card.add_card_parts`).
- `build_disk` writes the image WITHOUT mounting anything or using loop devices: each file
  system is made in its own file (`mkfs.vfat -C` then `mcopy`; `mke2fs -d`), the partition
  table is written by `sfdisk` into the image file, and each file system is copied to its
  offset with `dd conv=notrunc`. An MBR ("dos") table, which every Pi's firmware reads.
- `read_disk` reads an image back the same way (sfdisk --json, mtools, debugfs at an
  offset), for the tests and for `tools/build-image --check`.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pi_image import card
from pi_image.debian import (
    BOOT_LABEL,
    DATA_LABEL,
    ROOT_LABEL,
    SOURCE,
    BuildError,
    Clock,
    cache_dir,
    cache_lock,
    companion_root,
    copy_tree,
    ensure_host_tools,
    os_root,
    run,
)

MIB = 1 << 20
SECTOR = 512
FIRST_MIB = 4          # the first partition starts at 4 MiB (erase-block aligned)
BOOT_MIB = 256         # kernel, initrd, device trees, firmware: about 90 MB used
DATA_MIB = 64          # the journal, settings and tokens: a few MB; room for years of games
DISK_ID = "0x7ab1ec0d"  # fixed, so two builds of the same inputs have the same table
DATA_MOUNT = "/var/lib/private"

# Power-cut safety. The root and the boot partition are never written while the box runs.
# The data partition: SQLite fsyncs every journal write (synchronous=FULL); barrier=1 makes
# an fsync reach the card before it returns; data=journal journals file contents too, so a
# file replaced by rename (settings, tokens) is either old or new after a cut; noatime stops
# writes on reads; errors=remount-ro stops writing to a damaged file system (the box shows
# SAVE! and keeps playing from memory). fsck (pass 2) repairs it at the next boot.
DATA_OPTIONS = "rw,nosuid,nodev,noexec,noatime,data=journal,barrier=1,errors=remount-ro"
FSTAB = f"""\
# The table companion's SD card (tools/build-image). The root and the boot partition are
# read-only: the box writes only to the data partition ({DATA_MOUNT}, the service's state:
# journal, settings, tokens), mounted with options that keep an fsync'd write through a power cut.
# <file system>  <mount point>  <type>  <options>  <dump>  <pass>
LABEL={ROOT_LABEL}  /  ext4  ro,noatime,errors=remount-ro  0  1
LABEL={BOOT_LABEL}  /boot/firmware  vfat  ro,nofail,noatime,umask=0022  0  2
LABEL={DATA_LABEL}  {DATA_MOUNT}  ext4  {DATA_OPTIONS}  0  2
tmpfs  /tmp  tmpfs  rw,nosuid,nodev,size=32m,mode=1777  0  0
tmpfs  /var/tmp  tmpfs  rw,nosuid,nodev,size=16m,mode=1777  0  0
"""

JOURNALD = """\
# The root is read-only: the system log lives in RAM (journalctl -b). The game's own journal is
# on the data partition.
[Journal]
Storage=volatile
RuntimeMaxUse=16M
"""

QEMU_DROPIN = """\
# tools/pi-boot only (never in a flashable image): the emulated board has no GPIO, I2C or OLED,
# so the fake backend stands in for them; everything else in the unit is as shipped (the table
# page as the card's config says: [web] listen, with the web drop-in).
[Service]
ExecStart=
ExecStart=/opt/companion/venv/bin/companion run --backend fake
"""

AGENT_UNIT = """\
# tools/pi-boot only (never in a flashable image): answers the host's checks on /dev/hvc1.
[Unit]
Description=tools/pi-boot check agent (virtio console hvc1)
DefaultDependencies=no
BindsTo=dev-hvc1.device
After=dev-hvc1.device systemd-udevd.service
StartLimitIntervalSec=0

[Service]
ExecStart=/usr/bin/python3 /usr/local/lib/pi-boot-agent.py /dev/hvc1
Restart=always
RestartSec=1s

[Install]
WantedBy=multi-user.target
"""


@dataclass(frozen=True)
class Partition:
    """One partition: its number, start and size in bytes, MBR type, and label."""

    number: int
    start: int
    size: int
    kind: str
    label: str


def _du_mib(path: Path) -> int:
    out = run(["du", "-s", "--block-size=1M", "--one-file-system", str(path)], timeout=600)
    return int(out.split()[0])


def stage_root(layer: Path, staging: Path, clock: Clock, *, qemu: bool = False,
               before: Callable[[Path, Clock], None] | None = None,
               boot_files: Mapping[str, str] | None = None) -> Path:
    """The root partition's tree (and, beside it, the boot partition's), from `layer`.

    Returns the boot tree (staging/../boot). `before` runs on the copy first; with `qemu`,
    tools/pi-boot's test parts are added, and `boot_files` (name -> text: what a person would
    write on the boot partition) are put on the boot partition."""
    boot = staging.with_name("boot")
    with clock.step(f"stage the root (copy of {layer.name})"):
        copy_tree(layer, staging)
    if before is not None:
        before(staging, clock)
    with clock.step("move /boot/firmware to the boot partition's tree"):
        if boot.exists():
            shutil.rmtree(boot)
        shutil.copytree(staging / "boot/firmware", boot)
        for entry in (staging / "boot/firmware").iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    (staging / ".companion-layer.json").unlink(missing_ok=True)
    etc = staging / "etc"
    (etc / "fstab").write_text(FSTAB, encoding="utf-8")
    (etc / "hostname").write_text("companion\n", encoding="utf-8")
    (etc / "hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\tcompanion\n"
                               "::1\tlocalhost ip6-localhost ip6-loopback\n", encoding="utf-8")
    # Empty: systemd makes a new one in RAM at each boot of a read-only root; every card
    # flashed from this image is then a different machine.
    (etc / "machine-id").write_text("", encoding="utf-8")
    (staging / "var/lib/dbus/machine-id").unlink(missing_ok=True)
    journald = etc / "systemd/journald.conf.d/companion-image.conf"
    journald.parent.mkdir(parents=True, exist_ok=True)
    journald.write_text(JOURNALD, encoding="utf-8")
    # A read-only root looks like a first boot every time: no prompts on the console.
    firstboot = etc / "systemd/system/systemd-firstboot.service"
    firstboot.unlink(missing_ok=True)
    firstboot.symlink_to("/dev/null")
    # Made now, as systemd would at boot: on a read-only root it cannot, and
    # systemd-logind (StateDirectory=systemd/linger) failed to start (seen in tools/pi-boot).
    linger = staging / "var/lib/systemd/linger"
    linger.mkdir(parents=True, exist_ok=True)
    linger.chmod(0o755)
    private = staging / DATA_MOUNT.lstrip("/")
    private.mkdir(parents=True, exist_ok=True)
    private.chmod(0o700)
    link = staging / "var/lib/companion"
    if not link.is_symlink():
        link.symlink_to("private/companion")
    card.add_card_parts(staging, boot)
    if qemu:
        _add_qemu_parts(staging)
        for name, text in (boot_files or {}).items():
            (boot / name).write_text(text, encoding="utf-8")
    return boot


def _add_qemu_parts(staging: Path) -> None:
    etc = staging / "etc"
    dropin = etc / "systemd/system/companion.service.d/pi-boot.conf"
    dropin.parent.mkdir(parents=True, exist_ok=True)
    dropin.write_text(QEMU_DROPIN, encoding="utf-8")
    config = etc / "companion/companion.toml"
    text = config.read_text(encoding="utf-8")
    lines = text.splitlines()
    section = ""
    for i, line in enumerate(lines):
        if line.startswith("["):
            section = line.strip()
        elif section == "[serial]" and line.startswith("url ="):
            lines[i] = ('url = "/dev/ttyAMA0"  # tools/pi-boot: the emulated board\'s PL011, '
                        'a socket on the host')
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if tomllib.loads(config.read_text(encoding="utf-8"))["serial"]["url"] != "/dev/ttyAMA0":
        raise BuildError(f"{config}: could not point [serial] url at /dev/ttyAMA0")
    agent = staging / "usr/local/lib/pi-boot-agent.py"
    agent.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(Path(__file__).with_name("agent.py"), agent)
    unit = etc / "systemd/system/pi-boot-agent.service"
    unit.write_text(AGENT_UNIT, encoding="utf-8")
    wants = etc / "systemd/system/multi-user.target.wants/pi-boot-agent.service"
    wants.parent.mkdir(parents=True, exist_ok=True)
    wants.unlink(missing_ok=True)
    wants.symlink_to("/etc/systemd/system/pi-boot-agent.service")


def build_disk(staging: Path, boot: Path, out: Path, clock: Clock) -> list[Partition]:
    """Write the SD image `out` from the staged root and boot trees; nothing is mounted."""
    work = out.with_name(out.name + ".parts")
    work.mkdir(parents=True, exist_ok=True)
    root_mib = int(_du_mib(staging) * 1.15) + 160
    boot_img, root_img, data_img = work / "boot.vfat", work / "root.ext4", work / "data.ext4"
    with clock.step("boot partition: mkfs.vfat + mcopy") as d:
        boot_img.unlink(missing_ok=True)
        run(["mkfs.vfat", "-C", "-F", "32", "-s", "2", "-n", BOOT_LABEL, "-i", "7AB1EC0D",
             str(boot_img), str(BOOT_MIB * 1024)], timeout=300)
        entries = sorted(str(p) for p in boot.iterdir())
        run(["mcopy", "-s", "-p", "-m", "-i", str(boot_img), *entries, "::/"], timeout=600)
        d.append(f"{BOOT_MIB} MiB, {_du_mib(boot)} MiB used")
    with clock.step("root partition: mke2fs -t ext4 -d") as d:
        root_img.unlink(missing_ok=True)
        run(["mke2fs", "-q", "-t", "ext4", "-L", ROOT_LABEL, "-m", "0", "-d", str(staging),
             str(root_img), f"{root_mib}M"], timeout=1800)
        d.append(f"{root_mib} MiB")
    with clock.step("data partition: mke2fs -t ext4 (empty, 0700)") as d:
        empty = work / "data-tree"
        if empty.exists():
            shutil.rmtree(empty)
        empty.mkdir(mode=0o700)
        empty.chmod(0o700)
        data_img.unlink(missing_ok=True)
        run(["mke2fs", "-q", "-t", "ext4", "-L", DATA_LABEL, "-d", str(empty),
             str(data_img), f"{DATA_MIB}M"], timeout=600)
        # mke2fs -d leaves the file system's top folder 0755; systemd wants /var/lib/private
        # 0700 (debugfs edits the file system image: still nothing mounted).
        run(["debugfs", "-w", "-R", "sif / mode 040700", str(data_img)], timeout=120)
        d.append(f"{DATA_MIB} MiB")
    sizes = [BOOT_MIB * MIB, root_mib * MIB, DATA_MIB * MIB]
    kinds = ["c", "83", "83"]
    labels = [BOOT_LABEL, ROOT_LABEL, DATA_LABEL]
    parts: list[Partition] = []
    start = FIRST_MIB * MIB
    for number, (size, kind, label) in enumerate(zip(sizes, kinds, labels, strict=True), 1):
        parts.append(Partition(number, start, size, kind, label))
        start += size
    total = start + MIB
    with clock.step("disk: sfdisk on the image file, dd conv=notrunc") as d:
        out.unlink(missing_ok=True)
        with out.open("wb") as disk:
            disk.truncate(total)
        script = "label: dos\nlabel-id: " + DISK_ID + "\nunit: sectors\n" + "".join(
            f"start={p.start // SECTOR}, size={p.size // SECTOR}, type={p.kind}"
            f"{', bootable' if p.number == 1 else ''}\n" for p in parts)
        (work / "table.sfdisk").write_text(script, encoding="utf-8")
        run(["sfdisk", "--no-reread", "--no-tell-kernel", "-q", str(out)], timeout=120,
            stdin_file=work / "table.sfdisk")
        for part, image in zip(parts, (boot_img, root_img, data_img), strict=True):
            run(["dd", f"if={image}", f"of={out}", "bs=1M", f"seek={part.start // MIB}",
                 "conv=notrunc,sparse", "status=none"], timeout=1800)
        d.append(f"{total // MIB} MiB image")
    shutil.rmtree(work)
    return parts


# -- reading an image back (no mounts) --------------------------------------------------------


def partitions(image: Path) -> list[Partition]:
    """The partition table, as sfdisk reads it from the image file."""
    table = json.loads(run(["sfdisk", "--json", str(image)], timeout=60))["partitiontable"]
    unit = table.get("sectorsize", SECTOR)
    labels = [BOOT_LABEL, ROOT_LABEL, DATA_LABEL]
    return [Partition(i, p["start"] * unit, p["size"] * unit, p["type"],
                      labels[i - 1] if i <= len(labels) else "")
            for i, p in enumerate(table["partitions"], 1)]


def fat_list(image: Path, part: Partition, folder: str = "/") -> list[str]:
    """File names in a folder of a FAT partition (mtools at an offset)."""
    out = run(["mdir", "-b", "-i", f"{image}@@{part.start}", f"::{folder}"], timeout=60)
    return sorted(line.rstrip("/").rsplit("/", 1)[-1] for line in out.splitlines()
                  if line.strip())


def fat_read(image: Path, part: Partition, name: str) -> str:
    """A text file from a FAT partition."""
    return run(["mtype", "-i", f"{image}@@{part.start}", f"::/{name}"], timeout=60)


def ext4_spec(image: Path, part: Partition) -> str:
    return f"{image}?offset={part.start}"


def ext4_list(image: Path, part: Partition, folder: str = "/") -> list[str]:
    """Names in a folder of an ext4 partition (debugfs, read-only, at an offset)."""
    out = run(["debugfs", "-R", f"ls -p {folder}", ext4_spec(image, part)], timeout=120)
    names = []
    for line in out.splitlines():
        fields = line.strip().strip("/").split("/")
        if len(fields) >= 5 and fields[4] not in (".", ".."):
            names.append(fields[4])
    return sorted(names)


def ext4_read(image: Path, part: Partition, path: str) -> str:
    """A file from an ext4 partition (debugfs cat, at an offset)."""
    return run(["debugfs", "-R", f"cat {path}", ext4_spec(image, part)], timeout=120)


def ext4_stat(image: Path, part: Partition, path: str) -> str:
    """debugfs's stat of a path (type, mode, owner, link target)."""
    return run(["debugfs", "-R", f"stat {path}", ext4_spec(image, part)], timeout=120)


def ext4_label(image: Path, part: Partition) -> str:
    return run(["e2label", ext4_spec(image, part)], timeout=60).strip()


def free_disk_bytes(path: Path) -> int:
    stats = os.statvfs(path)
    return stats.f_bavail * stats.f_frsize


def stage_install(staging: Path, clock: Clock) -> None:
    """The quick variant's companion: tools/install.py --root stages its files (unit, udev
    rules, the card's config, the config.txt block) without apt, pip or a venv (so without the
    card's network packages either), and the host's systemctl
    enables the unit offline, as install.py's own `systemctl enable` does inside a root."""
    with clock.step("quick: tools/install.py --root (files only, no venv)"):
        card.seed_config(staging)  # the card's config first: install.py acts on it
        run([sys.executable, str(SOURCE / "tools/install.py"), "--root", str(staging)],
            timeout=600)
        run(["systemctl", f"--root={staging}", "enable", "companion.service"], timeout=120)


def build_image(out: Path, clock: Clock, log_path: Path, *, qemu: bool = False,
                quick: bool = False, layer: Path | None = None,
                boot_files: Mapping[str, str] | None = None) -> Path:
    """Build the SD image at `out` from the cached layers (tools/pi-boot: qemu=True).

    `quick`: the OS layer with install.py's files staged by --root and no venv: the same
    partitions, boot files, config.txt, cmdline.txt and fstab in a minute once the OS layer is
    cached, for tests/deploy/test_image.py. Not bootable into a running companion.
    `layer`: the root to stage (tools/pi-boot passes the companion layer it boots the kernel
    of, so both come from one build). `boot_files`: tools/pi-boot's files on the boot partition
    (Wi-Fi, SSH key, companion.toml), as a person would write them."""
    ensure_host_tools(clock)
    with cache_lock(clock):
        with log_path.open("a", encoding="utf-8") as log:
            clock.say(f"(the emulated steps' long output: {log_path})")
            if layer is None:
                layer = os_root(clock, log) if quick else companion_root(clock, log)
        variant = "stage-qemu" if qemu else "stage-quick" if quick else "stage"
        staging = cache_dir() / variant / "root"
        staging.parent.mkdir(parents=True, exist_ok=True)
        boot = stage_root(layer, staging, clock, qemu=qemu,
                          before=stage_install if quick else None, boot_files=boot_files)
        out.parent.mkdir(parents=True, exist_ok=True)
        build_disk(staging, boot, out, clock)
        shutil.rmtree(staging.parent)
    return out
