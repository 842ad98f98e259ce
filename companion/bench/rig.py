"""The rig: the real wiring (bootstrap.build_box) on the real monotonic clock, instrumented.

What it promises: the controller, the event loop, gpiozero ``MockFactory`` pins and luma's
real ``ssd1306`` driver with partial updates (on a counting I2C bus, which takes no time) are
the ones ``companion run`` uses; the rig only wraps the display and the buzzer to note when a
frame was finished and when the alarm started, and times the loop's wake-ups and the
journal's writes, so a late alarm can be explained. It may put the serial line on a
pseudo-terminal and the journal on the bench's modelled SD card (bench/game_press.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.bench.display_bus import CountingBus, partial_ssd1306


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

    def __init__(self, state_dir: Path, work: float = 0.0, web: bool = False,
                 serial: bool = False,
                 journal_opener: Callable[[Path], Any] | None = None, *,
                 public_mirror: bool = False) -> None:
        """``web``: the table page on 127.0.0.1 (a port of its own) with ``pair_loopback``,
        so each loopback address is an unpaired client (bench/web_flood.py). ``serial``: the
        serial line on a pseudo-terminal (``self.box.serial_path``). ``journal_opener``: the
        journal under another disk (bench/sd_card.py), else the real one as ``run`` opens it.
        ``public_mirror``: unpaired clients may watch (bench/guest_flood.py)."""
        import io
        import random

        from companion.adapters.clock import MonotonicClock
        from companion.adapters.journal import Journal
        from companion.bootstrap import Hardware, WebAddress, build_box
        from companion.config import defaults

        self.display = BenchDisplay(work)

        def instrument(hardware: Hardware) -> None:
            self.buzzer = BenchBuzzer(hardware.buzzer, self.display)
            hardware.display = self.display
            hardware.buzzer = self.buzzer

        state_dir.mkdir(parents=True, exist_ok=True)
        config = defaults()
        config["web"]["pair_loopback"] = web
        config["web"]["public_mirror"] = public_mirror
        if serial:
            config["serial"]["url"] = "pty"
        self.box = build_box(config, backend="fake", clock=MonotonicClock(),
                             state_dir=state_dir, rng=random.Random(1), out=io.StringIO(),
                             instrument=instrument, serial=serial,
                             web=WebAddress("127.0.0.1", 0) if web else None,
                             journal_opener=journal_opener or Journal.open_or_in_memory)
        assert self.box.loop is not None
        self.hardware, self.controller, self.loop = (self.box.hardware, self.box.controller,
                                                     self.box.loop)
        self.display.controller = self.controller
        self.buzzer.controller = self.controller
        self._instrument()

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
        """One protocol line posted to the loop, as a channel's reader posts it (with no
        channel: the reply is not wanted)."""
        from companion.protocol.lines import Line
        from companion.runtime import LineEvent

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
        """The event loop on this thread (without signals); ``script`` on another; then
        close."""
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
            self.box.run_without_signals()
        finally:
            driver.join(10)
            self.box.close()
        if failure:
            raise failure[0]
