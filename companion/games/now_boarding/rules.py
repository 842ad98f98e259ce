"""Now Boarding's state, options and the facts derived from them (pure).

The state machine that changes the state is game.py; the JSON and the game record are
record.py. See game.py's docstring for the rules and the readings chosen.

:data:`Step` is the one owner of the step names: a closed ``Literal``, so the state holds no
other name and a ``match`` on ``state.step`` that misses one is a mypy error. The names are
the ``step`` strings of the state JSON (CONTRACT.md section 3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.core.game import (
    OptionSpec,
    int_between,
)
from companion.core.timer import Countdown, TimerState
from companion.games.now_boarding import data
from companion.games.now_boarding.data import (
    PREFLIGHT,
    ROUTE_PRICE,
    SEAT_PRICES,
    SPEED_PRICES,
    STAGES,
    SUPPLY,
    TEMP_PRICES,
    UPGRADE_ITEMS,
)

#: Every step of the game, in the order a game first meets them (game.py's docstring).
#: ``turnaround`` is ``pace=brisk``'s maintenance on one card (game.py).
Step = Literal["setup", "passengers", "vip", "weather", "ready", "flight", "anger", "upgrades",
               "exit", "over", "turnaround"]


def _is_seed(value: str) -> bool:
    digits = value[1:] if value.startswith("-") else value
    return digits.isdigit() and len(digits) <= 19


#: How well the table knows the game (``pace``): which steps a round has, never the books.
Pace = Literal["teach", "steps", "brisk"]
PACES: tuple[Pace, ...] = ("teach", "steps", "brisk")

OPTIONS = (
    OptionSpec("pace", "Pace", PACES, "steps",
               explain="How well does the table know Now Boarding?",
               notes=(("teach", "New: taught; no VIPs yet"),
                      ("steps", "Knows it: step by step"),
                      ("brisk", "Plays often: brisk rounds")),
               suggests=(("teach", "vip", "off",
                          "First game: no VIP cards, one rule fewer."),)),
    OptionSpec("players", "Players", ("2", "3", "4", "5"), "3",
               explain="At the table"),
    OptionSpec("vip", "VIP cards", ("off", "on"), "off", more=True,
               explain="A variant"),
    OptionSpec("timer", "Flight time", data.TIMER_PRESETS, "official", more=True,
               accepts=int_between(data.MIN_TIMER_SECONDS, data.MAX_TIMER_SECONDS),
               allowed="official|relaxed|doubled|off|5..600",
               explain="The rulebook's, longer, or none"),
    OptionSpec("strict", "No pausing", ("off", "on"), "off", more=True,
               explain="On: flights never pause"),
    OptionSpec("weather", "Weather", ("cards", "digital"), "cards", more=True,
               explain="Or the box picks routes"),
    OptionSpec("coach", "Warnings", ("on", "off"), "on", more=True,
               explain="Near a loss"),
    OptionSpec("seed", "Seed", ("auto",), "auto", accepts=_is_seed, more=True,
               allowed="auto|<whole number>",
               explain="A number only by 'new'"),
    # Never in a menu (shown only with a value the menu cannot give): which setup and
    # maintenance pages a game has. Every game started now is ``short``; a game journaled
    # before issue #35 has no ``flow`` among its options and replays the ``full`` pages it was
    # played with. ``new now-boarding flow=full`` asks for those pages again (tests compare
    # the books of both).
    OptionSpec("flow", "Flow", ("short",), "short", accepts=("short", "full").__contains__,
               more=True,
               allowed="short|full", explain="Pages per step: short (today's) or full",
               shown_when=("flow", "full")),
)

#: ``flow``: the pages of today's games (``short``) or of a game journaled before issue #35.
FLOWS = ("short", "full")

SETUP_BEFORE_FREE = ("board", "cards", "planes")
SETUP_AFTER_FREE = ("decks", "weather")

TEMP_ITEMS = ("temp-seat", "temp-speed")

#: VIP cards of each stage in the box (data.VIP_CARDS: three by each deck's back).
VIP_CARDS_PER_STAGE = 3


@dataclass(frozen=True)
class Flight:
    """One flight phase, for the game record: how long it took and how it ended."""

    round: int
    stage: str
    used: float
    ended: str  # "time" (the countdown ran out) or "next" (ended by NEXT)
    final: bool


@dataclass(frozen=True)
class Complaint:
    """Complaints added at one moment: at ``anger``, for unserved VIPs, or at ``exit``."""

    round: int
    source: str  # "anger" | "vip" | "exit"
    count: int


@dataclass(frozen=True)
class Purchase:
    """An upgrade bought (or a temporary token used: item "temp-seat-used"...)."""

    round: int
    player: int
    item: str


@dataclass(frozen=True)
class Plane:
    seats: int
    speed: int
    routes: int


@dataclass(frozen=True)
class NowBoardingState:
    """Everything about a game in play; immutable (every step returns a new one)."""

    players: int
    options: tuple[tuple[str, str], ...]
    seed: int
    duration: int | None
    strict: bool
    vip_variant: bool
    digital_weather: bool
    weather_routes: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    decks: tuple[int, int, int]
    weather: tuple[int, int, int]
    countdown: Countdown | None
    pace: Pace = "steps"
    #: Whether the coach's warnings show (coach.py; the ``coach`` option).
    coach: bool = True
    #: VIP cards face-down by each deck, as the table counted them from the backs at setup.
    vip_told: tuple[int, int, int] = (0, 0, 0)
    #: VIP cards still face-down by each deck (served or complained of: no longer).
    vip_waiting: tuple[int, int, int] = (0, 0, 0)
    #: At ``vip``'s question "which card?": the row chosen among :func:`vip_choices`; -1 none
    #: yet (the short flow asks the table to choose: no card is preselected, issue #36).
    vip_choice: int = 0
    #: Only for a game journaled before the table dealt its own VIP cards (its options have
    #: no ``pace``): the deal the box made then, replayed as it was. Never in the state JSON.
    legacy_vip_deal: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] = ((), (), ())
    phase: str = "setup"
    step: Step = "setup"
    page: int = 0
    stage_index: int = 0
    round: int = 1
    final_round: bool = False
    flight_started: float | None = None
    pending: int = 0
    serve_vip: bool = False
    complaints: int = 0
    result: str | None = None
    reason: str | None = None
    undelivered: int | None = None
    free_tiles: tuple[str, ...] = ()
    flights: tuple[Flight, ...] = ()
    complaint_log: tuple[Complaint, ...] = ()
    purchases: tuple[Purchase, ...] = ()
    vips_served: tuple[tuple[int, str, str], ...] = ()
    lessons_seen: tuple[str, ...] = ()  # pace=teach: the lessons the table said "got it" to
    #: ``flow=full`` (a game journaled before issue #35): a page per player and per weather
    #: card, two anger pages. Short (False): setup on one picture page and one page of planes
    #: (every player's free tile), a stage's weather on one page, one complaints page, one
    #: upgrades page for every player.
    full_flow: bool = False
    #: Setup's planes page (short flow): the player row whose free tile hold NEXT swaps.
    row: int = 0
    #: Setup's table page (short flow): the panel shows the page's words instead of its
    #: picture of the table (UP / DOWN switch them; the table page shows both at once).
    table_words: bool = False

    @property
    def stage(self) -> str:
        return STAGES[self.stage_index]


# -- derived facts ------------------------------------------------------------------------------


def setup_pages(state: NowBoardingState) -> tuple[str, ...]:
    """The checklist pages of the setup step, in order. Short flow: the table as one picture
    (board, chart, decks, weather cards, tiles), the planes with every free tile, and with
    the VIP cards the Morning and Afternoon counts (the Evening gets the rest)."""
    if not state.full_flow:
        vips = ("vip-morning", "vip-afternoon") if state.vip_variant else ()
        return ("table", "planes", *vips)
    free = tuple(f"free-{player}" for player in range(state.players))
    vip = tuple(f"vip-{stage}" for stage in STAGES) if state.vip_variant else ()
    return (*SETUP_BEFORE_FREE, *free, *SETUP_AFTER_FREE, *vip)


def setup_page(state: NowBoardingState) -> str:
    return setup_pages(state)[state.page]


def draw_count(state: NowBoardingState) -> int:
    """Cards the ``passengers`` step draws now (0 when the current deck is empty)."""
    wanted = PREFLIGHT[state.players].draw[state.stage_index]
    return min(wanted, state.decks[state.stage_index])


def deck_empty(state: NowBoardingState) -> bool:
    """At ``passengers``: the current stage's deck is found empty (a stage change or the end)."""
    return state.decks[state.stage_index] == 0


def weather_card(state: NowBoardingState) -> tuple[int, int, str, str | None]:
    """At ``weather``: (card number from 1, cards of the stage, token, digital route or None)."""
    total = PREFLIGHT[state.players].weather[state.stage_index]
    index = total - state.weather[state.stage_index]
    route = (state.weather_routes[state.stage_index][index]
             if state.digital_weather else None)
    return index + 1, total, data.weather_token(index), route


def plane(state: NowBoardingState, player: int) -> Plane:
    """A player's plane now: the start, the free setup tile(s), and every purchase."""
    seats, speed, routes = data.START_SEATS, data.START_SPEED, 0
    if player < len(state.free_tiles):
        if state.free_tiles[player] == "seat":
            seats += 1
        else:
            speed += 1
    if state.players == 2:
        routes += 1
    for purchase in state.purchases:
        if purchase.player != player:
            continue
        if purchase.item == "seat":
            seats += 1
        elif purchase.item == "speed":
            speed += 1
        elif purchase.item == "route":
            routes += 1
    return Plane(seats, speed, routes)


def supply_left(state: NowBoardingState, item: str) -> int:
    """Permanent tiles of ``item`` (seat, speed, route) still in the supply."""
    used = sum(1 for purchase in state.purchases if purchase.item == item)
    if item in ("seat", "speed"):
        used += sum(1 for tile in state.free_tiles if tile == item)
    if item == "route" and state.players == 2:
        used += state.players
    return SUPPLY[item] - used


def temp_holder(state: NowBoardingState, item: str) -> int | None:
    """Who holds the temporary token ``item`` (temp-seat / temp-speed), or None (in supply)."""
    holder: int | None = None
    for purchase in state.purchases:
        if purchase.item == item:
            holder = purchase.player
        elif purchase.item == f"{item}-used":
            holder = None
    return holder


def upgrade_row(state: NowBoardingState, cursor: int | None = None) -> tuple[int, str]:
    """(player, item) of an upgrades row (the cursor's by default)."""
    index = state.page if cursor is None else cursor
    return divmod(index, len(UPGRADE_ITEMS))[0], UPGRADE_ITEMS[index % len(UPGRADE_ITEMS)]


def next_price(state: NowBoardingState, player: int, item: str) -> int | None:
    """The price of ``player``'s next ``item``, or None when their plane has the most."""
    current = plane(state, player)
    if item == "seat":
        return SEAT_PRICES.get(current.seats + 1)
    if item == "speed":
        return SPEED_PRICES.get(current.speed + 1)
    if item == "route":
        return ROUTE_PRICE
    return TEMP_PRICES[item]


def vip_left(state: NowBoardingState, stage_index: int | None = None) -> int:
    """VIP cards still face-down by a stage's deck (the current stage's by default)."""
    index = state.stage_index if stage_index is None else stage_index
    return state.vip_waiting[index]


def served_in(state: NowBoardingState, stage: str) -> tuple[str, ...]:
    """The VIP cards served in ``stage``, in the order they were served."""
    return tuple(card for _, served_stage, card in state.vips_served if served_stage == stage)


def vip_choices(state: NowBoardingState) -> tuple[str, ...]:
    """The cards the VIP turned over may be: the current stage's cards not served yet.

    Each stage has its own three cards (data.VIP_CARDS); which of them the table dealt only
    the table knows, so the box offers every one still possible. A game journaled before the
    table dealt its own VIPs offers the one card the box had dealt then.
    """
    served = served_in(state, state.stage)
    legacy = state.legacy_vip_deal[state.stage_index]
    if legacy:
        return legacy[len(served):len(served) + 1]
    left = [card.name for card in data.VIP_CARDS if card.stage == state.stage]
    for card in served:
        left.remove(card)
    return tuple(left)


def vip_offer(state: NowBoardingState) -> str | None:
    """The card chosen at ``vip``'s second page (the only one possible, or the row chosen);
    None while the table has chosen no row yet (``vip_choice`` -1), on the face-down question
    "Serve a VIP?" and at every other step."""
    if state.step != "vip" or state.page != 1:
        return None
    choices = vip_choices(state)
    if len(choices) == 1:
        return choices[0]
    if not choices or state.vip_choice < 0:
        return None
    return choices[min(state.vip_choice, len(choices) - 1)]


def vip_first_choice(state: NowBoardingState) -> int:
    """The ``vip_choice`` of the question "which card?" as it opens: -1 (none chosen, the
    table's UP / DOWN or tap chooses) in every game started now; a ``flow=full`` game
    (journaled before) preselects the first card, as it did then, so its journal replays."""
    return 0 if state.full_flow else -1


def vip_count_range(state: NowBoardingState, stage_index: int) -> tuple[int, int]:
    """The counts the table may give a stage at setup: players + 2 cards in all, at most 3
    by each deck (a stage has three VIP cards), the earlier stages' counts as given."""
    total = data.vip_count(state.players)
    given = sum(state.vip_told[:stage_index])
    later = (len(STAGES) - 1 - stage_index) * VIP_CARDS_PER_STAGE
    return max(0, total - given - later), min(VIP_CARDS_PER_STAGE, total - given)


def balanced_vip_counts(players: int) -> tuple[int, int, int]:
    """The counts a setup page starts from before the table sets them: players + 2 shared out,
    the earlier stages one more (4: 2-1-1, 5: 2-2-1, 6: 2-2-2, 7: 3-2-2)."""
    base, extra = divmod(data.vip_count(players), len(STAGES))
    counts = [base + (1 if index < extra else 0) for index in range(len(STAGES))]
    return counts[0], counts[1], counts[2]


@dataclass(frozen=True)
class Turnaround:
    """What ``pace=brisk``'s maintenance card asks of the table, in order, with exact counts:
    the same books as the steps of ``pace=steps`` (game.py applies them in that order).

    ``unserved_vips``: VIP cards left by a deck found empty (complaints); ``new_stage``: the
    stage that begins (its weather tokens in ``weather``: (token, route or None) each);
    ``draw_deck`` / ``draw``: the passengers drawn (None / 0 when the Evening deck is found
    empty: ``final_next``); ``vip_offer``: "Serve a VIP?" follows the card.
    """

    unserved_vips: int
    new_stage: str | None
    weather: tuple[tuple[str, str | None], ...]
    draw_deck: str | None
    draw: int
    final_next: bool
    vip_offer: bool


def turnaround(state: NowBoardingState) -> Turnaround:
    """The brisk card's plan for the maintenance of ``state`` (pure; see :class:`Turnaround`)."""
    index = state.stage_index
    chart = PREFLIGHT[state.players]
    if state.decks[index] > 0:
        return Turnaround(0, None, (), state.stage, draw_count(state), False,
                          state.vip_variant and state.vip_waiting[index] > 0)
    unserved = state.vip_waiting[index]
    if index + 1 == len(STAGES):
        return Turnaround(unserved, None, (), None, 0, True, False)
    following = index + 1
    routes = state.weather_routes[following]
    total = chart.weather[following]
    done = total - state.weather[following]
    weather = tuple((data.weather_token(card),
                     routes[card] if state.digital_weather else None)
                    for card in range(done, total))
    draw = min(chart.draw[following], state.decks[following])
    return Turnaround(unserved, STAGES[following], weather, STAGES[following], draw, False,
                      state.vip_variant and state.vip_waiting[following] > 0)


def turnaround_loses(state: NowBoardingState) -> bool:
    """Whether the brisk card's "done" ends the game: the complaints set on it and the
    unserved VIPs it files reach 3 (the steps end the game there, before their upgrades)."""
    unserved = turnaround(state).unserved_vips if state.step == "turnaround" else 0
    return state.complaints + state.pending + unserved >= data.COMPLAINT_LIMIT


def elapsed(state: NowBoardingState, now: float) -> float:
    """Seconds of the current flight used so far (0 outside a flight)."""
    if state.step != "flight":
        return 0.0
    if state.countdown is not None and state.countdown.state is not TimerState.IDLE:
        return state.countdown.used(now)
    return max(0.0, now - (state.flight_started or 0.0))


def practice_flight(state: NowBoardingState) -> bool:
    """Whether this round's flight is a teach game's practice flight: the first one, flown
    without the clock (the countdown stays idle; ``elapsed`` counts from its start)."""
    return state.pace == "teach" and state.round == 1 and not state.final_round


def to_win(state: NowBoardingState) -> int:
    """The most passengers that may still go undelivered for the table to win.

    Exit the aircraft adds floor(undelivered / 2) complaints and 3 lose, so with ``c``
    complaints the table wins with at most 2 x (2 - c) + 1 undelivered (5, 3, 1); 0 once lost.
    """
    room = data.COMPLAINT_LIMIT - 1 - state.complaints
    return 2 * room + 1 if room >= 0 else 0


def crying_baby_waiting(state: NowBoardingState) -> bool:
    """Whether the anger cubes now should name a Crying Baby VIP (its airport's others get 2):
    one served this round or the round before, so at the anger step after its first flight.
    The box cannot know when the table delivers it; once it has flown, the table that plays
    every week knows where it waits, and the note no longer shows on every card after."""
    return any(card == "Crying Baby" and state.round - served <= 1
               for served, _, card in state.vips_served)


def max_undelivered(state: NowBoardingState) -> int:
    """The most passengers that can be undelivered: every card of the game."""
    return data.passenger_cards(state.players)
