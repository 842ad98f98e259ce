"""The start menu: the list of games, then one page of options per game, and the table
page's address with its QR code.

Three lines show at a time, scrolled so the cursor is always visible and inverted.
"""

from __future__ import annotations

import re

from companion.core.app import TABLE_PAGE_ITEM, App, AppState
from companion.core.table_page import TablePage
from companion.ui.screen import MATRIX_LINE_WIDTH, Screen, choice_line

VISIBLE = 3


def window(count: int, cursor: int, visible: int = VISIBLE) -> range:
    """The indices shown when ``visible`` of ``count`` items fit and ``cursor`` must show."""
    first = min(max(0, cursor - visible // 2), max(0, count - visible))
    return range(first, min(count, first + visible))


def menu_screen(app: App, state: AppState) -> Screen:
    menu = state.menu
    assert menu is not None
    if menu.page == "table-page" and app.table_page is not None:
        return table_page_screen(app.table_page)
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


def table_page_screen(page: TablePage) -> Screen:
    """The QR code of the page's address, and the addresses as text beside it (without
    ``http://`` and the final ``/``, broken at dots and colons to the narrow column)."""
    lines: list[str] = []
    for url in (page.url, *page.also):
        lines += address_lines(url)
    lines = [*lines[:4], "BACK: menu"]
    return Screen(TABLE_PAGE_ITEM, tuple(lines), matrix=page.qr)


def address_lines(url: str, width: int = MATRIX_LINE_WIDTH) -> list[str]:
    """``url`` without its scheme and final slash, in lines of at most ``width`` characters,
    broken before a dot or colon where one falls within the line."""
    text = re.sub(r"^[a-z]+://", "", url).rstrip("/")
    pieces = [piece for piece in re.split(r"(?=[.:])", text) if piece]
    lines: list[str] = []
    for piece in pieces:
        if lines and len(lines[-1]) + len(piece) <= width:
            lines[-1] += piece
            continue
        # A name longer than the column is cut where it must be.
        lines += [piece[start:start + width] for start in range(0, len(piece), width)]
    return lines
