"""tools/proot_syscalls.py: proot runs behind a seccomp filter that refuses, with ENOSYS, the
path calls proot 5.1 passes through untranslated (statx, faccessat2, openat2, fchmodat2), so
that qemu and the C library fall back to the calls proot translates; every other call works."""

import importlib
import platform
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "proot_syscalls.py"
sys.path.insert(0, str(ROOT / "tools"))
ps = importlib.import_module("proot_syscalls")

# The filter's numbers are x86_64's: the machine the tools build arm64 roots on.
ON_X86_64 = platform.machine() == "x86_64"


def _decode(program: bytes) -> list[tuple[int, int, int, int]]:
    return [struct.unpack("=HBBI", program[i:i + 8]) for i in range(0, len(program), 8)]


def _run_bpf(program: bytes, arch: int, nr: int, flags: int = 0) -> int:
    """A tiny classic-BPF interpreter for the four opcodes the filter uses; `flags` is the
    call's third argument (statx's flags)."""
    insns = _decode(program)
    data = struct.pack("=iIQ6Q", nr, arch, 0, 0, 0, flags, 0, 0, 0)
    pc, acc = 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        if code == ps.LD_W_ABS:
            acc = struct.unpack_from("=I", data, k)[0]
            pc += 1
        elif code == ps.JEQ_K:
            pc += 1 + (jt if acc == k else jf)
        elif code == ps.JSET_K:
            pc += 1 + (jt if acc & k else jf)
        elif code == ps.RET_K:
            return k
        else:
            raise AssertionError(f"unknown opcode {code:#x}")


@pytest.mark.parametrize(("arch", "nr", "verdict"), [
    (ps.AUDIT_ARCH_X86_64, 332, ps.SECCOMP_RET_ERRNO | ps.ENOSYS),   # statx on a path
    (ps.AUDIT_ARCH_X86_64, 437, ps.SECCOMP_RET_ERRNO | ps.ENOSYS),   # openat2
    (ps.AUDIT_ARCH_X86_64, 439, ps.SECCOMP_RET_ERRNO | ps.ENOSYS),   # faccessat2
    (ps.AUDIT_ARCH_X86_64, 452, ps.SECCOMP_RET_ERRNO | ps.ENOSYS),   # fchmodat2
    (ps.AUDIT_ARCH_X86_64, 269, ps.SECCOMP_RET_ALLOW),               # faccessat
    (ps.AUDIT_ARCH_X86_64, 262, ps.SECCOMP_RET_ALLOW),               # newfstatat
    (ps.AUDIT_ARCH_X86_64, 257, ps.SECCOMP_RET_ALLOW),               # openat
    (ps.AUDIT_ARCH_X86_64, 59, ps.SECCOMP_RET_ALLOW),                # execve
    (0x40000003, 332, ps.SECCOMP_RET_ALLOW),                         # i386: not ours
])
def test_proot_syscalls_filter_refuses_only_the_untranslated_calls(arch, nr, verdict):
    assert _run_bpf(ps.filter_program(), arch, nr) == verdict


@pytest.mark.parametrize(("flags", "verdict"), [
    (0, ps.SECCOMP_RET_ERRNO | ps.ENOSYS),                       # statx(dirfd, "path", 0)
    (0x100, ps.SECCOMP_RET_ERRNO | ps.ENOSYS),                   # AT_SYMLINK_NOFOLLOW
    (ps.AT_EMPTY_PATH, ps.SECCOMP_RET_ALLOW),                    # statx(fd, "", AT_EMPTY_PATH)
    (ps.AT_EMPTY_PATH | 0x100, ps.SECCOMP_RET_ALLOW),
])
def test_proot_syscalls_statx_on_a_file_descriptor_is_allowed(flags, verdict):
    # No path to translate; systemd's chase() needs the real statx's mount id there.
    assert _run_bpf(ps.filter_program(), ps.AUDIT_ARCH_X86_64, 332, flags) == verdict


_PROBE = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(256)
rc = libc.syscall(332, -100, b"/", 0, 0x7ff, buf)           # statx(AT_FDCWD, "/")
print(rc, ctypes.get_errno(), os.access(sys.argv[1], os.W_OK), os.stat(sys.argv[1]).st_size)
"""


def test_proot_syscalls_statx_says_enosys_and_the_older_calls_still_work(tmp_path):
    target = tmp_path / "file"
    target.write_bytes(b"12345")
    done = subprocess.run([sys.executable, str(TOOL), sys.executable, "-c", _PROBE,
                           str(target)], capture_output=True, text=True, check=True,
                          timeout=60)
    rc, errno, writable, size = done.stdout.split()
    if ON_X86_64:
        assert (rc, int(errno)) == ("-1", ps.ENOSYS)
    else:  # elsewhere the tool runs the command unfiltered
        assert rc == "0"
    assert writable == "True" and size == "5"


def test_proot_syscalls_without_the_filter_statx_works(tmp_path):
    done = subprocess.run([sys.executable, "-c", _PROBE, str(tmp_path)], capture_output=True,
                          text=True, check=True, timeout=60)
    assert done.stdout.split()[0] == "0"


def test_proot_syscalls_passes_the_exit_status_through():
    done = subprocess.run([sys.executable, str(TOOL), sys.executable, "-c",
                           "raise SystemExit(7)"], check=False, timeout=60)
    assert done.returncode == 7


def test_proot_syscalls_without_a_command_is_a_usage_error():
    done = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 2 and "usage" in done.stderr
