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

import logging
import os
import queue
import random
import signal
import sqlite3
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, BinaryIO, Protocol, TextIO

from companion.adapters.journal import Journal
from companion.core.app import (
    App,
    AppState,
    JournalAction,
    JournalNew,
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


class Clock(Protocol):
    def monotonic(self) -> float: ...

    def wall(self) -> str: ...


class Buzzer(Protocol):
    def tone(self, frequency: float | None) -> None: ...


class FrameSink(Protocol):
    def show(self, image: Any) -> bool: ...

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
        self.game_id: int | None = None
        self.last_checkpoint = self.now()
        self.notes: list[tuple[float, float | None]] = []
        self.last_screen: Screen | None = None
        self.played: list[str] = []
        self.journal_ok = True
        self._led_lit: bool | None = None
        self._restore()

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
        due = [instant for instant in candidates if instant is not None]
        return min(due) if due else None

    def tick(self, now: float | None = None) -> None:
        """Do everything due by ``now``: gestures, warnings, expiry, notes, checkpoint."""
        now = self.now() if now is None else now
        self.recognizer, gestures = self.recognizer.on_tick(now)
        for gesture in gestures:
            self._gesture(gesture)
        self.state, effects = self.app.tick(self.state, now)
        self._perform(effects, now)
        self._play_notes(now)
        if (self._countdown_running() and self.game_id is not None
                and now - self.last_checkpoint >= CHECKPOINT_SECONDS):
            self._journal(self.journal.checkpoint, self.game_id, now)
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
            self.refresh()
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
        return screen_for(self.app, self.state, self.now())

    def refresh(self) -> None:
        """Redraw if the screen model changed; keep the status LED in step."""
        screen = self.screen()
        if screen != self.last_screen:
            self.last_screen = screen
            try:
                self.display.show(render(screen))
            except OSError as error:
                log.warning("display failed: %s", error)
        lit = self._countdown_running()
        if self.led is not None and lit != self._led_lit:
            self._led_lit = lit
            self.led.set(lit)

    def shutdown(self) -> None:
        """Save and blank: the journal is already up to date; checkpoint the clock."""
        if self.game_id is not None:
            self._journal(self.journal.checkpoint, self.game_id, self.now())
        self.buzzer.tone(None)
        try:
            self.display.blank()
        except OSError as error:
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
        self.game_id = stored.id
        self.state = replace(state, next_seed=self._draw_seed())
        self.last_checkpoint = now
        if self._countdown_running():
            self.state, effects = self.app.act(self.state, Restore(), now)
            self._perform(effects, now)
            self.state = replace(self.state, notice="Resumed: hold NEXT")

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

    def _perform(self, effects: list[Any], now: float) -> None:
        # Journal first: an action is durable before anything else shows it happened.
        for effect in effects:
            match effect:
                case JournalNew(game, options, seed, at):
                    self.game_id = self._journal(self.journal.begin_game, game, options, seed,
                                                 at, self.clock.wall())
                    self.last_checkpoint = at
                    self.state = replace(self.state, next_seed=self._draw_seed())
                case JournalAction(action, at) if self.game_id is not None:
                    self._journal(self.journal.append, self.game_id, Recorded(action, at),
                                  self.clock.wall())
                case JournalUndo(dropped) if self.game_id is not None:
                    self._journal(self.journal.drop_last, self.game_id, dropped)
                case ResultChanged(result) if self.game_id is not None:
                    self._journal(self.journal.set_result, self.game_id, result)
        for effect in effects:
            if isinstance(effect, Play):
                self._start_tune(effect.tune, now)

    def _journal(self, write: Callable[..., Any], *arguments: Any) -> Any:
        """Run one journal write; on failure, log once and go on in memory."""
        try:
            result = write(*arguments)
        except (sqlite3.Error, OSError) as error:
            if self.journal_ok:
                log.error("journal write failed (%s); play goes on in memory", error)
            self.journal_ok = False
            return None
        self.journal_ok = True
        return result

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
            try:
                self.buzzer.tone(frequency)
            except OSError as error:
                log.warning("buzzer failed: %s", error)

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


class EventLoop:
    """Runs a controller until SIGTERM / SIGINT; see the module docstring."""

    def __init__(self, controller: Controller, *, out: TextIO, link: Any = None,
                 notifier: Notifier | None = None) -> None:
        self.controller = controller
        self.out = out
        self.link = link
        self.notifier = notifier
        # SimpleQueue.put is reentrant, so the signal handler may post safely.
        self.events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self.stopping = threading.Event()

    def post_edge(self, button: Button, pressed: bool) -> None:
        """gpiozero callback (any thread): timestamp now, hand to the loop."""
        self.events.put(EdgeEvent(button, pressed, self.controller.now()))

    def post_gesture(self, kind: str, button: Button) -> None:
        self.events.put(GestureEvent(kind, button))

    def stop(self, reason: str = "stop") -> None:
        self.events.put(StopEvent(reason))

    def run(self) -> int:
        previous = {sig: signal.signal(sig, self._on_signal)
                    for sig in (signal.SIGTERM, signal.SIGINT)}
        reader = None
        if self.link is not None:
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
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return 0

    def _loop(self) -> None:
        controller = self.controller
        watchdog = self.notifier.watchdog_interval() if self.notifier is not None else None
        while True:
            controller.tick()
            controller.refresh()
            now = controller.now()
            wake = controller.next_wake()
            timeout = None if wake is None else max(0.0, wake - now)
            if watchdog is not None:
                assert self.notifier is not None
                self.notifier.watchdog()
                timeout = watchdog if timeout is None else min(timeout, watchdog)
            try:
                event = self.events.get(timeout=timeout)
            except queue.Empty:
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
                reply = controller.handle(item)
                if reply is not None and self.link is not None:
                    try:
                        self.link.write(reply.encode() + b"\n")
                    except OSError as error:
                        log.warning("serial write failed: %s", error)

    def _on_signal(self, signum: int, _frame: Any) -> None:
        self.events.put(StopEvent(signal.Signals(signum).name))

    def _read_link(self) -> None:
        splitter = LineSplitter()
        while not self.stopping.is_set():
            try:
                data = self.link.read(0.5)
            except OSError as error:
                log.error("serial read failed: %s", error)
                return
            for item in splitter.feed(data):
                self.events.put(LineEvent(item))


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


def _read_chunk(source: BinaryIO | int) -> bytes:
    if isinstance(source, int):
        return os.read(source, 65536)
    return source.read(65536)


def same_value(actual: Any, expected: Any) -> bool:
    """``expect`` equality: JSON's, so 20 equals 20.0 but true is not 1."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return type(actual) is type(expected) and actual == expected
    return bool(actual == expected)
