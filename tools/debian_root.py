#!/usr/bin/env python3
"""Debian roots built from Debian's own packages, cached outside the checkout, and commands run
inside them: the machinery of tools/pi-trial and tools/test --python3.13.

    python3 tools/debian_root.py build --suite trixie --arch arm64     print the root's path
    python3 tools/debian_root.py run --suite trixie --arch arm64 -- python3 -V
    python3 tools/debian_root.py remove --suite trixie --arch arm64

Promises:
- Standard library only (it runs with the distribution's python3). No shell: every command is
  an argument list, printed before it runs, with a timeout.
- A root is built once by `debootstrap` from a Debian mirror (Debian's packages only: it says
  so, and how long it took) and cached under `cache_dir()`: $COMPANION_CACHE, else
  $XDG_CACHE_HOME/companion, else /var/cache/companion as root, else ~/.cache/companion. Never
  inside the checkout. A root is built in NAME.partial and renamed when complete, so a cached
  root is always a finished one; its recipe (suite, arch, packages) is in its name.
- A foreign architecture (arm64 on x86) is built with `debootstrap --foreign`, and its second
  stage and every later command run under `proot -q qemu-<arch>-static`. No binfmt handler is
  registered and no kernel-wide setting changes. proot runs with a clean environment and `-r`
  (not `-S`, which binds $HOME, where this machine's x86 Python would then win on PATH).
- A native root runs commands under `chroot`: debian_chroot.py's `Chroot`, which leaves
  nothing mounted below the root.
- debootstrap mounts /proc inside the root it builds (a real mount on the host, even under
  proot, since we are root): a build unmounts everything below the root before it is cached.
- `remove_root` deletes a root only after `findmnt` shows nothing mounted below it, so an
  `rm -rf` can never reach the host's /dev or /proc through a bind.
- Inside, pip trusts this machine's CA bundle (copied into the root) and never looks in the
  host's wheel folder (PIP_FIND_LINKS is cleared).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

DEFAULT_MIRROR = "http://deb.debian.org/debian"
HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
ROOT_CA_BUNDLE = "/etc/ssl/certs/companion-host-ca.crt"
CHROOT_BINDS = ("/proc", "/dev", "/dev/pts", "/dev/shm", "/sys")  # noqa: S108 (a bind)
PATH_INSIDE = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
QEMU_ARCH = {"arm64": "aarch64", "armhf": "arm", "amd64": "x86_64", "i386": "i386"}
# proot, behind the seccomp filter of tools/proot_syscalls.py (the host's python3: stdlib only).
PROOT_SYSCALLS = Path(__file__).resolve().with_name("proot_syscalls.py")
PROOT = (sys.executable, str(PROOT_SYSCALLS), "proot")
_DPKG_ARCH = {"x86_64": "amd64", "aarch64": "arm64", "armv7l": "armhf", "i686": "i386"}


class RootError(Exception):
    """A root could not be built, entered or left cleanly; the message says which step."""


def host_arch() -> str:
    """This machine's Debian architecture name (amd64, arm64, ...)."""
    machine = os.uname().machine
    return _DPKG_ARCH.get(machine, machine)


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where roots are cached: never inside the checkout."""
    env = os.environ if env is None else env
    if env.get("COMPANION_CACHE"):
        return Path(env["COMPANION_CACHE"])
    if env.get("XDG_CACHE_HOME"):
        return Path(env["XDG_CACHE_HOME"]) / "companion"
    if os.geteuid() == 0:
        return Path("/var/cache/companion")
    return Path.home() / ".cache" / "companion"


@dataclass(frozen=True)
class RootSpec:
    """The recipe of a root: the same recipe gives the same cached folder."""

    suite: str = "trixie"
    arch: str = field(default_factory=host_arch)
    include: tuple[str, ...] = ("python3", "python3-venv", "python3-pip")
    variant: str = "minbase"

    @property
    def foreign(self) -> bool:
        return self.arch != host_arch()

    @property
    def name(self) -> str:
        recipe = " ".join((self.variant, *sorted(self.include)))
        digest = hashlib.sha256(recipe.encode()).hexdigest()[:10]
        return f"debian-{self.suite}-{self.arch}-{digest}"

    def path(self, cache: Path | None = None) -> Path:
        return (cache_dir() if cache is None else cache) / self.name


def _say(out: TextIO, text: str) -> None:
    out.write(text + "\n")
    out.flush()


def run_logged(argv: Sequence[str], out: TextIO, *, timeout: float,
               env: Mapping[str, str] | None = None, cwd: Path | None = None,
               check: bool = True) -> int:
    """Print the command, run it (no shell, with a timeout), return its exit status."""
    _say(out, "  $ " + " ".join(argv))
    try:
        done = subprocess.run(  # noqa: S603 (an argument list, no shell)
            list(argv), timeout=timeout, env=None if env is None else dict(env), cwd=cwd,
            check=False)
    except subprocess.TimeoutExpired as exc:
        raise RootError(f"{argv[0]}: no answer after {timeout:.0f} s") from exc
    except OSError as exc:
        raise RootError(f"{argv[0]}: {exc}") from exc
    if check and done.returncode != 0:
        raise RootError(f"{' '.join(argv[:3])} ... exited {done.returncode}")
    return done.returncode


def run_captured(argv: Sequence[str], out: TextIO, *, timeout: float,
                 env: Mapping[str, str] | None = None) -> tuple[int, str]:
    """Like run_logged, but return the standard output too (also echoed, after it ends)."""
    _say(out, "  $ " + " ".join(argv))
    try:
        done = subprocess.run(  # noqa: S603 (an argument list, no shell)
            list(argv), timeout=timeout, env=None if env is None else dict(env),
            capture_output=True, text=True, check=False)
    except subprocess.TimeoutExpired as exc:
        raise RootError(f"{argv[0]}: no answer after {timeout:.0f} s") from exc
    except OSError as exc:
        raise RootError(f"{argv[0]}: {exc}") from exc
    for stream in (done.stdout, done.stderr):
        if stream:
            out.write(stream if stream.endswith("\n") else stream + "\n")
    out.flush()
    return done.returncode, done.stdout


# The host programs each tool needs, and the Debian package that has it.
HOST_PACKAGES = {"debootstrap": "debootstrap", "proot": "proot",
                 "qemu-aarch64-static": "qemu-user-static", "findmnt": "util-linux",
                 "mount": "mount", "umount": "mount", "chroot": "coreutils", "cp": "coreutils"}


def _require(*tools: str, out: TextIO = sys.stdout) -> None:
    """The host programs are there; as root on Debian, apt-get installs the missing ones
    (CI starts on a fresh machine)."""
    missing = [t for t in tools if shutil.which(t) is None]
    if missing and os.geteuid() == 0 and shutil.which("apt-get"):
        packages = sorted({HOST_PACKAGES.get(t, t) for t in missing})
        _say(out, f"Installing on this machine (Debian packages): {' '.join(packages)}")
        apt_env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run_logged(["apt-get", "update", "-qq"], out, timeout=900, env=apt_env, check=False)
        run_logged(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
                   out, timeout=1800, env=apt_env, check=False)
        missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        raise RootError(f"missing {', '.join(missing)}: sudo apt-get install "
                        f"{' '.join(sorted({HOST_PACKAGES.get(t, t) for t in missing}))}")


def qemu_for(spec: RootSpec) -> str:
    """The qemu-user binary that runs the root's programs (a foreign root only)."""
    name = f"qemu-{QEMU_ARCH.get(spec.arch, spec.arch)}-static"
    _require(name)
    found = shutil.which(name)
    if found is None:
        raise RootError(f"{name} not found: sudo apt-get install qemu-user-static")
    return found


def mounts_below(root: Path) -> list[str]:
    """Every mount point at or below `root` (findmnt's view of the kernel's table)."""
    done = subprocess.run(["findmnt", "--list", "--noheadings", "--output", "TARGET"],  # noqa: S607
                          capture_output=True, text=True, timeout=60, check=True)
    prefix = str(root.resolve())
    return [t for t in done.stdout.splitlines()
            if t == prefix or t.startswith(prefix.rstrip("/") + "/")]


def unmount_below(root: Path, out: TextIO = sys.stdout) -> None:
    """Unmount everything at or below `root`, deepest first (lazily if busy), then check."""
    for target in reversed(mounts_below(root)):
        if run_logged(["umount", target], out, timeout=60, check=False):
            run_logged(["umount", "-l", target], out, timeout=60, check=False)
    still = mounts_below(root)
    if still:
        raise RootError(f"still mounted below {root}: {', '.join(still)}")


def remove_root(root: Path, out: TextIO = sys.stdout,
                mounts: Callable[[Path], list[str]] = mounts_below) -> None:
    """Delete a root, but only once nothing is mounted below it (`mounts` lists what is)."""
    if not root.exists():
        return
    still = mounts(root)
    if still:
        raise RootError(f"not deleting {root}: still mounted below it: {', '.join(still)}")
    _say(out, f"  - {root}")
    shutil.rmtree(root)


def prepare_for_pip(root: Path) -> None:
    """This machine's CA bundle inside the root, for pip behind a TLS-inspecting proxy."""
    if HOST_CA_BUNDLE.exists():
        target = root / ROOT_CA_BUNDLE.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(HOST_CA_BUNDLE, target)


def inside_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A clean environment for commands inside a root (nothing of the host's Python leaks)."""
    env = {"PATH": PATH_INSIDE, "HOME": "/root", "LANG": "C.UTF-8", "TERM": "dumb",
           "DEBIAN_FRONTEND": "noninteractive", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PIP_CERT": ROOT_CA_BUNDLE, "SSL_CERT_FILE": ROOT_CA_BUNDLE, "PIP_FIND_LINKS": "",
           "PIP_DEFAULT_TIMEOUT": os.environ.get("PIP_DEFAULT_TIMEOUT", "180")}
    env.update(extra or {})
    return env


def build(spec: RootSpec, *, mirror: str = DEFAULT_MIRROR, cache: Path | None = None,
          out: TextIO = sys.stdout, rebuild: bool = False) -> Path:
    """The root for `spec`, from the cache or built now (Debian's packages only)."""
    final = spec.path(cache)
    if final.is_dir() and not rebuild:
        _say(out, f"Debian {spec.suite} {spec.arch} root: cached at {final}")
        return final
    if os.geteuid() != 0:
        raise RootError("building a Debian root needs root (debootstrap): run with sudo")
    _require("debootstrap", "findmnt", out=out)
    partial = final.with_name(final.name + ".partial")
    remove_root(partial, out)
    if rebuild:
        remove_root(final, out)
    partial.parent.mkdir(parents=True, exist_ok=True)
    include = ",".join(spec.include)
    _say(out, f"Debian {spec.suite} {spec.arch} root: building in {partial}; downloads Debian "
              f"packages only, from {mirror} ({spec.variant} + {include})")
    started = time.monotonic()
    argv = ["debootstrap", f"--variant={spec.variant}", f"--arch={spec.arch}",
            f"--include={include}"]
    if spec.foreign:
        _require("proot", out=out)
        qemu = qemu_for(spec)
        run_logged([*argv, "--foreign", spec.suite, str(partial), mirror], out, timeout=1800)
        _say(out, f"  first stage: {time.monotonic() - started:.0f} s; second stage under "
                  f"{Path(qemu).name} + proot (emulated, slow)")
        env = {**inside_env(), "DEBOOTSTRAP_DIR": "/debootstrap"}
        if run_logged([*PROOT, "-0", "-r", str(partial), "-q", qemu, "-b", "/dev", "-b",
                       "/proc", "-b", "/sys", "-w", "/", "/debootstrap/debootstrap",
                       "--second-stage"], out, timeout=3600, env=env, check=False):
            finish_configure(partial, spec, out)
    else:
        run_logged([*argv, spec.suite, str(partial), mirror], out, timeout=1800)
    # debootstrap mounts /proc (and more) inside the target; as real root even under proot.
    unmount_below(partial, out)
    prepare_for_pip(partial)
    partial.rename(final)
    _say(out, f"Debian {spec.suite} {spec.arch} root: built in "
              f"{time.monotonic() - started:.0f} s at {final}")
    return final


def finish_configure(root: Path, spec: RootSpec, out: TextIO = sys.stdout) -> None:
    """Finish a foreign second stage that proot cut short.

    proot (5.1, Debian 12) aborts on an assertion (path.c compare_paths2) when systemd's
    postinst runs `systemd-tmpfiles --create` under it, which stops debootstrap's second stage
    with packages unconfigured. Configure them with systemd-tmpfiles set aside (the postinst
    skips it when it is not executable; what it creates, /run and /var/log/journal entries,
    a booted system makes anyway), put it back, and tidy up as the second stage would."""
    tmpfiles = root / "usr/bin/systemd-tmpfiles"
    _say(out, "  the second stage stopped (proot aborts under systemd-tmpfiles): finishing "
              "with dpkg --configure -a, systemd-tmpfiles set aside meanwhile")
    mode = tmpfiles.stat().st_mode if tmpfiles.exists() else None
    if mode is not None:
        tmpfiles.chmod(mode & ~0o111)
    try:
        run_proot(root, spec, ["dpkg", "--configure", "-a"], out=out, timeout=3600)
    finally:
        if mode is not None:
            tmpfiles.chmod(mode)
    unmount_below(root, out)
    shutil.rmtree(root / "debootstrap", ignore_errors=True)


def proot_argv(root: Path, spec: RootSpec, argv: Sequence[str], *, cwd: str = "/",
               binds: Sequence[tuple[Path, str]] = ()) -> list[str]:
    """The proot command line that runs `argv` inside a (foreign) root as a fake root user.

    proot runs under tools/proot_syscalls.py, which refuses the path calls proot 5.1 does not
    translate (statx, faccessat2, ...) so that qemu and the C library use the older ones it
    does: without it, some calls inside looked at the host's paths."""
    cmd = [*PROOT, "-0", "-r", str(root)]
    if spec.foreign:
        cmd += ["-q", qemu_for(spec)]
    for host_dir in ("/dev", "/proc", "/sys"):  # proot binds: nothing mounted on the host
        cmd += ["-b", host_dir]
    for source, target in binds:
        cmd += ["-b", f"{source}:{target}"]
    return [*cmd, "-w", cwd, *argv]


def run_proot(root: Path, spec: RootSpec, argv: Sequence[str], *, out: TextIO = sys.stdout,
              timeout: float = 3600, cwd: str = "/", env: Mapping[str, str] | None = None,
              binds: Sequence[tuple[Path, str]] = (), check: bool = True) -> int:
    """Run `argv` inside the root under proot (and qemu for a foreign root)."""
    _require("proot", out=out)
    return run_logged(proot_argv(root, spec, argv, cwd=cwd, binds=binds), out,
                      timeout=timeout, env=inside_env(env), check=check)


def run_proot_captured(root: Path, spec: RootSpec, argv: Sequence[str], *,
                       out: TextIO = sys.stdout, timeout: float = 3600, cwd: str = "/",
                       env: Mapping[str, str] | None = None,
                       binds: Sequence[tuple[Path, str]] = ()) -> tuple[int, str]:
    """run_proot, returning (exit status, standard output)."""
    _require("proot", out=out)
    return run_captured(proot_argv(root, spec, argv, cwd=cwd, binds=binds), out,
                        timeout=timeout, env=inside_env(env))


def copy_root(source: Path, target: Path, out: TextIO = sys.stdout) -> Path:
    """A fresh copy of a cached root (ownership, links and modes kept), replacing `target`;
    never of a root with something mounted in it (cp would copy the host's /proc or /dev)."""
    busy = mounts_below(source)
    if busy:
        raise RootError(f"not copying {source}: mounted below it: {', '.join(busy)}")
    remove_root(target, out)
    target.parent.mkdir(parents=True, exist_ok=True)
    run_logged(["cp", "-a", "--reflink=auto", str(source), str(target)], out, timeout=1800)
    return target


STAMP_DIR = "/var/lib/companion-root"


def ensure_packages(root: Path, packages: Sequence[str], run: Callable[..., int],
                    out: TextIO = sys.stdout) -> bool:
    """Install Debian packages into a root once (a stamp inside remembers); `run` runs a
    command inside it (Chroot.run or a run_proot partial). True if it installed something."""
    stamp = root / STAMP_DIR.lstrip("/") / "packages"
    have = set(stamp.read_text(encoding="utf-8").split()) if stamp.exists() else set()
    missing = [p for p in packages if p not in have]
    if not missing:
        return False
    _say(out, f"Installing Debian packages into the root: {' '.join(missing)}")
    run(["apt-get", "update"], timeout=900)
    run(["apt-get", "install", "-y", "--no-install-recommends", *missing], timeout=3600)
    run(["apt-get", "clean"], timeout=300)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text("\n".join(sorted(have | set(missing))) + "\n", encoding="utf-8")
    return True


def _spec_from(args: argparse.Namespace) -> RootSpec:
    include = tuple(p for p in args.include.split(",") if p) if args.include else RootSpec().include
    return RootSpec(suite=args.suite, arch=args.arch, include=include)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line. 0: done, 1: a step failed, 2: bad usage."""
    parser = argparse.ArgumentParser(description="Build, enter or delete a cached Debian root.")
    parser.add_argument("action", choices=("build", "run", "remove", "path"))
    parser.add_argument("--suite", default="trixie")
    parser.add_argument("--arch", default=host_arch())
    parser.add_argument("--include", default="",
                        help="comma-separated packages (default: python3,python3-venv,"
                             "python3-pip)")
    parser.add_argument("--mirror", default=os.environ.get("COMPANION_DEBIAN_MIRROR",
                                                           DEFAULT_MIRROR))
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.command = command
    spec = _spec_from(args)
    try:
        if args.action == "path":
            print(spec.path())
        elif args.action == "build":
            print(build(spec, mirror=args.mirror))
        elif args.action == "remove":
            remove_root(spec.path())
        else:
            if not args.command:
                parser.error("run needs a command after --")
            root = build(spec, mirror=args.mirror)
            if spec.foreign:
                return run_proot(root, spec, args.command, check=False)
            from debian_chroot import Chroot  # it builds on this module

            with Chroot(root) as inside:
                return inside.run(args.command, check=False)
    except RootError as exc:
        print(f"debian_root: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
