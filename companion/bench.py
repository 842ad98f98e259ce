"""``companion bench``: the box's performance figures, each beside its target (CONTRACT.md 5).

What it promises:

- One run measures everything, on the real code paths: the real :class:`EventLoop` on the
  real monotonic clock, gpiozero ``MockFactory`` pins, and the real luma ``ssd1306`` driver
  with partial updates on a recording I2C bus (the bus takes no time; see "work" below).
- ``--json`` prints one object. A figure with a target is an object holding the figure
  (``value``, or the percentiles ``p50``/``p99``/``max``/``min``), ``target`` (the same
  shape: a number is an upper bound; for a distribution, a dict of bounds on its keys, where
  ``min`` is a lower bound) and ``met`` (true/false). ``targets_met`` is true when every
  target is met. Figures without a target (the naive loop, the machine) carry none.
- Exit status 0 when the bench ran, whatever the figures; 1 only if the bench itself broke.
- ``--short`` scales the real-time parts down (fewer and shorter phases, shorter windows) to
  run in well under a minute (about 40 s), for CI; the full run takes about four minutes.

What is measured (full run; ``--short`` in brackets):

- ``timer_end_error_ms``: 20 [3] round-timer flights of 5 s, started by a NEXT press on a mock
  pin, through the real event loop, with the display drawn every second: alarm start (the
  buzzer's first ``tone`` call of the ``alarm`` tune) minus the countdown's deadline.
- ``naive_sleep_loop_end_error_ms``: the same phases timed by ``sleep(1)`` per second and
  drawing the same frames through the same display, in a worker process at the same time.
- ``work_countdown_end_error_ms``: a 120 s [8 s] countdown through the real event loop whose
  display blocks 30 ms on every frame (``time.sleep``, as an I2C transfer blocks), in a worker
  process; ``naive_sleep_loop_work_end_error_ms`` is the naive loop doing the same work.
- ``input_to_frame_ms``: 200 [40] button releases (``MockPin.drive_high``; a short press fires
  on release) in the menu, from the edge to the end of the new frame's ``show``.
- ``frame_bytes_full`` / ``frame_bytes_timer_tick``: I2C bytes (address + control + payload
  per transaction, luma's own smbus2 bus on a Pi) of a full SSD1306 frame and of the ticks of
  a 120 s countdown (mean; median and max beside), with the bus time at 100 and 400 kHz
  (9 bits a byte plus start and stop). ``panel_matches_full_redraw``: every tick applied to a
  model of the panel RAM equals the frame, for SSD1306 and SH1106.
- ``idle_cpu_percent``: process CPU time / wall time over 10 s [2 s] in the menu and 10 s
  [2 s] after a flight (the worse one is ``value``); ``flight_cpu_percent``: the same over the
  flights of ``timer_end_error_ms``.
- ``rss_mb``: peak RSS (``ru_maxrss``) of a worker that plays 300 [40] games on a fake clock
  (round timer and whole Now Boarding games, journal on disk, partial SSD1306 display);
  ``memory_growth`` compares its RSS and Python's allocated blocks after the first tenth of
  the games with the end. ``run_rss_mb`` is the peak RSS of ``companion run --backend fake``.
- ``startup_to_ready_s``: median over 7 [3] runs (after one warm-up) of
  ``python -m companion run --backend fake`` from start to its ``ready`` line;
  ``startup_heaviest_imports`` lists the slowest imports from one ``-X importtime`` run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import subprocess

# Only the standard library above: the command line imports this module to build its parser.

TARGETS: dict[str, Any] = {
    "timer_end_error_ms": {"min": 0.0, "p99": 2.0, "max": 5.0},
    "work_countdown_end_error_ms": {"min": 0.0, "max": 2.0},
    "input_to_frame_ms": {"p99": 5.0},
    "frame_bytes_timer_tick": 0.15,  # of a full frame
    "frame_bytes_unchanged": 0,
    "idle_cpu_percent": 0.5,
    "flight_cpu_percent": 2.0,
    "rss_mb": 40.0,
    "memory_growth_mb": 1.0,
    "startup_to_ready_s": 0.3,
}

FULL: dict[str, Any] = {"phases": 20, "phase_seconds": 5, "work_seconds": 120, "presses": 200,
        "idle_window": 10.0, "startups": 7, "games": 300}
SHORT: dict[str, Any] = {"phases": 3, "phase_seconds": 5, "work_seconds": 8, "presses": 40,
         "idle_window": 2.0, "startups": 3, "games": 40}
WORK_PER_FRAME = 0.030
I2C_CLOCKS = (100_000, 400_000)


# -- the command line --------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``bench`` subcommand's options."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--short", action="store_true",
                        help="a scaled-down run (well under a minute) that checks the bench "
                             "works; its figures are rougher")


def main(args: argparse.Namespace) -> int:
    """Run the bench; 0 when it ran (targets met or not), 1 when the bench itself broke."""
    try:
        report = run(short=bool(args.short), progress=None if args.json else _progress)
    except Exception as error:  # the bench broke: say so, exit 1
        import traceback

        traceback.print_exc()
        print(f"companion bench: failed: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report))
    else:
        print(format_report(report))
    return 0


def _progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


# -- the run -----------------------------------------------------------------------------------


def run(*, short: bool, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every figure, as the JSON object ``--json`` prints."""
    import tempfile

    say = progress or (lambda _message: None)
    plan = SHORT if short else FULL
    report: dict[str, Any] = {"mode": "short" if short else "full", "machine": machine()}
    started = time.perf_counter()

    say("start-up")
    report.update(measure_startup(plan["startups"]))

    say("display bus")
    report.update(measure_display_bus())

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as temporary:
        workers = {
            "naive_phases": start_worker(["naive", str(plan["phases"]),
                                          str(plan["phase_seconds"]), "0"]),
            "naive_work": start_worker(["naive", "1", str(plan["work_seconds"]),
                                        str(WORK_PER_FRAME)]),
            "work": start_worker(["work", str(plan["work_seconds"]),
                                  str(Path(temporary) / "work")]),
        }
        say(f"event loop: idle, {plan['presses']} presses, {plan['phases']} flights "
            f"(workers: naive loop, {plan['work_seconds']} s countdown with work)")
        loop_figures = run_loop_scenario(Path(temporary) / "loop", plan)
        say("waiting for the workers")
        results = {name: finish_worker(process) for name, process in workers.items()}
        say(f"long session: {plan['games']} games on a fake clock")
        session = finish_worker(start_worker(["session", str(plan["games"]),
                                              str(Path(temporary) / "session")]))

    report["timer_end_error_ms"] = with_target(
        {**distribution(loop_figures["end_errors_ms"]),
         "of_which_p50": {"wake_ms": round(percentile(loop_figures["wake_ms"], 0.5), 3),
                          "journal_write_ms": round(
                              percentile(loop_figures["journal_write_ms"], 0.5), 3)},
         "journal_dir": tempfile.gettempdir()}, "timer_end_error_ms")
    report["naive_sleep_loop_end_error_ms"] = distribution(results["naive_phases"]["errors_ms"])
    report["work_countdown_end_error_ms"] = with_target(
        {**distribution(results["work"]["errors_ms"]), "seconds": plan["work_seconds"],
         "journal_write_ms": round(max(results["work"]["journal_write_ms"]), 3),
         "work_per_frame_ms": WORK_PER_FRAME * 1000}, "work_countdown_end_error_ms")
    report["naive_sleep_loop_work_end_error_ms"] = distribution(results["naive_work"]["errors_ms"])
    report["input_to_frame_ms"] = with_target(
        distribution(loop_figures["input_ms"]), "input_to_frame_ms")
    idle = max(loop_figures["menu_cpu_percent"], loop_figures["between_cpu_percent"])
    report["idle_cpu_percent"] = scalar(idle, "idle_cpu_percent",
                                        menu=loop_figures["menu_cpu_percent"],
                                        between_phases=loop_figures["between_cpu_percent"],
                                        window_s=plan["idle_window"])
    report["flight_cpu_percent"] = scalar(loop_figures["flight_cpu_percent"],
                                          "flight_cpu_percent",
                                          work_countdown=results["work"]["cpu_percent"])
    report["rss_mb"] = scalar(session["rss_mb"], "rss_mb", games=plan["games"],
                              bench_process=round(peak_rss_mb(), 1))
    report["memory_growth"] = scalar(
        session["rss_growth_mb"], "memory_growth_mb", unit="MB",
        allocated_blocks_per_game=session["blocks_per_game"],
        from_game=session["from_game"], to_game=plan["games"])
    report["bench_seconds"] = round(time.perf_counter() - started, 1)
    report["targets_met"] = all(
        figure["met"] for figure in report.values()
        if isinstance(figure, dict) and "met" in figure)
    return report


# -- shaping figures ---------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (p99 of 20 values is the largest)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, math.ceil(round(fraction * len(ordered), 9)))
    return ordered[min(rank, len(ordered)) - 1]


def distribution(values: Sequence[float]) -> dict[str, Any]:
    return {"p50": round(percentile(values, 0.50), 3), "p99": round(percentile(values, 0.99), 3),
            "max": round(max(values), 3), "min": round(min(values), 3), "n": len(values)}


def with_target(figures: dict[str, Any], name: str) -> dict[str, Any]:
    bounds = TARGETS[name]
    met = all(figures[key] >= bound if key == "min" else figures[key] <= bound
              for key, bound in bounds.items())
    return {**figures, "target": bounds, "met": met}


def scalar(value: float, name: str, **extra: Any) -> dict[str, Any]:
    target = TARGETS[name]
    return {"value": round(value, 3), "target": target, "met": value <= target, **extra}


def machine() -> dict[str, Any]:
    import platform

    return {"platform": platform.platform(), "machine": platform.machine(),
            "python": platform.python_version(), "implementation":
            platform.python_implementation(), "cpu_count": os.cpu_count()}


def peak_rss_mb() -> float:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def current_rss_mb() -> float:
    """Resident memory now (Linux /proc; elsewhere the peak, which only grows)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return peak_rss_mb()
    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


# -- start-up ----------------------------------------------------------------------------------


def run_command(state_dir: str) -> list[str]:
    return [sys.executable, "-m", "companion", "run", "--backend", "fake",
            "--state-dir", state_dir, "--serial", "none"]


def time_to_ready(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting ``command`` to its ``ready`` line, and its peak RSS in MB."""
    import subprocess

    started = time.perf_counter()
    # Our own interpreter running our own package: no untrusted input.
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL,  # noqa: S603
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=environment)
    assert process.stdout is not None
    try:
        while True:
            line = process.stdout.readline()
            if not line:
                raise RuntimeError(f"{' '.join(command)} exited before printing ready")
            if line.strip() == b"ready":
                break
        elapsed = time.perf_counter() - started
        process.terminate()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if process.returncode is None:
            process.kill()
            process.wait()
        process.stdout.close()
    peak = usage.ru_maxrss / (1024 * 1024) if sys.platform == "darwin" else usage.ru_maxrss / 1024
    return elapsed, peak


def measure_startup(runs: int) -> dict[str, Any]:
    import tempfile

    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryDirectory(prefix="companion-bench-start-") as state_dir:
        command = run_command(state_dir)
        time_to_ready(command, environment)  # warm the caches (pyc, page cache, journal)
        timings = [time_to_ready(command, environment) for _ in range(runs)]
        heaviest = heaviest_imports(command, environment)
    seconds = sorted(elapsed for elapsed, _ in timings)
    median = seconds[len(seconds) // 2]
    return {
        "startup_to_ready_s": scalar(median, "startup_to_ready_s", min=round(seconds[0], 3),
                                     max=round(seconds[-1], 3), runs=runs),
        "run_rss_mb": round(max(peak for _, peak in timings), 1),
        "startup_heaviest_imports": heaviest,
    }


def heaviest_imports(command: list[str], environment: dict[str, str],
                     count: int = 8) -> list[dict[str, Any]]:
    """The top-level imports that took longest (cumulative ms) in one ``-X importtime`` run."""
    import subprocess

    process = subprocess.Popen([command[0], "-X", "importtime", *command[1:]],  # noqa: S603
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environment)
    assert process.stdout is not None
    process.stdout.readline()
    process.terminate()
    _, errors = process.communicate(timeout=30)
    modules: list[tuple[int, str]] = []
    for line in errors.decode(errors="replace").splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        _, cumulative, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip()) - 1) // 2  # " " + two spaces a level
        if depth <= 1:
            modules.append((int(cumulative), name.strip()))
    modules.sort(reverse=True)
    return [{"module": name, "ms": round(micro / 1000, 1)} for micro, name in modules[:count]]


# -- the display bus ---------------------------------------------------------------------------


class CountingBus:
    """An smbus-like bus that only counts (a long session must not keep every write)."""

    def __init__(self) -> None:
        self.writes = 0
        self.bytes = 0

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.writes += 1
        self.bytes += 2 + len(data)

    def close(self) -> None:
        pass


def partial_ssd1306(bus: Any) -> Any:
    """luma's real ssd1306 driver on ``bus``, with partial updates."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    from companion.adapters.partial import with_partial_updates

    return with_partial_updates(ssd1306(serial_interface=i2c(bus=bus, address=0x3C)))


def countdown_frames(seconds: int) -> list[Any]:
    """The round timer's frames, one a second, from the real views on a fake clock."""
    import tempfile

    from companion.scenes import run_scene

    with tempfile.TemporaryDirectory(prefix="companion-bench-frames-") as state_dir:
        controller = run_scene((f"new timer seconds={seconds}", "press next"), Path(state_dir))
        try:
            display: Any = controller.display
            frames = [display.frames[-1]]
            for _ in range(seconds):
                controller.command_line("wait 1")
                frames.append(display.frames[-1])
        finally:
            controller.journal.close()
    return frames


def measure_display_bus() -> dict[str, Any]:
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    from companion.adapters.partial import SimulatedPanel, WireCost, wire_cost, with_partial_updates
    from companion.testing.recording import RecordingI2CBus

    frames = countdown_frames(120)
    matches = True
    tick_costs: list[WireCost] = []
    full = WireCost(0, 0)
    unchanged = 0
    for driver, column_offset in ((ssd1306, 0), (sh1106, 2)):
        bus = RecordingI2CBus()
        device = with_partial_updates(driver(serial_interface=i2c(bus=bus, address=0x3C)))
        panel = SimulatedPanel(driver.__name__)
        panel.apply(bus.writes)  # the driver's init: addressing mode, the first clear
        for index, frame in enumerate(frames):
            bus.clear()
            device.display(frame)
            panel.apply(bus.writes)
            if driver is ssd1306:
                if index == 0:
                    full = wire_cost(bus.writes)
                else:
                    tick_costs.append(wire_cost(bus.writes))
            matches = matches and panel.image(128, column_offset).tobytes() == \
                frame.convert("1").tobytes()
        bus.clear()
        device.display(frames[-1].copy())
        unchanged += wire_cost(bus.writes).bytes
    tick_bytes = sorted(cost.bytes for cost in tick_costs)
    mean = sum(tick_bytes) / len(tick_bytes)
    worst = max(tick_costs, key=lambda cost: cost.bytes)
    typical = tick_costs[len(tick_costs) // 2]

    def bus_ms(cost: WireCost) -> dict[str, float]:
        return {f"{hz // 1000}kHz": round(cost.seconds(hz) * 1000, 2) for hz in I2C_CLOCKS}

    limit = TARGETS["frame_bytes_timer_tick"] * full.bytes
    return {
        "frame_bytes_full": {"value": full.bytes, "bus_ms": bus_ms(full),
                             "transactions": full.transactions},
        "frame_bytes_timer_tick": {
            "value": round(mean, 1), "median": tick_bytes[len(tick_bytes) // 2],
            "max": tick_bytes[-1], "ticks": len(tick_bytes),
            "share_of_full": round(mean / full.bytes, 4),
            "bus_ms": bus_ms(WireCost(typical.transactions, tick_bytes[len(tick_bytes) // 2])),
            "bus_ms_max": bus_ms(worst),
            "target": round(limit, 1), "met": mean <= limit},
        "frame_bytes_unchanged": {"value": unchanged, "target": 0, "met": unchanged == 0},
        "panel_matches_full_redraw": {"value": matches, "target": True, "met": matches},
    }


# -- the event loop scenario -------------------------------------------------------------------


class BenchDisplay:
    """The frame sink the controller draws on: a real :class:`Display` (partial SSD1306 on a
    counting bus), optional blocking work per frame, and when each frame was finished."""

    def __init__(self, work: float = 0.0) -> None:
        import threading

        from companion.adapters.oled import Display

        self.display = Display(partial_ssd1306(CountingBus()))
        self.work = work
        self.frame_done = 0.0
        self.frame = threading.Event()
        self.controller: Any = None
        self.deadline: float | None = None  # monotonic deadline of the running countdown

    def show(self, image: Any, text: Any = ()) -> bool:
        if self.work:
            time.sleep(self.work)
        sent = self.display.show(image)
        self.frame_done = time.perf_counter()
        controller = self.controller
        if controller is not None:
            countdown = controller.app.countdown(controller.state)
            if countdown is not None and countdown.deadline is not None:
                self.deadline = countdown.deadline + controller.offset
        self.frame.set()
        return sent

    def blank(self) -> None:
        self.display.blank()


class BenchBuzzer:
    """The real (mock-pin) buzzer; notes when the ``alarm`` tune starts."""

    def __init__(self, inner: Any, display: BenchDisplay) -> None:
        import threading

        self.inner = inner
        self.display = display
        self.controller: Any = None
        self.alarm = threading.Event()
        self.errors_ms: list[float] = []
        self.woke = 0.0  # when the loop last called tick()
        self.journal_ms = 0.0  # how long the last journal append took
        self.wake_ms: list[float] = []  # deadline -> the tick that expired the countdown
        self.journal_write_ms: list[float] = []  # the Expire action's journal write

    def tone(self, frequency: float | None) -> None:
        now = time.monotonic()
        controller = self.controller
        if (frequency is not None and controller is not None and controller.played
                and controller.played[-1] == "alarm" and not self.alarm.is_set()
                and self.display.deadline is not None):
            self.errors_ms.append((now - self.display.deadline) * 1000)
            self.wake_ms.append((self.woke - self.display.deadline) * 1000)
            self.journal_write_ms.append(self.journal_ms)
            self.alarm.set()
        self.inner.tone(frequency)

    def close(self) -> None:
        self.inner.close()


class Rig:
    """The real wiring (bootstrap) on the real clock, with the bench's display and buzzer."""

    def __init__(self, state_dir: Path, work: float = 0.0) -> None:
        import io
        import random

        from companion.adapters.clock import MonotonicClock
        from companion.bootstrap import build_controller, build_hardware
        from companion.config import defaults
        from companion.runtime import EventLoop

        config = defaults()
        self.loop: Any = None

        def on_edge(button: Any, pressed: bool) -> None:
            if self.loop is not None:
                self.loop.post_edge(button, pressed)

        self.hardware = build_hardware(config, "fake", on_edge=on_edge)
        self.display = BenchDisplay(work)
        self.buzzer = BenchBuzzer(self.hardware.buzzer, self.display)
        self.hardware.display = self.display
        self.hardware.buzzer = self.buzzer
        state_dir.mkdir(parents=True, exist_ok=True)
        self.controller = build_controller(config, self.hardware, clock=MonotonicClock(),
                                           state_dir=state_dir, rng=random.Random(1))
        self.display.controller = self.controller
        self.buzzer.controller = self.controller
        self._instrument()
        self.loop = EventLoop(self.controller, out=io.StringIO())

    def _instrument(self) -> None:
        """Time the loop's wake-ups and the journal's writes (instance attributes wrapping
        the real methods; nothing else changes), so a late alarm can be explained."""
        controller, buzzer = self.controller, self.buzzer
        tick, append = controller.tick, controller.journal.append

        def timed_tick(now: float | None = None) -> None:
            buzzer.woke = time.monotonic()
            tick(now)

        def timed_append(*arguments: Any) -> Any:
            started = time.perf_counter()
            try:
                return append(*arguments)
            finally:
                buzzer.journal_ms = (time.perf_counter() - started) * 1000

        controller.tick = timed_tick  # type: ignore[method-assign]
        controller.journal.append = timed_append  # type: ignore[method-assign,assignment]

    def pin(self, name: str) -> Any:
        from companion.core.buttons import Button

        return self.hardware.buttons.devices[Button(name)].pin

    def line(self, text: str) -> None:
        from companion.protocol.lines import Line
        from companion.runtime import LineEvent

        # As the serial reader does: take a queue slot, which the loop gives back.
        slots = getattr(self.loop, "line_slots", None)
        if slots is not None:
            slots.acquire()
        self.loop.post(LineEvent(Line(text)))

    def click(self, name: str, hold: float = 0.045) -> float:
        """Press and release; seconds from the release edge to the end of the new frame."""
        pin = self.pin(name)
        pin.drive_low()
        time.sleep(hold)  # past the debounce window, so the release acts at once
        self.display.frame.clear()
        started = time.perf_counter()
        pin.drive_high()
        if not self.display.frame.wait(2.0):
            raise RuntimeError(f"no frame after pressing {name}")
        return self.display.frame_done - started

    def cpu_percent(self, seconds: float) -> float:
        """This process's CPU time over ``seconds`` of waiting, in percent of one core."""
        cpu, wall = time.process_time(), time.perf_counter()
        time.sleep(seconds)
        return 100 * (time.process_time() - cpu) / (time.perf_counter() - wall)

    def flight(self, seconds: float) -> tuple[float, float]:
        """One countdown started with NEXT; (CPU seconds, wall seconds) until the alarm."""
        self.buzzer.alarm.clear()
        cpu, wall = time.process_time(), time.perf_counter()
        self.click("next")
        if not self.buzzer.alarm.wait(seconds + 5):
            raise RuntimeError("the alarm did not sound")
        return time.process_time() - cpu, time.perf_counter() - wall

    def run(self, script: Callable[[Rig], None]) -> None:
        """The event loop on this (main) thread; ``script`` on another; then close."""
        import threading

        failure: list[BaseException] = []

        def drive() -> None:
            try:
                script(self)
            except BaseException as error:
                failure.append(error)
            finally:
                self.loop.stop("bench done")

        driver = threading.Thread(target=drive, name="bench-driver", daemon=True)
        driver.start()
        try:
            self.loop.run()
        finally:
            driver.join(10)
            self.controller.journal.close()
            self.hardware.close()
        if failure:
            raise failure[0]


def run_loop_scenario(state_dir: Path, plan: dict[str, Any]) -> dict[str, Any]:
    """Idle in the menu, button presses, flights, idle after a flight (see the docstring)."""
    rig = Rig(state_dir)
    figures: dict[str, Any] = {}

    def script(rig: Rig) -> None:
        time.sleep(0.5)  # the first frame and the journal settle
        figures["menu_cpu_percent"] = rig.cpu_percent(plan["idle_window"])
        latencies = []
        for index in range(plan["presses"]):
            latencies.append(rig.click("down" if index % 2 == 0 else "up") * 1000)
            time.sleep(0.04)
        figures["input_ms"] = latencies
        rig.display.frame.clear()
        rig.line(f"new timer seconds={plan['phase_seconds']}")
        if not rig.display.frame.wait(2.0):
            raise RuntimeError("the round timer did not start")
        time.sleep(0.2)
        cpu = wall = 0.0
        for _ in range(plan["phases"]):
            used, elapsed = rig.flight(plan["phase_seconds"])
            cpu += used
            wall += elapsed
            time.sleep(0.3)
        figures["flight_cpu_percent"] = 100 * cpu / wall
        time.sleep(1.5)  # the alarm tune ends
        figures["between_cpu_percent"] = rig.cpu_percent(plan["idle_window"])
        figures["end_errors_ms"] = list(rig.buzzer.errors_ms)
        figures["wake_ms"] = list(rig.buzzer.wake_ms)
        figures["journal_write_ms"] = list(rig.buzzer.journal_write_ms)

    rig.run(script)
    return figures


# -- workers (separate processes) --------------------------------------------------------------


def start_worker(arguments: list[str]) -> subprocess.Popen[bytes]:
    import subprocess

    code = "import sys; from companion.bench import worker; sys.exit(worker(sys.argv[1:]))"
    return subprocess.Popen([sys.executable, "-c", code, *arguments],  # noqa: S603
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)


def finish_worker(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    output, _ = process.communicate(timeout=900)
    if process.returncode != 0:
        raise RuntimeError(f"bench worker {process.args!r} failed ({process.returncode})")
    result: dict[str, Any] = json.loads(output)
    return result


def worker(arguments: Sequence[str]) -> int:
    """A bench worker: ``naive N SECONDS WORK``, ``work SECONDS DIR``, ``session GAMES DIR``;
    prints one JSON object."""
    kind, *rest = arguments
    if kind == "naive":
        result = naive_worker(int(rest[0]), int(rest[1]), float(rest[2]))
    elif kind == "work":
        result = work_worker(int(rest[0]), Path(rest[1]))
    elif kind == "session":
        result = session_worker(int(rest[0]), Path(rest[1]))
    else:
        raise ValueError(f"unknown bench worker {kind!r}")
    print(json.dumps(result))
    return 0


def naive_countdown(seconds: int, show: Callable[[Any], Any], work: float) -> float:
    """The naive way: draw, ``sleep(1)``, count down; seconds late at the 'alarm'."""
    from companion.ui.render import render
    from companion.ui.screen import Screen
    from companion.ui.views.timer import clock_text

    started = time.monotonic()
    for left in range(seconds, 0, -1):
        show(render(Screen("Round timer", big=clock_text(left),
                           caption="NEXT end  hold NEXT pause", status="Round 1  BACK menu")))
        if work:
            time.sleep(work)
        time.sleep(1)
    return time.monotonic() - (started + seconds)


def naive_worker(phases: int, seconds: int, work: float) -> dict[str, Any]:
    from companion.adapters.oled import Display

    display = Display(partial_ssd1306(CountingBus()))
    errors = []
    for _ in range(phases):
        errors.append(naive_countdown(seconds, display.show, work) * 1000)
        time.sleep(0.3)
    return {"errors_ms": errors}


def work_worker(seconds: int, state_dir: Path) -> dict[str, Any]:
    rig = Rig(state_dir, work=WORK_PER_FRAME)
    figures: dict[str, Any] = {}

    def script(rig: Rig) -> None:
        time.sleep(0.5)
        rig.display.frame.clear()
        rig.line(f"new timer seconds={seconds}")
        if not rig.display.frame.wait(2.0):
            raise RuntimeError("the round timer did not start")
        time.sleep(0.2)
        used, elapsed = rig.flight(seconds)
        figures["cpu_percent"] = round(100 * used / elapsed, 3)
        figures["errors_ms"] = list(rig.buzzer.errors_ms)
        figures["journal_write_ms"] = list(rig.buzzer.journal_write_ms)

    rig.run(script)
    return figures


def session_lines() -> list[str]:
    """One round of the long session: a round timer to its alarm, and a whole Now Boarding
    game (the scene that plays to a loss), with waits on the fake clock."""
    from companion.ui.views.now_boarding import SCENES

    return ["new timer seconds=30", "press next", "wait 31", "press next", "wait 12",
            "hold next", "wait 3", "hold next", "wait 20", *SCENES["now-boarding-lose"],
            "wait 60", "press back"]


def session_worker(games: int, state_dir: Path) -> dict[str, Any]:
    import gc
    import random

    from companion.adapters.journal import Journal
    from companion.adapters.oled import Display
    from companion.core.app import App
    from companion.games.registry import playable_games, scorers
    from companion.runtime import Controller
    from companion.testing.clock import FakeClock
    from companion.testing.recording import RecordingBuzzer

    state_dir.mkdir(parents=True, exist_ok=True)
    buzzer = RecordingBuzzer()
    controller = Controller(App(playable_games()), Journal.in_directory(state_dir), FakeClock(),
                            Display(partial_ssd1306(CountingBus())), buzzer,
                            rng=random.Random(1), scorers=scorers(), simulated=True)
    lines = session_lines()
    first = max(1, games // 10)
    rss_first = blocks_first = 0.0
    for game in range(1, games + 1):
        for line in lines:
            controller.command_line(line)
        buzzer.tones.clear()  # the recorder's own log, not the box's state
        if game == first:
            gc.collect()
            rss_first, blocks_first = current_rss_mb(), sys.getallocatedblocks()
    gc.collect()
    rss_last, blocks_last = current_rss_mb(), sys.getallocatedblocks()
    controller.journal.close()
    return {"rss_mb": round(peak_rss_mb(), 2), "from_game": first,
            "rss_growth_mb": round(rss_last - rss_first, 3),
            "blocks_per_game": round((blocks_last - blocks_first) / max(1, games - first), 2)}


# -- text report -------------------------------------------------------------------------------


def format_report(report: dict[str, Any]) -> str:
    """The figures as aligned lines, targets and a mark for each."""
    lines = [f"companion bench ({report['mode']}) on {report['machine']['platform']}, "
             f"Python {report['machine']['python']}, {report['machine']['cpu_count']} CPUs"]
    for name, figure in report.items():
        if name in ("mode", "machine", "targets_met") or not isinstance(figure, dict):
            continue
        shown = {key: value for key, value in figure.items() if key not in ("target", "met")}
        mark = "" if "met" not in figure else ("  ok" if figure["met"] else "  MISSED")
        target = f"  target {figure['target']}" if "target" in figure else ""
        lines.append(f"{name:36s} {json.dumps(shown)}{target}{mark}")
    for name in ("run_rss_mb", "startup_heaviest_imports"):
        if name in report:
            lines.append(f"{name:36s} {json.dumps(report[name])}")
    lines.append(f"all targets met: {report['targets_met']} "
                 f"({report.get('bench_seconds', '?')} s)")
    return "\n".join(lines)
