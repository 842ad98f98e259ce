#!/usr/bin/env python3
"""Run a command (proot) with the path system calls that proot 5.1 does not know refused.

    python3 tools/proot_syscalls.py proot -0 -r ROOT -q qemu-aarch64-static ... COMMAND

Why: Debian 12's and Debian 13's proot (5.1.0) translates the paths of the system calls it
knows, and passes every other one to the kernel untouched. qemu-user (7.2 here) runs an arm64
program's `stat`, `access` and `statx` through the host's C library, which now uses the newer
`faccessat2` (x86_64 number 439) and `statx` (332). proot 5.1 knows neither, so those calls
looked at the HOST's paths: inside the root, `os.access("/opt/companion/venv/...", W_OK)` said
"no such file" (so pip thought the venv unwritable and installed into /root/.local), and
trixie's coreutils (`ls`, `sort`, `cp`, which call statx) saw the host's files (so
update-initramfs wrote an initrd with no modules).

The fix, for this process and its children only: a seccomp filter that makes `statx`,
`faccessat2`, `openat2` and `fchmodat2` fail with ENOSYS ("this kernel has no such call"). The
host's C library and qemu then fall back to the older calls (`faccessat`, `newfstatat`,
`openat`, `fchmodat`), whose paths proot does translate. One exception: `statx` on a file
descriptor (`AT_EMPTY_PATH`, no path to translate) is allowed, because systemd 257 compares
mount ids from it (with qemu's fallback it asserted in chase(): systemd-sysusers,
systemd-tmpfiles and systemd-hwdb aborted in udev's maintainer script). proot stops a traced
call before the filter runs, and only then the filter refuses it, so nothing reaches the host
with an untranslated path.

Promises: standard library only (ctypes for prctl); the filter binds this process and what it
starts, nothing else (no kernel-wide setting, no binfmt); other architectures' calls and every
other call are allowed; it replaces itself with the command (exec), so exit status and signals
are the command's own.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
import sys
from collections.abc import Sequence

AUDIT_ARCH_X86_64 = 0xC000003E
# x86_64 numbers of the path calls proot 5.1 passes through untranslated.
REFUSED = {"statx": 332, "openat2": 437, "faccessat2": 439, "fchmodat2": 452}
ENOSYS = 38
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
# Classic BPF opcodes.
LD_W_ABS = 0x20
JEQ_K = 0x15
JSET_K = 0x45
ARGS_OFFSET = 16  # struct seccomp_data: nr, arch, instruction_pointer, then args[6]
AT_EMPTY_PATH = 0x1000
RET_K = 0x06


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def filter_program(numbers: Sequence[int] = tuple(REFUSED.values())) -> bytes:
    """The BPF program: on x86_64, ENOSYS for `numbers`, except a `statx` on a file
    descriptor (AT_EMPTY_PATH: no path to translate, and systemd needs its mount id); allow
    everything else."""
    others = [n for n in numbers if n != REFUSED["statx"]]
    count = len(others)
    # Layout: 0 arch, 1 arch test, 2 nr, 3 statx test, 4 flags, 5 flags test,
    # 6 .. 5+count the other tests, then "allow", then "refuse".
    allow = 6 + count
    refuse = allow + 1
    program = [
        _insn(LD_W_ABS, 0, 0, 4),                                 # seccomp_data.arch
        _insn(JEQ_K, 0, allow - 2, AUDIT_ARCH_X86_64),            # other arch: allow
        _insn(LD_W_ABS, 0, 0, 0),                                 # seccomp_data.nr
        _insn(JEQ_K, 0, 2, REFUSED["statx"]),                     # not statx: the others
        _insn(LD_W_ABS, 0, 0, ARGS_OFFSET + 2 * 8),               # statx's flags (low word)
        _insn(JSET_K, allow - 6, refuse - 6, AT_EMPTY_PATH),      # on an fd: allow
    ]
    for index, number in enumerate(others):
        at = 6 + index
        program.append(_insn(JEQ_K, refuse - at - 1, 0, number))
    program.append(_insn(RET_K, 0, 0, SECCOMP_RET_ALLOW))
    program.append(_insn(RET_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS))
    return b"".join(program)


def install_filter() -> None:
    """Apply the filter to this process (inherited by its children and across exec)."""
    if platform.machine() != "x86_64":
        return  # the numbers above are x86_64's; elsewhere run the command as it is
    libc = ctypes.CDLL(None, use_errno=True)
    program = filter_program()
    buffer = ctypes.create_string_buffer(program, len(program))

    class SockFprog(ctypes.Structure):
        _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))

    prog = SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if os.geteuid() != 0 and libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def main(argv: Sequence[str]) -> int:
    if not argv:
        sys.stderr.write("usage: proot_syscalls.py COMMAND [ARG...]\n")
        return 2
    install_filter()
    os.execvp(argv[0], list(argv))  # noqa: S606 (an argument list: the command to run)
    return 127  # not reached: execvp replaces this process or raises


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
