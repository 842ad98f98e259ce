"""Queued journal writes: every accepted action reaches the journal, in order, or waits.

What it promises (DESIGN.md rule 6, "one event log"):
- A write is queued and the queue is written at once, in order, each write one SQLite
  transaction, so nothing already saved is touched by a later failure.
- While :attr:`JournalWriter.held` is set (the controller holds it while one input is decided
  and drawn, see runtime/controller.py), writes are only queued; the controller writes them
  with :meth:`JournalWriter.catch_up` right after the frame, on the same thread, before it
  answers the input's line and before the loop takes the next input. So the queue past a
  frame holds one input's writes at most, in order, and nothing is acknowledged to a machine
  before its write was made. A journal read (the menu's list of past games, resuming one)
  catches up first, so it sees every accepted action.
- When the disk refuses (full, read-only, unplugged), writes stay queued in memory, play goes
  on, :attr:`JournalWriter.refused` turns true (the screen shows a mark) and writing is retried
  with backoff (:class:`~companion.runtime.health.PartHealth`).
- Each queued write keeps a reference to the game it belongs to (:class:`GameRef`), so a game
  started while the disk refuses takes nothing from another: a game's id is known only once its
  ``begin_game`` write has landed, which may be after later writes were queued for it.
- When the journal could not be opened at start (the in-memory stand-in, ``durable`` false),
  writes are queued as for a refusing disk and opening the real journal is retried with the
  same backoff; once it opens, the queue (the game's begin row, its actions, its result) is
  written into it and writing goes on there, so a restart after that loses nothing.
- What the table should know is queued in :attr:`JournalWriter.news` for the screen: the disk
  filled and writes use the reserve, the real journal opened after all.
- A game scored from its final count (:class:`KeepScored`) is written as a finished game of
  its own, beside the game in play, never in its place: it belongs to no current game, takes
  its own place in the same queue (so it waits, in order, while the disk refuses) and is
  never made current.
- A keyed line (the table page's ``Idempotency-Key``, issue #28, 3) gathers its writes
  (:meth:`JournalWriter.gather`) and, once its reply is known, queues them with its key as one
  :class:`Together` write: one transaction, so after a power cut either the line's rows and
  its key are both in the journal or neither is. :meth:`JournalWriter.kept_line` finds a key
  queued or written.
- A write is a typed value (:data:`JournalWrite`: :class:`BeginGame`, :class:`Append`, ...),
  matched to the journal's method here, so the type checker sees every write and its fields.
  The journal's refusals arrive as ``JournalUnavailable`` (adapters/journal.py translates
  SQLite's and the OS's errors); nothing here knows SQLite.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.adapters.journal import Journal
from companion.adapters.journal_rows import JournalError, JournalUnavailable
from companion.core.app import Recorded
from companion.runtime.health import PartHealth

log = logging.getLogger(__name__)

DISK_FULL_NOTICE = "Disk full: saving on reserve. Free some space"
SAVING_AGAIN_NOTICE = "Saving again: games are on disk"


def damaged_notice(kept_aside: str) -> str:
    """What the screen says about a journal kept aside as damaged (``kept_aside`` is the
    file name; the screen shows ``damaged-<date>``, which fits the alert box)."""
    label = kept_aside.removeprefix("journal.").removesuffix(".sqlite3")
    return f"Journal damaged: kept as {label}"


@dataclass(frozen=True)
class BeginGame:
    """A new game's row; the journal answers its id."""

    game: str
    options: Mapping[str, str]
    seed: int
    at: float
    wall: str


@dataclass(frozen=True)
class Append:
    """One accepted action of the game."""

    recorded: Recorded
    wall: str


@dataclass(frozen=True)
class DropLast:
    """Undo: the game's last ``count`` actions go."""

    count: int


@dataclass(frozen=True)
class SetResult:
    result: Any


@dataclass(frozen=True)
class SetAside:
    """The game stays in history; none is current."""


@dataclass(frozen=True)
class MakeCurrent:
    """A past game is the game in play again."""


@dataclass(frozen=True)
class Checkpoint:
    """The game clock reached ``at``."""

    at: float


@dataclass(frozen=True)
class KeepScored:
    """A game scored from its final count, kept in history, finished; the journal answers
    its id (it never becomes the current game)."""

    game: str
    options: Mapping[str, str]
    result: Any
    at: float
    wall: str


@dataclass(frozen=True)
class KeepLine:
    """A keyed line's key, with its line's digest and its reply (issues #28, 3 and #38, 4):
    whose it is (``holder``)."""

    holder: str
    key: str
    digest: str
    reply: str | None
    wall: str


@dataclass(frozen=True)
class ForgetPhoneKeys:
    """"Forget phones": every pairing token's kept keys go (issue #38, 4)."""


@dataclass(frozen=True)
class Together:
    """Writes made in one transaction: a keyed line's own writes and its :class:`KeepLine`."""

    writes: tuple[tuple[GameRef, JournalWrite], ...]


JournalWrite = (BeginGame | Append | DropLast | SetResult | SetAside | MakeCurrent | Checkpoint
                | KeepScored | KeepLine | ForgetPhoneKeys | Together)


def apply(journal: Journal, game_id: int | None, write: JournalWrite) -> int | None:
    """Make ``write`` for game ``game_id`` (None only for :class:`BeginGame`, which answers
    the new game's id)."""
    if isinstance(write, BeginGame):
        return journal.begin_game(write.game, write.options, write.seed, write.at, write.wall)
    if isinstance(write, KeepScored):
        return journal.keep_finished(write.game, write.options, write.at, write.wall,
                                     write.result)
    if isinstance(write, KeepLine):
        journal.keep_line(write.holder, write.key, write.digest, write.reply, write.wall)
        return None
    if isinstance(write, ForgetPhoneKeys):
        journal.forget_phone_keys()
        return None
    if isinstance(write, Together):
        journal.together(lambda: apply_together(journal, write))
        return None
    assert game_id is not None, "a game's writes follow its begin row"
    match write:
        case Append(recorded=recorded, wall=wall):
            journal.append(game_id, recorded, wall)
        case DropLast(count=count):
            journal.drop_last(game_id, count)
        case SetResult(result=result):
            journal.set_result(game_id, result)
        case SetAside():
            journal.set_aside(game_id)
        case MakeCurrent():
            journal.make_current(game_id)
        case Checkpoint(at=at):
            journal.checkpoint(game_id, at)
    return None


def apply_together(journal: Journal, together: Together) -> None:
    """Make every write of ``together`` (inside its transaction); a game begun there gets its
    id at once, for the writes after it. Should the transaction fail, the ids go back."""
    before = [(game, game.id) for game, _ in together.writes]
    try:
        for game, write in together.writes:
            result = apply(journal, game.id, write)
            if isinstance(write, (BeginGame, KeepScored)):
                game.id = result
    except BaseException:
        for game, game_id in before:
            game.id = game_id
        raise


class GameRef:
    """A game in the journal, as queued writes refer to it (see the module docstring)."""

    def __init__(self, game_id: int | None = None) -> None:
        self.id = game_id


class JournalWriter:
    """The queue of journal writes and the journal's health; see the module docstring."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.health = PartHealth("journal")
        self.unsaved: list[tuple[GameRef, JournalWrite]] = []
        # The game that writes are queued for now (None before any game).
        self.game: GameRef | None = None
        # Notices for the screen, oldest first; the controller takes them.
        self.news: list[str] = []
        # Set by the controller while an input's frame comes first: writes wait in the queue.
        self.held = False
        self._on_reserve = journal.on_reserve
        # Where a keyed line's writes gather until its key is known (see :meth:`keyed`).
        self._gathering: list[tuple[GameRef, JournalWrite]] | None = None
        # Set when a write that changes which games are current reached the journal (a new
        # game's begin row, a set-aside, a resume): the menu's list of past games is stale.
        self.games_changed = False

    @property
    def game_id(self) -> int | None:
        """The current game's journal id, once its start is saved."""
        return self.game.id if self.game is not None else None

    @property
    def saved(self) -> bool:
        """Whether everything accepted so far is on disk (a durable journal, nothing queued)."""
        return not self.unsaved and self.journal.durable

    @property
    def refused(self) -> bool:
        """Whether accepted writes wait because the disk refused them (or the journal is the
        in-memory stand-in): the screen's SAVE! mark. A write merely held behind its frame
        is not refused."""
        return not self.journal.durable or (bool(self.unsaved) and self.health.failing)

    def resume(self, game_id: int) -> None:
        """Writes from now on go to a game already in the journal (after a restore)."""
        self.game = GameRef(game_id)

    def begin(self, now: float, write: BeginGame) -> None:
        """A new game: its writes, from this one on, belong to it."""
        self.game = GameRef()
        self.write(now, write)

    def keep(self, now: float, write: KeepScored | ForgetPhoneKeys) -> None:
        """Queue a write of no game in play (a scored game, the phones' keys forgotten) and
        write what is queued."""
        self._queue(now, GameRef(), write)

    def write(self, now: float, write: JournalWrite) -> None:
        """Queue one journal write for the current game and write everything queued (unless
        :attr:`held`: then :meth:`catch_up` writes it)."""
        if self.game is None:
            return  # no game in play: nothing to save
        self._queue(now, self.game, write)

    def gather(self) -> None:
        """A keyed line starts: its writes gather, unwritten, until :meth:`keyed`."""
        self._gathering = []

    def keyed(self, now: float, write: KeepLine | None) -> None:
        """The keyed line's reply is known: its writes and its key (``write``; None for a
        line that failed) go to the journal in one transaction (issue #28, 3), queued like
        any write while the disk refuses."""
        gathered, self._gathering = self._gathering or [], None
        key = () if write is None else ((GameRef(), write),)
        if gathered or key:
            self._queue(now, GameRef(), Together((*gathered, *key)))

    def kept_line(self, holder: str, key: str) -> tuple[str, str | None] | None:
        """The line's digest and the reply kept for ``holder``'s ``key``: still queued, or in
        the journal (None: never kept, or forgotten)."""
        for _, write in reversed(self.unsaved):
            if isinstance(write, ForgetPhoneKeys) and holder != "box":
                return None  # forgotten after it was kept
            if isinstance(write, Together):
                for _, inner in write.writes:
                    if isinstance(inner, KeepLine) and (inner.holder, inner.key) == (holder, key):
                        return inner.digest, inner.reply
        try:
            return self.journal.kept_line(holder, key)
        except JournalError as error:
            log.error("cannot read a kept line's key (%s); it runs as new", error)
            return None

    def _queue(self, now: float, game: GameRef, write: JournalWrite) -> None:
        if self._gathering is not None:
            self._gathering.append((game, write))
            return
        self.unsaved.append((game, write))
        if not self.held:
            self.catch_up(now)

    def catch_up(self, now: float) -> bool:
        """Write what is queued, unless the disk is refusing and its retry is not due yet
        (the queue then waits, as for any refused write). True if something was tried."""
        if not self.unsaved or not self.health.may_try(now):
            return False
        self.flush(now)
        return True

    @property
    def on_reserve(self) -> bool:
        """Whether the disk filled and writes are using the reserve (see adapters/journal.py)."""
        return self.journal.durable and self.journal.on_reserve

    def retry_at(self) -> float | None:
        """When queued writes (or opening the real journal) are next tried, or None."""
        return self.health.retry_at if self._pending() else None

    def retry_due(self, now: float) -> bool:
        return self._pending() and self.health.may_try(now)

    def take_news(self) -> list[str]:
        """The notices for the screen since the last call, oldest first."""
        news, self.news = self.news, []
        return news

    def flush(self, now: float) -> None:
        if self._waiting_for_disk() and not self._open_real(now):
            return
        self._flush(now)
        if self.on_reserve and not self._on_reserve:
            self.news.append(DISK_FULL_NOTICE)
        self._on_reserve = self.on_reserve

    def stop(self, now: float) -> None:
        """A clean stop: one last try at what is queued, whatever the backoff says."""
        if self.unsaved:
            self.flush(now)
        if self.unsaved:
            log.error("%d journal writes could not be saved before stopping", len(self.unsaved))

    def _pending(self) -> bool:
        return bool(self.unsaved) or self._waiting_for_disk()

    def _waiting_for_disk(self) -> bool:
        return not self.journal.durable and self.journal.wanted_dir is not None

    def _open_real(self, now: float) -> bool:
        """Open the real journal and write there from now on (the queue, then everything);
        False (and a retry with backoff) while it still cannot be opened.

        Nothing is ever written to the stand-in: the first write already tries the real
        journal, and while that fails every write waits in the queue, so the queue holds
        the whole session."""
        stand_in = self.journal
        assert stand_in.wanted_dir is not None
        try:
            real = Journal.in_directory(stand_in.wanted_dir)
        except JournalUnavailable as error:
            self.health.failed(now, error)
            return False
        stand_in.close()
        self.journal = real
        log.warning("journal opened in %s after all; writing %d queued writes there",
                    real.path.parent, len(self.unsaved))
        self.news.append(SAVING_AGAIN_NOTICE)
        if real.kept_aside is not None:  # what was there was damaged: say so too
            self.news.append(damaged_notice(real.kept_aside))
        return True

    def _flush(self, now: float) -> None:
        while self.unsaved:
            game, write = self.unsaved[0]
            try:
                result = apply(self.journal, game.id, write)
            except JournalUnavailable as error:
                self.health.failed(now, error)
                return
            self.unsaved.pop(0)
            if isinstance(write, (BeginGame, KeepScored)):
                game.id = result
            inner = write.writes if isinstance(write, Together) else ((game, write),)
            if any(isinstance(each, (BeginGame, SetAside, MakeCurrent)) for _, each in inner):
                self.games_changed = True
        self.health.succeeded()
