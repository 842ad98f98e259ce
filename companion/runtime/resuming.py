"""Games back from the journal: the current one at start-up, a past one from the menu.

What it promises: a game comes back as the replay of its journaled actions (DESIGN.md rule 6:
state = replay of the journal), and a countdown that was running comes back paused (a
journaled :class:`~companion.core.game.Restore`), as after a power cut. A replay that fails
harms only its own game: at start-up the journal's current game is set aside as damaged and
the box starts without it, saying so on the screen; from the menu's "Resume a game" only that
game is refused, and the game in play and the journal stay as they were. Every read of the
journal here (a resume, the menu's list of past games) first makes the queued writes, so it
sees every accepted action. Instants mean something only within a game: the game clock never
goes back before a resumed game's own (its countdown would gain time).

It drives the controller through :class:`Box`, the few things a replay needs, so it never
imports the controller (which calls it at start-up and for the core's ``ResumeGame``).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Protocol

from companion.adapters.journal import Journal
from companion.adapters.journal_rows import JournalError
from companion.core.app import App, AppState
from companion.core.game import Restore
from companion.runtime.gameclock import Clock, GameClock, is_stale
from companion.runtime.journaling import JournalWriter, MakeCurrent, damaged_notice

log = logging.getLogger(__name__)


class Box(Protocol):
    """What a replay uses of the controller."""

    state: AppState
    app: App
    clock: Clock
    game_clock: GameClock
    writer: JournalWriter

    @property
    def journal(self) -> Journal: ...

    @property
    def game_id(self) -> int | None: ...

    def now(self) -> float: ...

    def perform(self, effects: list[Any], now: float, sound_first: bool = False) -> None: ...

    def countdown_running(self) -> bool: ...

    def draw_seed(self) -> int: ...


def restore_current(box: Box) -> None:
    """Resume the journal's current game; say on the screen what start-up found."""
    start_notice(box)
    stored = box.journal.current()
    if stored is None:
        return
    now = box.now()
    try:
        state = box.app.restore(stored.game, stored.options, stored.seed, stored.history, now)
    except Exception as error:  # anything a replay raises: the journal is damaged
        reason = f"game {stored.id} does not replay: {error}"
        box.journal.set_aside_damaged(reason)
        box.game_clock = GameClock(box.clock, box.journal.last_clock())
        box.state = replace(box.state, last_tick=box.now())
        start_notice(box)
        return
    box.writer.resume(stored.id)
    box.state = replace(state, next_seed=box.draw_seed())
    box.game_clock.checkpointed(now)
    if box.countdown_running():
        box.state, effects = box.app.act(box.state, Restore(), now)
        box.perform(effects, now)
        box.state = replace(box.state, notice="Resumed after a power cut: hold NEXT")
    if stored.result is None and is_stale(stored.last_wall, box.clock.wall()):
        box.state = replace(box.state, offer=f"Game of {stored.last_wall[:10]}?")


def start_notice(box: Box) -> None:
    """Say on the screen that games cannot be saved, or that a damaged journal was set
    aside; nothing when start-up found the journal well."""
    journal = box.journal
    if not journal.durable:
        notice = "Cannot save games: see the log"
    elif journal.kept_aside is not None:
        notice = damaged_notice(journal.kept_aside)
    else:
        return
    box.state = replace(box.state, notice=notice)


def resume(box: Box, game_id: int, now: float) -> None:
    """Replay past game ``game_id`` from the journal and make it current (the menu's
    "Resume a game"). A countdown that was running when it was replaced comes back
    paused, as after a power cut."""
    box.writer.catch_up(now)  # the replay reads the journal: it must hold every action
    try:
        stored = box.journal.game(game_id)
        # Instants mean something only within a game: never go on from before the
        # resumed game's own clock (its countdown would gain time).
        if stored.clock > now:
            box.game_clock = GameClock(box.clock, stored.clock)
            now = box.now()
        state = box.app.restore(stored.game, stored.options, stored.seed, stored.history,
                                now)
    except Exception as error:  # anything a replay raises: that game is damaged
        # Only that game is refused; the game in play and the journal stay as they are.
        log.error("could not resume game %s (%s)", game_id, error)
        box.state = replace(box.state, notice=f"Cannot resume that game: {error}")
        return
    box.writer.resume(game_id)
    box.writer.write(now, MakeCurrent())
    box.state = replace(state, next_seed=box.state.next_seed,
                        resumable=box.state.resumable, sound=box.state.sound,
                        remembered=box.state.remembered)
    if box.countdown_running():
        box.state, effects = box.app.act(box.state, Restore(), now)
        box.perform(effects, now)


def list_resumable(box: Box) -> None:
    """Refresh the menu's list of resumable games from the journal (the queued writes
    first: a new game's begin row sets the one before it aside). A keyed line's writes wait
    for its key (JournalWriter.keyed): the controller lists again once they are made
    (``writer.games_changed``)."""
    box.writer.catch_up(box.now())
    box.writer.games_changed = False
    try:
        past = tuple(game for game in box.journal.unfinished()
                     if game.id != box.game_id)
    except JournalError as error:  # the adapter's translation of SQLite's and the OS's
        log.warning("cannot list past games: %s", error)
        return
    box.state = replace(box.state, resumable=past)
