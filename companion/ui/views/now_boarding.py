"""Now Boarding's screens: one for every step, readable at arm's length.

Every screen's status bar shows the complaints (``C:1/3``), the stage and the round; the
flight shows the countdown in big M:SS digits; the title or caption says what the buttons do.
Every text keeps to the Screen limits (tests check each screen of whole games), and a body
has at most 4 lines: on the panel a 5th small line touches the status bar.
"""

from __future__ import annotations

from companion.core.timer import TimerState
from companion.games.now_boarding import data
from companion.games.now_boarding.data import COMPLAINT_LIMIT, PREFLIGHT, STAGE_TITLES, STAGES
from companion.games.now_boarding.rules import (
    NowBoardingState,
    deck_empty,
    draw_count,
    next_price,
    plane,
    setup_page,
    setup_pages,
    supply_left,
    temp_holder,
    upgrade_row,
    vip_left,
    vip_offer,
    weather_card,
)
from companion.ui.screen import Screen
from companion.ui.views.menu import window
from companion.ui.views.timer import clock_text

_NEW = "new now-boarding players=3 seed=1"
_TO_FLIGHT = ("press next",) * 13  # 8 checklist pages, the first draw, 4 weather cards

SCENES: dict[str, tuple[str, ...]] = {
    "now-boarding-setup": (_NEW,),
    "now-boarding-weather": (_NEW, *("press next",) * 9),
    "now-boarding-flight": (_NEW, *_TO_FLIGHT, "wait 4.3"),
    "now-boarding-paused": (_NEW, *_TO_FLIGHT, "wait 9", "hold next"),
    "now-boarding-anger": (_NEW, *_TO_FLIGHT, "wait 15", "press up", "press up"),
    "now-boarding-upgrades": (_NEW, *_TO_FLIGHT, "wait 15", "press next", "press next",
                              "press down"),
    "now-boarding-vip": ("new now-boarding players=3 vip=on seed=1", *("press next",) * 12,
                         "press up"),
    "now-boarding-lose": (_NEW, *_TO_FLIGHT, "wait 15", "press up", "press up", "press up",
                          "press next"),
}
"""Screens for ``companion render`` and the golden tests: protocol lines, last screen kept."""

SHORT_STAGE = {"morning": "Morn.", "afternoon": "Aftn.", "evening": "Eve."}


def status_line(state: NowBoardingState) -> str:
    """``C:1/3 Afternoon R7`` (``FINAL`` in the final round), at most 25 characters."""
    where = "Setup" if state.phase == "setup" else STAGE_TITLES[state.stage]
    final = " FINAL" if state.final_round else ""
    return f"C:{state.complaints}/{COMPLAINT_LIMIT} {where}{final} R{state.round}"


def now_boarding_screen(state: NowBoardingState, now: float) -> Screen:
    """The screen for ``state`` at ``now``."""
    match state.step:
        case "setup":
            return _setup(state)
        case "passengers":
            return _passengers(state)
        case "weather":
            return _weather(state)
        case "vip":
            return _vip(state)
        case "flight":
            return _flight(state, now)
        case "anger":
            return _anger(state)
        case "upgrades":
            return _upgrades(state)
        case "exit":
            return _exit(state)
    return _over(state)


# -- setup --------------------------------------------------------------------------------------


def _setup(state: NowBoardingState) -> Screen:
    pages = setup_pages(state)
    page = setup_page(state)
    players = state.players
    number = f"Setup {state.page + 1}/{len(pages)}"
    status = f"C:0/{COMPLAINT_LIMIT} NEXT next page"
    if page == "board":
        return Screen(f"{number} Board", (
            f"Board: side {data.board_side(players)}",
            "Chart: Preflight side up",
            f"use its {players}P column",
            "Tiles+temp tokens by it",
        ), status=status).with_main(0)
    if page == "cards":
        removed = data.REMOVED_AIRPORTS[players]
        kept = data.passenger_cards(players)
        if removed:
            lines: tuple[str, ...] = ("Remove every card",
                                      f"to or from {', '.join(removed)}:",
                                      f"{kept} cards stay")
        else:
            lines = ("Passenger cards:", f"use all {kept}", "(VIP cards apart)")
        return Screen(f"{number} Cards", lines, status=status)
    if page == "planes":
        return Screen(f"{number} Planes", (
            "Each player: a plane,",
            "mini on its home,",
            "1 passenger from home",
        ), status=status)
    if page.startswith("free-"):
        player = int(page.removeprefix("free-"))
        tile = state.free_tiles[player].upper()
        extra = "+ any 1 route tile" if players == 2 else "from the tile pile"
        return Screen(f"{number} Free tile", (
            f"P{player + 1} takes: {tile}",
            extra,
            "UP seat  DOWN speed",
        ), status=f"C:0/{COMPLAINT_LIMIT} NEXT confirms")
    if page == "decks":
        chart = PREFLIGHT[players]
        back = data.cards_back_in_box(players)
        last = f"{back} card{'s' if back > 1 else ''} back in box" if back else "face-down"
        lines = (*(f"{STAGE_TITLES[stage]:<10} {count:>2} cards"
                   for stage, count in zip(STAGES, chart.in_pile, strict=True)), last)
        return Screen(f"{number} Deal", lines, status=status).with_main(0)
    if page == "weather":
        per_stage = PREFLIGHT[players].weather[0]
        tokens = per_stage // 2
        if state.digital_weather:
            lines = ("No weather cards:", "the box draws routes,",
                     f"{tokens} storm+{tokens} tailwind")
        else:
            lines = (f"Weather cards for {players}P:", f"{per_stage} by each deck,",
                     "face-down, shuffled")
        return Screen(f"{number} Weather", lines, status=status)
    stage = page.removeprefix("vip-")
    cards = state.vip_dealt[STAGES.index(stage)]
    shown = cards if cards else ("(none)",)
    return Screen(f"{number} VIP {SHORT_STAGE[stage]}",
                  (f"{STAGE_TITLES[stage]} VIP deck:", *shown), status=status).with_main(0)


# -- maintenance and first-round steps ----------------------------------------------------------


def _passengers(state: NowBoardingState) -> Screen:
    stage = STAGE_TITLES[state.stage]
    if not deck_empty(state):
        return Screen(f"Passengers {stage}", big=f"DRAW {draw_count(state)}",
                      caption=f"from {stage} deck; NEXT", status=status_line(state))
    unserved = vip_left(state)
    vip_line = f"{unserved} VIP left: +{unserved} compl."
    if state.stage_index + 1 < len(STAGES):
        following = STAGE_TITLES[STAGES[state.stage_index + 1]]
        if unserved:
            lines: tuple[str, ...] = (f"{following} begins: remove", "all weather tokens.",
                                      vip_line, "NEXT: new weather")
        else:
            lines = (f"{following} stage begins:", "remove every storm and",
                     "tailwind token.", "NEXT: new weather")
    elif unserved:
        lines = ("No passengers, no weather", "change: FINAL round next!", vip_line,
                 "NEXT: upgrades")
    else:
        lines = ("No new passengers,", "no weather change.", "Next round is FINAL!")
    screen = Screen(f"{stage} deck empty", lines, status=status_line(state))
    return screen.with_main(-1) if len(lines) > 3 else screen


def _weather(state: NowBoardingState) -> Screen:
    card, total, token, route = weather_card(state)
    stage = STAGE_TITLES[state.stage]
    caption = (f"on {route} ({card}/{total})" if route is not None
               else f"card {card} of {total}: on its route")
    return Screen(f"{stage} weather", big=token.upper(), caption=caption,
                  status=status_line(state))


def _vip(state: NowBoardingState) -> Screen:
    card = vip_offer(state) or ""
    effect = data.VIP_BY_NAME[card].effect if card in data.VIP_BY_NAME else ""
    answer = "YES" if state.serve_vip else "NO"
    return Screen(f"Serve a VIP? {vip_left(state)} left", (
        card,
        effect,
        f"Serve on last card: {answer}",
        "UP yes DOWN no NEXT ok",
    ), status=status_line(state)).with_main(0)


def _flight(state: NowBoardingState, now: float) -> Screen:
    stage = STAGE_TITLES[state.stage]
    title = (f"FINAL FLIGHT R{state.round}" if state.final_round
             else f"FLIGHT R{state.round} {stage}")
    countdown = state.countdown
    if countdown is None:
        return Screen(title, big="FLY!", caption="NEXT ends the flight",
                      status=status_line(state))
    if countdown.state is TimerState.PAUSED:
        caption = "PAUSED  hold NEXT resume"
    elif state.strict:
        caption = "NEXT ends the flight"
    else:
        caption = "NEXT end  hold NEXT pause"
    return Screen(title, big=clock_text(countdown.shown_seconds(now)), caption=caption,
                  status=status_line(state))


def _anger(state: NowBoardingState) -> Screen:
    total = state.complaints + state.pending
    if total >= COMPLAINT_LIMIT:
        caption = "that is out of business!"
    elif total == COMPLAINT_LIMIT - 1:
        caption = "ONE MORE LOSES  NEXT ok"
    else:
        caption = "UP/DN set  NEXT adds"
    return Screen("Complaints filed?", big=f"+{state.pending} {total}/{COMPLAINT_LIMIT}",
                  caption=caption, status=status_line(state))


def _upgrade_line(state: NowBoardingState, player: int, item: str) -> str:
    """One row of the upgrades list, at most 21 characters."""
    if item in ("temp-seat", "temp-speed"):
        name = "Temp seat" if item == "temp-seat" else "Temp speed"
        holder = temp_holder(state, item)
        if holder is None:
            return f"{name} ${data.TEMP_PRICES[item]} free"
        if holder == player:
            return f"{name}: P{holder + 1} used?"
        return f"{name}: P{holder + 1} has it"
    left = supply_left(state, item)
    if item == "route":
        return f"Route ${data.ROUTE_PRICE}  {left} left" if left > 0 else "Route: none left"
    name = "Seat" if item == "seat" else "Speed"
    price = next_price(state, player, item)
    current = plane(state, player)
    count = current.seats if item == "seat" else current.speed
    if price is None:
        return f"{name}: {count} (the most)"
    if left <= 0:
        return f"{name}: none left"
    return f"{name} {data.ordinal(count + 1)} ${price} {left} left"


def _upgrades(state: NowBoardingState) -> Screen:
    """Three rows at a time (the large font), scrolled so the selected row shows."""
    player, item = upgrade_row(state)
    cursor = data.UPGRADE_ITEMS.index(item)
    shown = window(len(data.UPGRADE_ITEMS), cursor)
    lines = tuple(_upgrade_line(state, player, data.UPGRADE_ITEMS[row]) for row in shown)
    return Screen(f"Upgrades P{player + 1}/{state.players} R{state.round}", lines,
                  selected=cursor - shown.start,
                  status=f"C:{state.complaints}/{COMPLAINT_LIMIT} hold=buy NEXT=fly")


def _exit(state: NowBoardingState) -> Screen:
    added = state.pending // 2
    total = state.complaints + added
    last = "that loses!" if total >= COMPLAINT_LIMIT else "UP/DN set  NEXT ends"
    return Screen("Exit the aircraft", (
        f"Undelivered: {state.pending}",
        f"+{added} complaints = {total}/{COMPLAINT_LIMIT}",
        last,
    ), status=status_line(state))


def _over(state: NowBoardingState) -> Screen:
    if state.result == "win":
        return Screen("Flying high!", big="WIN!",
                      caption=f"{len(state.flights)} flights, {state.complaints} compl.",
                      status=f"C:{state.complaints}/{COMPLAINT_LIMIT} BACK menu")
    return Screen("Out of business", big="LOSE", caption=state.reason or "",
                  status=f"C:{state.complaints}/{COMPLAINT_LIMIT} hold BACK undo")
