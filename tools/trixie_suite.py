#!/usr/bin/env python3
"""The whole test suite on Debian 13 "trixie" (Python 3.13, what a trixie Raspberry Pi runs), at
native speed: `tools/test --python3.13 [pytest args]` runs this.

Promises:
- Standard library only; needs root (debootstrap, chroot, bind mounts).
- The root is an amd64 (this machine's architecture) trixie built by tools/debian_root.py from
  Debian's packages (minbase + python3, python3-venv, python3-pip, git), then Debian's
  chromium, systemd (systemd-analyze) and iproute2 (ip netns) installed into it once; all
  cached outside the checkout, as is the 3.13 venv inside it (/opt/companion-venv), so a
  second run is warm.
- The checkout's working tree (not .git, .venv or caches) is copied fresh into the root for
  every run, with the workspace's shared/ beside it when there is one; the checkout itself is
  never written.
- Inside, it runs exactly `tools/test` (ruff, mypy, import-linter, the wiring check and the full
  pytest, browser tests included: none is skipped) under `chroot` with /proc, /dev, /dev/pts,
  /dev/shm and /sys bound. Leaving, even on failure or SIGTERM, stops what still runs inside,
  unmounts every bind and checks with findmnt that nothing stays mounted (debian_chroot.Chroot).
- Prints each step with its result and seconds, and the interpreter that ran; exits with the
  suite's status (pytest's 5, "no tests collected", included), 1 if a step before it failed.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from debian_chroot import Chroot
from debian_root import RootError, RootSpec, build, ensure_packages, mounts_below

CHECKOUT = Path(__file__).resolve().parent.parent
SPEC = RootSpec(suite="trixie", include=("python3", "python3-venv", "python3-pip", "git"))
# chromium: the browser tests; systemd: systemd-analyze checks the unit; iproute2: `ip netns`
# for the LAN-client tests (tests/web/test_netns.py); openssh-client: ssh-keygen makes the card's
# host key (tests/deploy/test_card_setup.py); device-tree-compiler: dtc and fdtoverlay build
# and apply the card's own overlays (tests/deploy/test_card_overlays.py). Without them those
# tests would not pass.
EXTRA_PACKAGES = ("chromium", "systemd", "iproute2", "openssh-client", "device-tree-compiler")
SOURCE_INSIDE = "/opt/companion-src"
VENV_INSIDE = "/opt/companion-venv"
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                     "__pycache__", ".*_cache", ".hypothesis", "out")
INTERPRETER = ("import platform, sys; "
               "print(platform.python_implementation(), platform.python_version(), sys.executable)")


def copy_checkout(root: Path, source: Path = CHECKOUT) -> Path:
    """A fresh copy of the working tree at SOURCE_INSIDE (never a mount point), and of the
    workspace's shared/ folder beside it when the checkout has one beside it (the lessons'
    own-words tests read the rulebooks there, as they do outside)."""
    target = root / SOURCE_INSIDE.lstrip("/")
    _replace_with_copy(source, target)
    shared = source.parent / "shared"
    if shared.is_dir():
        _replace_with_copy(shared, target.parent / "shared")
    return target


def _replace_with_copy(source: Path, target: Path) -> None:
    if target.exists():
        if mounts_below(target):
            raise RootError(f"{target} has something mounted below it: not replacing it")
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=COPY_IGNORE, symlinks=True)


def summary(rows: Sequence[tuple[str, str, float]], out: TextIO) -> None:
    """The step table: step, result, seconds."""
    out.write(f"\n{'step':<28}{'result':<10}{'seconds':>8}\n")
    for step, result, seconds in rows:
        out.write(f"{step:<28}{result:<10}{seconds:>8.1f}\n")
    out.flush()


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    pytest_args = list(sys.argv[1:] if argv is None else argv)
    if os.geteuid() != 0:
        out.write("tools/test --python3.13 needs root (debootstrap, chroot, bind mounts): "
                  "sudo tools/test --python3.13\n")
        return 2
    rows: list[tuple[str, str, float]] = []
    status = 1

    def step(name: str, work: Callable[[], object]) -> object:
        started = time.monotonic()
        try:
            result = work()
        except BaseException:
            rows.append((name, "FAILED", time.monotonic() - started))
            raise
        rows.append((name, "ok", time.monotonic() - started))
        return result

    try:
        root = step("trixie root", lambda: build(SPEC, out=out))
        assert isinstance(root, Path)
        with Chroot(root, out) as inside:
            step(", ".join(EXTRA_PACKAGES),
                 lambda: ensure_packages(root, EXTRA_PACKAGES, inside.run, out))
            step("copy the checkout", lambda: copy_checkout(root))
            inside.run(["python3", "-c", INTERPRETER], timeout=60)
            started = time.monotonic()
            status = inside.run(["env", f"COMPANION_VENV={VENV_INSIDE}", "bash", "tools/test",
                                 *pytest_args], cwd=SOURCE_INSIDE, timeout=3600, check=False)
            rows.append(("tools/test on Python 3.13", "ok" if status == 0 else f"exit {status}",
                         time.monotonic() - started))
    except (RootError, OSError, KeyboardInterrupt) as exc:
        out.write(f"trixie suite: {exc}\n")
        status = status or 1
    summary(rows, out)
    return status


if __name__ == "__main__":
    sys.exit(main())
