"""The image build's shell: timed steps, logged commands, host tools, and the shared cache.

Promises:
- `Clock` times each named step and prints it as it ends (`[  12.3 s] step: detail`), so
  every tool says how long each part took.
- `run` and `run_in` run an argument list (never a shell) with a timeout, logged; `run_in`
  inside a root under proot + qemu-aarch64-static (no binfmt handler, no mount on the host).
  A failure is a `BuildError` naming the command.
- `ensure_host_tools` installs the Debian packages of the host tools that are missing.
- `cache_dir` is tools/debian_root.py's cache; `cache_lock` lets one build at a time use it.
- `copy_tree` copies a finished root, refusing one with anything mounted below it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import debian_root
import pi_trial

from pi_image import progress

# Host tools, Debian package -> a program it provides. `ensure_host_tools` installs the missing.
HOST_TOOLS = {
    "debootstrap": "debootstrap", "proot": "proot", "qemu-user-static": "qemu-aarch64-static",
    "e2fsprogs": "mke2fs", "dosfstools": "mkfs.vfat", "mtools": "mcopy", "fdisk": "sfdisk",
    "util-linux": "findmnt", "systemd": "systemd-tmpfiles", "device-tree-compiler": "dtc",
}
QEMU_SYSTEM = {"qemu-system-arm": "qemu-system-aarch64"}


class BuildError(RuntimeError):
    """A step failed; the message says which and why."""


@dataclass
class Clock:
    """Times named steps and prints each one as it ends: `[  12.3 s] step: detail`."""

    out: TextIO = sys.stdout
    steps: list[tuple[str, float, str]] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    beat_s: float = progress.BEAT_S

    @contextmanager
    def step(self, name: str, log: TextIO | None = None, packages: int | None = None,
             root: Path | None = None) -> Iterator[list[str]]:
        """Time the block; the block may append words to the yielded list (the detail).

        While it runs, a progress line every `beat_s` seconds (progress.Heartbeat): with the
        step's `log`, the packages installed in `root` so far (or set up, of `packages`, as
        the log says) and the log's last line."""
        detail: list[str] = []
        begin = time.monotonic()
        self.say(f"-- {name} ...")
        counted = progress.LogProgress(log, packages, root) if log is not None else None
        with progress.Heartbeat(self.say, name, counted, every=self.beat_s):
            yield detail
        took = time.monotonic() - begin
        self.steps.append((name, took, " ".join(detail)))
        self.say(f"[{took:7.1f} s] {name}{': ' + ' '.join(detail) if detail else ''}")

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def total(self) -> float:
        return time.monotonic() - self.started

    def summary(self) -> str:
        lines = [f"{'step':<58} {'seconds':>8}  detail"]
        lines += [f"{name[:58]:<58} {took:8.1f}  {detail}" for name, took, detail in self.steps]
        lines.append(f"{'total':<58} {self.total():8.1f}")
        return "\n".join(lines)


def ensure_host_tools(clock: Clock, tools: dict[str, str] = HOST_TOOLS) -> None:
    """Install the host's missing tools from Debian (as root), or say which are missing."""
    missing = [pkg for pkg, program in tools.items() if shutil.which(
        program, path=debian_root.PATH_INSIDE) is None]
    if not missing:
        return
    if os.geteuid() != 0:
        raise BuildError(f"missing tools: sudo apt-get install {' '.join(missing)}")
    with clock.step(f"host: apt-get install {' '.join(missing)}"):
        env = {"PATH": debian_root.PATH_INSIDE, "DEBIAN_FRONTEND": "noninteractive"}
        for argv in (["apt-get", "update", "-qq"],
                     ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing]):
            done = subprocess.run(argv, env=env, timeout=1800, check=False)  # noqa: S603
            if done.returncode != 0:
                raise BuildError(f"{' '.join(argv)} exited {done.returncode}")


def cache_dir() -> Path:
    """This package's cache folder (beside tools/debian_root.py's roots, never in the checkout)."""
    return debian_root.cache_dir() / "pi-image"


@contextmanager
def cache_lock(clock: Clock) -> Iterator[None]:
    """Hold the cache folder's lock: one build at a time (a second one waits, and says so)."""
    cache_dir().mkdir(parents=True, exist_ok=True)
    with (cache_dir() / ".lock").open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            clock.say(f"(another build holds {cache_dir() / '.lock'}: waiting for it)")
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def run(argv: Sequence[str], *, timeout: float, log: TextIO | None = None,
        cwd: Path | None = None, stdin_file: Path | None = None) -> str:
    """Run a host command (no shell); its standard output, or BuildError naming it.

    With `log` the output goes there as it comes and "" is returned."""
    stdin = stdin_file.open("rb") if stdin_file else subprocess.DEVNULL
    try:
        done = subprocess.run(list(argv), stdin=stdin,  # noqa: S603 (a list, no shell)
                              stdout=log if log else subprocess.PIPE,
                              stderr=subprocess.STDOUT if log else subprocess.PIPE,
                              text=True, timeout=timeout, cwd=cwd,
                              env={"PATH": debian_root.PATH_INSIDE, "LANG": "C.UTF-8"},
                              check=False)
    except subprocess.TimeoutExpired as exc:
        raise BuildError(f"{argv[0]}: no answer within {timeout:.0f} s") from exc
    except FileNotFoundError as exc:
        raise BuildError(f"{argv[0]} is not installed (apt-get install it)") from exc
    finally:
        if stdin_file:
            stdin.close()  # type: ignore[union-attr]
    if done.returncode != 0:
        raise BuildError(f"{' '.join(argv[:4])} ... exited {done.returncode}\n"
                         f"{(done.stderr or done.stdout or '')[-3000:]}")
    return done.stdout or ""


def run_in(root: Path, argv: Sequence[str], *, log: TextIO, timeout: float = 3600,
           env: dict[str, str] | None = None,
           binds: Sequence[tuple[Path, str]] = ()) -> None:
    """Run `argv` inside the arm64 `root` (proot + qemu-user); BuildError if it fails."""
    try:
        debian_root.run_proot(root, pi_trial.SPEC, argv, out=log, timeout=timeout, env=env,
                              binds=binds)
    except debian_root.RootError as exc:
        raise BuildError(str(exc)) from exc


def copy_tree(source: Path, target: Path) -> None:
    """A copy keeping owners, modes, links and device nodes (what mke2fs -d will read).

    Refuses a source with anything mounted below it (a /proc left by a build would be read
    as files)."""
    mounted = debian_root.mounts_below(source)
    if mounted:
        raise BuildError(f"not copying {source}: still mounted below it: {', '.join(mounted)}")
    if target.exists():
        shutil.rmtree(target)
    run(["cp", "-a", "--reflink=auto", str(source), str(target)], timeout=1800)
