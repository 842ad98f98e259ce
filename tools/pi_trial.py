#!/usr/bin/env python3
"""tools/pi-trial: the box on an emulated arm64 Debian 13 "trixie", in one command (as root).

    sudo tools/pi-trial                 build or reuse the root, install, doctor, a game, bench
    sudo tools/pi-trial --json FILE     ... and write the step times and bench figures to FILE

What it does, in order (each step prints what it downloads and how long it took):
1. root     an arm64 trixie root from Debian's packages (debootstrap --foreign, the second
            stage under qemu-aarch64-static + proot; no binfmt, no kernel-wide change), cached
            outside the checkout by tools/debian_root.py (debian_root.cache_dir()).
2. fresh    a copy of that root for this run, the "fresh Pi": the cached one stays clean.
3. lgpio    the stand-in for Raspberry Pi's python3-lgpio. Debian trixie does not ship
            python3-lgpio (it is in Raspberry Pi's archive, archive.raspberrypi.com, which this
            trial does not use), and PyPI's lgpio has no wheel for Python 3.13. So, once and
            cached: in a scratch copy of the root, Debian's swig, gcc and python3-dev build
            PyPI's lgpio sdist (PYPI=1: the C library linked in) into a wheel; the wheel is
            installed into the fresh root's system Python, where python3-lgpio would put it.
            The installer itself never builds lgpio: it finds python3-lgpio missing from apt
            and uses the lgpio the system python3 imports (tools/install.py).
4. boot     /boot/firmware/config.txt and cmdline.txt as a Raspberry Pi OS image has them.
5. install  the checkout copied in, then `python3 tools/install.py` as on a Pi: apt (Debian
            packages), a venv with the system site packages, `pip install .[pi]` (PyPI), the
            unit enabled (systemd is not running in the trial: enable only), `import lgpio`.
6. doctor   `companion doctor`.
7. game     a whole Now Boarding game through `companion simulate` (tools/now_boarding_script.py
            writes the script inside the root with the installed package): every reply `ok`.
8. bench    `companion bench --short --json`; the figures are printed (emulated arm64: slower
            than a Pi 4, comparable order to a Zero 2 W; qemu inflates RSS).
Then a summary table (step, result, seconds); exit 1 if any step failed, 2 for bad usage.

Promises: standard library only; no shell; never writes the checkout; deletes a root only when
nothing is mounted below it (proot mounts nothing, but debootstrap does).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from debian_root import (
    RootError,
    RootSpec,
    build,
    cache_dir,
    copy_root,
    ensure_packages,
    remove_root,
    run_proot,
    run_proot_captured,
)

CHECKOUT = Path(__file__).resolve().parent.parent
SPEC = RootSpec(suite="trixie", arch="arm64",
                include=("python3", "python3-venv", "python3-pip", "systemd"))
LGPIO_VERSION = "0.2.2.0"
BUILDER_PACKAGES = ("swig", "gcc", "libc6-dev", "python3-dev")
SOURCE_INSIDE = "/opt/companion-src"
COMPANION = "/opt/companion/venv/bin/companion"
VENV_PYTHON = "/opt/companion/venv/bin/python"
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                     "__pycache__", ".*_cache", ".hypothesis", "out")
# What a Raspberry Pi OS image's boot partition holds before the installer (abridged).
PI_OS_CONFIG_TXT = """\
# For more options and information see http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[all]
"""
PI_OS_CMDLINE_TXT = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 "
                     "rootfstype=ext4 fsck.repair=yes rootwait\n")
EMULATED = "emulated arm64: slower than a Pi 4, comparable order to a Zero 2 W"


class StepFailed(Exception):
    """A trial step did not do what it should; the message says what."""


@dataclass
class Trial:
    """One run: where things are, what each step took, what the bench said."""

    cache: Path
    out: TextIO
    rows: list[tuple[str, str, float]] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)
    root: Path = Path()

    @property
    def work(self) -> Path:
        return self.cache / "pi-trial" / "root"

    @property
    def wheels(self) -> Path:
        return self.cache / "pi-trial" / "wheels"

    @property
    def apt_archives(self) -> Path:
        return self.cache / "pi-trial" / "apt-archives"

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def inside(self, argv: Sequence[str], *, timeout: float = 3600,
               binds: Sequence[tuple[Path, str]] = ()) -> str:
        """Run in the fresh root; its standard output, or StepFailed."""
        status, stdout = run_proot_captured(self.work, SPEC, argv, out=self.out,
                                            timeout=timeout, binds=binds)
        if status != 0:
            raise StepFailed(f"{' '.join(argv[:3])} exited {status}")
        return stdout


def step_root(trial: Trial) -> None:
    trial.say("downloads: Debian packages (debootstrap), once; then cached")
    trial.root = build(SPEC, out=trial.out)


def step_fresh(trial: Trial) -> None:
    copy_root(trial.root, trial.work, trial.out)
    machine = trial.inside(["python3", "-c", "import platform; print(platform.machine())"])
    if machine.strip() != "aarch64":
        raise StepFailed(f"the root's python3 runs as {machine.strip()!r}, not aarch64")


def lgpio_wheel(trial: Trial) -> Path | None:
    found = sorted(trial.wheels.glob(f"lgpio-{LGPIO_VERSION}-cp313-*aarch64.whl"))
    return found[-1] if found else None


def step_lgpio(trial: Trial) -> None:
    """The stand-in for Raspberry Pi's python3-lgpio (see the module's docstring)."""
    wheel = lgpio_wheel(trial)
    if wheel is None:
        trial.say("downloads: Debian packages (swig, gcc, libc6-dev, python3-dev) into a "
                  f"scratch root; PyPI: the lgpio {LGPIO_VERSION} sdist and setuptools. Once.")
        builder = copy_root(trial.root, trial.cache / "pi-trial" / "builder", trial.out)
        try:
            ensure_packages(builder, BUILDER_PACKAGES,
                            partial(_proot_checked, builder, trial.out), trial.out)
            trial.wheels.mkdir(parents=True, exist_ok=True)
            _proot_checked(builder, trial.out,
                           ["env", "PYPI=1", "python3", "-m", "pip", "wheel", "--no-deps",
                            "--no-binary", "lgpio", f"lgpio=={LGPIO_VERSION}", "-w", "/wheels"],
                           binds=[(trial.wheels, "/wheels")])
        finally:
            remove_root(builder, trial.out)
        wheel = lgpio_wheel(trial)
        if wheel is None:
            raise StepFailed(f"no lgpio wheel in {trial.wheels} after the build")
    else:
        trial.say(f"cached: {wheel.name} (built from PyPI's sdist with Debian's swig)")
    trial.inside(["python3", "-m", "pip", "install", "--break-system-packages", "--no-index",
                  "--no-deps", f"/wheels/{wheel.name}"], binds=[(trial.wheels, "/wheels")])


def _proot_checked(root: Path, out: TextIO, argv: Sequence[str], *, timeout: float = 3600,
                   binds: Sequence[tuple[Path, str]] = ()) -> int:
    return run_proot(root, SPEC, argv, out=out, timeout=timeout, binds=binds)


def step_boot(trial: Trial) -> None:
    boot = trial.work / "boot" / "firmware"
    boot.mkdir(parents=True, exist_ok=True)
    (boot / "config.txt").write_text(PI_OS_CONFIG_TXT, encoding="utf-8")
    (boot / "cmdline.txt").write_text(PI_OS_CMDLINE_TXT, encoding="utf-8")


def step_install(trial: Trial) -> None:
    trial.say("downloads: Debian packages (apt, as the installer asks), PyPI (the venv)")
    shutil.copytree(CHECKOUT, trial.work / SOURCE_INSIDE.lstrip("/"), ignore=COPY_IGNORE,
                    symlinks=True)
    (trial.apt_archives / "partial").mkdir(parents=True, exist_ok=True)
    trial.inside(["python3", f"{SOURCE_INSIDE}/tools/install.py"],
                 binds=[(trial.apt_archives, "/var/cache/apt/archives")])
    if not (trial.work / "etc/systemd/system/multi-user.target.wants/companion.service"
            ).is_symlink():
        raise StepFailed("the installer did not enable companion.service")


def step_doctor(trial: Trial) -> None:
    trial.figures["doctor"] = trial.inside([COMPANION, "doctor"], timeout=600).strip()


def step_game(trial: Trial) -> None:
    script = trial.inside([VENV_PYTHON, f"{SOURCE_INSIDE}/tools/now_boarding_script.py",
                           "--players", "3"], timeout=1800)
    lines = [line for line in script.splitlines() if line.strip()]
    (trial.work / "root" / "now-boarding.txt").write_text(script, encoding="utf-8")
    replies = trial.inside([COMPANION, "simulate", "/root/now-boarding.txt"],
                           timeout=1800).splitlines()
    if replies != ["ok"] * len(lines):
        raise StepFailed(f"{len(lines)} lines, replies other than ok: "
                         f"{sorted(set(replies) - {'ok'})[:3]}")
    trial.figures["game_lines"] = len(lines)
    trial.figures["game_flights"] = lines.count("wait 60")


def step_bench(trial: Trial) -> None:
    report = json.loads(trial.inside([COMPANION, "bench", "--short", "--json"], timeout=1800))
    trial.figures["bench"] = report
    trial.figures["bench_note"] = EMULATED


STEPS: tuple[tuple[str, Callable[[Trial], None]], ...] = (
    ("root: arm64 trixie", step_root),
    ("fresh copy of the root", step_fresh),
    ("lgpio stand-in", step_lgpio),
    ("boot partition files", step_boot),
    ("tools/install.py", step_install),
    ("companion doctor", step_doctor),
    ("whole Now Boarding game", step_game),
    ("bench --short --json", step_bench),
)


def run_trial(trial: Trial, steps: Sequence[tuple[str, Callable[[Trial], None]]] = STEPS
              ) -> int:
    """Run the steps in order; stop at the first failure. 0 if all passed, else 1."""
    failed = False
    for name, work in steps:
        if failed:
            trial.rows.append((name, "not run", 0.0))
            continue
        trial.say(f"\n== {name}")
        started = time.monotonic()
        try:
            work(trial)
        except (StepFailed, RootError, OSError, ValueError, KeyboardInterrupt) as exc:
            trial.say(f"FAILED: {name}: {exc}")
            trial.rows.append((name, "FAILED", time.monotonic() - started))
            failed = True
            continue
        trial.rows.append((name, "ok", time.monotonic() - started))
    return 1 if failed else 0


def summary(trial: Trial) -> str:
    """The step table, and the bench's headline figures when it ran."""
    lines = [f"{'step':<28}{'result':<10}{'seconds':>9}"]
    lines += [f"{name:<28}{result:<10}{seconds:>9.1f}" for name, result, seconds in trial.rows]
    lines.append(f"{'total':<38}{sum(r[2] for r in trial.rows):>9.1f}")
    bench = trial.figures.get("bench")
    if isinstance(bench, dict):
        lines.append(f"\nbench --short ({EMULATED}):")
        for key, value in bench.items():
            if key != "machine":
                lines.append(f"  {key}: {json.dumps(value)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description="The companion on an emulated arm64 Debian "
                                                 "13 (trixie): install, doctor, a game, bench.")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the step times and the figures to FILE")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        parser.error("run it as root (debootstrap; the root's files are root's): "
                     "sudo tools/pi-trial")
    trial = Trial(cache=cache_dir(), out=out)
    trial.say(f"tools/pi-trial: cache {trial.cache} (outside the checkout). Downloads: "
              "Debian packages from the Debian mirror, and PyPI for the venv; nothing else.")
    status = run_trial(trial)
    trial.say("\n" + summary(trial))
    if args.json is not None:
        args.json.write_text(json.dumps({"steps": trial.rows, **trial.figures}, indent=2) + "\n",
                             encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
