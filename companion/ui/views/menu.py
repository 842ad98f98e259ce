"""The start menu: the list of games, one page per option, past games, the question
asked before a game in play is replaced, and the table page's address with its QR code.

Promises:
- Lists show three lines at a time, scrolled so the cursor is always visible and framed;
  arrows at the right edge say that more entries lie above or below.
- An option page shows one option in the large font (its value in ``< >`` only when UP /
  DOWN can change it), what the option does in one line, and which option of how many.
- The page's words (issue #27): a list's every row (the games page, past games), and an
  option page's option and explanation as sentences, never the panel's key hints.
- Replacing a game in play is asked in the large font: "Replace the ... game?".
- Every page the menu reaches has words for the page (issue #36, item 7): the questions
  (replace, power off), "Resume a game" with nothing to resume and the Table page say what
  they ask in sentences, never the panel's key hints ("NEXT yes, BACK no", "NEXT: pair"): the
  page labels its buttons itself.
"""

from __future__ import annotations

import re
import textwrap

from companion.core.app import TABLE_PAGE_ITEM, App, AppState, Menu, PastGame
from companion.core.power import POWER_OFF_ITEM
from companion.core.table_page import OPEN_LINES, TablePage
from companion.ui.screen import (
    LINE_WIDTH,
    MATRIX_LINE_WIDTH,
    SMALL_LINE_WIDTH,
    Screen,
    choice_line,
    fit,
    sentence,
)

VISIBLE = 3


def window(count: int, cursor: int, visible: int = VISIBLE) -> range:
    """The indices shown when ``visible`` of ``count`` items fit and ``cursor`` must show."""
    first = min(max(0, cursor - visible // 2), max(0, count - visible))
    return range(first, min(count, first + visible))


def scrolled(items: list[str], cursor: int, title: str, status: str,
             visible: int = VISIBLE) -> Screen:
    """A list screen: the window around ``cursor``, framed, with scroll arrows."""
    shown = window(len(items), cursor, visible)
    more_above, more_below = shown.start > 0, shown.stop < len(items)
    room = LINE_WIDTH - (1 if more_above or more_below else 0)
    return Screen(title, tuple(fit(items[i], room) for i in shown),
                  selected=cursor - shown.start, status=status,
                  more_above=more_above, more_below=more_below)


def menu_screen(app: App, state: AppState) -> Screen:
    menu = state.menu
    assert menu is not None
    if menu.page == "history":
        return _history(app, state.resumable, menu)
    if menu.page == "replace":
        return _replace(app, state, menu)
    if menu.page == "power-off":
        return _power_off()
    if menu.page == "table-page" and app.table_page is not None:
        return table_page_screen(app.table_page, pairing=state.pairing is not None)
    if menu.page == "games" or menu.game is None:
        items = app.menu_items(state)
        # The page lists every row, not the panel's window of three (issue #27).
        return scrolled(items, menu.cursor, "Choose a game", "UP/DOWN move  NEXT go"
                        ).with_words({"choices": tuple(items), "chosen": menu.cursor})
    return _option(app, menu)


def _option(app: App, menu: Menu) -> Screen:
    assert menu.game is not None
    game = app.game(menu.game)
    spec = game.options[menu.cursor]
    shown = app.visible_options(menu)
    position = shown.index(menu.cursor) if menu.cursor in shown else 0
    value = menu.values[menu.cursor]
    if spec.changeable:
        main = choice_line(spec.label, value)
    else:
        room = LINE_WIDTH - len(value) - 1
        main = f"{fit(spec.label, room).ljust(room)} {value}"
    explain = textwrap.wrap(spec.explain, SMALL_LINE_WIDTH)[:2] or [""]
    count = f"{position + 1} of {len(shown)}"
    title = fit(game.title, LINE_WIDTH)
    if spec.notes:  # a question (two lines), then what the chosen answer means
        lines = (*explain, fit(spec.note(value), SMALL_LINE_WIDTH))
        title = f"{fit(game.title, LINE_WIDTH - len(count) - 1)} {count}"
    else:
        lines = (*explain, f"option {count}")
    last = position == len(shown) - 1
    go = "NEXT start" if last else "NEXT ok"
    status = f"UP/DN change  {go}" if spec.changeable else f"fixed here  {go}"
    if last and not menu.more and any(other.more for other in game.options):
        status = f"{go}  hold: more"  # the options under "More options" (issue #35)
    # The page's words: the option and what it does in a sentence, no key hints (the page
    # draws the options as its own form from the state's menu.options).
    said = f"{spec.label}: {value}. {sentence(spec.explain)}" if spec.explain \
        else f"{spec.label}: {value}."
    return Screen(title, lines, main=main, status=status).with_words(
        {"heading": game.title, "say": said})


def _history(app: App, past: tuple[PastGame, ...], menu: Menu) -> Screen:
    if not past:
        return Screen("Resume a game", ("No unfinished", "games to resume."),
                      status="BACK menu").with_words(
            {"heading": "Resume a game", "say": "No unfinished games to resume."})
    cursor = min(menu.cursor, len(past) - 1)
    # A row: the game and the time it was last played; the date goes in the status.
    items = [f"{fit(app.title_of(game.game), 14).ljust(14)} {game.last_wall[11:16]}"
             for game in past]
    whole = tuple(f"{app.title_of(game.game)}, {game.last_wall[:10]} {game.last_wall[11:16]}"
                  for game in past)
    return scrolled(items, cursor, "Resume a game",
                    f"{past[cursor].last_wall[:10]}  NEXT resume"
                    ).with_words({"choices": whole, "chosen": cursor})


def _replace(app: App, state: AppState, menu: Menu) -> Screen:
    in_play = state.session.game if state.session is not None else menu.game or ""
    question = textwrap.wrap(f"Replace the {app.title_of(in_play)} game?", LINE_WIDTH)[:2]
    return Screen("Game in play", (*question, "NEXT yes, BACK no"),
                  status="it stays in Resume a game").with_words(
        {"heading": "Game in play", "say": f"Replace the {app.title_of(in_play)} game? It "
                                           "stays in Resume a game."})


def _power_off() -> Screen:
    """The "Power off" question (core/power.py), asked like replacing a game."""
    return Screen(POWER_OFF_ITEM, ("Power off the box?", "NEXT yes, BACK no"),
                  status="games stay saved").with_words(
        {"heading": POWER_OFF_ITEM, "say": "Power off the box? Every game stays saved."})


def table_page_screen(page: TablePage, pairing: bool = False) -> Screen:
    """The QR code of the page's address, and the addresses as text beside it (without
    ``http://`` and the final ``/``, broken at dots and colons to the narrow column), then
    what NEXT does ("Pair a phone"). While pairing is open the column says so: this is the
    screen the mirror shows; the box's own draws the pairing link's QR code, the code and the
    countdown over it (companion/ui/views ``screen_for``)."""
    addresses = " or ".join((page.url, *page.also))
    if pairing:
        return Screen(TABLE_PAGE_ITEM, OPEN_LINES, matrix=page.qr).with_words(
            {"heading": TABLE_PAGE_ITEM, "say": "Pairing is open: scan the QR code on the "
                                                "box with the phone's camera, or type the "
                                                "code the box shows."})
    lines: list[str] = []
    for url in (page.url, *page.also):
        lines += address_lines(url)
    lines = [*lines[:4], "NEXT: pair"]
    return Screen(TABLE_PAGE_ITEM, tuple(lines), matrix=page.qr).with_words(
        {"heading": TABLE_PAGE_ITEM, "say": f"The table page is at {addresses}: scan the "
                                            "box's code with a phone's camera. Pair a phone "
                                            "to let it play."})


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


SCENES: dict[str, tuple[str, ...]] = {
    "menu-scrolled": ("press down", "press down", "press down", "press down"),
    # Now Boarding's options: hold NEXT opens "More options" (issue #35), at the VIP cards.
    "menu-option": ("press next", "hold next", "press next", "press next"),
    "menu-option-fixed": ("press next", "hold next", *("press next",) * 5),
    "menu-pace": ("press next", "press up"),
    "menu-solo": ("press down", "press down", "press down", "press next", "press down",
                  "press next", "press next", "press next", "press next"),
    "menu-replace": ("new flight-plan", "press back", "press down", "press next"),
    # UP wraps from "Back to game" past the Sound, Volume and Power off rows to "Resume a game".
    "menu-resume": ("new flight-plan", "new planes", "press back", "press up", "press up",
                    "press up", "press up", "press next"),
    # UP wraps from the top past the Sound and Volume rows to "Power off", which asks first.
    "menu-power-off": ("press up", "press up", "press up", "press next"),
}
"""The menu's own scenes (``menu``, the games page at the start, is in companion/scenes.py)."""
