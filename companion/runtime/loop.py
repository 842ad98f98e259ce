"""The event loop: one thread runs the controller; everything else posts events to it.

What it promises:
- **One thread touches the state.** gpiozero callbacks, channels' readers (the serial line, the
  table page) and the terminal keyboard post events to a thread-safe queue; the loop takes
  them one at a time and hands them to the :class:`~companion.runtime.controller.Controller`.
- **No polling.** Between events the loop sleeps until the next deadline the controller asks
  for, so a countdown ends on time whatever else happens and an idle box sleeps. It sleeps in
  ``select()`` on a self-pipe that every post writes to and that the kernel-level signal
  handler writes to as well (``signal.set_wakeup_fd``), never in a blocking queue ``get()``:
  a signal arriving after such a ``get()`` checked for Python handlers and before it waited
  would be a lost wakeup (seen as a box that ignored SIGTERM).
- **SIGTERM / SIGINT stop it cleanly**: the controller saves and blanks, channels close.
  :meth:`EventLoop.run` takes the signals (the main thread only, ``companion run``);
  :meth:`EventLoop.run_without_signals` is the same loop on any thread, stopped by
  :meth:`EventLoop.stop` (tests, the bench); :attr:`EventLoop.ready` is set once it accepts
  input. :meth:`EventLoop.close` frees the self-pipe afterwards (``run`` does it itself).
- **The watchdog is pinged from the loop itself**, so a hung loop is what systemd catches.
- **Every line is answered**, once, to the reply target it names
  (:mod:`companion.runtime.channels`), with ``None`` for a line that gets no reply; the loop
  never waits for a peer. A line (or pairing event) whose ``claim`` says it was withdrawn is
  skipped and answered nothing: its asker was told it was refused, and it never runs.
- **Mirrors hear what changed.** A channel with an ``observe`` method (the table page) gets a
  :class:`~companion.runtime.channels.Snapshot` after each refresh that changed the state or
  the screen, and before ``ready``; for an input that writes to the journal, right after its
  frame and before that write (the controller's ``frame_listeners``), as the panel shows it.
  With no such channel nothing is built. A snapshot's screen is drawn without the pairing
  code (:func:`companion.ui.views.mirror_screen`).
- **A line is answered after its journal write.** The controller makes an input's writes
  before ``handle`` returns (after the frame); only then does the loop answer the line, and
  only then does it take the next event, so replies keep the order of the lines and nothing
  is acknowledged before it is on disk (DESIGN.md rule 6).
- **A pairing code is the core's.** The table page posts a new code to show
  (:class:`PairCodeEvent`) and asks whether an entered code, or a secret read off the box's
  QR code, is the window's (:class:`PairCodeEntered`); the answer comes from the state alone
  (:func:`companion.core.table_page.judge_pair_code`, which also counts the window's typed
  codes, and ``judge_pair_secret``); a right one ends the window. A snapshot's
  ``pairing_open`` tells the page whether a phone may ask.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import select
import signal
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO, cast

from companion.core.buttons import Button
from companion.core.table_page import code_shown
from companion.runtime.channels import (
    LineEvent,
    LineSource,
    Observer,
    PairCodeEntered,
    PairCodeEvent,
    Snapshot,
)
from companion.runtime.controller import Controller
from companion.ui.views import mirror_screen

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EdgeEvent:
    """A raw button edge (gpiozero callback), stamped on the game clock when it happened."""

    button: Button
    pressed: bool
    at: float


@dataclass(frozen=True)
class GestureEvent:
    """A gesture from a source that has no edges (the terminal keyboard)."""

    kind: str
    button: Button


@dataclass(frozen=True)
class StopEvent:
    reason: str


Event = EdgeEvent | GestureEvent | LineEvent | StopEvent | PairCodeEvent | PairCodeEntered


class Notifier(Protocol):
    """systemd's notify protocol (adapters/sd_notify.py); each call says if it was sent."""

    def ready(self) -> object: ...

    def watchdog(self) -> object: ...

    def stopping(self) -> object: ...

    def watchdog_interval(self) -> float | None: ...


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class EventLoop:
    """Runs a controller until SIGTERM / SIGINT; see the module docstring."""

    def __init__(self, controller: Controller, *, out: TextIO,
                 channels: Sequence[LineSource] = (), notifier: Notifier | None = None) -> None:
        self.controller = controller
        self.out = out
        self.channels = list(channels)
        self.notifier = notifier
        self.observers: list[Observer] = [
            cast(Observer, channel) for channel in self.channels
            if callable(getattr(channel, "observe", None))]
        self._published: tuple[object, object] | None = None
        if self.observers:  # the page's live view hears an input with the panel, before
            controller.frame_listeners.append(self._publish)  # its journal write
        # SimpleQueue.put is reentrant, so the signal handler may post safely.
        self.events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        self._closed = False
        # Set once the loop accepts input (after ``ready`` is printed), for other threads.
        self.ready = threading.Event()

    def post(self, event: Event) -> None:
        """Hand an event to the loop, from any thread, and wake it."""
        self.events.put(event)
        # A full pipe already wakes the loop; a closed one means the loop has stopped (and
        # its descriptor number may belong to another file by now: never write to it).
        if self._closed:
            return
        with contextlib.suppress(OSError):
            os.write(self._wake_write, b"\0")

    def post_edge(self, button: Button, pressed: bool) -> None:
        """gpiozero callback (any thread): timestamp now, hand to the loop."""
        self.post(EdgeEvent(button, pressed, self.controller.now()))

    def post_gesture(self, kind: str, button: Button) -> None:
        self.post(GestureEvent(kind, button))

    def stop(self, reason: str = "stop") -> None:
        self.post(StopEvent(reason))

    def run(self) -> int:
        """Run until SIGTERM / SIGINT (or :meth:`stop`), on the main thread; then close."""
        previous = {sig: signal.signal(sig, self._on_signal) for sig in STOP_SIGNALS}
        previous_wakeup = signal.set_wakeup_fd(self._wake_write, warn_on_full_buffer=False)
        try:
            return self.run_without_signals()
        finally:
            signal.set_wakeup_fd(previous_wakeup)
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self.close()

    def run_without_signals(self) -> int:
        """Run on the calling thread (any thread) until :meth:`stop`: channels start, the
        screen is drawn, ``ready`` is written and :attr:`ready` set; at the end the
        controller saves and blanks and the channels close. The caller closes the loop."""
        for channel in self.channels:
            channel.start(self.post)
        try:
            self.controller.refresh()
            self._publish()
            if self.notifier is not None:
                self.notifier.ready()
            self.out.write("ready\n")
            self.out.flush()
            self.ready.set()
            self._loop()
        finally:
            if self.notifier is not None:
                self.notifier.stopping()
            self.controller.shutdown()
            for channel in self.channels:
                channel.close()
        return 0

    def close(self) -> None:
        """Free the self-pipe (idempotent); posting afterwards is silently dropped."""
        if self._closed:
            return
        self._closed = True
        os.close(self._wake_read)
        os.close(self._wake_write)

    def _loop(self) -> None:
        controller = self.controller
        watchdog = self.notifier.watchdog_interval() if self.notifier is not None else None
        next_ping = controller.now()
        while True:
            controller.tick()
            controller.refresh()
            self._publish()
            now = controller.now()
            wake = controller.next_wake()
            timeout = None if wake is None else max(0.0, wake - now)
            if watchdog is not None and self.notifier is not None:
                if now >= next_ping:
                    self.notifier.watchdog()
                    next_ping = now + watchdog
                until_ping = max(0.0, next_ping - now)
                timeout = until_ping if timeout is None else min(timeout, until_ping)
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                select.select([self._wake_read], [], [], timeout)
                with contextlib.suppress(BlockingIOError):
                    while os.read(self._wake_read, 4096):
                        pass
                continue
            if isinstance(event, StopEvent):
                log.info("stopping: %s", event.reason)
                return
            self._handle(event)

    def _publish(self) -> None:
        """Tell the mirrors, if the state or the screen changed since they last heard."""
        if not self.observers:
            return
        controller = self.controller
        # Both are immutable and replaced on every change: identity is the cheap test.
        current = (controller.state, controller.last_screen)
        if self._published is not None and (current[0] is self._published[0]
                                            and current[1] is self._published[1]):
            return
        self._published = current
        state, now = controller.state, controller.now()
        screen = mirror_screen(controller.app, state, now, controller.last_screen)
        snapshot = Snapshot(state=controller.app.to_json(state, now),
                            lines=[] if screen is None else screen.text_lines(), screen=screen,
                            pairing=code_shown(state.pairing),
                            pairing_open=state.pairing is not None)
        for observer in self.observers:
            try:
                observer.observe(snapshot)
            except Exception:  # a mirror's fault must not stop the box
                log.exception("a channel failed to observe the box")

    def _handle(self, event: Event) -> None:
        controller = self.controller
        claim = getattr(event, "claim", None)
        if claim is not None and not claim():
            return  # withdrawn by a request that gave up waiting: it never runs
        match event:
            case EdgeEvent(button, pressed, at):
                controller.edge(button, pressed, at)
            case GestureEvent(kind, button):
                controller.gesture(kind, button)
            case PairCodeEvent(code, _client, shown):
                was_shown = controller.show_pair_code(code)
                if shown is not None:
                    shown(was_shown)
            case PairCodeEntered(code, answer, client, secret=True):
                answer(controller.judge_pair_secret(code))
            case PairCodeEntered(code, answer, client):
                answer(controller.judge_pair_code(client, code))
            case LineEvent(item, reply_to, _claim, key):
                reply = (controller.handle(item) if key is None
                         else controller.handle_keyed(item, *key))
                if reply_to is not None:
                    reply_to.answer(reply)

    def _on_signal(self, signum: int, _frame: Any) -> None:
        self.post(StopEvent(signal.Signals(signum).name))
