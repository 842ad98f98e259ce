"""The start menu's pages, as pure functions of the state and a button (DESIGN.md rule 1).

What it promises (the rules are the menu's part of core/app.py's list):
- In the menu UP / DOWN move, NEXT chooses, BACK goes back a level; hold BACK returns to the
  game in play (refused with none).
- The games page lists back (a game in play), the games, "Resume a game", "Table page",
  "Power off" (asks first: core/power.py), volume, mute and "Forget phones"
  (:meth:`App.menu_items <companion.core.app.App.menu_items>`);
  the volume row steps louder (wrapping), the mute row toggles.
- Choosing a game (or a past one) while a game is in play asks first ("replace" page: NEXT
  yes, BACK no); a game without options starts at once, one with options opens their page,
  each option at the value last chosen for that game (``AppState.remembered``) where the
  game still offers it, else at its default.
- On the options page, an option that UP / DOWN cannot change is refused with the reason;
  options hidden by ``shown_when`` are skipped and start at their default. Options under
  "More options" (``OptionSpec.more``) are skipped, at the value they opened with, until hold
  NEXT opens them (at the first of them); a value that ``suggests`` another option's value
  sets it when chosen (a first game at ``pace=teach``: no VIP cards).
- An offer to resume a stale game: NEXT resumes it, BACK sets it aside (journaled).
- The "Table page" screen: NEXT is "Pair a phone" (opens the pairing window,
  companion/core/table_page.py), BACK closes an open window and goes back, UP / DOWN go back.

The menu reaches the rest of the box only through :class:`MenuHost` (the
:class:`~companion.core.app.App`), so it never imports the app back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Protocol

from companion.core import power
from companion.core.appstate import (
    AppState,
    Effect,
    ForgetPhones,
    JournalSetAside,
    Menu,
    ResumeGame,
)
from companion.core.buttons import Button, Gesture
from companion.core.game import Game, Play, RuleError, starting_values
from companion.core.table_page import end_pairing, open_pairing
from companion.core.tunes import VOLUME_STEPS, SoundSettings

BACK_TO_GAME = "Back to game"
RESUME_A_GAME = "Resume a game"
TABLE_PAGE_ITEM = "Table page"
FORGET_PHONES = "Forget phones"


def volume_item(sound: SoundSettings) -> str:
    """The menu row for the volume."""
    return f"Volume {sound.volume}/{VOLUME_STEPS}"


def mute_item(sound: SoundSettings) -> str:
    """The menu row for mute."""
    return "Sound: muted" if sound.muted else "Sound: on"


class MenuHost(Protocol):
    """What the menu's pages use of the app."""

    @property
    def games(self) -> Mapping[str, Game[Any]]: ...

    def new_game(self, state: AppState, name: str, given: Mapping[str, str], seed: int,
                 now: float) -> tuple[AppState, list[Effect]]: ...

    def set_sound(self, state: AppState,
                  sound: SoundSettings) -> tuple[AppState, list[Effect]]: ...

    def menu_items(self, state: AppState) -> list[str]: ...

    def visible_options(self, menu: Menu) -> list[int]: ...

    def in_play(self, state: AppState) -> bool: ...

    def title_of(self, name: str) -> str: ...

    def game(self, name: str) -> Game[Any]: ...


def answer_offer(state: AppState, gesture: Gesture) -> tuple[AppState, list[Effect]]:
    if gesture.kind == "press" and gesture.button is Button.NEXT:
        return replace(state, offer=None, notice=None), []
    if gesture.kind == "press" and gesture.button is Button.BACK:
        return (replace(state, offer=None, session=None, menu=Menu(), notice=None),
                [JournalSetAside()])
    raise RuleError("not-allowed", "NEXT resumes the game, BACK starts a new one")

def opens_pairing_window(state: AppState, gesture: Gesture) -> bool:
    """Whether ``gesture`` is "Pair a phone" (NEXT on the Table page screen), which opens
    the pairing window or starts it again: only the box's own buttons and channels may."""
    menu = state.menu
    return (state.offer is None and menu is not None and menu.page == "table-page"
            and gesture.kind == "press" and gesture.button is Button.NEXT)


def menu_input(app: MenuHost, state: AppState, gesture: Gesture,
                now: float) -> tuple[AppState, list[Effect]]:
    menu = state.menu
    assert menu is not None
    if gesture.kind == "hold":
        if gesture.button is Button.BACK and state.session is not None:
            return replace(state, menu=None, notice=None), []
        if gesture.button is Button.NEXT and menu.page == "options":
            return _more_options(app, state, menu)
        raise RuleError("not-allowed",
                        "in the menu: UP / DOWN choose, NEXT selects, BACK goes back")
    if menu.page == "table-page":
        if gesture.button is Button.NEXT:  # "Pair a phone"
            return open_pairing(state, now), [Play("click")]
        # Any other button: back to the row it was opened from; BACK closes an open window.
        left = replace(state, menu=replace(menu, page="games"), notice=None)
        return (end_pairing(left) if gesture.button is Button.BACK else left), []
    if menu.page == "games":
        return _games_page(app, state, menu, gesture.button, now)
    if menu.page == "history":
        return _history_page(app, state, menu, gesture.button)
    if menu.page == "replace":
        return _replace_page(app, state, menu, gesture.button, now)
    if menu.page == "power-off":
        return power.answer(state, menu, gesture.button)
    return _options_page(app, state, menu, gesture.button, now)

def _games_page(app: MenuHost, state: AppState, menu: Menu, button: Button,
                now: float) -> tuple[AppState, list[Effect]]:
    items = app.menu_items(state)
    if button in (Button.UP, Button.DOWN):
        step = -1 if button is Button.UP else 1
        moved = replace(menu, cursor=(menu.cursor + step) % len(items))
        return replace(state, menu=moved, notice=None), []
    if button is Button.BACK:
        if state.session is None:
            raise RuleError("not-allowed", "choose a game to play")
        return replace(state, menu=None, notice=None), []
    chosen = items[menu.cursor]
    if chosen == BACK_TO_GAME:
        return replace(state, menu=None, notice=None), []
    if chosen == volume_item(state.sound):
        return app.set_sound(state, state.sound.louder())
    if chosen == mute_item(state.sound):
        return app.set_sound(state, state.sound.toggled())
    if chosen == RESUME_A_GAME:
        return replace(state, menu=Menu(page="history"), notice=None), []
    if chosen == TABLE_PAGE_ITEM:
        return replace(state, menu=replace(menu, page="table-page"), notice=None), []
    if chosen == power.POWER_OFF_ITEM:
        return power.ask(state, menu), []
    if chosen == FORGET_PHONES:
        return replace(state, notice="Phones forgotten: they must pair again"), [
            ForgetPhones(), Play("click")]
    name = next(game.name for game in app.games.values() if game.title == chosen)
    if app.in_play(state):
        return replace(state, menu=Menu(page="replace", game=name), notice=None), []
    return _choose(app, state, name, now)

def _choose(app: MenuHost, state: AppState, name: str,
            now: float) -> tuple[AppState, list[Effect]]:
    """Game ``name`` was chosen (and, if one was in play, replacing it was agreed)."""
    specs = app.game(name).options
    if not specs:
        return app.new_game(state, name, {}, state.next_seed, now)
    # The options last chosen for this game (issue #27), where the game still offers them.
    values = starting_values(specs, state.remembered.get(name, {}))
    options_page = Menu(page="options", cursor=0, game=name, values=values)
    return replace(state, menu=options_page, notice=None), []

def _games_cursor(app: MenuHost, state: AppState, item: str) -> Menu:
    """The games page with the cursor on ``item`` (the top if it is gone)."""
    items = app.menu_items(state)
    return Menu(cursor=items.index(item) if item in items else 0)

def _history_page(app: MenuHost, state: AppState, menu: Menu,
                  button: Button) -> tuple[AppState, list[Effect]]:
    past = state.resumable
    if button is Button.BACK or not past:
        return replace(state, menu=_games_cursor(app, state, RESUME_A_GAME),
                       notice=None), []
    if button in (Button.UP, Button.DOWN):
        step = -1 if button is Button.UP else 1
        moved = replace(menu, cursor=(menu.cursor + step) % len(past))
        return replace(state, menu=moved, notice=None), []
    chosen = past[min(menu.cursor, len(past) - 1)]
    if app.in_play(state):
        asking = Menu(page="replace", cursor=menu.cursor, game=chosen.game,
                      resume=chosen.id)
        return replace(state, menu=asking, notice=None), []
    return _resume(state, chosen.id)

def _resume(state: AppState, game_id: int) -> tuple[AppState, list[Effect]]:
    resumable = tuple(past for past in state.resumable if past.id != game_id)
    return (replace(state, menu=None, notice=None, resumable=resumable),
            [ResumeGame(game_id), Play("click")])

def _replace_page(app: MenuHost, state: AppState, menu: Menu, button: Button,
                  now: float) -> tuple[AppState, list[Effect]]:
    assert menu.game is not None
    if button is Button.NEXT:
        if menu.resume is not None:
            return _resume(state, menu.resume)
        return _choose(app, state, menu.game, now)
    if button is Button.BACK:
        back = (Menu(page="history", cursor=menu.cursor) if menu.resume is not None
                else _games_cursor(app, state, app.title_of(menu.game)))
        return replace(state, menu=back, notice=None), []
    raise RuleError("not-allowed", "NEXT replaces the game in play, BACK keeps it")

def _options_page(app: MenuHost, state: AppState, menu: Menu, button: Button,
                  now: float) -> tuple[AppState, list[Effect]]:
    assert menu.game is not None
    specs = app.game(menu.game).options
    spec = specs[menu.cursor]
    if button in (Button.UP, Button.DOWN):
        if not spec.changeable:
            raise RuleError("not-allowed",
                            f"{spec.label} is {spec.default} here; 'new' sets others")
        choices = spec.choices
        current = menu.values[menu.cursor]
        index = choices.index(current) if current in choices else 0
        index = (index + (1 if button is Button.UP else -1)) % len(choices)
        values = list(menu.values)
        values[menu.cursor] = choices[index]
        for value, key, suggested, _ in spec.suggests:  # a first game: the base game
            if value == choices[index]:
                values[[other.key for other in specs].index(key)] = suggested
        return replace(state, menu=replace(menu, values=tuple(values)), notice=None), []
    shown = app.visible_options(menu)
    if button is Button.BACK:
        before = [index for index in shown if index < menu.cursor]
        if not before:
            back = _games_cursor(app, state, app.game(menu.game).title)
            return replace(state, menu=back, notice=None), []
        return replace(state, menu=replace(menu, cursor=before[-1]), notice=None), []
    after = [index for index in shown if index > menu.cursor]
    if after:
        return replace(state, menu=replace(menu, cursor=after[0]), notice=None), []
    # A hidden option starts at its default, whatever it was before it was hidden.
    # An option folded under "More options" keeps the value it opened with.
    folded = app.visible_options(replace(menu, more=True))
    given = {spec.key: value if index in shown or (spec.more and index in folded)
             else spec.default
             for index, (spec, value) in enumerate(zip(specs, menu.values, strict=True))}
    return app.new_game(state, menu.game, given, state.next_seed, now)


def _more_options(app: MenuHost, state: AppState,
                  menu: Menu) -> tuple[AppState, list[Effect]]:
    """Hold NEXT on the options page: the options under "More options" open, at the first."""
    assert menu.game is not None
    specs = app.game(menu.game).options
    opened = replace(menu, more=True)
    folded = [index for index in app.visible_options(opened) if specs[index].more]
    if menu.more or not folded:
        raise RuleError("not-allowed", "no more options: NEXT goes on")
    return replace(state, menu=replace(opened, cursor=folded[0]), notice=None), []
