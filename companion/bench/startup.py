"""Start-up: how long ``companion run --backend fake`` takes to say ``ready``, and why.

What is measured (full run; ``--short`` in brackets):

- ``startup_to_ready_s``: median over 7 [3] runs (after one warm-up) of
  ``python -m companion run --backend fake --serial none`` from start to its ``ready`` line,
  with the bytecode cached as on an installed box (see :func:`box_environment`). That is the
  default start off a Pi, so it includes the table page, which is on by default there
  (bound on 127.0.0.1, ``web=<url>`` printed before ``ready``); the figure says so
  (``"page": "on"``).
- ``startup_to_ready_no_web_s``: the same with ``--no-web``: the start a Pi makes, where the
  page is off unless configured (and the one ``startup_heaviest_imports`` reads).
- ``run_rss_mb``: the peak RSS of the default (page on) runs.
- ``startup_heaviest_imports``: the slowest top-level imports (cumulative ms) of one
  ``-X importtime`` run, to say where the start-up time goes.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from companion.bench.figures import process_peak_rss_mb, scalar


def run_command(state_dir: str, *, web: bool = True) -> list[str]:
    """``companion run`` on the fake backend with no serial line, its journal in
    ``state_dir``; ``web=False`` adds ``--no-web`` (the box as a Pi starts it)."""
    return [sys.executable, "-m", "companion", "run", "--backend", "fake",
            "--state-dir", state_dir, "--serial", "none", *(() if web else ("--no-web",))]


class RunningBox:
    """``command`` started and waited for until it prints ``ready``; :meth:`stop` ends it.

    Raises :class:`RuntimeError` (and leaves no process behind) if it exits before that."""

    def __init__(self, command: list[str], environment: dict[str, str]) -> None:
        import subprocess

        started = time.perf_counter()
        # Our own interpreter running our own package: no untrusted input.
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,  # noqa: S603
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env=environment)
        assert self.process.stdout is not None
        self.before_ready: list[bytes] = []  # what it printed first (web=<url>, serial=...)
        try:
            while True:
                line = self.process.stdout.readline()
                if not line:
                    raise RuntimeError(f"{' '.join(command)} exited before printing ready")
                if line.strip() == b"ready":
                    break
                self.before_ready.append(line)
        except BaseException:
            self._kill()
            raise
        self.seconds_to_ready = time.perf_counter() - started

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> float:
        """SIGTERM, wait, and the process's peak RSS in MB: its own ``VmHWM``, read just
        before the SIGTERM, where Linux gives it (``ru_maxrss`` at exit would count the
        bench's own peak, which a spawned process inherits: see
        :func:`~companion.bench.figures.peak_rss_mb`); elsewhere ``ru_maxrss``."""
        own = process_peak_rss_mb(self.process.pid)
        try:
            self.process.terminate()
            _, status, usage = os.wait4(self.process.pid, 0)
            self.process.returncode = os.waitstatus_to_exitcode(status)
        finally:
            self._kill()
        if own is not None:
            return own
        peak = usage.ru_maxrss
        return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024

    def _kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            self.process.wait()
        assert self.process.stdout is not None
        self.process.stdout.close()


def time_to_ready(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting ``command`` to its ``ready`` line, and its peak RSS in MB."""
    box = RunningBox(command, environment)
    return box.seconds_to_ready, box.stop()


def box_environment(pycache: str) -> dict[str, str]:
    """The environment a measured ``companion run`` gets: ours, its output unbuffered, and
    its bytecode cached under ``pycache``, as on an installed box (pip compiles the package
    when it installs it). A developer's shell may set ``PYTHONDONTWRITEBYTECODE``, and then
    every start would compile the package from source again (about 25 ms on x86) and the
    warm-up run would warm nothing; a private cache prefix keeps the source tree clean."""
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPYCACHEPREFIX": pycache}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def measure_startup(runs: int) -> dict[str, Any]:
    """``startup_to_ready_s`` (page on, the default off a Pi), ``startup_to_ready_no_web_s``,
    ``run_rss_mb`` and ``startup_heaviest_imports``."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="companion-bench-start-") as temporary:
        environment = box_environment(str(Path(temporary) / "pycache"))
        state = str(Path(temporary) / "state")
        figures: dict[str, list[tuple[float, float]]] = {}
        for web in (True, False):
            command = run_command(state, web=web)
            time_to_ready(command, environment)  # warm the caches (pyc, page cache, journal)
            figures["on" if web else "off"] = [time_to_ready(command, environment)
                                               for _ in range(runs)]
        heaviest = heaviest_imports(run_command(state, web=False), environment)
    report: dict[str, Any] = {}
    for page, name in (("on", "startup_to_ready_s"), ("off", "startup_to_ready_no_web_s")):
        seconds = sorted(elapsed for elapsed, _ in figures[page])
        median = seconds[len(seconds) // 2]
        report[name] = scalar(median, "startup_to_ready_s", min=round(seconds[0], 3),
                              max=round(seconds[-1], 3), runs=runs, page=page)
    report["run_rss_mb"] = round(max(peak for _, peak in figures["on"]), 1)
    report["startup_heaviest_imports"] = heaviest
    return report


def import_times(command: list[str], environment: dict[str, str],
                 timeout: float = 30) -> str:
    """Python's ``-X importtime`` report of ``command`` (a ``companion run``) up to its first
    line of output (``ready``, or ``web=``/``serial=`` just before it): one line per module,
    ``self [us] | cumulative | name``, the tree's depth in the name's indent."""
    import subprocess

    process = subprocess.Popen([command[0], "-X", "importtime", *command[1:]],  # noqa: S603
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environment)
    assert process.stdout is not None
    process.stdout.readline()
    process.terminate()
    _, errors = process.communicate(timeout=timeout)
    return errors.decode(errors="replace")


def print_import_times() -> None:
    """``companion run --backend fake --serial none --no-web`` (the start a Pi makes) under
    ``-X importtime``, its report on standard output: tools/pi-trial runs this inside the
    emulated root, so start-up cost under emulation is visible module by module."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="companion-importtime-") as temporary:
        environment = box_environment(str(Path(temporary) / "pycache"))
        command = run_command(str(Path(temporary) / "state"), web=False)
        import_times(command, environment, timeout=600)  # warm: bytecode compiled once
        print(import_times(command, environment, timeout=600), end="")


def heaviest_imports(command: list[str], environment: dict[str, str],
                     count: int = 8) -> list[dict[str, Any]]:
    """The top-level imports that took longest (cumulative ms) in one ``-X importtime`` run."""
    modules: list[tuple[int, str]] = []
    for line in import_times(command, environment).splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        _, cumulative, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip()) - 1) // 2  # " " + two spaces a level
        if depth <= 1:
            modules.append((int(cumulative), name.strip()))
    modules.sort(reverse=True)
    return [{"module": name, "ms": round(micro / 1000, 1)} for micro, name in modules[:count]]
