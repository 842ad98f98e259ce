"""Now Boarding's short flow (issue #35): setup from one picture, a stage's weather on one page.

A game of today's flow (``flow=short``, every game started now) sets up on these pages:
``table`` (the board, the chart, the tiles and tokens, the cards taken out and the weather
cards, as the setup picture shows them), ``planes`` (each plane built from its four tiles,
its mini at home, its starting passenger face up, and every player's free tile on one page:
UP / DOWN choose the player, hold NEXT swaps seat and speed) and, with the VIP cards, the
Morning and Afternoon counts (the Evening gets the rest). The passenger decks are dealt on the
first draw's page (now_boarding_words.passengers), after the starting passengers are out.

"Which VIP?" opens with no card chosen (``which_vip_panel``; issue #36): the table chooses the
card it turned over with UP / DOWN (or a tap on the page), and NEXT waits for that choice.

A stage's weather (``weather_panel`` / ``weather_words``) is one page for all its cards: the
tokens alternate storm and tailwind, each on a dot of its card's route (never an airport),
and the cards go aside once their tokens are out; with ``weather=digital`` the page names the
route of every token. One NEXT lays them all.

Each page comes as the panel (``panel``: at most four lines of 21 characters, the status
bar's key hint; the ``table`` page is first the picture of the table drawn for the panel,
UP / DOWN switching to its lines and back) and as whole sentences for the table page
(``words``). What a label of the picture cannot carry is said here in words: what a starting
plane is made of, which passenger card goes with each plane and face up, where the temporary
tokens and the tiles go.

The setup picture (the table set up for the player count, with the VIP cards when they are
on, and a plane with its free tile) belongs on the ``table`` page: the state JSON's
``setup_page.key`` is ``"table"`` there, and the page has an empty ``#timer-picture`` figure
in its card for it. A game of the full flow (journaled before issue #35) keeps its pages
(now_boarding.py and now_boarding_words.py).
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.now_boarding import data
from companion.games.now_boarding.data import COMPLAINT_LIMIT, PREFLIGHT, STAGE_TITLES, STAGES
from companion.games.now_boarding.rules import (
    NowBoardingState,
    setup_page,
    setup_pages,
    vip_choices,
)
from companion.ui.pictures.now_boarding import table_panel_scene
from companion.ui.screen import Screen, Words

Keys = tuple[tuple[str, str], ...]
UNDO: Keys = (("hold_back", "Undo"),)

NAMES = {"table": "the table", "planes": "planes", "vip-morning": "VIP cards",
         "vip-afternoon": "VIP cards"}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _removed(players: int) -> str:
    removed = data.REMOVED_AIRPORTS[players]
    return " or ".join(removed)


# -- the panel ----------------------------------------------------------------------------------


def panel(state: NowBoardingState) -> Screen:
    """A page of the short setup on the 128x64 panel."""
    pages = setup_pages(state)
    page = setup_page(state)
    players = state.players
    number = f"Setup {state.page + 1}/{len(pages)}"
    if page == "table":
        weather = PREFLIGHT[players].weather[0]
        removed = _removed(players)
        screen = Screen(f"{number} Table", (
            f"Board: {data.board_side(players)} side up",
            f"Chart: Preflight, {players}P",
            f"Cards out: {removed}" if removed else "Keep every card",
            "Box draws weather" if state.digital_weather else f"{weather} weather by each deck",
        ), status=f"C:0/{COMPLAINT_LIMIT} UP {'picture' if state.table_words else 'words'} "
                  "NEXT pg").with_main(0)
        if state.table_words:
            return screen
        # The picture first (the table set up, drawn for the panel); UP / DOWN: the words.
        return replace(screen, picture=table_panel_scene(players, state.vip_variant,
                                                         not state.digital_weather))
    if page == "planes":
        def who(tile: str) -> str:
            return " ".join(f"P{player + 1}" for player, chosen in enumerate(state.free_tiles)
                            if chosen == tile) or "-"
        return Screen(f"{number} Planes", (
            f"P{state.row + 1}: free {state.free_tiles[state.row]}",
            f"Seat: {who('seat')}",
            f"Speed: {who('speed')}",
            "+1 route tile each" if players == 2 else "Cockpit wing seat tail",
        ), status=f"C:0/{COMPLAINT_LIMIT} UP/DN hold NEXT").with_main(0)
    index = STAGES.index(page.removeprefix("vip-"))
    count = state.vip_told[index]
    total = data.vip_count(players)
    title = STAGE_TITLES[STAGES[index]]
    if index == 0:
        lines = (f"{title} VIPs: {count}", f"Deal {total} of the 9 VIPs", "face-down, by the",
                 "deck each back names")
    else:
        rest = state.vip_told[-1]
        lines = (f"{title} VIPs: {count}", f"Evening: the rest, {rest}", "Say which card",
                 "when you serve one")
    return Screen(f"{number} VIP", lines,
                  status=f"C:0/{COMPLAINT_LIMIT} UP/DN count").with_main(0)


# -- the page's words ---------------------------------------------------------------------------


def words(state: NowBoardingState) -> Words:
    """A page of the short setup in whole sentences."""
    pages = setup_pages(state)
    page = setup_page(state)
    players = state.players
    keys: Keys = (("next", "Next page"), *UNDO)
    choices: tuple[str, ...] = ()
    if page == "table":
        weather = PREFLIGHT[players].weather[0]
        removed = _removed(players)
        say = (f"As in the picture: board {data.board_side(players)} side up, Preflight "
               f"chart ({players}P column), tiles face up, temporary tokens under the chart.")
        say += (f" Take out the cards to or from {removed}." if removed else "")
        say += (" No weather cards: the box names the routes." if state.digital_weather
                else f" Deal {weather} weather cards for {players} players face-down by each "
                     "deck.")
    elif page == "planes":
        extra = " and any one route tile (by the tail)" if players == 2 else ""
        say = ("Each builds a plane: cockpit, wing (speed 3), one seat, tail; its mini on the "
               "home airport printed on the cockpit's back, with a passenger card from home "
               f"face up. Add a free seat or speed tile{extra}.")
        choices = tuple(f"P{player + 1}: {tile}"
                        for player, tile in enumerate(state.free_tiles))
        other = "speed" if state.free_tiles[state.row] == "seat" else "seat"
        keys = (("next", "Planes ready"), ("hold_next", f"P{state.row + 1}: {other} instead"),
                ("up", "Player above"), ("down", "Player below"), *UNDO)
    else:
        index = STAGES.index(page.removeprefix("vip-"))
        count = state.vip_told[index]
        title = STAGE_TITLES[STAGES[index]]
        if index == 0:
            say = (f"Deal {data.vip_count(players)} of the 9 VIP cards face-down by the deck "
                   f"each back names. How many by the {title} deck?")
        else:
            say = (f"How many by the {title} deck? The Evening has the rest, "
                   f"{state.vip_told[-1]}.")
        if not any(state.legacy_vip_deal):
            keys = (("next", f"{count} by the {title} deck"), ("up", "One more"),
                    ("down", "One fewer"), *UNDO)
    result: Words = {"heading": f"Setup {state.page + 1} of {len(pages)}: {NAMES[page]}",
                     "say": say, "then": "",
                     "keys": keys}
    if choices:
        result["choices"], result["chosen"] = choices, state.row
    return result


def deal(state: NowBoardingState) -> str:
    """The first draw's page (short flow): deal the three decks first, a sentence."""
    chart = PREFLIGHT[state.players]
    decks = ", ".join(f"{STAGE_TITLES[stage]} {count}"
                      for stage, count in zip(STAGES, chart.in_pile, strict=True))
    back = data.cards_back_in_box(state.players)
    rest = f" ({_plural(back, 'card')} back in the box)" if back else ""
    return f"Deal the other passenger cards face-down: {decks}{rest}. "


# -- a stage's weather --------------------------------------------------------------------------


def _tokens(state: NowBoardingState) -> tuple[tuple[str, str | None], ...]:
    """Every weather token of the current stage, in order: (token, digital route or None)."""
    index = state.stage_index
    total = PREFLIGHT[state.players].weather[index]
    routes = state.weather_routes[index]
    return tuple((data.weather_token(card), routes[card] if state.digital_weather else None)
                 for card in range(total))


def weather_panel(state: NowBoardingState, status: str) -> Screen:
    """The stage's weather on the panel: the routes (digital) or how to lay the cards."""
    tokens = _tokens(state)
    title = f"{STAGE_TITLES[state.stage]} weather"
    if state.digital_weather:  # S storm, T tailwind, each on a dot of its route
        pairs = [f"{token[0].upper()} {route}" for token, route in tokens]
        lines = tuple(" ".join(pairs[at:at + 2]) for at in range(0, len(pairs), 2))
        return Screen(title, ("S storm T tailwind:", *lines), status=status).with_main(0)
    return Screen(title, (
        f"{len(tokens)} cards, one by one:",
        "storm, tailwind, ...",
        "on a dot of its route",
        "card aside; NEXT done",
    ), status=status).with_main(0)


def weather_words(state: NowBoardingState) -> Words:
    """The stage's weather in sentences: every token, one NEXT."""
    tokens = _tokens(state)
    stage = STAGE_TITLES[state.stage]
    before = "Before round 1" if state.phase == "setup" else "Maintenance"
    if state.digital_weather:
        say = ("Put " + ", ".join(f"a {token} on a dot of {route}" for token, route in tokens)
               + " (never on an airport).")
    else:
        say = (f"Turn the {len(tokens)} {stage} weather cards one by one: storm, tailwind "
               "and so on, each on its card's route; then put the cards aside.")
    return {"heading": f"{before}: {stage} weather", "say": say, "then": "",
            "keys": (("next", "Tokens placed"), *UNDO)}


def which_vip_panel(state: NowBoardingState, status: str) -> Screen:
    """"Which VIP?" on the panel before the table chose a card: UP / DOWN choose it (DOWN the
    first, UP the last), NEXT answers once one is chosen (at ``pace=brisk`` the answer starts
    the flight)."""
    brisk = state.pace == "brisk" and state.phase == "maintenance"
    return Screen(f"Which VIP? - of {len(vip_choices(state))}", (
        "UP/DN: choose card",
        "the one turned over,",
        "by the last card drawn;",
        "then NEXT starts flight" if brisk else "then NEXT confirms",
    ), status=status).with_main(0)
