#!/usr/bin/env python3
"""The compiler and linker tools/pi-trial hands to setup.py inside the emulated arm64 root.

Under proot + qemu-aarch64-static, Debian's gcc driver reports failure although its children
(cc1, as) work when run directly; this stands in for the driver for the two shapes setup.py
uses: `cc ... -c SRC -o OBJ` (cc1, then as) and `cc -shared OBJS... -o OUT -lNAME` (ld).
Used only there, as CC and LDSHARED; standard library only.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

CC1 = "/usr/libexec/gcc/aarch64-linux-gnu/14/cc1"
CC1_FLAGS = ("-I", "-D", "-U", "-O", "-f", "-W", "-g", "-m", "-std", "-isystem")


def compile_one(args: list[str]) -> int:
    out = args[args.index("-o") + 1]
    source = next(a for a in args if a.endswith(".c"))
    flags = ["-D_REENTRANT" if a == "-pthread" else a for a in args
             if a.startswith(CC1_FLAGS) or a == "-pthread"]
    with tempfile.TemporaryDirectory() as tmp:
        asm = str(Path(tmp) / "out.s")
        done = subprocess.run(  # noqa: S603 (an argument list, no shell)
            [CC1, "-quiet", "-imultiarch", "aarch64-linux-gnu", *flags, source, "-o", asm],
            check=False)
        if done.returncode:
            return done.returncode
        return subprocess.run(["as", asm, "-o", out], check=False).returncode  # noqa: S603,S607


def link(args: list[str]) -> int:
    out = args[args.index("-o") + 1]
    inputs = [a for a in args if a.endswith((".o", ".a"))]
    libs = [a for a in args if a.startswith(("-l", "-L"))]
    return subprocess.run(["ld", "-shared", "-o", out, *inputs, *libs,  # noqa: S603,S607
                           "-lpthread", "-lc"], check=False).returncode


def main() -> int:
    args = sys.argv[1:]
    if "-c" in args:
        return compile_one(args)
    if "-shared" in args:
        return link(args)
    sys.stderr.write(f"pi_trial_cc: not a compile or a shared link: {args}\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
