"""Now Boarding's screens: one for every step, readable at arm's length.

Every screen of play shows the progress: the round of the whole game's flights (``R3/17``),
the cards left in the current deck and the complaints (``C:1/3``), in the status bar (upgrades
in the title); ``ready`` and ``exit`` say how many may still go undelivered for a win. The
flight shows the countdown in big M:SS digits; the title or caption says what the buttons do.
Each step the rulebook names is said on screen: the anger cubes before the complaints are
asked, "flip every face-down passenger card" before each flight, the Preflight chart's flip
before round 1, and "Serve a VIP?" before the VIP card is named. Every screen says what to do
now in the 12-pixel font (three large lines, big digits, or a main line over small ones)
within the Screen limits (tests check each screen of whole games); a body has at most 4 lines.
:func:`now_boarding_screen` chooses the step once and pairs its panel and its sentences.
"""

from __future__ import annotations

from typing import assert_never

from companion.core.timer import TimerState
from companion.core.words import agree, plural
from companion.games.now_boarding import data
from companion.games.now_boarding.coach import coach
from companion.games.now_boarding.data import COMPLAINT_LIMIT, PREFLIGHT, STAGE_TITLES, STAGES
from companion.games.now_boarding.lessons import current_lesson
from companion.games.now_boarding.rules import (
    NowBoardingState,
    crying_baby_waiting,
    deck_empty,
    draw_count,
    next_price,
    plane,
    practice_flight,
    setup_page,
    setup_pages,
    supply_left,
    temp_holder,
    to_win,
    turnaround,
    turnaround_loses,
    upgrade_row,
    vip_choices,
    vip_left,
    vip_offer,
    weather_card,
)
from companion.ui.screen import Screen
from companion.ui.views import now_boarding_short as short
from companion.ui.views import now_boarding_words as words
from companion.ui.views.lesson import lesson_panel
from companion.ui.views.menu import window
from companion.ui.views.now_boarding_phrases import first_timed
from companion.ui.views.timer import clock_text

_NEW = "new now-boarding players=3 seed=1"
_TO_READY = ("press next",) * 4  # the table, the planes, the first draw, the weather
_TO_FLIGHT = (*_TO_READY, "press next")
_TO_COUNT = (*_TO_FLIGHT, "wait 15")  # the flight runs out: the anger page
_VIP = "new now-boarding players=3 vip=on seed=1"
_NO_VIP = ("press down", "press next", "press next")  # no VIP, the upgrades (or the weather)
_ROUND = ("press next", "wait 15", "press next", "press next")  # start, fly, anger, draw

SCENES: dict[str, tuple[str, ...]] = {
    "now-boarding-setup": (_NEW,),
    "now-boarding-setup-words": (_NEW, "press up"),
    "now-boarding-weather": (_NEW, *("press next",) * 3),
    "now-boarding-flight": (_NEW, *_TO_FLIGHT, "wait 4.3"),
    "now-boarding-paused": (_NEW, *_TO_FLIGHT, "wait 9", "hold next"),
    "now-boarding-ready-r1": (_NEW, *_TO_READY),
    "now-boarding-cubes": (_NEW, *_TO_FLIGHT, "wait 15"),
    "now-boarding-anger": (_NEW, *_TO_COUNT, "press up", "press up"),
    "now-boarding-upgrades": (_NEW, *_TO_COUNT, "press next", "press next", "press down"),
    "now-boarding-upgrades-p3": (_NEW, *_TO_COUNT, "press next", "press next",
                                 *("press down",) * 10),
    "now-boarding-ready": (_NEW, *_TO_COUNT, *("press next",) * 3),
    "now-boarding-undone": (_NEW, *_TO_FLIGHT, "wait 15", "hold back"),
    "now-boarding-undone-pause": (_NEW, *_TO_FLIGHT, "wait 3", "hold next", "wait 30",
                                  "hold back"),
    "now-boarding-cubes-baby": (_VIP, *("press next",) * 6, "press down", *("press next",) * 3,
                                "wait 15"),
    "now-boarding-vip": (_VIP, *("press next",) * 5),
    "now-boarding-vip-count": (_VIP, *("press next",) * 2, "press down"),
    "now-boarding-vip-none": (_VIP, *("press next",) * 6),  # which VIP? none chosen yet
    "now-boarding-vip-which": (_VIP, *("press next",) * 6, "press down", "press down"),
    "now-boarding-vip-complaint": (_VIP, *("press next",) * 5, *_NO_VIP, "press next",
                                   "wait 15", "press next", "press next", *_NO_VIP,
                                   *_ROUND, *_NO_VIP, *_ROUND[:-1]),
    # pace=brisk: the maintenance card after the first flight ran out, one complaint set.
    "now-boarding-turnaround": ("new now-boarding players=3 pace=brisk seed=1", *_TO_FLIGHT,
                                "wait 15", "press up"),
    # pace=teach: the pitch before setup, and the practice flight's ready card (lessons.py).
    "now-boarding-lesson": ("new now-boarding players=3 pace=teach seed=1",),
    "now-boarding-practice": ("new now-boarding players=3 pace=teach seed=1",
                              *("press next",) * 9),
    "now-boarding-lose": (_NEW, *_TO_COUNT, "press up", "press up", "press up",
                          "press next"),
}
"""Screens for ``companion render`` and the golden tests: protocol lines, last screen kept."""

SHORT_STAGE = {"morning": "Morn.", "afternoon": "Aftn.", "evening": "Eve."}


def progress(state: NowBoardingState) -> str:
    """``R7/17`` the round of the whole game's flights, at most 7 characters."""
    return f"R{state.round}/{data.total_flights(state.players)}"


def status_line(state: NowBoardingState) -> str:
    """``R7/17 12 cards C:1/3`` (``FINAL`` in the final round), at most 25 characters; the
    coach's most urgent warning (coach.py) in place of the cards when it has one."""
    left = state.decks[state.stage_index]
    deck = "FINAL" if state.final_round else plural(left, "card")
    if advice := coach(state):
        deck = advice[0].short
    return f"{progress(state)} {deck} C:{state.complaints}/{COMPLAINT_LIMIT}"


def _to_win_line(state: NowBoardingState) -> str:
    """``Win: 5 undelivered max``: the most passengers that may go undelivered, 25 at most."""
    return f"Win: <= {to_win(state)} undelivered"


def now_boarding_screen(state: NowBoardingState, now: float) -> Screen:
    """The screen for ``state`` at ``now``: the step's panel with its full-text fields, the
    step in whole sentences for the table page (now_boarding_words.py). The match names every
    step of the game's ``Step`` and has no fallback: mypy says so when one is missing. The
    coach's warnings (coach.py) come with every step's words (now_boarding_words.py).
    A lesson the state names (``pace=teach``, lessons.py) shows before the step."""
    lesson = current_lesson(state)
    if lesson is not None:
        return lesson_panel(lesson.title, lesson.panel).with_words(words.lesson(lesson))
    match state.step:
        case "setup":  # the short flow's pages: now_boarding_short.py (issue #35)
            panel = _setup(state) if state.full_flow else short.panel(state)
            return panel.with_words(words.setup(state))
        case "passengers":
            return _passengers(state).with_words(words.passengers(state))
        case "weather":
            panel = (_weather(state) if state.full_flow
                     else short.weather_panel(state, status_line(state)))
            return panel.with_words(words.weather(state))
        case "vip":
            return _vip(state).with_words(words.vip(state))
        case "ready":
            return _ready(state).with_words(words.ready(state))
        case "flight":
            return _flight(state, now).with_words(words.flight(state))
        case "anger":
            return _anger(state).with_words(words.anger(state))
        case "upgrades":
            return _upgrades(state).with_words(words.upgrades(state))
        case "exit":
            return _exit(state).with_words(words.exit(state))
        case "over":
            return _over(state).with_words(words.over(state))
        case "turnaround":
            return _turnaround(state).with_words(words.turnaround(state))
    assert_never(state.step)


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
        last = f"{plural(back, 'card')} back in box" if back else "face-down"
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
    # The table deals its own VIP cards face-down (rulebook) and counts them from the backs:
    # the box names no card before the table says which one it turned over.
    stage = page.removeprefix("vip-")
    index = STAGES.index(stage)
    count = state.vip_told[index]
    total = data.vip_count(players)
    title = f"{number} VIP {SHORT_STAGE[stage]}"
    main = f"{STAGE_TITLES[stage]} VIPs: {count}"
    if index == len(STAGES) - 1:
        return Screen(title, (main, f"the rest of the {total};", "say which card when",
                              "you serve it"), status=status).with_main(0)
    if index == 0:
        lines = (main, "Shuffle the 9 VIP cards,", f"deal {total} face-down, each",
                 "by the deck its back says")
    else:
        lines = (main, "How many VIP cards by", f"the {STAGE_TITLES[stage]} deck?",
                 "(their backs say)")
    return Screen(title, lines, status=f"C:0/{COMPLAINT_LIMIT} UP/DN count").with_main(0)


# -- maintenance and first-round steps ----------------------------------------------------------


def _passengers(state: NowBoardingState) -> Screen:
    stage = STAGE_TITLES[state.stage]
    if not deck_empty(state):
        return Screen(f"Passengers {stage}", big=f"DRAW {draw_count(state)}",
                      caption=f"from {stage} deck; NEXT", status=status_line(state))
    unserved = vip_left(state)
    if unserved:  # named before they become complaints (their own NEXT)
        total = state.complaints + unserved
        # The main line is the count the table adds; the cards stay face-down, unnamed.
        return Screen(f"{stage} deck empty", (
            f"+{unserved} = {total}/{COMPLAINT_LIMIT} complaints",
            f"{plural(unserved, 'VIP card')} never served",
            f"by the {stage} deck:",
            "NEXT adds the complaints",
        ), status=status_line(state)).with_main(0)
    if state.stage_index + 1 < len(STAGES):
        following = STAGE_TITLES[STAGES[state.stage_index + 1]]
        lines: tuple[str, ...] = (f"{following} stage begins:", "remove every storm and",
                                  "tailwind token.", "NEXT: new weather")
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
    stage = STAGE_TITLES[state.stage]
    left = vip_left(state)
    if state.page == 0:  # the VIP deck is face-down: no name before the table says yes
        return Screen("Serve a VIP?", (plural(left, f"{stage} VIP card"), "left, face-down.",
                                       "NEXT yes   DOWN no"), status=status_line(state))
    card = vip_offer(state) or ""
    effect = data.VIP_BY_NAME[card].effect if card in data.VIP_BY_NAME else ""
    choices = vip_choices(state)
    if len(choices) > 1 and not card:  # none chosen yet (every game started now)
        return short.which_vip_panel(state, status_line(state))
    if len(choices) > 1:  # which card did the table turn over? UP / DOWN choose it
        return Screen(f"Which VIP? {state.vip_choice + 1} of {len(choices)}", (
            card, effect, "by the last card drawn", "UP/DN other  NEXT it",
        ), status=status_line(state)).with_main(0)
    # The main line starts the step's sentence; the small line under it ends it.
    return Screen(f"VIP: {card}", (
        "Put it by the last",
        "passenger card drawn.",
        effect,
        "NEXT ok",
    ), status=status_line(state)).with_main(0)


def _ready(state: NowBoardingState) -> Screen:
    flip_cards = ("Flip every face-down", "passenger card.")
    if practice_flight(state):  # the first flight of a teach game: no clock, said first
        return Screen("NEXT: practice flight", (
            "No clock this time.",
            *flip_cards,
            "Chart: Upgrades side.",
        ), status=status_line(state)).with_main(0)
    timed = f"NEXT: {state.duration} s flight" if first_timed(state) and state.duration else ""
    if state.round == 1:  # the every-round flip is the main line; the chart's flip under it
        return Screen(timed or "NEXT: start round 1", (
            *flip_cards,
            "Preflight chart: flip to",
            "its Upgrades side.",
        ), status=status_line(state)).with_main(0)
    title = (f"NEXT: FINAL round {state.round}" if state.final_round
             else timed or f"NEXT: start round {state.round}")
    return Screen(title, (*flip_cards, _to_win_line(state)), status=status_line(state))


def _flight(state: NowBoardingState, now: float) -> Screen:
    stage = STAGE_TITLES[state.stage]
    title = (f"FINAL FLIGHT R{state.round}" if state.final_round
             else f"FLIGHT R{state.round} {stage}")
    countdown = state.countdown
    if countdown is None or practice_flight(state):
        caption = "practice: NEXT ends it" if practice_flight(state) else "NEXT ends the flight"
        return Screen(title, big="FLY!", caption=caption, status=status_line(state))
    if countdown.state is TimerState.PAUSED:
        caption = "PAUSED  hold NEXT resume"
    elif state.strict:
        caption = "NEXT ends the flight"
    else:
        caption = "NEXT end  hold NEXT pause"
    return Screen(title, big=clock_text(countdown.shown_seconds(now)), caption=caption,
                  status=status_line(state))


def _anger(state: NowBoardingState) -> Screen:
    if state.page == 0:
        return _cubes(state)
    total = state.complaints + state.pending
    if total >= COMPLAINT_LIMIT:
        caption = "that is out of business!"
    elif total == COMPLAINT_LIMIT - 1:
        caption = "ONE MORE LOSES  NEXT ok"
    else:
        caption = "UP/DN set  NEXT adds" if state.full_flow else "4th cube? UP/DN  NEXT"
    title = ("Complaints filed?" if state.full_flow else "Anger 1 each, Baby 2"
             if crying_baby_waiting(state) else "Anger: 1 cube each")
    return Screen(title, big=f"+{state.pending} {total}/{COMPLAINT_LIMIT}",
                  caption=caption, status=status_line(state))


def _turnaround(state: NowBoardingState) -> Screen:
    """``pace=brisk``'s maintenance card: the complaints set here, then the chores in order."""
    plan = turnaround(state)
    total = state.complaints + state.pending
    if plan.unserved_vips:
        vips = plan.unserved_vips
        first = f"+{vips} compl.: unserved {agree(vips, 'VIP')}"
    elif crying_baby_waiting(state):
        first = "Anger +1, Baby's airport +2"
    else:
        first = "Anger +1 each waiting"
    if plan.final_next:
        chore = "Evening empty: FINAL next"
    elif plan.new_stage is not None:
        chore = f"{SHORT_STAGE[plan.new_stage]}: {len(plan.weather)} weather, draw {plan.draw}"
    else:
        chore = f"Draw {plan.draw}: {STAGE_TITLES[state.stage]} deck"
    go = "VIP?" if plan.vip_offer else "fly"
    keys = "NEXT loses the game" if turnaround_loses(state) else f"hold NEXT buy  NEXT: {go}"
    return Screen(f"Round {state.round} done", (
        f"Complaints +{state.pending} = {total}/{COMPLAINT_LIMIT}",
        first,
        chore,
        keys,
    ), status=status_line(state)).with_main(0)


def _cubes(state: NowBoardingState) -> Screen:
    """Maintenance step 1 as the rulebook says it, before the complaints are asked."""
    if crying_baby_waiting(state):
        lines: tuple[str, ...] = ("1 anger cube on every", "waiting passenger; 4th",
                                  "cube files a complaint.", "Others by Crying Baby: 2")
    else:
        lines = ("Put 1 anger cube on", "every waiting passenger.", "A 4th cube files a",
                 "complaint.")
    # The first words, the cube to put, are the main line; the rest of the rule under it.
    return Screen("Anger: NEXT counts", lines, status=status_line(state)).with_main(0)


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
    last = "card" if state.pace == "brisk" else "fly"  # brisk: back to the maintenance card
    following = f"P{player + 2}" if player + 1 < state.players and state.full_flow else last
    return Screen(f"P{player + 1} buys {progress(state)} C:{state.complaints}/{COMPLAINT_LIMIT}",
                  lines, selected=cursor - shown.start,
                  status=f"hold NEXT buys  NEXT: {following}")


def _exit(state: NowBoardingState) -> Screen:
    added = state.pending // 2
    total = state.complaints + added
    last = "that loses!" if total >= COMPLAINT_LIMIT else "UP/DN set  NEXT ends"
    return Screen("Exit the aircraft", (
        f"Airports+planes: {state.pending}",
        f"+{added} {agree(added, 'complaint')} = {total}/{COMPLAINT_LIMIT}",
        _to_win_line(state),
        last,
    ), status=status_line(state)).with_main(0)


def _over(state: NowBoardingState) -> Screen:
    if state.result == "win":
        return Screen("Flying high!", big="WIN!",
                      caption=f"{plural(len(state.flights), 'flight')}, "
                              f"{state.complaints} compl.",
                      status=f"C:{state.complaints}/{COMPLAINT_LIMIT} BACK menu")
    return Screen("Out of business", big="LOSE", caption=state.reason or "",
                  status=f"C:{state.complaints}/{COMPLAINT_LIMIT} hold BACK undo")
