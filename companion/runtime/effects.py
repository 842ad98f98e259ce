"""The core's effects carried out on the box, in the order DESIGN.md rule 6 asks.

What it promises: a step's effects are carried out in the order the core gave them, its
tunes (``Play``) last, so the journal comes before the sound. Each journal effect becomes a
typed write in the journal's queue (:mod:`~companion.runtime.journaling`): outside an input
it is made at once, before the tunes start; inside one (the controller's frame-first path) it
waits until the input's frame is drawn, and is made before the controller returns.
Time-driven effects (``sound_first``: a warning, the alarm, an expiry) sound before anything
is written: an expiry follows from the journal and the clock alone, so a power cut cannot
lose it.

A new sound setting is applied before the step's tunes sound, then saved; a new game's
options are saved for the next game's menu (issue #27). Forgetting the phones that fails
leaves them paired and says so on the screen; play goes on. Power off shows its frame and
makes every accepted write before the power goes. After an effect that changes which games
can be resumed (a new game, one set aside, one resumed: :mod:`~companion.runtime.resuming`),
the menu's list is read again from the journal.

It drives the controller through :class:`Box`, the few things the effects need, so it never
imports the controller (which delegates ``perform`` here).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from companion.core.app import (
    ForgetPhones,
    JournalAction,
    JournalNew,
    JournalSetAside,
    JournalUndo,
    Recorded,
    ResultChanged,
    ResumeGame,
    SoundChanged,
)
from companion.core.appstate import JournalScored, PowerOff
from companion.core.game import Play
from companion.runtime import resuming
from companion.runtime.journaling import (
    Append,
    BeginGame,
    DropLast,
    ForgetPhoneKeys,
    KeepScored,
    SetAside,
    SetResult,
)
from companion.runtime.sound import SettingsStore, TunePlayer

log = logging.getLogger(__name__)

FORGET_FAILED = "Forget phones FAILED: cannot save; phones stay paired"


class Box(resuming.Box, Protocol):
    """What the effects use of the controller (a resume's replay too)."""

    settings: SettingsStore | None
    tunes: TunePlayer
    forget_phones_listeners: list[Callable[[], None]]
    power_off_listeners: list[Callable[[], object]]

    def refresh(self, now: float | None = None) -> None: ...

    def show_journal_news(self) -> None: ...


def carry_out(box: Box, effects: list[Any], now: float, sound_first: bool = False) -> None:
    """Carry out one step's effects (see the module docstring for their order)."""
    # Journal writes are queued first, in order. Outside an input they are made here at
    # once, before the tunes (time-driven tunes sound even before that, see
    # Controller.tick); inside one, right after its frame (Controller._frame_first).
    if sound_first:
        start_tunes(box, effects, now)
    for effect in effects:
        match effect:
            case JournalNew(game=game, options=options, seed=seed, at=at):
                box.writer.begin(now, BeginGame(game, options, seed, at, box.clock.wall()))
                box.game_clock.checkpointed(at)
                box.state = replace(box.state, next_seed=box.draw_seed())
                if box.settings is not None:  # the options chosen, for the next game
                    box.settings.save_options(box.state.remembered)
            case JournalAction(action=action, at=at):
                box.writer.write(now, Append(Recorded(action, at), box.clock.wall()))
            case JournalUndo(dropped=dropped):
                box.writer.write(now, DropLast(dropped))
            case ResultChanged(result=result):
                box.writer.write(now, SetResult(result))
            case JournalSetAside():
                box.writer.write(now, SetAside())
            case JournalScored(game=game, options=options, result=result, at=at):
                box.writer.keep(now, KeepScored(game, options, result, at, box.clock.wall()))
            case SoundChanged(sound=sound):
                box.tunes.apply(sound, now)
                if box.settings is not None:
                    box.settings.save(sound)
            case ResumeGame(game_id=game_id):
                resuming.resume(box, game_id, now)
            case ForgetPhones():
                box.writer.keep(now, ForgetPhoneKeys())  # their keys go with the tokens
                for listener in box.forget_phones_listeners:
                    try:
                        listener()
                    except Exception:  # not revoked: the screen says so; play goes on
                        log.exception("forgetting the phones failed")
                        box.state = replace(box.state, notice=FORGET_FAILED)
            case PowerOff():
                box.refresh(now)  # "Powering off" on the panel before it goes
                box.writer.catch_up(now)  # and every accepted action on disk
                for switch_off in box.power_off_listeners:
                    switch_off()
    if any(isinstance(effect, (JournalNew, JournalSetAside, ResumeGame))
           for effect in effects):
        resuming.list_resumable(box)
    box.show_journal_news()
    if not sound_first:
        start_tunes(box, effects, now)


def start_tunes(box: Box, effects: list[Any], now: float) -> None:
    """Start the tunes a step's effects ask for (``Play``), in order."""
    for effect in effects:
        if isinstance(effect, Play):
            box.tunes.start(effect.tune, now)
