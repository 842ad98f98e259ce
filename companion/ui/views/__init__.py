"""State -> screen model, for the whole box: the menu, a notice, or the game's own view.

Each game has a view module here, named after the game's module in its facts
(companion/games/registry.py; :data:`VIEW_MODULES`). A refusal
(``AppState.notice``) shows in the alert box until the next accepted input, so the screen
always says why nothing happened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from importlib import import_module
from typing import Any

from companion.core.app import App, AppState
from companion.core.appstate import PairingWindow
from companion.core.table_page import code_shown, pairing_seconds_left, typed_codes_spent
from companion.games.registry import GAMES
from companion.ui.screen import Screen, alert_lines
from companion.ui.views.menu import menu_screen

View = Callable[[Any, float], Screen]

LESSON_STATUS = "NEXT got it"
LESSON_STATUS_PAGE = "NEXT got it  more on page"
"""A lesson's status bar on the panel (companion/ui/views/lesson.py), and the same while the
table page is on: the lesson's whole text and its "More" link are there."""


def with_table_page(screen: Screen) -> Screen:
    """``screen`` as the panel shows it while the table page is on: a lesson points there."""
    if screen.status == LESSON_STATUS:
        return replace(screen, status=LESSON_STATUS_PAGE)
    return screen


VIEW_MODULES: Mapping[str, tuple[str, str]] = {
    facts.name: (facts.module, facts.view) for facts in GAMES}
"""Game name -> (module in companion.ui.views, view function), from each game's facts
(companion/games/registry.py). A view module is imported when its game is first shown, like
the game's rules."""


def view_for(game: str) -> View:
    """The view function of ``game``."""
    module, function = VIEW_MODULES[game]
    view: View = getattr(import_module(f"companion.ui.views.{module}"), function)
    return view


def all_view_scenes() -> dict[str, tuple[str, ...]]:
    """Every scene of every view module (its ``SCENES``, if it has any)."""
    scenes: dict[str, tuple[str, ...]] = {}
    for module, _ in VIEW_MODULES.values():
        scenes.update(getattr(import_module(f"companion.ui.views.{module}"), "SCENES", {}))
    return scenes


def screen_for(app: App, state: AppState, now: float, mark: str = "") -> Screen:
    """What the display shows for ``state`` at ``now``; ``mark`` flags a lasting fault."""
    screen = table_screen(app, state, now, mark)
    left = pairing_seconds_left(state, now)
    window = state.pairing
    if not left or window is None:
        return screen
    if screen.matrix:
        # The table page's own screen: the pairing link's QR code (its secret) in place of
        # the address's, and the column beside it says the rest (issue #38, 6).
        return replace(screen, lines=pairing_lines(window, left),
                       matrix=window.qr or screen.matrix)
    code = window.code if code_shown(window) else None
    # Elsewhere the window takes the title bar (someone is typing the code in now), so the
    # game's main line, its body and an alert box all stay in view (issue #19).
    return replace(screen, title=pair_title(code, left))


def pair_title(code: str | None, seconds_left: int) -> str:
    """The title bar while pairing is open: ``Pair 123456 1:45`` (``Pairing open 1:45``
    before any phone asked for the code, and once typed codes are used up)."""
    clock = minutes(seconds_left)
    return f"Pairing open {clock}" if code is None else f"Pair {code} {clock}"


def pairing_lines(window: PairingWindow, seconds_left: int) -> tuple[str, ...]:
    """The "Table page" column while pairing is open (12 characters a line): scan the QR code
    (when it carries the window's secret), or type the code once a phone asked for it; once
    the window's typed codes are used up, only the QR code."""
    if typed_codes_spent(window):
        shown = ("Typed codes", "used up")
    elif window.code is not None:
        shown = ("Code:", window.code)
    else:
        shown = ("or ask for", "a code") if window.qr else ("Ask for it", "on a phone")
    first = "Scan to pair" if window.qr else "Pairing open"
    return (first, f"{minutes(seconds_left)} left", *shown, "BACK: close")


def minutes(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def mirror_screen(app: App, state: AppState, now: float,
                  shown: Screen | None) -> Screen | None:
    """What the table page mirrors of ``shown`` (the panel's screen, None before the first
    frame): the same, but while pairing is open, the screen drawn without the window's code,
    secret (the plain address's QR code) and countdown. Whoever can read the mirror must not
    be able to pair with it."""
    if shown is None or state.pairing is None:
        return shown
    return table_screen(app, state, now, shown.mark)


def table_screen(app: App, state: AppState, now: float, mark: str = "") -> Screen:
    """The screen for ``state`` at ``now`` without a pairing code: what everyone may see."""
    if state.offer is not None:
        screen = Screen("Welcome back", (state.offer, "NEXT: resume it", "BACK: new game"))
    elif state.menu is not None:
        screen = menu_screen(app, state)
    elif state.session is None:
        screen = Screen("Table companion", ("No game yet.", "Press BACK for", "the menu."))
    else:
        screen = view_for(state.session.game)(state.session.state, now)
        if app.table_page is not None:
            screen = with_table_page(screen)
    if screen.selected is not None and not screen.choices:
        # A list the view did not spell out (a menu): the page lists the panel's rows.
        screen = replace(screen, choices=screen.lines, chosen=screen.selected)
    if not screen.heading:
        screen = replace(screen, heading=screen.title)
    if state.notice:
        screen = replace(screen, alert=alert_lines(state.notice), notice=state.notice)
    if mark:
        screen = replace(screen, mark=mark)
    return screen
