"""The runtime: inputs -> pure core -> effects, on one thread, sleeping until something is due.

:class:`Controller` owns the box's state. Every input (a raw button edge, a gesture from the
keyboard or the line protocol, a protocol command, the passing of time) goes through it:

1. the pure core computes the new state and the effects;
2. journal effects are written first (DESIGN.md rule 6), then tunes start and the display
   is redrawn, only if the screen model changed.

**The game clock.** Games keep deadlines on a clock that survives restarts: game time is the
monotonic clock minus an offset, and the offset is chosen at start so that game time resumes
where the journal last saw it (the last action, or the last checkpoint written while a
countdown ran, at most :data:`CHECKPOINT_SECONDS` ago). A countdown that was running at a
power cut therefore comes back with at most that much more time than it had, never less,
and paused (a journaled :class:`~companion.core.game.Restore`).

:class:`EventLoop` runs a controller for real: gpiozero callbacks, the serial reader and the
terminal keyboard post events on one thread-safe queue; the loop waits on that queue until
the next deadline the controller asks for (no fixed polling period), so a countdown ends on
time whatever else happens, and an idle box sleeps.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import random
import select
import signal
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, BinaryIO, Protocol, TextIO

from companion.adapters.journal import Journal
from companion.core.app import (
    App,
    AppState,
    JournalAction,
    JournalNew,
    JournalSetAside,
    JournalUndo,
    Recorded,
    ResultChanged,
)
from companion.core.buttons import Button, Edge, Gesture, GestureRecognizer, GestureTiming
from companion.core.game import Play, Restore, RuleError
from companion.core.timer import TimerState
from companion.core.tunes import TUNES
from companion.games.scoring import ScoreInputError
from companion.protocol import commands as proto
from companion.protocol.lines import BadEncoding, Item, LineSplitter, TooLong
from companion.ui.render import render
from companion.ui.screen import Screen
from companion.ui.views import screen_for

log = logging.getLogger(__name__)

CHECKPOINT_SECONDS = 4.0
"""While a countdown runs, the game clock is saved at most this often (SD-card wear) and at
least this often (what a power cut can add to the time left)."""


MAX_QUEUED_LINES = 256
"""Protocol lines read but not yet answered, at most."""

STALE_HOURS = 12
"""A game untouched for longer is offered at start-up, not forced on the table."""

RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 30.0
RECORDED_TUNES = 200


class PartHealth:
    """A part that may fail (display, buzzer, journal): logged once when it fails and once
    when it recovers, retried with exponential backoff in between, never once per frame."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failing = False
        self.failures = 0
        self.retry_at = 0.0
        self._backoff = RETRY_FIRST_SECONDS

    def may_try(self, now: float) -> bool:
        return not self.failing or now >= self.retry_at

    def failed(self, now: float, error: BaseException) -> None:
        self.failures += 1
        if not self.failing:
            log.error("%s failed (%s); retrying with backoff", self.name, error)
            self.failing = True
        self.retry_at = now + self._backoff
        self._backoff = min(self._backoff * 2, RETRY_MAX_SECONDS)

    def succeeded(self) -> None:
        if self.failing:
            log.warning("%s works again after %d failed attempts", self.name, self.failures)
        self.failing = False
        self.failures = 0
        self._backoff = RETRY_FIRST_SECONDS


class GameRef:
    """A game in the journal, as queued writes refer to it: its id is known once its
    ``begin_game`` write has landed, which may be after later writes were queued for it."""

    def __init__(self, game_id: int | None = None) -> None:
        self.id = game_id


class Clock(Protocol):
    def monotonic(self) -> float: ...

    def wall(self) -> str: ...


class Buzzer(Protocol):
    def tone(self, frequency: float | None) -> None: ...


class FrameSink(Protocol):
    def show(self, image: Any, text: Sequence[str] = ...) -> bool: ...

    def blank(self) -> None: ...


class StatusLed(Protocol):
    def set(self, lit: bool) -> None: ...


Scorers = Mapping[str, Callable[[Any], dict[str, Any]]]


class Controller:
    """The box's state and everything that changes it; see the module docstring."""

    def __init__(self, app: App, journal: Journal, clock: Clock, display: FrameSink,
                 buzzer: Buzzer, *, rng: random.Random, scorers: Scorers,
                 timing: GestureTiming | None = None, simulated: bool = False,
                 led: StatusLed | None = None) -> None:
        self.app = app
        self.journal = journal
        self.clock = clock
        self.display = display
        self.buzzer = buzzer
        self.led = led
        self.rng = rng
        self.scorers = scorers
        self.simulated = simulated
        self.recognizer = GestureRecognizer(timing or GestureTiming())
        self.offset = clock.monotonic() - journal.last_clock()
        self.state = AppState(next_seed=self._draw_seed(), last_tick=self.now())
        # The game that writes are queued for now (None before any game).
        self.game: GameRef | None = None
        self.last_checkpoint = self.now()
        self.notes: list[tuple[float, float | None]] = []
        self.last_screen: Screen | None = None
        self.played: deque[str] = deque(maxlen=RECORDED_TUNES)
        self.unsaved: list[tuple[GameRef, str, tuple[Any, ...]]] = []
        self.display_health = PartHealth("display")
        self.buzzer_health = PartHealth("buzzer")
        self.journal_health = PartHealth("journal")
        self._led_lit: bool | None = None
        self._restore()

    @property
    def game_id(self) -> int | None:
        """The current game's journal id, once its start is saved."""
        return self.game.id if self.game is not None else None

    # -- time --------------------------------------------------------------------------------

    def now(self) -> float:
        """Game-clock seconds (see the module docstring)."""
        return self.clock.monotonic() - self.offset

    def next_wake(self) -> float | None:
        """The next game-clock instant at which :meth:`tick` has something to do."""
        now = self.now()
        candidates = [self.recognizer.next_deadline(), self.app.next_wake(self.state, now)]
        if self.notes:
            candidates.append(self.notes[0][0])
        if self._countdown_running() and self.game_id is not None:
            candidates.append(self.last_checkpoint + CHECKPOINT_SECONDS)
        if self.unsaved:
            candidates.append(self.journal_health.retry_at)
        if self.display_health.failing:
            candidates.append(self.display_health.retry_at)
        due = [instant for instant in candidates if instant is not None]
        return min(due) if due else None

    def tick(self, now: float | None = None) -> None:
        """Do everything due by ``now``: gestures, warnings, expiry, notes, checkpoint."""
        now = self.now() if now is None else now
        self.recognizer, gestures = self.recognizer.on_tick(now)
        for gesture in gestures:
            self._gesture(gesture)
        self.state, effects = self.app.tick(self.state, now)
        # Time-driven effects sound first: a warning or the alarm must not wait for the disk
        # (an fsync takes milliseconds on an SD card). This is safe for durability because an
        # expiry follows from the journal and the clock alone: replayed after a power cut, the
        # countdown reaches the same deadline and comes back paused at zero.
        self._perform(effects, now, sound_first=True)
        self._play_notes(now)
        if self.unsaved and self.journal_health.may_try(now):
            self._flush_journal(now)
        if (self._countdown_running() and self.game_id is not None
                and now - self.last_checkpoint >= CHECKPOINT_SECONDS):
            self._journal(now, "checkpoint", now)
            self.last_checkpoint = now

    def advance(self, seconds: float) -> None:
        """Simulation only: move the fake clock, doing everything due in order."""
        set_clock = getattr(self.clock, "set", None)
        if set_clock is None:
            raise RuleError("wait works only in simulate", "unsupported")
        target = self.now() + seconds
        while (wake := self.next_wake()) is not None and wake <= target:
            set_clock(max(self.clock.monotonic(), wake + self.offset))
            self.tick(wake)
            self.refresh(wake)
        set_clock(target + self.offset)
        self.tick(target)
        self.refresh()

    # -- inputs ------------------------------------------------------------------------------

    def edge(self, button: Button, pressed: bool, at: float | None = None) -> None:
        """A raw edge from a button (gpiozero callback, or a test)."""
        at = self.now() if at is None else at
        self.recognizer, gestures = self.recognizer.on_edge(Edge(button, pressed, at))
        for gesture in gestures:
            self._gesture(gesture)
        self.refresh()

    def gesture(self, kind: str, button: Button) -> None:
        """A gesture from a source that has no edges (the terminal keyboard)."""
        self.tick()
        self._gesture(Gesture("press" if kind == "press" else "hold", button, self.now()))
        self.refresh()

    def handle(self, item: Item) -> str | None:
        """One protocol line (or a line-splitter fault) -> the reply, or ``None``."""
        if isinstance(item, TooLong):
            return proto.err("too-long", f"line longer than {item.limit} bytes; dropped")
        if isinstance(item, BadEncoding):
            return proto.err("bad-encoding",
                             f"line is not valid UTF-8 at byte {item.offset}; dropped")
        return self.command_line(item.text)

    def command_line(self, text: str) -> str | None:
        try:
            command = proto.parse(text)
        except proto.ProtocolError as error:
            return proto.err(error.code, error.message)
        if command is None:
            return None
        if not self.simulated:
            self.tick()
        try:
            reply = self._command(command)
        except RuleError as error:
            self.state = self.app.refuse(self.state, error)
            reply = proto.err(error.code, error.message)
        except proto.ProtocolError as error:
            reply = proto.err(error.code, error.message)
        self.refresh()
        return reply

    # -- output ------------------------------------------------------------------------------

    def screen(self) -> Screen:
        return screen_for(self.app, self.state, self.now(), self._mark())

    def _mark(self) -> str:
        saving = self.journal_ok and self.journal.durable
        return "" if saving else "SAVE!"

    def refresh(self, now: float | None = None) -> None:
        """Redraw if the screen model changed; keep the status LED in step.

        ``now`` is the instant being processed (``advance`` passes the exact wake-up, so a
        retry due then is made then, whatever the float rounding of the clock)."""
        now = self.now() if now is None else now
        screen = screen_for(self.app, self.state, now, self._mark())
        # A failing display is retried even with nothing new to show: it may have lost its
        # picture, and a retry that is due but never made would keep the loop awake.
        changed = screen != self.last_screen or self.display_health.failing
        if changed and self.display_health.may_try(now):
            try:
                self.display.show(render(screen), screen.text_lines())
            except Exception as error:  # any driver fault: play goes on
                self.display_health.failed(now, error)
            else:
                self.last_screen = screen
                self.display_health.succeeded()
        lit = self._countdown_running()
        if self.led is not None and lit != self._led_lit:
            self._led_lit = lit
            self.led.set(lit)

    def shutdown(self) -> None:
        """Save and blank: the journal is already up to date; checkpoint the clock."""
        now = self.now()
        if self.game is not None:
            self._journal(now, "checkpoint", now)
        if self.unsaved:
            log.error("%d journal writes could not be saved before stopping", len(self.unsaved))
        self._sound(now, None)
        try:
            self.display.blank()
        except Exception as error:  # stopping anyway
            log.warning("display failed while blanking: %s", error)

    # -- internals ---------------------------------------------------------------------------

    def _restore(self) -> None:
        stored = self.journal.current()
        if stored is None:
            return
        now = self.now()
        try:
            state = self.app.restore(stored.game, stored.options, stored.seed, stored.history, now)
        except (RuleError, ValueError) as error:
            log.error("could not replay game %s (%s); starting at the menu", stored.id, error)
            return
        self.game = GameRef(stored.id)
        self.state = replace(state, next_seed=self._draw_seed())
        self.last_checkpoint = now
        if self._countdown_running():
            self.state, effects = self.app.act(self.state, Restore(), now)
            self._perform(effects, now)
            self.state = replace(self.state, notice="Resumed after a power cut: hold NEXT")
        idle = _hours_between(stored.last_wall, self.clock.wall())
        if idle is not None and idle > STALE_HOURS and stored.result is None:
            self.state = replace(self.state, offer=f"Game of {stored.last_wall[:10]}?")

    def _command(self, command: proto.Command) -> str:
        now = self.now()
        match command:
            case proto.Help():
                return proto.ok_json(proto.help_json())
            case proto.PressCommand(button):
                self._gesture(Gesture("press", button, now), raise_errors=True)
                return proto.ok()
            case proto.HoldCommand(button):
                self._gesture(Gesture("hold", button, now), raise_errors=True)
                return proto.ok()
            case proto.NewCommand(game, options):
                self.state, effects = self.app.new_game(self.state, game, dict(options),
                                                        self.state.next_seed, now)
                self._perform(effects, now)
                return proto.ok()
            case proto.StateCommand():
                return proto.ok_json(self.app.to_json(self.state, now))
            case proto.ScreenCommand():
                return proto.ok_json({"lines": self.screen().text_lines()})
            case proto.UndoCommand():
                self.state, effects = self.app.undo(self.state, now)
                self._perform(effects, now)
                return proto.ok()
            case proto.ScoreCommand(game, data):
                return proto.ok_json(self._score(game, data))
            case proto.WaitCommand(seconds):
                if not self.simulated:
                    raise RuleError("wait works only in simulate", "unsupported")
                self.advance(seconds)
                return proto.ok()
            case proto.ExpectCommand(path, expected):
                if not self.simulated:
                    raise RuleError("expect works only in simulate", "unsupported")
                actual = proto.lookup(self.app.to_json(self.state, now), path)
                if not same_value(actual, expected):
                    raise RuleError(f"{path} is {proto.ok_json(actual)[3:]}, expected "
                                    f"{proto.ok_json(expected)[3:]}", "expect-failed")
                return proto.ok()
        raise RuleError(f"unhandled command {command!r}", "unsupported")

    def _score(self, game: str, data: Any) -> dict[str, Any]:
        scorer = self.scorers.get(game)
        if scorer is None:
            known = ", ".join(sorted(self.scorers))
            raise RuleError(f"no scorer for {game!r}; scorers: {known}", "bad-argument")
        try:
            return scorer(data)
        except ScoreInputError as error:
            raise RuleError(str(error), "bad-argument") from None

    def _gesture(self, gesture: Gesture, raise_errors: bool = False) -> None:
        try:
            self.state, effects = self.app.gesture(self.state, gesture, gesture.at)
        except RuleError as error:
            self.state = self.app.refuse(self.state, error)
            self._start_tune("refused", gesture.at)
            if raise_errors:
                raise
            return
        self._perform(effects, gesture.at)

    def _perform(self, effects: list[Any], now: float, sound_first: bool = False) -> None:
        # Journal first: an action is durable before anything else shows it happened
        # (except time-driven tunes, see tick()).
        if sound_first:
            self._start_tunes(effects, now)
        for effect in effects:
            match effect:
                case JournalNew(game, options, seed, at):
                    self.game = GameRef()
                    self._journal(now, "begin_game", game, options, seed, at, self.clock.wall())
                    self.last_checkpoint = at
                    self.state = replace(self.state, next_seed=self._draw_seed())
                case JournalAction(action, at):
                    self._journal(now, "append", Recorded(action, at), self.clock.wall())
                case JournalUndo(dropped):
                    self._journal(now, "drop_last", dropped)
                case ResultChanged(result):
                    self._journal(now, "set_result", result)
                case JournalSetAside():
                    self._journal(now, "set_aside")
        if not sound_first:
            self._start_tunes(effects, now)

    def _start_tunes(self, effects: list[Any], now: float) -> None:
        for effect in effects:
            if isinstance(effect, Play):
                self._start_tune(effect.tune, now)

    @property
    def journal_ok(self) -> bool:
        """Whether everything accepted so far is on disk."""
        return not self.unsaved

    def _journal(self, now: float, method: str, *arguments: Any) -> None:
        """Queue one journal write for the current game and write everything queued, in order.

        When the disk refuses (full, read-only, unplugged), the writes stay queued in memory,
        play goes on, the screen shows a mark, and writing is retried with backoff; nothing
        already saved is touched, since each write is one SQLite transaction. Each queued write
        keeps the game it belongs to, so a game started meanwhile takes nothing from another.
        """
        if self.game is None:
            return  # no game in play: nothing to save
        self.unsaved.append((self.game, method, arguments))
        if self.journal_health.may_try(now):
            self._flush_journal(now)

    def _flush_journal(self, now: float) -> None:
        while self.unsaved:
            game, method, arguments = self.unsaved[0]
            # begin_game creates the game; every other write names it first.
            prefix = () if method == "begin_game" else (game.id,)
            try:
                result = getattr(self.journal, method)(*prefix, *arguments)
            except (sqlite3.Error, OSError) as error:
                self.journal_health.failed(now, error)
                return
            self.unsaved.pop(0)
            if method == "begin_game":
                game.id = result
        self.journal_health.succeeded()

    def _start_tune(self, name: str, now: float) -> None:
        """A new tune replaces whatever is playing (the newest news matters most)."""
        self.played.append(name)
        at = now
        notes: list[tuple[float, float | None]] = []
        for frequency, seconds in TUNES[name]:
            notes.append((at, frequency))
            at += seconds
        notes.append((at, None))
        self.notes = notes
        self._play_notes(now)

    def _play_notes(self, now: float) -> None:
        while self.notes and self.notes[0][0] <= now:
            _, frequency = self.notes.pop(0)
            self._sound(now, frequency)

    def _sound(self, now: float, frequency: float | None) -> None:
        """One tone change; a failing buzzer is skipped until its retry time (a missed beep
        is better than a stalled timer)."""
        if not self.buzzer_health.may_try(now):
            return
        try:
            self.buzzer.tone(frequency)
        except Exception as error:  # any driver fault: play goes on
            self.buzzer_health.failed(now, error)
        else:
            self.buzzer_health.succeeded()

    def _countdown_running(self) -> bool:
        countdown = self.app.countdown(self.state)
        return countdown is not None and countdown.state is TimerState.RUNNING

    def _draw_seed(self) -> int:
        return self.rng.randrange(2**31)


# -- the real event loop ---------------------------------------------------------------------


@dataclass(frozen=True)
class EdgeEvent:
    button: Button
    pressed: bool
    at: float


@dataclass(frozen=True)
class GestureEvent:
    kind: str
    button: Button


@dataclass(frozen=True)
class LineEvent:
    item: Item


@dataclass(frozen=True)
class StopEvent:
    reason: str


Event = EdgeEvent | GestureEvent | LineEvent | StopEvent


class Notifier(Protocol):
    """systemd's notify protocol (adapters/sd_notify.py); each call says if it was sent."""

    def ready(self) -> object: ...

    def watchdog(self) -> object: ...

    def stopping(self) -> object: ...

    def watchdog_interval(self) -> float | None: ...


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class EventLoop:
    """Runs a controller until SIGTERM / SIGINT; see the module docstring."""

    def __init__(self, controller: Controller, *, out: TextIO, link: Any = None,
                 notifier: Notifier | None = None,
                 reopen_link: Callable[[], Any] | None = None,
                 retry_first: float = RETRY_FIRST_SECONDS) -> None:
        self.controller = controller
        self.out = out
        self.link = link
        self.reopen_link = reopen_link
        self.retry_first = retry_first
        self.notifier = notifier
        # SimpleQueue.put is reentrant, so the signal handler may post safely. The loop does
        # not sleep in the queue, though: a signal can arrive after a blocking get() has
        # checked for Python handlers and before it waits, and then nothing wakes it (a lost
        # wakeup, seen as a box that ignored SIGTERM). It sleeps in select() on a pipe that
        # every post writes to, and that the kernel-level signal handler writes to as well
        # (signal.set_wakeup_fd), so no wakeup is lost.
        self.events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        self.stopping = threading.Event()
        # At most this many protocol lines wait for the loop: a flood on the serial line
        # blocks the reader (and so the sender) instead of growing memory.
        self.line_slots = threading.BoundedSemaphore(MAX_QUEUED_LINES)
        self._link_lock = threading.Lock()

    def post(self, event: Event) -> None:
        """Hand an event to the loop, from any thread, and wake it."""
        self.events.put(event)
        # A full pipe already wakes the loop; a closed one means the loop has stopped.
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
        previous = {sig: signal.signal(sig, self._on_signal) for sig in STOP_SIGNALS}
        previous_wakeup = signal.set_wakeup_fd(self._wake_write, warn_on_full_buffer=False)
        reader = None
        if self.link is not None or self.reopen_link is not None:
            reader = threading.Thread(target=self._read_link, name="serial-reader", daemon=True)
            reader.start()
        try:
            self.controller.refresh()
            if self.notifier is not None:
                self.notifier.ready()
            self.out.write("ready\n")
            self.out.flush()
            self._loop()
        finally:
            self.stopping.set()
            if self.notifier is not None:
                self.notifier.stopping()
            self.controller.shutdown()
            signal.set_wakeup_fd(previous_wakeup)
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            os.close(self._wake_read)
            os.close(self._wake_write)
        return 0

    def _loop(self) -> None:
        controller = self.controller
        watchdog = self.notifier.watchdog_interval() if self.notifier is not None else None
        next_ping = controller.now()
        while True:
            controller.tick()
            controller.refresh()
            now = controller.now()
            wake = controller.next_wake()
            timeout = None if wake is None else max(0.0, wake - now)
            if watchdog is not None and self.notifier is not None:
                # Pinged from the loop itself, so a hung loop is what the watchdog catches.
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

    def _handle(self, event: Event) -> None:
        controller = self.controller
        match event:
            case EdgeEvent(button, pressed, at):
                controller.edge(button, pressed, at)
            case GestureEvent(kind, button):
                controller.gesture(kind, button)
            case LineEvent(item):
                self.line_slots.release()
                reply = controller.handle(item)
                if reply is not None:
                    self._write_link(reply.encode() + b"\n")

    def _on_signal(self, signum: int, _frame: Any) -> None:
        self.post(StopEvent(signal.Signals(signum).name))

    def _write_link(self, data: bytes) -> None:
        with self._link_lock:
            link = self.link
        if link is None:
            return
        try:
            link.write(data)
        except OSError as error:
            log.warning("serial write failed (%s); the reply is dropped", error)

    def _read_link(self) -> None:
        """Read lines until stopped; if the device goes away, reopen it with backoff."""
        splitter = LineSplitter()
        backoff = self.retry_first
        while not self.stopping.is_set():
            with self._link_lock:
                link = self.link
            if link is None:
                if not self._reopen(backoff):
                    backoff = min(backoff * 2, RETRY_MAX_SECONDS)
                else:
                    backoff = self.retry_first
                    splitter = LineSplitter()
                continue
            try:
                data = link.read(0.5)
            except OSError as error:
                log.error("serial line %s failed (%s); reopening it with backoff",
                          getattr(link, "description", "?"), error)
                with self._link_lock:
                    self.link = None
                with contextlib.suppress(OSError):
                    link.close()
                if self.reopen_link is None:
                    return
                continue
            for item in splitter.feed(data):
                while not self.line_slots.acquire(timeout=0.5):
                    if self.stopping.is_set():
                        return
                self.post(LineEvent(item))

    def _reopen(self, wait: float) -> bool:
        if self.reopen_link is None or self.stopping.wait(wait):
            return False
        try:
            link = self.reopen_link()
        except OSError as error:
            log.debug("serial line still unavailable: %s", error)
            return False
        log.warning("serial line %s is back", getattr(link, "description", "?"))
        with self._link_lock:
            self.link = link
        return True


# -- simulate --------------------------------------------------------------------------------


def simulate(controller: Controller, source: BinaryIO | int, out: TextIO, *,
             stop_on_error: bool) -> int | None:
    """Run protocol lines through a simulated controller, one reply line per command.

    Returns ``None`` when every line was answered (or errors are tolerated), else the
    1-based number of the first line that got an ``err`` reply.
    """
    splitter = LineSplitter()
    line_number = 0
    controller.refresh()
    while True:
        chunk = _read_chunk(source)
        items = splitter.feed(chunk) if chunk else splitter.feed(b"\n") if splitter.pending else []
        for item in items:
            line_number += 1  # every item, a refusal included, stands for one input line
            reply = controller.handle(item)
            if reply is None:
                continue
            out.write(reply + "\n")
            out.flush()
            if stop_on_error and reply.startswith("err"):
                return max(line_number, 1)
        if not chunk:
            return None


def _hours_between(earlier: str, later: str) -> float | None:
    """Hours between two ISO 8601 wall-clock dates, or None if either is unreadable."""
    try:
        elapsed = datetime.fromisoformat(later) - datetime.fromisoformat(earlier)
    except ValueError:
        return None
    return elapsed.total_seconds() / 3600


def _read_chunk(source: BinaryIO | int) -> bytes:
    if isinstance(source, int):
        return os.read(source, 65536)
    return source.read(65536)


def same_value(actual: Any, expected: Any) -> bool:
    """``expect`` equality: JSON's, so 20 equals 20.0 but true is not 1."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return type(actual) is type(expected) and actual == expected
    return bool(actual == expected)
