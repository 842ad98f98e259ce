"""The box's arm64 Debian 13 ("trixie") root, in cached layers, from Debian's packages.

Promises:
- Three layers, each built once and cached outside the checkout, each a finished copy renamed
  into place (a half-built layer is never reused):
  1. the base: tools/debian_root.py's debootstrap root, the recipe tools/pi_trial.py uses
     (`BASE_SPEC`: minbase, Python, systemd), so both tools share one cached root;
  2. the OS: the base plus `OS_PACKAGES` by apt-get inside: Debian's linux-image-arm64 and
     initramfs-tools, `raspi-firmware` (the non-free-firmware component: the Pi's boot
     firmware; its kernel hook fills /boot/firmware), udev, and the Python libraries Debian
     has in a version the companion accepts; configured for the image's partition labels;
     named after the base and `OS_RECIPE`;
  3. the companion: the OS plus the card's network packages (`card.NETWORK_PACKAGES`: Wi-Fi,
     its firmware, sshd), lgpio for the system's python3 (pi-trial's wheel: Debian 13 has no
     python3-lgpio), the card's config (`card.seed_config`) and then `python3
     tools/install.py` run inside as on a Pi (apt, a venv with the system's site packages,
     pip, the real unit enabled); named after the OS layer and a hash of the sources it
     installs and the card's recipe, so a changed checkout makes a new one.
- Every command inside runs under proot + qemu-aarch64-static: no binfmt handler, no mount on
  the host. Downloads are Debian packages (debootstrap, apt-get) and, in layer 3, what
  install.py's pip fetches from PyPI for the companion (named in the log).
- One build at a time: `cache_lock` serialises tools that share the cache folder. The build's
  shell (`Clock`, `run`, `run_in`, the host tools, the cache) is shell.py's, named here too;
  a step still running after half a minute prints a progress line every half minute (layer,
  packages set up, the log's last line, elapsed).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import debian_root
import pi_trial

from pi_image import card
from pi_image.shell import (
    HOST_TOOLS,
    QEMU_SYSTEM,
    BuildError,
    Clock,
    cache_dir,
    cache_lock,
    copy_tree,
    ensure_host_tools,
    run,
    run_in,
)

__all__ = ["BASE_RECIPE", "BASE_SPEC", "BOOT_LABEL", "DATA_LABEL", "HOST_TOOLS", "OS_PACKAGES",
           "OS_RECIPE", "QEMU_SYSTEM", "ROOT_LABEL", "SOURCE", "BuildError", "Clock",
           "base_root", "cache_dir", "cache_lock", "companion_layer_cached", "companion_root",
           "copy_tree", "ensure_host_tools", "fill_boot_firmware", "os_root", "run", "run_in",
           "source_digest"]

SOURCE = Path(__file__).resolve().parents[2]
MIRROR = os.environ.get("COMPANION_DEBIAN_MIRROR", debian_root.DEFAULT_MIRROR)

# Layer 1: every Debian package of the image, from Debian main and non-free-firmware. The
# Python libraries are the ones Debian 13 ships in a version pyproject.toml accepts (Pillow 11,
# pyserial 3.5, segno 1.6); gpiozero (1.6 in Debian, 2.0 needed), luma.oled (3.10, 3.13
# needed) and lgpio (not in Debian) come from pip in layer 3. Debian's luma.core 2.4 is in the
# base but layer 3 removes it (its metadata asks for RPi.GPIO, source only on PyPI): pip
# installs luma.core 2.6 instead. (Dropping it here would rebuild the 18-minute base.)
OS_PACKAGES = (
    "systemd", "systemd-sysv", "udev", "kmod", "procps",
    "linux-image-arm64", "initramfs-tools", "zstd", "raspi-firmware",
    "python3", "python3-venv", "python3-pip", "python3-dev", "i2c-tools", "e2fsprogs",
    "dosfstools", "ca-certificates",
    "python3-pil", "python3-serial", "python3-segno", "python3-luma.core",
)
COMPONENTS = "main,non-free-firmware"
TMPFILES = "/usr/bin/systemd-tmpfiles"
VOLATILE = ("/dev", "/proc", "/sys", "/run", "/tmp")  # noqa: S108 (paths inside the root)
# tools/pi_trial.py's root: only for its lgpio wheel builder (a scratch copy).
BASE_SPEC = pi_trial.SPEC
BASE_RECIPE = 2  # bump when build_base's steps change
OS_RECIPE = 6  # bump when os_root's steps change

# Partition labels: the same names Debian's own Raspberry Pi images use.
BOOT_LABEL = "RASPIFIRM"
ROOT_LABEL = "RASPIROOT"
DATA_LABEL = "COMPANION"

RASPI_FIRMWARE_DEFAULTS = f"""\
# The table companion's image (tools/build-image). Read by raspi-firmware's kernel hooks,
# which write /boot/firmware/cmdline.txt and config.txt from it.
# No kernel console on a serial port: the UART on GPIO14/15 carries the line protocol.
CONSOLES="tty0"
ROOTPART=LABEL={ROOT_LABEL}
"""


def source_digest(source: Path = SOURCE) -> str:
    """A hash of every file tools/install.py installs from the checkout."""
    digest = hashlib.sha256()
    parts = [source / "pyproject.toml", source / "README.md",
             *sorted(source.glob("tools/install*.py"))]
    for folder in ("companion", "systemd", "firmware_config"):
        parts += sorted(p for p in (source / folder).rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts)
    for part in parts:
        digest.update(str(part.relative_to(source)).encode() + b"\0" + part.read_bytes())
    # What the companion layer adds besides the sources: the card's packages and config.
    digest.update(f"card-recipe-{card.CARD_RECIPE}".encode())
    digest.update(" ".join(card.NETWORK_PACKAGES).encode())
    return digest.hexdigest()[:12]


def _layer(name: str, clock: Clock, build: Callable[[Path], None]) -> Path:
    final = cache_dir() / name
    if (final / ".companion-layer.json").exists():
        clock.say(f"== {name}: cached at {final}")
        return final
    partial = final.with_name(final.name + ".partial")
    build(partial)
    (partial / ".companion-layer.json").write_text(json.dumps(
        {"layer": name, "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}) + "\n",
        encoding="utf-8")
    partial.rename(final)
    return final


def _patch(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise BuildError(f"{path}: cannot find {old!r} to patch (a new debootstrap?)")
    path.write_text(text.replace(old, new), encoding="utf-8")


def base_root(clock: Clock, log: TextIO) -> Path:
    """Layer 1: every Debian package of the image, by debootstrap.

    The second stage runs debootstrap's own script on the host (`--second-stage-target`)
    with its target commands sent through proot + qemu-user instead of chroot. Run inside
    the root instead (tools/debian_root.py's way), each of its pre-dependency rounds scans
    the whole package list with an emulated perl, minutes each: with these packages that
    took over 40 minutes here. The copy of debootstrap in the root is patched for this (and
    to mount nothing: proot shows the host's /proc and /sys inside)."""
    digest = hashlib.sha256(" ".join([COMPONENTS, *sorted(OS_PACKAGES)]).encode()).hexdigest()
    name = f"base-trixie-arm64-{digest[:10]}-r{BASE_RECIPE}"

    def build(partial: Path) -> None:
        if partial.exists():
            debian_root.remove_root(partial, log)
        with clock.step("base: debootstrap --foreign trixie arm64 (host)", log=log) as d:
            run(["debootstrap", "--foreign", "--arch=arm64", "--variant=minbase",
                 f"--components={COMPONENTS}", f"--include={','.join(OS_PACKAGES)}",
                 "trixie", str(partial), MIRROR], timeout=1800, log=log)
            debs = list((partial / "var/cache/apt/archives").glob("*.deb"))
            d.append(f"downloaded {len(debs)} Debian packages, "
                     f"{sum(p.stat().st_size for p in debs) / 2**20:.0f} MiB, from {MIRROR}")
        # proot 5.1 aborts on systemd-tmpfiles (an assertion in its path code), which
        # systemd's and udev's maintainer scripts run: a local diversion parks the real one
        # and a no-op stands in while dpkg runs; the host's systemd-tmpfiles --root creates
        # what they would have created, after.
        with (partial / "var/lib/dpkg/diversions").open("a", encoding="utf-8") as diversions:
            diversions.write(f"{TMPFILES}\n{TMPFILES}.pi-image\n:\n")
        noop = partial / TMPFILES.lstrip("/")
        noop.write_text("#!/bin/sh\n# tools/pi_image: stands in while the root is built\n"
                        "exit 0\n", encoding="utf-8")
        noop.chmod(0o755)
        # raspi-firmware's hook fills /boot/firmware: a plain folder here (the FAT partition's
        # contents are copied out of it by tools/build-image).
        (partial / "boot/firmware").mkdir(parents=True, exist_ok=True)
        own = partial / "debootstrap"
        qemu = debian_root.qemu_for(BASE_SPEC)
        _patch(own / "debootstrap", 'CHROOT_CMD="chroot \\"$TARGET\\""',
               f'CHROOT_CMD="{" ".join(debian_root.PROOT)} -0 -r \\"$TARGET\\" -q {qemu} '
               '-b /dev -b /proc -b /sys '
               '-w /"')
        _patch(own / "functions", "in_target mount -t proc proc /proc || true",
               ": # tools/pi_image: proot shows the host's /proc")
        _patch(own / "functions", "in_target mount -t sysfs sysfs /sys || true",
               ": # tools/pi_image: proot shows the host's /sys")
        with clock.step("base: debootstrap --second-stage (dpkg emulated under proot)",
                        log=log, packages=len(debs), root=partial):
            (cache_dir() / "proot-tmp").mkdir(parents=True, exist_ok=True)
            env = {"PATH": debian_root.PATH_INSIDE, "LANG": "C.UTF-8",
                   "DEBOOTSTRAP_DIR": str(own), "DEBIAN_FRONTEND": "noninteractive",
                   "PROOT_TMP_DIR": str(cache_dir() / "proot-tmp")}
            done = subprocess.run(  # noqa: S603 (an argument list, no shell)
                ["/bin/sh", str(own / "debootstrap"), "--second-stage",
                 f"--second-stage-target={partial}"],
                stdout=log, stderr=subprocess.STDOUT, env=env, timeout=7200, check=False)
            mounted = debian_root.mounts_below(partial)
            if mounted:
                raise BuildError(f"debootstrap left mounts below {partial}: {mounted}")
            if done.returncode != 0:
                raise BuildError(f"debootstrap --second-stage exited {done.returncode} "
                                 f"(log: {log.name})")
        with clock.step("base: the real systemd-tmpfiles back; host's tmpfiles --root"):
            noop.unlink()
            run_in(partial, ["dpkg-divert", "--local", "--rename", "--remove", TMPFILES],
                   log=log, timeout=600)
            subprocess.run(  # noqa: S603 (an argument list; some lines may not apply offline)
                ["/usr/bin/systemd-tmpfiles", f"--root={partial}", "--create",
                 *(f"--exclude-prefix={p}" for p in VOLATILE)],
                stdout=log, stderr=subprocess.STDOUT, timeout=600, check=False,
                env={"PATH": debian_root.PATH_INSIDE})

    return _layer(name, clock, build)


def fill_boot_firmware(root: Path, version: str) -> None:
    """What raspi-firmware's kernel hook (/etc/kernel/postinst.d/z50-raspi-firmware) writes
    for arm64 with KERNEL=auto, ROOTPART=LABEL=RASPIROOT and CONSOLES="tty0", done here on the
    host: written when the hook could not see /boot under proot (coreutils' statx was not
    translated, so its `ls /boot/vmlinuz-*` looked at the host; tools/proot_syscalls.py
    fixes that now, and this host-side copy, checked by tests/deploy/test_image.py, stays).
    The GPU firmware files were copied by raspi-firmware's own postinst. Only difference:
    `ro` where the hook writes `rw`, as this card's root is read-only (fstab says so too)."""
    firmware = root / "boot/firmware"
    firmware.mkdir(parents=True, exist_ok=True)
    for dtb in sorted((root / f"usr/lib/linux-image-{version}/broadcom").glob("bcm*.dtb")):
        shutil.copyfile(dtb, firmware / dtb.name)
    for name in (f"vmlinuz-{version}", f"initrd.img-{version}"):
        shutil.copyfile(root / "boot" / name, firmware / name)
    (firmware / "config.txt").write_text(
        "# Written by tools/build-image as raspi-firmware's kernel hook writes it\n"
        "# (Debian 13, arm64, upstream kernel and device trees).\n\n"
        f"arm_64bit=1\nenable_uart=1\nupstream_kernel=1\nkernel=vmlinuz-{version}\n"
        f"initramfs initrd.img-{version}\n", encoding="utf-8")
    (firmware / "cmdline.txt").write_text(
        f"console=tty0 root=LABEL={ROOT_LABEL} ro fsck.repair=yes net.ifnames=0 cma=64M "
        "rootwait\n", encoding="utf-8")


def os_root(clock: Clock, log: TextIO) -> Path:
    """Layer 2: the base plus raspi-firmware, set up for the image's labels and consoles."""
    base = base_root(clock, log)

    def build(partial: Path) -> None:
        with clock.step("OS layer: copy the base root"):
            copy_tree(base, partial)
        sources = partial / "etc/apt/sources.list.d/debian.sources"
        sources.parent.mkdir(parents=True, exist_ok=True)
        sources.write_text(
            f"Types: deb\nURIs: {MIRROR}\nSuites: trixie trixie-updates\n"
            "Components: main non-free-firmware\n"
            "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n", encoding="utf-8")
        (partial / "etc/apt/sources.list").unlink(missing_ok=True)
        (partial / "etc/default").mkdir(parents=True, exist_ok=True)
        (partial / "etc/default/raspi-firmware").write_text(RASPI_FIRMWARE_DEFAULTS,
                                                              encoding="utf-8")
        (partial / "boot/firmware").mkdir(parents=True, exist_ok=True)
        kernels = sorted((partial / "boot").glob("vmlinuz-*"))
        if not kernels:
            raise BuildError("the base root has no /boot/vmlinuz-*: linux-image-arm64 missing")
        version = kernels[-1].name.removeprefix("vmlinuz-")
        with clock.step("OS layer: update-initramfs (emulated), /boot/firmware",
                        log=log) as d:
            # The kernel was configured before initramfs-tools' hook was in place: no initrd.
            run_in(partial, ["update-initramfs", "-c", "-k", version], log=log, timeout=3600)
            fill_boot_firmware(partial, version)
            d.append(f"kernel {version}")
        for needed in ("config.txt", "cmdline.txt", f"initrd.img-{version}"):
            if not (partial / "boot/firmware" / needed).exists():
                raise BuildError(f"no /boot/firmware/{needed}")

    return _layer(f"os-{base.name}-r{OS_RECIPE}", clock, build)


@dataclass
class _ImageTrial(pi_trial.Trial):
    """pi-trial's steps, pointed at this layer's root instead of pi-trial's own."""

    target: Path = Path()

    @property
    def work(self) -> Path:
        return self.target

    @property
    def apt_archives(self) -> Path:
        # Its own: apt locks its archive folder, and pi-trial may be installing meanwhile.
        return cache_dir() / "apt-archives"


def companion_root(clock: Clock, log: TextIO, source: Path = SOURCE) -> Path:
    """Layer 3: the OS plus the companion, installed by tools/install.py's steps inside."""
    os_layer = os_root(clock, log)

    def build(partial: Path) -> None:
        with clock.step("companion layer: copy the OS root"):
            copy_tree(os_layer, partial)
        trial = _ImageTrial(cache=debian_root.cache_dir(), out=log, target=partial)
        trial.root = base_root(clock, log)  # the scratch copy that builds the wheel
        with clock.step("companion layer: lgpio for the system's python3 (pi-trial's wheel)",
                        log=log):
            # Raspberry Pi OS has python3-lgpio; Debian 13 has not, and PyPI has no wheel for
            # Python 3.13: pi-trial builds one once from PyPI's sdist with Debian's swig.
            try:
                pi_trial.step_lgpio(trial)
            except pi_trial.StepFailed as exc:
                raise BuildError(str(exc)) from exc
        with clock.step("companion layer: the card's network packages (apt, emulated)",
                        log=log, root=partial) as d:
            # Wi-Fi (wpa_supplicant, Broadcom firmware, the regulatory database) and sshd for
            # the card; systemd-networkd is Debian's systemd's own. Configured at staging.
            trial.apt_archives.joinpath("partial").mkdir(parents=True, exist_ok=True)
            apt_env = {"DEBIAN_FRONTEND": "noninteractive"}
            binds = [(trial.apt_archives, "/var/cache/apt/archives")]
            run_in(partial, ["apt-get", "update", "-q"], log=log, timeout=1800, env=apt_env,
                   binds=binds)
            run_in(partial, ["apt-get", "install", "-y", "-q", "--no-install-recommends",
                             *card.NETWORK_PACKAGES], log=log, timeout=3600, env=apt_env,
                   binds=binds)
            d.append(" ".join(card.NETWORK_PACKAGES))
        with clock.step("companion layer: Debian's python3-luma.core set aside"):
            # Debian 13's luma.core 2.4.2 declares RPi.GPIO, which PyPI has only as source:
            # pip would compile it (and fail: no compiler on the box). luma.core 2.6 from PyPI,
            # as on Raspberry Pi OS, does not need it.
            run_in(partial, ["dpkg", "--remove", "python3-luma.core"], log=log, timeout=600)
        card.seed_config(partial, source)  # before install.py, which acts on it
        src = partial / "opt/companion-src"
        shutil.copytree(source, src, symlinks=True, ignore=pi_trial.COPY_IGNORE)
        debian_root.prepare_for_pip(partial)
        with clock.step("companion layer: python3 tools/install.py inside (emulated)",
                        log=log) as d:
            trial.apt_archives.joinpath("partial").mkdir(parents=True, exist_ok=True)
            run_in(partial, ["python3", "/opt/companion-src/tools/install.py"], log=log,
                   timeout=3600, binds=[(trial.apt_archives, "/var/cache/apt/archives")])
            d.append("apt: Debian; pip: PyPI (gpiozero, luma.oled, setuptools); see the log")
        shutil.rmtree(src)
        if not (partial / "etc/systemd/system/multi-user.target.wants/companion.service"
                ).is_symlink():
            raise BuildError("install.py did not enable companion.service")

    prefix = f"companion-{os_layer.name}-"
    layer = _layer(prefix + source_digest(source), clock, build)
    # Keep only the newest companion layer: each is about 1 GB.
    for old in cache_dir().glob(prefix + "*"):
        if old != layer and old.stat().st_mtime < layer.stat().st_mtime:
            debian_root.remove_root(old, log)
    return layer


def companion_layer_cached(source: Path = SOURCE) -> Path | None:
    """The finished companion layer for this checkout's sources, if one is cached (any OS
    layer recipe); None otherwise. tests/deploy/test_pi_boot.py runs only when it is."""
    suffix = f"-{source_digest(source)}"
    for layer in sorted(cache_dir().glob(f"companion-os-*-r{OS_RECIPE}{suffix}")):
        if (layer / ".companion-layer.json").exists():
            return layer
    return None
