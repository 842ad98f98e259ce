"""Running a script of protocol lines through the ``companion simulate`` subprocess.

The tests import this as ``tests.e2e.simulate_support`` (pytest's importlib mode never lets
one test module import another).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def simulate_script(lines: list[str], tmp_path: Path, name: str = "script.txt",
                    timeout: float = 300) -> list[str]:
    """``companion simulate SCRIPT`` over ``lines`` (written to ``tmp_path / name``, the
    state in ``tmp_path / "sim"``): it exits 0 with one reply per line; the replies. What
    each reply must say is the caller's to check."""
    script = tmp_path / name
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "companion", "simulate", str(script),
                          "--state-dir", str(tmp_path / "sim")],
                         capture_output=True, text=True, timeout=timeout, check=False)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    replies = run.stdout.splitlines()
    assert len(replies) == len(lines), run.stdout[-2000:]
    return replies
