"""Now Boarding's steps in whole sentences: the screen model's full-text fields.

The panel cuts every instruction to its 21 or 25 characters (companion/ui/views/now_boarding.py);
a phone at the table has room for the whole sentence. One function a step (:func:`setup`,
:func:`passengers`, :func:`weather`, :func:`vip`, :func:`ready`, :func:`flight`, :func:`anger`,
:func:`upgrades`, :func:`exit`, :func:`over`; :func:`lesson` for a lesson) gives the fields
the table page shows (companion/ui/screen.py): the step's name (``heading``), its whole
instruction (``say``), what comes after it (``then``), the step's whole list with the selected
row (``choices``, ``chosen``: the upgrades), what every button does now (``keys``) and the last
action confirmed in words (``done``: a purchase, complaints filed). The view (now_boarding.py)
chooses the step once and pairs its panel with these words; the panel's pixels do not change:
these fields are never drawn.

Rules it keeps: a label names what the gesture does at this state and nothing it does not do
(no "Pause" with ``strict=on`` or ``timer=off``, no NEXT once the game is over); the VIP
cards stay face-down (no card is named before the table said which it turned over: the
question offers every card of the stage not served yet); "TIME UP" and "0:00" are
never said outside a flight.
"""

from __future__ import annotations

from companion.core.lessons import ShownLesson
from companion.core.timer import TimerState
from companion.core.words import agree, plural
from companion.games.now_boarding import data
from companion.games.now_boarding.data import COMPLAINT_LIMIT, PREFLIGHT, STAGE_TITLES, STAGES
from companion.games.now_boarding.lessons import draw_why, setup_why
from companion.games.now_boarding.record import complaints_by_source
from companion.games.now_boarding.rules import (
    NowBoardingState,
    crying_baby_waiting,
    deck_empty,
    draw_count,
    practice_flight,
    setup_page,
    setup_pages,
    to_win,
    turnaround_loses,
    upgrade_row,
    vip_choices,
    vip_left,
    vip_offer,
    weather_card,
)
from companion.games.now_boarding.rules import (
    turnaround as turnaround_plan,
)
from companion.ui.screen import Words, sentence
from companion.ui.views import now_boarding_short as short
from companion.ui.views.lesson import lesson_words
from companion.ui.views.now_boarding_phrases import (
    bought_or_filed,
    coached,
    complaint_split,
    filed,
    first_timed,
    margin,
    offer,
    row_words,
)

Keys = tuple[tuple[str, str], ...]
UNDO: Keys = (("hold_back", "Undo"),)


def _before(state: NowBoardingState) -> str:
    """How a step between flights is named: the first round's setup or maintenance."""
    return "Before round 1" if state.phase == "setup" else "Maintenance"


def _complaints(state: NowBoardingState) -> str:
    return f"{plural(state.complaints, 'complaint')} of {COMPLAINT_LIMIT}"


def lesson(shown: ShownLesson) -> Words:
    """A lesson (``pace=teach``) before the step it teaches: its text, NEXT "Got it"."""
    return lesson_words(shown.title, shown.text)


# -- setup --------------------------------------------------------------------------------------

SETUP_NAMES = {"board": "the board", "cards": "passenger cards", "planes": "planes",
               "decks": "the stage decks", "weather": "weather"}


@coached
def setup(state: NowBoardingState) -> Words:
    """The ``setup`` step: one page of the setup checklist (the short flow's: its own
    module, now_boarding_short.py)."""
    if not state.full_flow:
        return short.words(state)
    pages = setup_pages(state)
    page = setup_page(state)
    players = state.players
    keys: Keys = (("next", "Next page"), *UNDO)
    if page == "board":
        say = (f"Put the board out on its {data.board_side(players)} side. Put the Preflight "
               f"chart beside it, Preflight side up, and use its {players}P column. Put the "
               "upgrade tiles and the temporary tokens by the chart.")
    elif page == "cards":
        removed = data.REMOVED_AIRPORTS[players]
        kept = data.passenger_cards(players)
        say = (f"Remove every passenger card to or from {', '.join(removed)}: {kept} cards "
               "stay." if removed else
               f"Use all {kept} passenger cards; keep the VIP cards apart.")
    elif page == "planes":
        say = ("Each player takes a plane and puts its mini on their home airport, with one "
               "passenger card from home.")
    elif page.startswith("free-"):
        player = int(page.removeprefix("free-"))
        tile = state.free_tiles[player]
        extra = " and any one route tile" if players == 2 else ""
        say = f"P{player + 1} takes a free {tile} upgrade tile{extra} from the tile pile."
        # Only the other tile is offered "instead" (the one chosen is no change).
        other = (("down", "Speed tile instead") if tile == "seat"
                 else ("up", "Seat tile instead"))
        keys = (("next", f"P{player + 1} takes the {tile} tile"), other, *UNDO)
    elif page == "decks":
        chart = PREFLIGHT[players]
        decks = ", ".join(f"{STAGE_TITLES[stage]} {count}"
                          for stage, count in zip(STAGES, chart.in_pile, strict=True))
        back = data.cards_back_in_box(players)
        say = (f"Deal the passenger cards face-down into the three stage decks: {decks}."
               + (f" {plural(back, 'card')} {agree(back, 'goes', 'go')} back in the box."
                  if back else ""))
    elif page == "weather":
        per_stage = PREFLIGHT[players].weather[0]
        say = (f"No weather cards: the box draws the routes; "
               f"{plural(per_stage // 2, 'storm token')} and "
               f"{plural(per_stage // 2, 'tailwind token')} per stage."
               if state.digital_weather else
               f"Put {per_stage} weather cards for {players} players by each stage deck, "
               "face-down and shuffled.")
    else:
        stage = page.removeprefix("vip-")
        index = STAGES.index(stage)
        count = state.vip_told[index]
        total = data.vip_count(players)
        title = STAGE_TITLES[stage]
        if index == 0:
            say = (f"Shuffle the 9 VIP cards and deal {total} face-down, each by the deck its "
                   f"back names. Count the backs: how many are by the {title} deck? "
                   f"Now {count}.")
        elif index < len(STAGES) - 1:
            say = f"How many VIP cards are by the {title} deck? Now {count}."
        else:
            say = (f"The rest, {plural(count, 'VIP card')}, are by the {title} deck. Keep them "
                   "face-down: when you serve one, tell the box which card it is.")
        if index < len(STAGES) - 1 and not any(state.legacy_vip_deal):
            keys = (("next", f"{count} by the {title} deck"), ("up", "One more"),
                    ("down", "One fewer"), *UNDO)
    say += setup_why(state, page)  # pace=teach: why, in one sentence (lessons.py)
    name = SETUP_NAMES.get(page, "free tile" if page.startswith("free-") else "VIP cards")
    last = state.page + 1 == len(pages)
    return {"heading": f"Setup {state.page + 1} of {len(pages)}: {name}", "say": say,
            "then": "Next: draw the first passengers" if last else "Next: the next page",
            "keys": keys}


# -- between flights ----------------------------------------------------------------------------


@coached
def passengers(state: NowBoardingState) -> Words:
    """The ``passengers`` step (draw, or the deck is empty), with the complaints just filed."""
    return {**_drawing(state), "done": filed(state)}


def _drawing(state: NowBoardingState) -> Words:
    stage = STAGE_TITLES[state.stage]
    heading = f"{_before(state)}: draw passengers"
    if not deck_empty(state):
        count = draw_count(state)
        # The short setup deals the decks here, once every starting passenger is out.
        deal = short.deal(state) if state.phase == "setup" and not state.full_flow else ""
        where = draw_why(state) or " Put each on its airport."  # teach: where, and why
        return {"heading": heading,
                "say": f"{deal}Draw {plural(count, 'card')} from the {stage} deck." + where,
                "then": "",
                "keys": (("next", "Cards drawn"), *UNDO)}
    unserved = vip_left(state)
    if unserved:
        total = state.complaints + unserved
        cards = (f"{agree(unserved, 'VIP card', plural(unserved, 'VIP card'))} never served "
                 f"by {agree(unserved, 'it', 'them')} {agree(unserved, 'becomes', 'become')} "
                 f"{agree(unserved, 'a complaint', plural(unserved, 'complaint'))}")
        return {"heading": f"{_before(state)}: {stage} deck empty",
                "say": f"The {stage} deck is empty. The {cards}: {total} of "
                       f"{COMPLAINT_LIMIT}.",
                "then": "Next: the next stage",
                "keys": (("next", f"Add {plural(unserved, 'complaint')}"), *UNDO)}
    if state.stage_index + 1 < len(STAGES):
        following = STAGE_TITLES[STAGES[state.stage_index + 1]]
        return {"heading": f"{_before(state)}: {following} begins",
                "say": f"The {stage} deck is empty. The {following} stage begins: remove every "
                       "storm and tailwind token.",
                "then": "Next: new weather", "keys": (("next", "Tokens removed"), *UNDO)}
    return {"heading": f"{_before(state)}: Evening deck empty",
            "say": "The Evening deck is empty: no new passengers and no weather change. The "
                   "next round is the final round.",
            "then": "Next: upgrades", "keys": (("next", "Next step"), *UNDO)}


@coached
def weather(state: NowBoardingState) -> Words:
    """The ``weather`` step: one weather card's token (the short flow: every token of the
    stage, now_boarding_short.py)."""
    if not state.full_flow:
        return short.weather_words(state)
    card, total, token, route = weather_card(state)
    where = f"on {route}" if route is not None else "on the route the card shows"
    return {"heading": f"{_before(state)}: {STAGE_TITLES[state.stage]} weather",
            "say": f"Weather card {card} of {total}: put a {token} token {where}.",
            "then": "Next: the next weather card" if card < total else "Next: the next step",
            "keys": (("next", "Token placed"), *UNDO)}


@coached
def vip(state: NowBoardingState) -> Words:
    """The ``vip`` step: serve a VIP? (face-down), then the VIP named. At ``pace=brisk``
    the answer starts the next flight at once: the words say so, and ask the card put by the
    last passenger drawn before the answer (issue #36, item 5). In every game started now
    "which VIP?" opens with no card chosen (``chosen`` None): its button says to tap the card,
    as NEXT is refused until one is chosen; a ``flow=full`` game preselects the first."""
    stage = STAGE_TITLES[state.stage]
    heading = f"{_before(state)}: serve a VIP?"
    flies = state.pace == "brisk" and state.phase == "maintenance"
    fly = ": start the flight" if flies else ""
    after = f"Next: the flight of round {state.round + 1}" if flies else "Next: the next step"
    if state.page == 0:  # face-down: the card is named only after yes
        left = vip_left(state)
        return {"heading": heading,
                "say": f"{plural(left, f'{stage} VIP card')} left, face-down. Serve one on "
                       "the last card drawn?",
                "then": after if flies else "",
                "keys": (("next", "Serve a VIP"), ("down", f"No VIP{fly}"), *UNDO)}
    card = vip_offer(state) or ""
    effect = data.VIP_BY_NAME[card].effect if card in data.VIP_BY_NAME else ""
    choices = vip_choices(state)
    if len(choices) > 1:
        # Every game started now opens the question with no card chosen (issue #36): the
        # table taps (or UP / DOWN) the card it turned over; NEXT is refused until then.
        # The same sentence before and after the choice (a first evening's reading is
        # counted): the big button says to tap the card while none is chosen.
        none = not card
        answer = "Tap the card" if none else f"It is {card}{fly}"
        return {"heading": f"{_before(state)}: which VIP?",
                "say": ("Turn the VIP card over and put it by the last passenger card drawn, "
                        "then say which it is: the answer starts the flight." if flies
                        else "Which is it? Put it by the last card drawn."),
                "then": after if flies else "",
                "choices": tuple(f"{name}: {data.VIP_BY_NAME[name].effect}"
                                 for name in choices),
                "chosen": None if none else state.vip_choice,
                "keys": (("next", answer), ("up", "Last card" if none else "Card before"),
                         ("down", "First card" if none else "Card after"), *UNDO)}
    return {"heading": f"{_before(state)}: VIP {card}",
            "say": f"The VIP is {card}. Put it by the last passenger card drawn. "
                   f"{sentence(effect)}".strip(),
            "then": after if flies else "", "keys": (("next", f"VIP placed{fly}"), *UNDO)}


@coached
def ready(state: NowBoardingState) -> Words:
    """The ``ready`` step: before a flight."""
    total = data.total_flights(state.players)
    say = "Flip every face-down passenger card."
    # A practice flight's lack of clock: the delivering lesson, heading and button say so.
    if state.duration is not None and first_timed(state):
        say = f"This flight lasts {state.duration} seconds. " + say
    if state.round == 1:
        say += " Flip the Preflight chart to its Upgrades side."
    if state.complaints or state.final_round:  # the margin once it is not the 5 it starts at
        say += " " + margin(state)
    final = "the final round" if state.final_round else f"round {state.round} of {total}"
    label = ("Start the final flight" if state.final_round
             else "Start the practice flight" if practice_flight(state) else "Start flight")
    return {"heading": f"Ready: {final}", "say": say,
            "then": "",
            "keys": (("next", label), *UNDO)}


@coached
def flight(state: NowBoardingState) -> Words:
    """The ``flight`` step: the countdown running, paused or run out (the words name no
    time: the page shows the panel's digits)."""
    stage = STAGE_TITLES[state.stage]
    countdown = state.countdown
    keys: Keys = (("next", "End flight"),)
    say = "Fly! Pick up and deliver passengers until the flight ends."
    if countdown is not None and countdown.state is TimerState.PAUSED:
        keys += (("hold_next", "Resume"),)
        say = "Paused: nobody moves until the flight resumes."
    elif countdown is not None and countdown.state is TimerState.EXPIRED:
        say = "Time is up: the flight is over."
    elif countdown is not None and countdown.state is TimerState.RUNNING and not state.strict:
        keys += (("hold_next", "Pause"),)
    elif practice_flight(state):
        say = ("Practice flight, no clock: move, pick up and deliver passengers, and tap "
               "End flight when everyone is done.")
    final = "the final flight" if state.final_round else f"round {state.round}"
    heading = ("Practice flight: no clock" if practice_flight(state)
               else f"Flight: {final}, {stage}")
    return {"heading": heading, "say": say,
            "then": "Next: maintenance", "keys": (*keys, *UNDO)}


@coached
def turnaround(state: NowBoardingState) -> Words:
    """``pace=brisk``'s maintenance on one card: every chore in order, exact counts, one
    "done" that starts the next flight (or asks "Serve a VIP?" first). Short enough to fit a
    phone's card at 360 px: a table that plays often needs the counts, not the rules."""
    plan = turnaround_plan(state)
    total = state.complaints + state.pending
    baby = " (2 by the Crying Baby)" if crying_baby_waiting(state) else ""
    says = [f"Anger cubes{baby}; complaints this round: {state.pending} ({total} of "
            f"{COMPLAINT_LIMIT})."]
    stage = STAGE_TITLES[state.stage]
    if plan.unserved_vips:
        says.append(f"{plural(plan.unserved_vips, 'unserved VIP')} by the {stage} deck: "
                    f"+{plan.unserved_vips}.")
    if plan.new_stage is not None:
        tokens = ", ".join(f"{token} on {route}" if route else token
                           for token, route in plan.weather)
        says.append(f"{STAGE_TITLES[plan.new_stage]} begins: clear the tokens, then "
                    f"{tokens}.")
    if plan.final_next:
        says.append("Evening deck empty: no draw; the next round is the final round.")
    else:
        says.append(f"Draw {plan.draw} from the {STAGE_TITLES[plan.draw_deck or state.stage]} "
                    "deck.")
    says.append(f"Upgrades: {offer(state)}.")
    says.append("Flip the face-down cards.")
    following_step = ("Next: serve a VIP?" if plan.vip_offer
                      else "Next: the final flight" if plan.final_next
                      else f"Next: the flight of round {state.round + 1}")
    # Complaints, labelled as on the steps' count page (a bare "More" said nothing of what).
    more = (("up", "One more complaint"), ("down", "One fewer complaint"))
    done = "Done: serve a VIP?" if plan.vip_offer else "Done: start the flight"
    buy: Keys = (("hold_next", "Buy"),)
    if turnaround_loses(state):  # the third complaint: the tap ends the game, nothing to buy
        done, following_step, buy = "Done: lose the game", "Next: the game ends, lost", ()
    return {"heading": f"Round {state.round} done: maintenance",
            "say": " ".join(says), "then": following_step,
            "keys": (("next", done), *more, *buy, *UNDO)}


@coached
def anger(state: NowBoardingState) -> Words:
    """The ``anger`` step: the anger cubes, then the complaints filed."""
    more = (("up", "One more complaint"), ("down", "One fewer complaint"))
    if state.page == 0:
        if crying_baby_waiting(state):
            say = ("Put one anger cube on every waiting passenger; those at the Crying Baby's "
                   "airport get two. A passenger's fourth cube files a complaint.")
        else:
            say = ("Put one anger cube on every waiting passenger. A passenger's fourth cube "
                   "files a complaint.")
        return {"heading": "Maintenance: anger cubes", "say": say,
                "then": "Next: file complaints",
                "keys": (("next", "Count complaints"), *more, *UNDO)}
    total = state.complaints + state.pending
    say = (f"How many complaints were filed this round? {state.pending} so far, "
           f"{total} of {COMPLAINT_LIMIT} in all.")
    if not state.full_flow:  # one page: the cubes, then the count
        baby = " (2 at the Crying Baby's)" if crying_baby_waiting(state) else ""
        say = (f"A cube on each passenger waiting at an airport{baby}; a fourth files a "
               f"complaint. This round: {state.pending} ({total} of {COMPLAINT_LIMIT}).")
    if total >= COMPLAINT_LIMIT:
        say += " That many puts the airline out of business."
    elif total == COMPLAINT_LIMIT - 1:
        say += " One more after this loses the game."
    label = (f"File {plural(state.pending, 'complaint')}" if state.pending
             else "No complaints")
    then = ("Next: exit the aircraft" if state.final_round and total < COMPLAINT_LIMIT
            else "Next: the game ends" if total >= COMPLAINT_LIMIT
            else "" if not state.full_flow else "Next: draw passengers")
    heading = "Maintenance: file complaints" if state.full_flow else "Maintenance: anger"
    return {"heading": heading, "say": say, "then": then,
            "keys": (("next", label), *more, *UNDO)}


@coached
def upgrades(state: NowBoardingState) -> Words:
    """The ``upgrades`` step: one player's purchases."""
    player, item = upgrade_row(state)
    rows = [row_words(state, player, name) for name in data.UPGRADE_ITEMS]
    cursor = data.UPGRADE_ITEMS.index(item)
    last = player + 1 >= state.players or not state.full_flow  # short: one page for all
    back = "Done: back to the card" if state.pace == "brisk" else "Done: next flight"  # brisk
    following = back if last else f"Done: P{player + 2} buys"
    keys: Keys = (("next", following),)
    buy = rows[cursor][1]
    if buy is not None:
        keys += (("hold_next", buy),)
    keys += (("up", "Row above"), ("down", "Row below"), *UNDO)
    say = (f"P{player + 1} may buy upgrades, paying by discarding delivered "
           "passenger cards: their ticket prices add up; no change is given.")
    if not state.full_flow:
        say = ("Seats go in the middle, speed on the wing, routes by the tail; mark a "
               "temporary token used once used.")
        if state.pace != "teach":  # the teach game's lesson says how to pay; this, where
            say = ("Pay by discarding delivered passenger cards: their ticket prices add up; "
                   "no change is given.")
    return {"heading": f"Maintenance: P{player + 1} upgrades", "say": say,
            "then": "" if last else f"Next: P{player + 2} upgrades",
            "choices": tuple(text for text, _ in rows), "chosen": cursor,
            "keys": keys, "done": bought_or_filed(state)}


@coached
def exit(state: NowBoardingState) -> Words:
    """The ``exit`` step: the final round's undelivered passengers."""
    added = state.pending // 2
    total = state.complaints + added
    say = (f"Count every passenger not delivered, waiting at airports or still on planes: "
           f"{state.pending}. Every two add a complaint: +{added}, {total} of "
           f"{COMPLAINT_LIMIT}. To win, at most {to_win(state)} may go undelivered.")
    return {"heading": "Exit the aircraft: undelivered passengers", "say": say,
            "then": "Next: the result",
            "keys": (("next", "End the game"), ("up", "One more passenger"),
                     ("down", "One fewer passenger"), *UNDO)}


@coached
def over(state: NowBoardingState) -> Words:
    """The game's end: won or lost, and the complaints by source."""
    flights = plural(len(state.flights), "flight")
    split = f"Complaints {state.complaints}: {complaint_split(complaints_by_source(state))}."
    if state.result == "win":
        say = f"You won: {flights}, {_complaints(state)}. {split}"
        heading = "Game over: WIN"
    else:
        say = f"Out of business after {flights}: {state.reason or _complaints(state)}. {split}"
        heading = "Game over: LOSS"
    return {"heading": heading, "say": say, "then": "Next: a new game from the menu",
            "keys": (("back", "Menu"), *UNDO)}
