"""Now Boarding's numbers and purchases set with UP / DOWN and hold NEXT (pure).

What it enforces (the rules are listed whole in game.py's docstring):
- ``anger``: UP / DOWN set the complaints filed this maintenance (from the cubes page they
  open the count page); never below 0, and UP stops where the total would reach 3. The same
  on ``pace=brisk``'s ``turnaround`` card, where hold NEXT opens the upgrades (NEXT at its
  end comes back to the card).
- ``exit``: UP / DOWN set the undelivered passengers, from 0 to every card of the game.
- ``upgrades``: UP / DOWN move through the rows (wrapping): short flow, every player's five
  rows one after another on one page; full flow, the page's player's five; hold NEXT buys the
  selected row at its chart price, refused when the supply is out or the plane is at its most
  (5 seats, speed 9); a temporary token is held by its buyer until hold NEXT on the holder's
  own row marks it used.
- ``setup``: short flow: on the planes page UP / DOWN move through the players' rows and hold
  NEXT swaps the row's free tile (seat / speed); full flow: on a free-tile page UP picks the
  seat, DOWN the speed; on the Morning and
  Afternoon VIP pages UP / DOWN set how many VIP cards the table dealt by that deck (read
  from the backs): players + 2 in all, at most 3 by a deck; the Evening gets the rest.
- ``vip``: after "yes", UP / DOWN choose which card the table turned over among the stage's
  cards not served yet (refused when only one is possible). In every game started now no card
  is chosen as the question opens: DOWN then chooses the first, UP the last, and NEXT is
  refused until one is chosen (:func:`vip_answer`); a ``flow=full`` game preselects the first.
- ``flight``: hold NEXT pauses and resumes the countdown (refused with ``strict=on`` or
  ``timer=off``).
- Everywhere else UP / DOWN are refused with what the step wants instead.
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.game import Play, RuleError
from companion.core.timer import TimerState
from companion.games.now_boarding.data import (
    COMPLAINT_LIMIT,
    MAX_SEATS,
    MAX_SPEED,
    STAGES,
    UPGRADE_ITEMS,
)
from companion.games.now_boarding.rules import (
    TEMP_ITEMS,
    NowBoardingState,
    Purchase,
    max_undelivered,
    next_price,
    setup_page,
    supply_left,
    temp_holder,
    turnaround_loses,
    upgrade_row,
    vip_choices,
    vip_count_range,
    vip_offer,
)

#: What an input handler gives back: the new state and the tunes it plays.
Outcome = tuple[NowBoardingState, tuple[Play, ...]]


def vip_answer(state: NowBoardingState) -> str | None:
    """The card NEXT serves at ``vip`` (None: no VIP, the table said no). Refused while the
    table said yes but has chosen no card yet: a hurried NEXT never serves one it did not
    choose."""
    card = vip_offer(state) if state.serve_vip else None
    if state.serve_vip and card is None and vip_choices(state):
        raise RuleError("not-allowed", "which VIP card? UP/DOWN or tap it first")
    return card


def hold_next(state: NowBoardingState,
               now: float) -> Outcome:
    if state.step == "upgrades":
        return buy(state)
    if state.step == "turnaround":  # the brisk card: the upgrades page
        if turnaround_loses(state):  # the steps lose before their upgrades: no purchase
            raise RuleError("not-allowed", "these complaints lose the game: no upgrades")
        return replace(state, step="upgrades", page=0), (Play("click"),)
    if state.step == "setup" and setup_page(state) == "planes":  # short flow: swap a tile
        tiles = list(state.free_tiles)
        tiles[state.row] = "speed" if tiles[state.row] == "seat" else "seat"
        return replace(state, free_tiles=tuple(tiles)), (Play("click"),)
    if state.step != "flight":
        raise RuleError("not-allowed", "hold NEXT pauses a flight only")
    countdown = state.countdown
    if countdown is None:
        raise RuleError("not-allowed", "no timer to pause: timer=off")
    if countdown.state is TimerState.IDLE:
        raise RuleError("not-allowed", "no timer to pause: a practice flight")
    if countdown.state is TimerState.PAUSED:
        return replace(state, countdown=countdown.resume(now)), (Play("click"),)
    if state.strict:
        raise RuleError("not-allowed", "pause is off: strict=on")
    return replace(state, countdown=countdown.pause(now)), (Play("click"),)


def up_down(state: NowBoardingState,
             direction: int) -> Outcome:
    match state.step:
        case "anger" | "turnaround":
            if state.step == "anger":
                state = replace(state, page=1)  # UP / DOWN on the cubes page: to the count
            value = state.pending + direction
            if value < 0:
                raise RuleError("not-allowed", "complaints cannot go below 0")
            if state.complaints + value > COMPLAINT_LIMIT:
                raise RuleError("not-allowed", "3 complaints already lose")
            return replace(state, pending=value), ()
        case "exit":
            value = state.pending + direction
            if value < 0:
                raise RuleError("not-allowed", "passengers cannot go below 0")
            if value > max_undelivered(state):
                raise RuleError("not-allowed", f"at most {max_undelivered(state)} passengers")
            return replace(state, pending=value), ()
        case "vip":  # (DOWN on "Serve a VIP?" is the game's own: a no)
            if state.page == 0:
                raise RuleError("not-allowed", "Serve a VIP? NEXT yes, DOWN no")
            choices = vip_choices(state)
            if len(choices) < 2:
                raise RuleError("not-allowed", "the only VIP card left: NEXT goes on")
            # UP moves up the list (to the card before), DOWN to the card after; from none
            # chosen DOWN goes to the first card, UP to the last.
            choice = (state.vip_choice - direction if state.vip_choice >= 0
                      else 0 if direction < 0 else len(choices) - 1)
            return replace(state, vip_choice=choice % len(choices)), ()
        case "upgrades":
            rows = len(UPGRADE_ITEMS)
            if not state.full_flow:  # one page for every player: their rows one after another
                return replace(state, page=(state.page - direction) % (rows * state.players)), ()
            first = state.page // rows * rows
            # UP moves up the player's list (to the row before), DOWN to the row after.
            return replace(state, page=first + (state.page - first - direction) % rows), ()
        case "ready":
            raise RuleError("not-allowed", "NEXT starts the flight")
        case "setup":
            page = setup_page(state)
            if page == "table" and not state.full_flow:  # the panel: picture or words
                return replace(state, table_words=not state.table_words), ()
            if page == "planes" and not state.full_flow:  # UP / DOWN: the player row
                return replace(state, row=(state.row - direction) % state.players), ()
            if page.startswith("free-"):
                player = int(page.removeprefix("free-"))
                tiles = list(state.free_tiles)
                tiles[player] = "seat" if direction > 0 else "speed"
                return replace(state, free_tiles=tuple(tiles)), ()
            if page.startswith("vip-"):
                return vip_count(state, STAGES.index(page.removeprefix("vip-")), direction)
            raise RuleError("not-allowed", "NEXT turns the page")
        case "flight":
            raise RuleError("not-allowed", "flying: NEXT ends the flight")
    raise RuleError("not-allowed", "NEXT moves on; UP/DOWN do nothing here")


def vip_count(state: NowBoardingState, index: int, direction: int) -> Outcome:
    """A setup page's VIP count, as the table reads it from the backs: UP one more, DOWN one
    fewer, within :func:`vip_count_range`; the later stages follow (the last gets the rest)."""
    if any(state.legacy_vip_deal):
        raise RuleError("not-allowed", "this game's VIP cards were dealt by the box")
    if index == len(STAGES) - 1:
        raise RuleError("not-allowed", "the Evening deck gets the rest; hold BACK to change")
    low, high = vip_count_range(state, index)
    value = state.vip_told[index] + direction
    if value > high:
        raise RuleError("not-allowed", f"at most {high} VIP cards here")
    if value < low:
        raise RuleError("not-allowed", f"at least {low} VIP cards here")
    told = list(state.vip_told)
    told[index] = value
    state = replace(state, vip_told=(told[0], told[1], told[2]))
    for later in range(index + 1, len(STAGES)):
        low, high = vip_count_range(state, later)
        told[later] = high if later == len(STAGES) - 1 else min(max(told[later], low), high)
        state = replace(state, vip_told=(told[0], told[1], told[2]))
    return replace(state, vip_waiting=state.vip_told), ()


def buy(state: NowBoardingState) -> Outcome:
    player, item = upgrade_row(state)
    label = f"P{player + 1}"
    if item in TEMP_ITEMS:
        holder = temp_holder(state, item)
        if holder == player:
            used = Purchase(state.round, player, f"{item}-used")
            return replace(state, purchases=(*state.purchases, used)), (Play("click"),)
        if holder is not None:
            raise RuleError("not-allowed", f"P{holder + 1} holds it until used")
    else:
        if supply_left(state, item) <= 0:
            raise RuleError("not-allowed", f"no {item} tiles left")
        if next_price(state, player, item) is None:
            most = MAX_SEATS if item == "seat" else MAX_SPEED
            raise RuleError("not-allowed", f"{label} has the most {item}: {most}")
    bought = Purchase(state.round, player, item)
    return replace(state, purchases=(*state.purchases, bought)), (Play("click"),)
