"""The controller: the box's state, and everything that changes it.

:class:`Controller` owns the box's state. Every input (a raw button edge, a gesture from the
keyboard, a protocol line from a channel, the passing of time) goes through it:

1. the pure core computes the new state and the effects;
2. for an input (a button, a key, a protocol line: :meth:`Controller.edge`,
   :meth:`Controller.gesture`, :meth:`Controller.handle`) the hand is answered at once and
   the disk right behind it (DESIGN.md rule 6): journal effects are queued
   (:class:`~companion.runtime.journaling.JournalWriter`, held), tunes start, the display is
   redrawn (only if the screen model changed) and the :attr:`Controller.frame_listeners`
   (the table page's live view) hear of it; then the queued writes are made, still on this
   thread, before the call returns. So a line's reply, which the loop sends only once
   ``handle`` has returned, always comes after its action is on disk, and the loop takes no
   other input while a write is pending: the queue past a frame holds one input's writes.
   A power cut between that frame and its write loses that one press (the box comes back at
   the step before it); nothing acknowledged to a machine is ever lost (docs/journal.md).
   Time-driven work (:meth:`Controller.tick`: a warning, the alarm, an expiry, a checkpoint)
   sounds first and writes at once, before the loop redraws. A journal read (the menu's list
   of past games, resuming one) makes the queued writes first, so it sees every action.

Volume and mute (:class:`~companion.core.tunes.SoundSettings`) are loaded from the settings
store at start-up and applied to the tune player; a :class:`~companion.core.app.SoundChanged`
effect applies the new settings before the effect's tunes sound, then saves them. The options
last chosen for each game are loaded from the same store and saved after each new game
(issue #27), so the next game's menu starts from them.

Time is the game clock (:mod:`companion.runtime.gameclock`): a countdown running at a power
cut comes back paused (a journaled :class:`~companion.core.game.Restore`), with at most one
checkpoint interval more time than it had, never less. Parts that fail (display, buzzer,
journal) are retried with backoff (:mod:`companion.runtime.health`); play goes on.

The controller is single-threaded: the event loop (:mod:`companion.runtime.loop`) or
``simulate`` calls it, never two threads at once.

Every way the state changes passes through its few entry points (``edge``, ``gesture``,
``handle``, ``tick``), and the order above (the step decided, its writes queued, its tunes
started, its frame drawn, then its writes made: ``_frame_first`` around ``perform``) is the
rule it enforces. The rooms it delegates to are its neighbours in this package: the core's
effects, each carried out, journal before sound (:mod:`~companion.runtime.effects`, behind
:meth:`Controller.perform`), games back from the
journal at start-up and from the menu (:mod:`~companion.runtime.resuming`), the protocol's
commands (:mod:`~companion.runtime.commanding`), the journal queue
(:mod:`~companion.runtime.journaling`), the tunes (:mod:`~companion.runtime.sound`), the
display and LED (:mod:`~companion.runtime.output`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from companion.adapters.journal import Journal
from companion.core.app import App, AppState
from companion.core.buttons import (
    Button,
    Edge,
    Gesture,
    GestureKind,
    GestureRecognizer,
    GestureTiming,
)
from companion.core.game import RuleError
from companion.core.idle import IdlePolicy
from companion.core.table_page import PairOutcome, ShowOutcome, TablePage, end_pairing
from companion.core.timer import TimerState
from companion.core.tunes import SoundSettings, tunes_for
from companion.protocol import commands as proto
from companion.protocol.lines import Item, Line, line_digest
from companion.runtime import commanding, resuming
from companion.runtime.effects import carry_out
from companion.runtime.gameclock import Clock, GameClock
from companion.runtime.health import PartHealth
from companion.runtime.idle_screen import Dimmable, IdleScreen
from companion.runtime.journaling import (
    Checkpoint,
    GameRef,
    JournalWrite,
    JournalWriter,
    KeepLine,
)
from companion.runtime.output import FrameSink, Output, StatusLed
from companion.runtime.pair_secret import armed, new_pair_secret
from companion.runtime.sound import Buzzer, SettingsStore, TunePlayer
from companion.ui.screen import Screen
from companion.ui.views import screen_for

Scorers = Mapping[str, Callable[[Any], dict[str, Any]]]


class Controller:
    """The box's state and everything that changes it; see the module docstring."""

    def __init__(self, app: App, journal: Journal, clock: Clock, display: FrameSink,
                 buzzer: Buzzer, *, rng: random.Random, scorers: Scorers,
                 timing: GestureTiming | None = None, simulated: bool = False,
                 led: StatusLed | None = None, settings: SettingsStore | None = None,
                 idle: IdlePolicy | None = None, sounder: str = "piezo") -> None:
        self.app = app
        self.clock = clock
        self.output = Output(display, led)
        self.buzzer = buzzer
        self.settings = settings
        self.rng = rng
        self.scorers = scorers
        self.simulated = simulated
        self.recognizer = GestureRecognizer(timing or GestureTiming())
        self.game_clock = GameClock(clock, journal.last_clock())
        self.writer = JournalWriter(journal)
        self.state = AppState(next_seed=self.draw_seed(), last_tick=self.now())
        self.tunes = TunePlayer(buzzer, tunes_for(sounder))
        # Draws each pairing window's secret (runtime/pair_secret.py; tests fix it).
        self.draw_pair_secret: Callable[[], str] = new_pair_secret
        # Called when "Forget phones" is chosen (the table page revokes its pairings).
        self.forget_phones_listeners: list[Callable[[], None]] = []
        # Called when "Power off" is confirmed (bootstrap: adapters/power.py).
        self.power_off_listeners: list[Callable[[], object]] = []
        # Called after an input's frame, before its journal write (the loop: the table
        # page's live view answers the hand as the panel does).
        self.frame_listeners: list[Callable[[], object]] = []
        # Idle dimming and the screen saver (core/idle.py); None: the panel never dims.
        self.idle = None if idle is None else IdleScreen(
            idle, self.now(), display if isinstance(display, Dimmable) else None)
        resuming.restore_current(self)
        sound = settings.load() if settings is not None else SoundSettings()
        remembered = settings.load_options() if settings is not None else {}
        self.state = replace(self.state, sound=sound, remembered=remembered)
        self.tunes.apply(sound, self.now())
        resuming.list_resumable(self)

    @property
    def journal(self) -> Journal:
        """The journal being written (the real one may replace an in-memory stand-in)."""
        return self.writer.journal

    @property
    def game_id(self) -> int | None:
        """The current game's journal id, once its start is saved."""
        return self.writer.game_id

    @property
    def game(self) -> GameRef | None:
        return self.writer.game

    @property
    def unsaved(self) -> list[tuple[GameRef, JournalWrite]]:
        """Journal writes accepted but not yet on disk, oldest first."""
        return self.writer.unsaved

    @property
    def display(self) -> FrameSink:
        return self.output.display

    @property
    def display_health(self) -> PartHealth:
        return self.output.health

    @property
    def last_screen(self) -> Screen | None:
        """The screen model the display shows now (None before the first frame)."""
        return self.output.last_screen

    @last_screen.setter
    def last_screen(self, screen: Screen | None) -> None:
        self.output.last_screen = screen

    @property
    def played(self) -> Any:
        """The names of the last tunes started, oldest first."""
        return self.tunes.played

    @property
    def buzzer_health(self) -> PartHealth:
        return self.tunes.health

    @property
    def offset(self) -> float:
        """Monotonic seconds minus game-clock seconds."""
        return self.game_clock.offset

    # -- time --------------------------------------------------------------------------------

    def now(self) -> float:
        """Game-clock seconds (see the module docstring)."""
        return self.game_clock.now()

    def next_wake(self) -> float | None:
        """The next game-clock instant at which :meth:`tick` has something to do."""
        now = self.now()
        candidates = [self.recognizer.next_deadline(), self.app.next_wake(self.state, now)]
        candidates.append(self.tunes.next_change())
        if self.countdown_running() and self.game_id is not None:
            candidates.append(self.game_clock.next_checkpoint())
        candidates.append(self.writer.retry_at())
        if self.display_health.failing:
            candidates.append(self.display_health.retry_at)
        if self.idle is not None:
            candidates.append(self.idle.next_change(now, self.countdown_running()))
        due = [instant for instant in candidates if instant is not None]
        return min(due) if due else None

    def tick(self, now: float | None = None) -> None:
        """Do everything due by ``now``: gestures, warnings, expiry, notes, checkpoint."""
        now = self.now() if now is None else now
        self.recognizer, gestures = self.recognizer.on_tick(now)
        for gesture in gestures:
            self.act_on(gesture)
        self.state, effects = self.app.tick(self.state, now)
        # Time-driven effects sound first: a warning or the alarm must not wait for the disk
        # (an fsync takes milliseconds on an SD card). This is safe for durability because an
        # expiry follows from the journal and the clock alone: replayed after a power cut, the
        # countdown reaches the same deadline and comes back paused at zero.
        self.perform(effects, now, sound_first=True)
        self.tunes.play_due(now)
        if self.writer.retry_due(now):
            self.writer.flush(now)
            self.show_journal_news()
        if (self.countdown_running() and self.game_id is not None
                and self.game_clock.checkpoint_due(now)):
            self.writer.write(now, Checkpoint(now))
            self.game_clock.checkpointed(now)

    def advance(self, seconds: float) -> None:
        """Simulation only: move the fake clock, doing everything due in order."""
        set_clock = getattr(self.clock, "set", None)
        if set_clock is None:
            raise RuleError("unsupported", "wait works only in simulate")
        target = self.now() + seconds
        while (wake := self.next_wake()) is not None and wake <= target:
            # A wake-up already past (a journal write's retry time, say) means "now": time
            # only moves forward (DESIGN rule 18), or the warnings since then sound again.
            at = max(self.now(), wake)
            set_clock(self.game_clock.to_monotonic(at))
            self.tick(at)
            self.refresh(at)
        set_clock(self.game_clock.to_monotonic(target))
        self.tick(target)
        self.refresh()

    # -- inputs ------------------------------------------------------------------------------

    def edge(self, button: Button, pressed: bool, at: float | None = None) -> None:
        """A raw edge from a button (gpiozero callback, or a test)."""
        at = self.now() if at is None else at
        with self._frame_first():
            if self.idle is not None and self.idle.swallow(button, pressed, at):
                self.refresh()  # the press only woke the panel
                return
            self.recognizer, gestures = self.recognizer.on_edge(Edge(button, pressed, at))
            for gesture in gestures:
                self.act_on(gesture)
            self.refresh()

    def gesture(self, kind: str, button: Button) -> None:
        """A gesture from a source that has no edges (the terminal keyboard)."""
        with self._frame_first():
            self.tick()
            if self.idle is not None and self.idle.swallow_gesture(self.now()):
                self.refresh()  # the key only woke the panel
                return
            gesture_kind: GestureKind = ("hold" if kind == "hold" else "chord"
                                         if kind == "chord" else "press")
            self.act_on(Gesture(gesture_kind, button, self.now()))
            self.refresh()

    def handle(self, item: Item) -> str | None:
        """One protocol line (or a line-splitter fault) -> the reply, or ``None``; the
        line's journal writes are on disk (or refused, and the screen says so) when it
        returns, so the caller may acknowledge it."""
        with self._frame_first():
            return commanding.handle(self, item)

    def command_line(self, text: str) -> str | None:
        """One protocol line's text -> the reply, or ``None`` (a blank or comment line);
        its writes are made before it returns, as for :meth:`handle`."""
        with self._frame_first():
            return commanding.command_line(self, text)

    @contextmanager
    def _frame_first(self) -> Iterator[None]:
        """One input: the journal writes it makes wait while it is decided, sounded and
        drawn; then the frame listeners hear, then the writes are made (module docstring).
        Nested inputs (a line's ``tick``) write when the outermost one ends."""
        if self.writer.held:
            yield
            return
        self.writer.held = True
        try:
            yield
        finally:
            self.writer.held = False
            if self.writer.unsaved:
                for listener in self.frame_listeners:
                    listener()
                self._catch_up()

    def _catch_up(self, now: float | None = None) -> None:
        """Make the queued journal writes; show what they changed (a failed write's SAVE!
        mark, the reserve's FULL!, a notice) on a frame of its own."""
        now = self.now() if now is None else now
        mark = self._mark()
        if self.writer.catch_up(now):
            news = self.writer.news
            self.show_journal_news()
            relist = self.writer.games_changed  # a keyed line's new game, set-aside, resume
            if relist:
                resuming.list_resumable(self)
            if news or relist or self._mark() != mark:
                self.refresh(now)

    def handle_keyed(self, item: Item, holder: str, key: str) -> str | None:
        """A keyed line (the table page's ``Idempotency-Key``, issue #28, 3): run once per
        ``holder`` and ``key``. A key already kept answers with its first reply and runs
        nothing, after a restart or a power cut too (an ``err key-reused`` reply when it came
        with another line); a new one runs, and its writes and its key reach the journal in
        one transaction."""
        text = item.text if isinstance(item, Line) else repr(item)
        digest = line_digest(text)
        kept = self.writer.kept_line(holder, key)
        if kept is not None:
            kept_digest, reply = kept
            if kept_digest != digest:
                return proto.err("key-reused", "this key was sent with another line")
            return reply
        with self._frame_first():  # the frame first, then the line's writes and key together
            self.writer.gather()
            try:
                reply = self.handle(item)
            except BaseException:
                self.writer.keyed(self.now(), None)  # what it wrote is kept, its key is not
                raise
            self.writer.keyed(self.now(), KeepLine(holder, key, digest, reply,
                                                   self.clock.wall()))
        return reply

    def note_activity(self) -> None:
        """A command arrived: the panel wakes and its idle time starts again."""
        if self.idle is not None:
            self.idle.activity(self.now())

    def show_pair_code(self, code: str | None) -> ShowOutcome:
        """The pairing window's code on the display (the one shown stays; None closes the
        window), or why not (companion/core/table_page.py)."""
        shown: ShowOutcome
        if code is None:
            self.state, shown = end_pairing(self.state), "closed"
        else:
            self.state, shown = self.app.show_pair_code(self.state, code, self.now())
        self.refresh()
        return shown

    def judge_pair_code(self, client: str, code: str) -> PairOutcome:
        """A code typed on the table page by ``client`` (companion/core/table_page.py)."""
        self.state, outcome = self.app.judge_pair_code(self.state, client, code, self.now())
        self.refresh()
        return outcome

    def judge_pair_secret(self, secret: str) -> PairOutcome:
        """A secret read off the box's QR code (companion/core/table_page.py)."""
        self.state, outcome = self.app.judge_pair_secret(self.state, secret, self.now())
        self.refresh()
        return outcome

    # -- output ------------------------------------------------------------------------------

    def screen(self) -> Screen:
        return screen_for(self.app, self.state, self.now(), self._mark())

    def _mark(self) -> str:
        if self.writer.refused:
            return "SAVE!"
        return "FULL!" if self.writer.on_reserve else ""

    def refresh(self, now: float | None = None) -> None:
        """Redraw if the screen model changed; keep the status LED in step.

        ``now`` is the instant being processed (``advance`` passes the exact wake-up, so a
        retry due then is made then, whatever the float rounding of the clock)."""
        now = self.now() if now is None else now
        # A pairing window just opened gets its secret before its first frame.
        self.state = armed(self.state, self.app.table_page, self.draw_pair_secret)
        running = self.countdown_running()
        changed = self.output.show(screen_for(self.app, self.state, now, self._mark()), now,
                                   countdown_running=running)
        if self.idle is not None:
            self.idle.update(now, running, changed)

    def set_table_page(self, page: TablePage | None) -> None:
        """Offer the table page's address in the menu (None: take it away); from the loop's
        thread, or before the loop starts, like every other input."""
        self.app.table_page = page
        self.refresh()

    def shutdown(self) -> None:
        """Save and blank: the journal is already up to date; checkpoint the clock."""
        now = self.now()
        if self.game is not None:
            self.writer.write(now, Checkpoint(now))
        self.writer.stop(now)
        self.tunes.sound(now, None)
        self.output.blank()

    # -- the step and its effects (what runtime/effects.py and runtime/resuming.py use) ------

    def show_journal_news(self) -> None:
        """The journal queue's news (a refused write, a spent reserve) on the screen."""
        for news in self.writer.take_news():
            self.state = replace(self.state, notice=news)

    def act_on(self, gesture: Gesture, raise_errors: bool = False) -> None:
        """A gesture through the core; a refusal leaves the state as it was, says why on the
        screen and sounds "refused" (raised again with ``raise_errors``: a command's)."""
        try:
            self.state, effects = self.app.gesture(self.state, gesture, gesture.at)
        except RuleError as error:
            self.state = self.app.refuse(self.state, error)
            self.tunes.start("refused", gesture.at)
            if raise_errors:
                raise
            return
        self.perform(effects, gesture.at)

    def perform(self, effects: list[Any], now: float, sound_first: bool = False) -> None:
        """Carry out a step's effects: journal writes queued first, then the tunes (the
        tunes first for ``sound_first``, time's effects); see :mod:`~companion.runtime.effects`."""
        carry_out(self, effects, now, sound_first)

    def countdown_running(self) -> bool:
        """Whether the game in play has a countdown running now."""
        countdown = self.app.countdown(self.state)
        return countdown is not None and countdown.state is TimerState.RUNNING

    def draw_seed(self) -> int:
        """The seed the next new game will shuffle with."""
        return self.rng.randrange(2**31)

