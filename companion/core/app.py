"""The box as a whole: the start menu, the game in play, undo, and the journal it keeps.

``App`` is pure. It holds the registry of games and returns, for every input, the new
:class:`AppState` and the effects for the runtime to perform, in order (the records
themselves are in core/appstate.py):

- :class:`JournalNew`, :class:`JournalAction`, :class:`JournalUndo`: what the journal must
  record. The runtime writes them **before** performing the other effects (DESIGN.md rule 6).
- :class:`~companion.core.game.Play`: a tune for the buzzer.
- :class:`ResultChanged`: the game's result became known (or was undone).
- :class:`SoundChanged`: the volume or mute changed; the runtime applies it to the buzzer
  (before the effects' tunes sound) and remembers it in the state dir.
- :class:`ResumeGame`: make a game from the journal's history current again (replayed from
  its journal by the runtime, which alone can read it).
- :class:`ForgetPhones`: "Forget phones" was chosen; the runtime revokes every table-page
  pairing.

Rules it enforces:
- Illegal input never changes the game: a :class:`RuleError` from a game leaves the state
  as it was, and the refusal is shown as a notice until the next accepted input.
- Undo drops the last player action (and the automatic actions, timer expiry or power-cut
  restore, that followed it) and replays the rest from the start of the game. There is
  nothing to undo before the first player action.
- Undo never spends time: the time between the undone action and the undo is not the
  table's. A countdown the replay leaves running stands paused with what it had left when the
  undone action happened (a journaled ``Restore`` at that instant; hold NEXT resumes it);
  an undo at the very instant of the action leaves it running (no time went by).
  Replaying the kept actions against their recorded instants alone would leave a countdown
  running from long ago: paused at 12 s, wait 30 s, undo, and the flight ended at once.
- Every undo shows what it took back (``undone: flight R3 start``), in the game's words when
  the game can describe its actions (:class:`~companion.core.game.Describes`).
- BACK opens the menu over the game (the game goes on); hold BACK undoes. In the menu
  UP / DOWN move, NEXT chooses, BACK goes back a level.
- A game is never lost by accident: choosing another game (or a past one) in the menu while
  a game is in play asks first ("Replace the ... game?" NEXT yes, BACK no). A replaced or
  set-aside game that did not end stays resumable from the menu ("Resume a game"), for as
  long as the runtime lists it in :attr:`AppState.resumable`.
- Options that UP / DOWN cannot change (a single choice) are refused with the reason, and
  options hidden by ``shown_when`` are skipped and keep their default.
- Warnings are heard once each: every tick reports the marks whose instants fall between
  the previous tick (or accepted action) and now.
- Sound: two rows near the end of the menu's games page are the volume (NEXT: one step louder,
  wrapping to the quietest) and mute (NEXT toggles). The UP+DOWN chord toggles mute at
  once, on any screen, and never reaches a game.
- Power off: the row before the sound rows asks first and then answers the ``PowerOff`` effect
  (core/power.py holds its rules).
- Table page: while the web server is on (``App.table_page`` set), the menu's games page has a
  "Table page" row (before the sound rows); NEXT on it shows the address and its QR code.
  There NEXT is "Pair a phone" (opens pairing for two minutes, counting down), BACK closes an
  open window and goes back, UP / DOWN go back (companion/core/table_page.py).
- The table page (issue #15): with it on (``App(..., phones=True)``) the menu's last row is
  "Forget phones". The pairing window's code shows in the title bar ("Pair 123456 1:45") until
  its deadline, which is a wake-up like any other; neither it nor the window's secret (on the
  Table page's QR code) ever reaches the state JSON.

Every input is routed here (:meth:`App.gesture`), to the game, the menu, the offer of a stale
game or the sound, so reading the routes in one place shows that no input is lost or handled
twice. The state and effect records are in core/appstate.py; the menu's pages, which the
routes hand a button to, are in core/menu.py.
"""

from __future__ import annotations

# The state and effect records live in core/appstate.py; they are named here too, where the
# runtime, the views and the tests have always found them.
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.core import power
from companion.core.appstate import (
    AppState,
    Effect,
    ForgetPhones,
    JournalAction,
    JournalNew,
    JournalSetAside,
    JournalUndo,
    Menu,
    MenuPage,
    PastGame,
    Recorded,
    ResultChanged,
    ResumeGame,
    Session,
    SoundChanged,
)
from companion.core.buttons import Button, Gesture
from companion.core.game import (
    AUTOMATIC_ACTIONS,
    Describes,
    Expire,
    Game,
    GameAction,
    Hold,
    Play,
    Press,
    Restore,
    RuleError,
    describe_action,
    option_json,
    remembered_options,
    resolve_options,
)
from companion.core.menu import (
    BACK_TO_GAME,
    FORGET_PHONES,
    RESUME_A_GAME,
    TABLE_PAGE_ITEM,
    answer_offer,
    menu_input,
    mute_item,
    volume_item,
)
from companion.core.table_page import (
    PairOutcome,
    ShowOutcome,
    TablePage,
    expire_pairing,
    judge_pair_code,
    judge_pair_secret,
    pair_wake,
    show_pair_code,
)
from companion.core.timer import Countdown, TimerState
from companion.core.tunes import SoundSettings, warning_tune

__all__ = [
    "BACK_TO_GAME",
    "FORGET_PHONES",
    "RESUME_A_GAME",
    "TABLE_PAGE_ITEM",
    "App",
    "AppState",
    "Effect",
    "ForgetPhones",
    "JournalAction",
    "JournalNew",
    "JournalSetAside",
    "JournalUndo",
    "Menu",
    "MenuPage",
    "PastGame",
    "Recorded",
    "ResultChanged",
    "ResumeGame",
    "Session",
    "SoundChanged",
    "mute_item",
    "volume_item",
]

class App:
    """The pure state machine of the whole box; see the module docstring."""

    def __init__(self, games: Iterable[Game[Any]], table_page: TablePage | None = None, *,
                 phones: bool = False) -> None:
        self.games: Mapping[str, Game[Any]] = MappingProxyType({g.name: g for g in games})
        # Set by the runtime once the web server has bound its address (None: web off).
        self.table_page = table_page
        self.phones = phones

    # -- starting and restoring --------------------------------------------------------------

    def new_game(self, state: AppState, name: str, given: Mapping[str, str], seed: int,
                 now: float) -> tuple[AppState, list[Effect]]:
        """Start ``name`` with ``given`` options (``key=value`` strings)."""
        game = self._game(name)
        options = MappingProxyType(resolve_options(game.options, given))
        session = Session(name, options, seed, game.new(options, seed))
        remembered = {**state.remembered, name: remembered_options(game.options, options)}
        return (AppState(session=session, menu=None, last_tick=now, next_seed=state.next_seed,
                         sound=state.sound, resumable=state.resumable,
                         pairing=state.pairing, remembered=remembered),
                [JournalNew(name, dict(options), seed, now), Play("click")])

    def restore(self, name: str, options: Mapping[str, str], seed: int,
                history: Iterable[Recorded], now: float) -> AppState:
        """The state rebuilt from a journal: the game started, then every action replayed."""
        game = self._game(name)
        frozen_options = MappingProxyType(dict(options))
        session = self._replay(game, Session(name, frozen_options, seed,
                                             game.new(frozen_options, seed)), tuple(history))
        return AppState(session=session, menu=None, last_tick=now)

    # -- inputs ------------------------------------------------------------------------------

    def gesture(self, state: AppState, gesture: Gesture,
                now: float) -> tuple[AppState, list[Effect]]:
        """A recognised press, hold or chord (from the buttons or the line protocol)."""
        if gesture.kind == "chord":
            return self.set_sound(state, state.sound.toggled())
        if state.offer is not None:
            return answer_offer(state, gesture)
        if state.menu is not None:
            return menu_input(self, state, gesture, now)
        if gesture.kind == "press" and gesture.button is Button.BACK:
            return replace(state, menu=Menu(), notice=None), []
        if gesture.kind == "hold" and gesture.button is Button.BACK:
            return self.undo(state, now)
        action: GameAction = (Press(gesture.button) if gesture.kind == "press"
                              else Hold(gesture.button))
        return self.act(state, action, now)

    def act(self, state: AppState, action: GameAction,
            now: float) -> tuple[AppState, list[Effect]]:
        """Apply a game action; raises :class:`RuleError` (state untouched) if refused."""
        session = self._session(state)
        game = self._game(session.game)
        new_game_state, plays = game.step(session.state, action, now)
        new_session = replace(session, state=new_game_state,
                              history=(*session.history, Recorded(action, now)))
        effects: list[Effect] = [JournalAction(action, now), *plays]
        effects.extend(self._result_change(game, session.state, new_game_state))
        # Never move last_tick back: a late-arriving input must not replay heard warnings.
        last_tick = max(state.last_tick, now)
        return replace(state, session=new_session, notice=None, last_tick=last_tick), effects

    def undo(self, state: AppState, now: float) -> tuple[AppState, list[Effect]]:
        """Take back the last player action (and the automatic ones after it)."""
        session = self._session(state)
        history = list(session.history)
        dropped = 0
        while history and isinstance(history[-1].action, AUTOMATIC_ACTIONS):
            history.pop()
            dropped += 1
        if not history:
            raise RuleError("not-allowed", "nothing to undo")
        undone = history.pop()
        dropped += 1
        game = self._game(session.game)
        restarted = replace(session, state=game.new(session.options, session.seed), history=())
        replayed = self._replay(game, restarted, tuple(history))
        notice = f"undone: {self._describe(game, replayed.state, undone.action)}"
        effects: list[Effect] = [JournalUndo(dropped)]
        replayed, paused = self._stop_the_clock(game, replayed, min(undone.at, now), now)
        effects.extend(paused)
        if paused:  # the screen says why the countdown stands still, and how it goes on
            notice += ". Paused: hold NEXT."
        effects.append(Play("click"))
        effects.extend(self._result_change(game, session.state, replayed.state))
        return replace(state, session=replayed, notice=notice, last_tick=now), effects

    def tick(self, state: AppState, now: float) -> tuple[AppState, list[Effect]]:
        """Time has reached ``now``: sound the warnings due, expire a countdown that ran out.
        A ``now`` earlier than the last tick is the last tick: time only moves forward, so a
        warning already heard never sounds again."""
        now = max(now, state.last_tick)
        countdown = self.countdown(state)
        effects: list[Effect] = []
        if countdown is not None:
            for mark in countdown.warnings_between(state.last_tick, now):
                effects.append(Play(warning_tune(mark)))
            if countdown.is_due(now):
                assert countdown.deadline is not None
                state, expired = self.act(state, Expire(), countdown.deadline)
                effects.extend(expired)
        state = expire_pairing(state, now)
        return replace(state, last_tick=now), effects

    def show_pair_code(self, state: AppState, code: str,
                       now: float) -> tuple[AppState, ShowOutcome]:
        """The pairing window's code on the display (the one shown stays), or why not. See
        companion/core/table_page.py's :func:`show_pair_code`."""
        return show_pair_code(state, code, now)

    def judge_pair_code(self, state: AppState, client: str, code: str,
                        now: float) -> tuple[AppState, PairOutcome]:
        """A code typed by ``client``: see companion/core/table_page.py."""
        return judge_pair_code(state, client, code, now)

    def judge_pair_secret(self, state: AppState, secret: str,
                          now: float) -> tuple[AppState, PairOutcome]:
        """A secret read off the box's QR code: see companion/core/table_page.py."""
        return judge_pair_secret(state, secret, now)

    def set_sound(self, state: AppState,
                  sound: SoundSettings) -> tuple[AppState, list[Effect]]:
        """New volume or mute; a click sounds at the new volume (silent when muted)."""
        notice = "muted: UP+DOWN unmutes" if sound.muted else None
        effects: list[Effect] = [SoundChanged(sound)]
        if not sound.muted:
            effects.append(Play("click"))
        return replace(state, sound=sound, notice=notice), effects

    def refuse(self, state: AppState, error: RuleError) -> AppState:
        """The state after a refused input: unchanged, with the reason on screen."""
        return replace(state, notice=error.message)

    # -- reading -----------------------------------------------------------------------------

    def countdown(self, state: AppState) -> Countdown | None:
        if state.session is None:
            return None
        return self._game(state.session.game).countdown(state.session.state)

    def next_wake(self, state: AppState, now: float) -> float | None:
        """When the box must look again: a warning, the expiry or a change of the display."""
        countdown = self.countdown(state)
        wake = countdown.next_wake(now) if countdown is not None else None
        pairs_end = pair_wake(state, now)
        if pairs_end is not None and (wake is None or pairs_end < wake):
            return pairs_end
        return wake

    def to_json(self, state: AppState, now: float) -> dict[str, Any]:
        """The ``state`` reply: the game's object, plus ``menu`` (null unless it is open)."""
        if state.session is None:
            body: dict[str, Any] = {"game": None, "players": None, "phase": "menu",
                                    "step": "menu", "result": None}
        else:
            body = self._game(state.session.game).to_json(state.session.state, now)
        body["menu"] = None if state.menu is None else self._menu_json(state.menu)
        body["sound"] = {"volume": state.sound.volume, "muted": state.sound.muted}
        return body

    def menu_items(self, state: AppState) -> list[str]:
        """The lines of the games page of the menu: back (a game in play), the games,
        "Resume a game" (when any can be), "Table page" (when the web is on),
        "Power off" (core/power.py), volume and mute, then "Forget phones" (when any phone is
        paired)."""
        items = [BACK_TO_GAME] if state.session is not None else []
        items += [game.title for game in self.games.values()]
        items += [RESUME_A_GAME] if state.resumable else []
        items += [TABLE_PAGE_ITEM] if self.table_page is not None else []
        items += [power.POWER_OFF_ITEM, volume_item(state.sound), mute_item(state.sound)]
        return items + ([FORGET_PHONES] if self.phones else [])

    def visible_options(self, menu: Menu) -> list[int]:
        """The indices of the options the menu shows for ``menu.game`` with its values."""
        assert menu.game is not None
        specs = self._game(menu.game).options
        values = dict(zip((spec.key for spec in specs), menu.values, strict=False))
        return [index for index, spec in enumerate(specs)
                if (spec.shown_when is None
                    or values.get(spec.shown_when[0]) == spec.shown_when[1])
                and (menu.more or not spec.more)]

    def in_play(self, state: AppState) -> bool:
        """Whether a game is in play that starting another would replace (one that ended
        is not: it is kept in history with its result)."""
        session = state.session
        return session is not None and self._game(session.game).result(session.state) is None

    def title_of(self, name: str) -> str:
        """The menu title of game ``name`` (the name itself for a game no longer known)."""
        game = self.games.get(name)
        return game.title if game is not None else name

    def game(self, name: str) -> Game[Any]:
        return self._game(name)

    # -- internals ---------------------------------------------------------------------------

    def _game(self, name: str) -> Game[Any]:
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(self.games)
            raise RuleError("bad-argument", f"unknown game {name!r}; games: {known}") from None

    @staticmethod
    def _session(state: AppState) -> Session:
        if state.session is None:
            raise RuleError("not-allowed",
                            "no game in play; choose one in the menu or send 'new GAME'")
        return state.session

    @staticmethod
    def _replay(game: Game[Any], session: Session, history: tuple[Recorded, ...]) -> Session:
        game_state = session.state
        for recorded in history:
            game_state, _ = game.step(game_state, recorded.action, recorded.at)
        return replace(session, state=game_state, history=history)

    @staticmethod
    def _stop_the_clock(game: Game[Any], session: Session, at: float,
                        now: float) -> tuple[Session, list[Effect]]:
        """Pause a countdown the replay left running, as it stood at ``at`` (the undone
        action's instant), so the time until the undo is not spent. Journaled as a Restore."""
        countdown = game.countdown(session.state)
        if countdown is None or countdown.state is not TimerState.RUNNING \
                or countdown.is_due(at) or at >= now:
            return session, []  # nothing running, or no time went by since the undone action
        paused, _ = game.step(session.state, Restore(), at)
        history = (*session.history, Recorded(Restore(), at))
        return replace(session, state=paused, history=history), [JournalAction(Restore(), at)]

    @staticmethod
    def _describe(game: Game[Any], before: Any, action: GameAction) -> str:
        """The undone action in the game's words, or the button and gesture."""
        if isinstance(game, Describes):
            described = game.describe(before, action)
            if described:
                return described
        return describe_action(action)

    @staticmethod
    def _result_change(game: Game[Any], before: Any, after: Any) -> list[Effect]:
        old, new = game.result(before), game.result(after)
        return [] if old == new else [ResultChanged(new)]

    def _menu_json(self, menu: Menu) -> dict[str, Any]:
        body: dict[str, Any] = {"page": menu.page, "cursor": menu.cursor}
        if menu.resume is not None:
            body["resume"] = menu.resume
        if menu.game is not None and menu.page == "options":
            specs = self._game(menu.game).options
            body["game"] = menu.game
            body["values"] = dict(zip((spec.key for spec in specs), menu.values, strict=False))
            # The page draws the options page as its own form from the game's definitions
            # (one owner: the OptionSpec), never from a copy (issue #27).
            body["options"] = [option_json(spec) for spec in specs]
        return body
