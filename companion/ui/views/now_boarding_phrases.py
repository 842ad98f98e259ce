"""Now Boarding's phrases that several step cards share (pure): the coach's warnings added to
every step's words (:func:`coached`), the win margin with its reason (:func:`margin`), the
first flight with the clock (:func:`first_timed`), the upgrades on offer with their prices
(:func:`offer`, ``pace=brisk``'s card), one upgrades row in words with what hold NEXT buys
there (:func:`row_words`), the complaints by source (:func:`complaint_split`), and the
round's last purchase or complaints filed (:func:`bought_or_filed`).
now_boarding_words.py says the steps."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from companion.core.words import plural
from companion.games.now_boarding import data
from companion.games.now_boarding.coach import coach
from companion.games.now_boarding.data import COMPLAINT_LIMIT
from companion.games.now_boarding.rules import (
    NowBoardingState,
    next_price,
    plane,
    practice_flight,
    supply_left,
    temp_holder,
    to_win,
)
from companion.ui.screen import Words


def coached(words: Callable[[NowBoardingState], Words]) -> Callable[[NowBoardingState], Words]:
    """A step's words with the coach's warnings (coach.py), the same on every step's card."""

    @functools.wraps(words)
    def with_coach(state: NowBoardingState) -> Words:
        return {**words(state), "coach": tuple(advice.text for advice in coach(state))}

    return with_coach


def offer(state: NowBoardingState) -> str:
    """The upgrades on offer with their prices: seats and speed by player (the same prices
    said once for all), then the route and the temporary tokens still in the supply."""
    prices = []
    for player in range(state.players):
        seat, speed = next_price(state, player, "seat"), next_price(state, player, "speed")
        seat_text = f"seat ${seat}" if seat is not None and supply_left(state, "seat") \
            else "no seat"
        speed_text = f"speed ${speed}" if speed is not None and supply_left(state, "speed") \
            else "no speed"
        prices.append(f"{seat_text}, {speed_text}")
    if len(set(prices)) == 1:
        parts = [f"{prices[0]} each"]
    else:
        parts = [f"P{player + 1} {text}" for player, text in enumerate(prices)]
    routes = supply_left(state, "route")
    parts.append(f"route ${data.ROUTE_PRICE} ({routes} left)" if routes > 0 else "no route")
    temps = [f"temp {item.removeprefix('temp-')} ${data.TEMP_PRICES[item]}"
             for item in ("temp-seat", "temp-speed") if temp_holder(state, item) is None]
    return "; ".join([*parts, *temps])


def complaint_split(split: Mapping[str, int]) -> str:
    """The complaints by source (``anger``, ``vip``, ``exit``) in words, as the page's
    History, ``companion history`` and the game's end say them."""
    return (f"waiting passengers {split['anger']}, unserved VIPs {split['vip']}, "
            f"undelivered at the end {split['exit']}")


ROW_NAMES = {"seat": "a seat", "speed": "a speed", "route": "a route",
             "temp-seat": "the temporary seat", "temp-speed": "the temporary speed"}


def row_words(state: NowBoardingState, player: int, item: str) -> tuple[str, str | None]:
    """One upgrades row in words, and what hold NEXT does on it (None: nothing to buy)."""
    if item in ("temp-seat", "temp-speed"):
        name = ROW_NAMES[item]
        short = name.removeprefix("the ").capitalize()
        holder = temp_holder(state, item)
        cost = data.TEMP_PRICES[item]
        if holder is None:
            return f"{short}: ${cost}, in supply", f"Buy {name} for ${cost}"
        if holder == player:
            return f"{short}: P{holder + 1} holds it", "Mark it used"
        return f"{short}: P{holder + 1} holds it", None
    left = supply_left(state, item)
    if item == "route":
        if left <= 0:
            return "Route: none left in supply", None
        return (f"Route: ${data.ROUTE_PRICE}, {left} left",
                f"Buy a route for ${data.ROUTE_PRICE}")
    current = plane(state, player)
    count = current.seats if item == "seat" else current.speed
    price = next_price(state, player, item)
    what = "seats" if item == "seat" else "speed"
    if price is None:
        return f"{ROW_NAMES[item].capitalize()}: {count} {what}, the most", None
    short = ROW_NAMES[item].removeprefix("a ").capitalize()
    if left <= 0:
        return f"{short}: none left in supply", None
    return (f"{short}: {data.ordinal(count + 1)} ${price}, {left} left",
            f"Buy {ROW_NAMES[item]} for ${price}")


def margin(state: NowBoardingState) -> str:
    """The most passengers that may go undelivered for a win, and why it is that many:
    every two undelivered at the end file a complaint, on top of those filed already."""
    most = to_win(state)
    have = f", and you have {state.complaints}" if state.complaints else ""
    return (f"To win, at most {most} may go undelivered: every two at the end file a "
            f"complaint{have}.")


def first_timed(state: NowBoardingState) -> bool:
    """Whether the coming flight is the game's first with the clock (a teach game's second)."""
    return not practice_flight(state) and state.round == (2 if state.pace == "teach" else 1)


def bought_or_filed(state: NowBoardingState) -> str:
    """The round's last purchase in words, else its complaints filed ("" for neither)."""
    bought = [purchase for purchase in state.purchases if purchase.round == state.round]
    if bought:
        last = bought[-1]
        who = f"P{last.player + 1}"
        if last.item.endswith("-used"):
            return f"{who} used {ROW_NAMES[last.item.removesuffix('-used')]}."
        if last.item in data.TEMP_PRICES:
            return f"{who} bought {ROW_NAMES[last.item]} for ${data.TEMP_PRICES[last.item]}."
        left = supply_left(state, last.item)
        if last.item == "route":
            return f"{who} bought a route for ${data.ROUTE_PRICE}: {left} left in the supply."
        current = plane(state, last.player)
        count = current.seats if last.item == "seat" else current.speed
        prices = data.SEAT_PRICES if last.item == "seat" else data.SPEED_PRICES
        price: int | None = prices.get(count)
        paid = f" for ${price}" if price is not None else ""
        return f"{who} bought {ROW_NAMES[last.item]}{paid}: {left} left in the supply."
    return filed(state)


def filed(state: NowBoardingState) -> str:
    """The complaints filed at this round's anger step, in words ("" before)."""
    if state.phase != "maintenance":
        return ""
    filed = [entry for entry in state.complaint_log
             if entry.round == state.round and entry.source == "anger"]
    if filed:
        return (f"{plural(filed[-1].count, 'complaint')} filed: {state.complaints} of "
                f"{COMPLAINT_LIMIT}.")
    return ""
