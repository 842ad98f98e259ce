"""The box's state and the effects the pure core asks the runtime to perform, as data.

:class:`AppState` is the whole box at one instant: the game in play (a :class:`Session`,
replayed from its :class:`Recorded` actions), the menu, the notices, the sound settings and
what the runtime keeps the core informed of (resumable games, a pending pairing code). It is
frozen: every step makes a new one (companion/core/app.py says how).

The effects, in the order the runtime performs them (DESIGN.md rule 6: journal first):
:class:`JournalNew`, :class:`JournalAction`, :class:`JournalUndo`, :class:`ResultChanged`,
:class:`JournalSetAside`, then :class:`SoundChanged`, :class:`ResumeGame`,
:class:`ForgetPhones` and the tunes (:class:`~companion.core.game.Play`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.core.game import GameAction, Play
from companion.core.tunes import SoundSettings


@dataclass(frozen=True)
class Recorded:
    """A journaled game action and the game-clock instant it happened at."""

    action: GameAction
    at: float


@dataclass(frozen=True)
class Session:
    """The game in play: how it started, every action since, and the state they give."""

    game: str
    options: Mapping[str, str]
    seed: int
    state: Any
    history: tuple[Recorded, ...] = ()


@dataclass(frozen=True)
class PastGame:
    """A game in the journal that did not end and is not current: it can be resumed."""

    id: int
    game: str
    # When it was last played, as the journal's wall clock says (ISO 8601).
    last_wall: str


MenuPage = Literal["games", "options", "history", "replace", "table-page", "power-off"]


@dataclass(frozen=True)
class Menu:
    """The start menu: the list of games, then the options of the chosen one.

    ``history`` lists the resumable games; ``replace`` asks before a game in play is
    replaced by ``game`` (or, with ``resume``, by that past game).
    """

    page: MenuPage = "games"
    cursor: int = 0
    game: str | None = None
    values: tuple[str, ...] = ()
    resume: int | None = None
    #: On the options page: the options under "More options" are open (hold NEXT).
    more: bool = False


@dataclass(frozen=True)
class PairingWindow:
    """Pairing, open: opened at the box (the menu's "Pair a phone", or ``pair open`` on a
    trusted channel) until the game-clock instant ``until``. ``code`` is the one pairing code
    of this window once a phone asked for it (None before), ``wrong`` the wrong codes typed
    in this window, per client (its address, or its IPv6 /64), oldest first. ``secret`` is
    the window's long secret (None until the runtime drew it, before the window's first
    frame) and ``qr`` the QR code of the pairing link that carries it (empty: none fits the
    panel). companion/core/table_page.py owns it all; neither the code nor the secret is
    ever in the state JSON, the mirror or a repr."""

    until: float
    code: str | None = field(default=None, repr=False)
    wrong: tuple[tuple[str, int], ...] = ()
    secret: str | None = field(default=None, repr=False)
    qr: tuple[tuple[bool, ...], ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class AppState:
    session: Session | None = None
    menu: Menu | None = field(default_factory=Menu)
    notice: str | None = None
    last_tick: float = 0.0
    # The seed a game started from the menu will use. The runtime draws it from its injected
    # random source (DESIGN.md rule 3), so the pure menu needs no randomness of its own.
    next_seed: int = 0
    # A stale game found at start-up ("Resume game of <date>?"): NEXT resumes it, BACK sets
    # it aside (it stays in history) and opens the menu.
    offer: str | None = None
    # Volume and mute, as the menu shows them (the runtime loads them from the state dir).
    sound: SoundSettings = field(default_factory=SoundSettings)
    # The options last chosen for each game (issue #27): a game's options page starts from
    # them. Kept by new_game; the runtime loads and saves them in the state dir.
    remembered: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # Unfinished games in the journal besides the current one, newest first (the runtime
    # keeps this list; the menu's "Resume a game" page shows it).
    resumable: tuple[PastGame, ...] = ()
    # The pairing window, while one is open (companion/core/table_page.py is its one owner).
    pairing: PairingWindow | None = None


@dataclass(frozen=True)
class JournalNew:
    game: str
    options: Mapping[str, str]
    seed: int
    at: float


@dataclass(frozen=True)
class JournalAction:
    action: GameAction
    at: float


@dataclass(frozen=True)
class JournalUndo:
    dropped: int


@dataclass(frozen=True)
class ResultChanged:
    result: Any


@dataclass(frozen=True)
class JournalSetAside:
    """The current game is left in history; no game is current any more."""


@dataclass(frozen=True)
class JournalScored:
    """A game scored from its final count (the protocol's ``score``, the table page's Score
    tab) is kept in history as a finished game of its own, with ``result`` the scorer's
    answer; the game in play, if any, is untouched."""

    game: str
    options: Mapping[str, str]
    result: Any
    at: float


@dataclass(frozen=True)
class SoundChanged:
    """Volume or mute changed: apply it to the buzzer and remember it."""

    sound: SoundSettings


@dataclass(frozen=True)
class ResumeGame:
    """Replay the journal's game ``game_id`` and make it the current game."""

    game_id: int


@dataclass(frozen=True)
class ForgetPhones:
    """Revoke every table-page pairing."""


@dataclass(frozen=True)
class PowerOff:
    """Power the box off (asked and confirmed in the menu: core/power.py)."""


Effect = (JournalNew | JournalAction | JournalUndo | Play | ResultChanged | JournalSetAside
          | JournalScored | SoundChanged | ResumeGame | ForgetPhones | PowerOff)
