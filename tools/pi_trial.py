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
8. idle     waits for the machine's load average to fall (at most --idle-wait seconds) or
            says it could not; the load is kept with the figures (tools/pi_trial_figures.py).
9. bench    `companion bench --short --json`, three times (--repeats); the median of each
            figure is reported, with the load before and after each run, and set beside the
            targets for emulation (emulated arm64: slower than a Pi 4, comparable order to a
            Zero 2 W; qemu inflates RSS).
10. imports `python -X importtime` of `companion run` (as a Pi starts it) inside the root,
            printed whole: where start-up goes under emulation, module by module.
Then a summary table (step, result, seconds); exit 1 if any step failed, 2 for bad usage.

Promises: standard library only; no shell; never writes the checkout; deletes a root only when
nothing is mounted below it (proot mounts nothing, but debootstrap does).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
import urllib.request
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
from pi_trial_figures import (
    IDLE_LOAD,
    emulation_verdict,
    load_average,
    median_report,
    wait_for_idle,
)

CHECKOUT = Path(__file__).resolve().parent.parent
SPEC = RootSpec(suite="trixie", arch="arm64",
                include=("python3", "python3-venv", "python3-pip", "systemd"))
LGPIO_VERSION = "0.2.2.0"
BUILDER_PACKAGES = ("swig", "gcc", "libc6-dev", "python3-dev", "python3-setuptools")
LGPIO_JSON = "https://pypi.org/pypi/lgpio/json"
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
    repeats: int = 3
    idle_load: float = IDLE_LOAD
    idle_wait: float = 900.0

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
        trial.say("downloads: Debian packages (swig, gcc, libc6-dev, python3-dev, "
                  f"python3-setuptools) into a scratch root; PyPI: the lgpio {LGPIO_VERSION} "
                  "sdist. Once.")
        # The scratch root is kept until the wheel is built (a failed try reuses it).
        builder = trial.cache / "pi-trial" / "builder"
        if not builder.is_dir():
            copy_root(trial.root, builder, trial.out)
        ensure_packages(builder, BUILDER_PACKAGES,
                        partial(_proot_checked, builder, trial.out), trial.out)
        trial.wheels.mkdir(parents=True, exist_ok=True)
        sdist = download_sdist(trial)
        # setup.py directly: pip's PEP 517 hook runner could not open its own helper
        # script under proot + qemu ("can't open file .../_in_process.py").
        _proot_checked(builder, trial.out, ["tar", "-xzf", f"/wheels/{sdist.name}", "-C",
                                            "/root"], binds=[(trial.wheels, "/wheels")])
        # Debian's gcc driver misreports its children under proot + qemu: pi_trial_cc.py
        # runs cc1, as and ld itself (tools/pi_trial_cc.py).
        shutil.copyfile(Path(__file__).with_name("pi_trial_cc.py"),
                        builder / "usr/local/bin/pi-trial-cc")
        (builder / "usr/local/bin/pi-trial-cc").chmod(0o755)
        _proot_checked(builder, trial.out,
                       ["env", "PYPI=1", "CC=/usr/local/bin/pi-trial-cc",
                        "LDSHARED=/usr/local/bin/pi-trial-cc -shared", "python3", "setup.py",
                        "bdist_wheel", "-d", "/wheels"], cwd=f"/root/lgpio-{LGPIO_VERSION}",
                       binds=[(trial.wheels, "/wheels")])
        remove_root(builder, trial.out)
        wheel = lgpio_wheel(trial)
        if wheel is None:
            raise StepFailed(f"no lgpio wheel in {trial.wheels} after the build")
    else:
        trial.say(f"cached: {wheel.name} (built from PyPI's sdist with Debian's swig)")
    trial.inside(["python3", "-m", "pip", "install", "--break-system-packages", "--no-index",
                  "--no-deps", f"/wheels/{wheel.name}"], binds=[(trial.wheels, "/wheels")])


def _proot_checked(root: Path, out: TextIO, argv: Sequence[str], *, timeout: float = 3600,
                   cwd: str = "/", binds: Sequence[tuple[Path, str]] = ()) -> int:
    return run_proot(root, SPEC, argv, out=out, timeout=timeout, cwd=cwd, binds=binds)


def download_sdist(trial: Trial) -> Path:
    """PyPI's lgpio sdist into the wheels folder, its sha256 checked against PyPI's record."""
    with urllib.request.urlopen(LGPIO_JSON, timeout=120) as answer:
        project = json.load(answer)
    sdist = next(f for f in project["releases"][LGPIO_VERSION] if f["packagetype"] == "sdist")
    target: Path = trial.wheels / str(sdist["filename"])
    trial.say(f"  downloading {sdist['url']}")
    with urllib.request.urlopen(sdist["url"], timeout=300) as answer:  # noqa: S310 (https)
        data = answer.read()
    if hashlib.sha256(data).hexdigest() != sdist["digests"]["sha256"]:
        raise StepFailed(f"{sdist['filename']}: sha256 differs from PyPI's record")
    target.write_bytes(data)
    return target


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


def step_idle(trial: Trial) -> None:
    trial.figures["load_before_bench"] = wait_for_idle(
        idle_load=trial.idle_load, patience=trial.idle_wait, say=trial.say)


def step_bench(trial: Trial) -> None:
    reports, loads = [], []
    for run in range(1, trial.repeats + 1):
        before = load_average()
        report = json.loads(trial.inside([COMPANION, "bench", "--short", "--json"],
                                         timeout=1800))
        loads.append({"run": run, "load_before": round(before, 2),
                      "load_after": round(load_average(), 2)})
        trial.say(f"bench run {run}/{trial.repeats}: load {loads[-1]['load_before']} -> "
                  f"{loads[-1]['load_after']}")
        reports.append(report)
    trial.figures["bench_runs"] = reports
    trial.figures["bench_load"] = loads
    trial.figures["bench"] = median_report(reports)
    trial.figures["bench_note"] = f"{EMULATED}; medians of {len(reports)} short runs"


def step_imports(trial: Trial) -> None:
    report = trial.inside([VENV_PYTHON, "-c", "from companion.bench.startup import "
                           "print_import_times; print_import_times()"], timeout=1800)
    trial.say(report.rstrip())
    trial.figures["run_import_times"] = report


STEPS: tuple[tuple[str, Callable[[Trial], None]], ...] = (
    ("root: arm64 trixie", step_root),
    ("fresh copy of the root", step_fresh),
    ("lgpio stand-in", step_lgpio),
    ("boot partition files", step_boot),
    ("tools/install.py", step_install),
    ("companion doctor", step_doctor),
    ("whole Now Boarding game", step_game),
    ("wait for an idle machine", step_idle),
    ("bench --short --json x3", step_bench),
    ("import times of run", step_imports),
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
        lines.append(f"\nbench --short ({trial.figures.get('bench_note', EMULATED)}):")
        idle = trial.figures.get("load_before_bench")
        if isinstance(idle, dict):
            lines.append(f"  load before: {json.dumps(idle)}")
        for load in trial.figures.get("bench_load", []):
            lines.append(f"  load during run {load['run']}: {load['load_before']} -> "
                         f"{load['load_after']}")
        for key, value in bench.items():
            if key not in ("machine", "startup_heaviest_imports"):
                lines.append(f"  {key}: {json.dumps(value)}")
        lines.append("\ntargets under emulation (medians):")
        lines += [f"  {what:<46}{json.dumps(value):>10}  {verdict}"
                  for what, value, verdict in emulation_verdict(bench)]
    imports = trial.figures.get("run_import_times")
    if isinstance(imports, str):
        lines.append("\nslowest imports of run (cumulative us), inside the root:")
        lines += [f"  {line.strip()}" for line in slowest_imports(imports)]
    return "\n".join(lines)


def slowest_imports(report: str, count: int = 12) -> list[str]:
    """The ``count`` lines of an ``-X importtime`` report with the most cumulative time."""
    rows = []
    for line in report.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), line))
    return [line for _, line in sorted(rows, reverse=True)[:count]]


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description="The companion on an emulated arm64 Debian "
                                                 "13 (trixie): install, doctor, a game, bench.")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the step times and the figures to FILE")
    parser.add_argument("--repeats", type=int, default=3, metavar="N",
                        help="short bench runs whose medians are reported (default 3)")
    parser.add_argument("--idle-load", type=float, default=IDLE_LOAD, metavar="LOAD",
                        help=f"load average that counts as idle (default {IDLE_LOAD})")
    parser.add_argument("--idle-wait", type=float, default=900.0, metavar="SECONDS",
                        help="how long to wait for it before measuring anyway (default 900)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    if os.geteuid() != 0:
        parser.error("run it as root (debootstrap; the root's files are root's): "
                     "sudo tools/pi-trial")
    trial = Trial(cache=cache_dir(), out=out, repeats=args.repeats, idle_load=args.idle_load,
                  idle_wait=args.idle_wait)
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
