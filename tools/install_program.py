"""tools/install.py's steps that put the program on the box.

Promises:
- `install_packages`: the system packages with apt; lgpio from the distribution
  (python3-lgpio) wherever apt has it, never built from PyPI where PyPI has no wheel for the
  Python (`lgpio_without_apt` says why and stops).
- `add_groups`: the device groups the unit's SupplementaryGroups= names exist.
- `install_program`: the venv at /opt/companion/venv with the distribution's packages visible,
  the project installed into it; `check_lgpio` refuses to go on when lgpio does not import.
- `link_command`: /usr/local/bin/companion leads to the venv's script.
- `check_unit`: the unit file starts the program this installs (run before any change).
Standard library only; every command through the Installer (printed, a timeout, no shell).
"""

from __future__ import annotations

import grp
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

# Run as a script, Python puts this folder first on sys.path: the machinery sits beside it.
from install_files import (
    APT_PACKAGES,
    COMMAND_LINK,
    GROUPS,
    UNIT_NAME,
    VENV,
    Installer,
    InstallError,
    Options,
    source_text,
)

LGPIO_PACKAGE = "python3-lgpio"
# PyPI's lgpio has wheels for CPython 3.9-3.12 only; pyproject's `pi` extra carries the same bound.
LGPIO_WHEELS_BELOW = (3, 13)
LGPIO_CHECK = "import lgpio, gpiozero.pins.lgpio; print('lgpio', hex(lgpio.LGPIO_PY_VERSION))"



def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def check_unit(inst: Installer, options: Options) -> None:
    """Refuse a unit file that would not start the program this installs (before any change)."""
    if f"ExecStart={VENV}/bin/companion " not in source_text(inst, f"systemd/{UNIT_NAME}"):
        raise InstallError(f"systemd/{UNIT_NAME} does not start {VENV}/bin/companion")


def install_packages(inst: Installer, options: Options) -> None:
    """The system packages; lgpio from the distribution (python3-lgpio) wherever it has it."""
    apt_env = {"DEBIAN_FRONTEND": "noninteractive"}
    inst.run(["apt-get", "update"], timeout=900, env=apt_env)
    packages = list(APT_PACKAGES)
    if not inst.staging and apt_candidate(_query(["apt-cache", "policy", LGPIO_PACKAGE])) is None:
        packages.remove(LGPIO_PACKAGE)
        lgpio_without_apt(inst)
    inst.run(["apt-get", "install", "-y", "--no-install-recommends", *packages],
             timeout=1800, env=apt_env)


def apt_candidate(policy: str) -> str | None:
    """The version `apt-cache policy PACKAGE` would install, or None (unknown, or `(none)`)."""
    for line in policy.splitlines():
        key, _, value = line.strip().partition(":")
        if key == "Candidate":
            value = value.strip()
            return None if value in ("", "(none)") else value
    return None


def lgpio_without_apt(inst: Installer, version: tuple[int, int] | None = None,
                      imports_lgpio: Callable[[str], bool] | None = None) -> None:
    """python3-lgpio is not in this system's package sources (it comes from Raspberry Pi's
    archive, which Raspberry Pi OS has and plain Debian has not). On Python 3.13 and later
    PyPI's lgpio has no wheel and would build from source (it needs swig): never try that;
    use an lgpio already installed for the system's python3, or stop and say what to do.
    (`version` and `imports_lgpio` default to this Python and a real import: tests pass them.)"""
    version = (sys.version_info.major, sys.version_info.minor) if version is None else version
    imports_lgpio = _imports_lgpio if imports_lgpio is None else imports_lgpio
    if version < LGPIO_WHEELS_BELOW:
        inst.say(f"  ({LGPIO_PACKAGE} is not in the package sources: the `pi` extra installs "
                 "PyPI's lgpio wheel for this Python)")
        return
    if imports_lgpio(sys.executable):
        inst.say(f"  ({LGPIO_PACKAGE} is not in the package sources; the lgpio already "
                 "installed for python3 is used, the venv sees the system's site packages)")
        return
    raise InstallError(
        f"{LGPIO_PACKAGE} is not in this system's package sources, and PyPI's lgpio has no "
        f"wheel for Python {version[0]}.{version[1]} (pip would build "
        "it from source, which needs swig and fails without it). Raspberry Pi OS has it "
        "(from archive.raspberrypi.com): run the installer there, or install lgpio for "
        "python3 first; docs/pi-trial.md")


def _imports_lgpio(python: str) -> bool:
    """Whether `python` imports lgpio (in a scratch folder: lgpio leaves a FIFO where it runs)."""
    with tempfile.TemporaryDirectory(prefix="companion-lgpio-") as scratch:
        try:
            done = subprocess.run(  # noqa: S603 (an argument list, no shell)
                [python, "-c", "import lgpio"], cwd=scratch, capture_output=True,
                timeout=300, check=False, env={**os.environ, "LG_WD": scratch})
        except (OSError, subprocess.TimeoutExpired):
            return False
    return done.returncode == 0


def _query(argv: Sequence[str]) -> str:
    """The standard output of a read-only query (empty if it cannot run)."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True,  # noqa: S603
                              timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout


def add_groups(inst: Installer, options: Options) -> None:
    for group in GROUPS:
        if inst.staging or not _group_exists(group):
            inst.run(["groupadd", "--system", "-f", group], timeout=60)


def install_program(inst: Installer, options: Options) -> None:
    python = f"{VENV}/bin/python"
    if inst.staging or not Path(python).exists():
        inst.run([sys.executable, "-m", "venv", "--system-site-packages", VENV], timeout=600)
    if inst.staging:
        inst.run([python, "-m", "pip", "install", "--upgrade", f"{inst.source}[pi]"])
        return
    # Build from a copy, so pip (as root) leaves no build/ or *.egg-info in the checkout.
    with tempfile.TemporaryDirectory(prefix="companion-src-") as tmp:
        copy = Path(tmp) / "src"
        shutil.copytree(inst.source, copy, ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache"))
        inst.run([python, "-m", "pip", "install", "--upgrade", f"{copy}[pi]"], timeout=3600)
    inst.changed.append(VENV)


def check_lgpio(inst: Installer, options: Options) -> None:
    """The venv's Python imports lgpio and gpiozero's lgpio pins: the box's GPIO backend."""
    with tempfile.TemporaryDirectory(prefix="companion-lgpio-") as scratch:
        inst.run([f"{VENV}/bin/python", "-c", LGPIO_CHECK], timeout=600,
                 env={"LG_WD": scratch})


def link_command(inst: Installer, options: Options) -> None:
    """/usr/local/bin/companion -> the venv's script, so `companion doctor` just works."""
    link = inst.path(COMMAND_LINK)
    wanted = f"{VENV}/bin/companion"
    if link.is_symlink() and os.readlink(link) == wanted:
        inst.unchanged.append(COMMAND_LINK)
        inst.say(f"  = {COMMAND_LINK} (unchanged)")
        return
    if link.exists() and not link.is_symlink():
        inst.warnings.append(f"{COMMAND_LINK} exists and is not a link: left alone")
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.is_symlink():
        link.unlink()
    link.symlink_to(wanted)
    inst.changed.append(COMMAND_LINK)
    inst.say(f"  + {COMMAND_LINK} -> {wanted}")


