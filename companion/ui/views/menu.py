"""The start menu: the list of games, then one page of options per game.

Three lines show at a time, scrolled so the cursor is always visible and inverted.
"""

from __future__ import annotations

from companion.core.app import App, AppState
from companion.ui.screen import Screen, choice_line

VISIBLE = 3


def window(count: int, cursor: int, visible: int = VISIBLE) -> range:
    """The indices shown when ``visible`` of ``count`` items fit and ``cursor`` must show."""
    first = min(max(0, cursor - visible // 2), max(0, count - visible))
    return range(first, min(count, first + visible))


def menu_screen(app: App, state: AppState) -> Screen:
    menu = state.menu
    assert menu is not None
    if menu.page == "games" or menu.game is None:
        items = app.menu_items(state)
        shown = window(len(items), menu.cursor)
        return Screen("Choose a game", tuple(items[i] for i in shown),
                      selected=menu.cursor - shown.start, status="UP/DOWN move  NEXT go")
    game = app.game(menu.game)
    specs = game.options
    shown = window(len(specs), menu.cursor)
    lines = tuple(choice_line(specs[i].label, menu.values[i]) for i in shown)
    last = menu.cursor == len(specs) - 1
    status = "UP/DN change NEXT start" if last else "UP/DN change  NEXT ok"
    return Screen(game.title, lines, selected=menu.cursor - shown.start, status=status)
