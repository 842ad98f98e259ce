"""The Flight Plan box game's state: whose turn, which step, what is being entered or owed.

Part of the box game (:mod:`.game` has the buttons and the rules the flow enforces).
:class:`FlightPlanState` is immutable, so a refused input never changes it. This module also
holds the turn menu, the amount steps, and the two ways back to the turn menu: a transaction
made (:func:`transaction_done`) and hold NEXT (:func:`back_to_menu`, refused where the flow
must finish first: the setup pages, an open debt, a hub use fee the turn start needs).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal

from companion.core.game import RuleError
from companion.games.flight_plan.data import RouteGuide
from companion.games.flight_plan.ledger import Bank, Income

TITLE: Final = "Flight Plan bank"
NOTE_STEP: Final = 5  # the smallest banknote, $5M: one press of UP / DOWN
BIG_STEP: Final = 50  # a held UP / DOWN
MAX_AMOUNT: Final = 9995
LAST_AIRLINE: Final = "last-airline"

Step = Literal["deal", "revenue", "menu", "route", "fleet", "hub", "deactivate", "amount",
               "payee", "debt", "win", "over"]
Purpose = Literal["route-price", "route-revenue", "fleet-price", "pay", "receive", "pay-player",
                  "hub-fee"]

#: The turn menu: (key, label), in order.
MENU: Final = (
    ("route", "Buy route"),
    ("fleet", "Buy fleet"),
    ("hub", "Buy hub"),
    ("deactivate", "Deactivate"),
    ("pay", "Pay the bank"),
    ("receive", "Receive from bank"),
    ("pay-player", "Pay a player"),
    ("win", "Win check"),
    ("lift", "Lift region limit"),
    ("end", "End turn"),
)
MENU_KEYS: Final = tuple(key for key, _label in MENU)


@dataclass(frozen=True)
class Entry:
    """An amount being entered with UP / DOWN, and what it is for."""

    purpose: Purpose
    amount: int = 0
    route: int | None = None
    price: int | None = None  # a route price entered before its revenue
    fleet: str | None = None
    payee: str | None = None


@dataclass(frozen=True)
class Debt:
    """A payment that waits until the payer has raised the cash (or goes bankrupt)."""

    payer: str
    amount: int
    payee: str | None  # None: the bank
    reason: Literal["penalty", "payment", "hub-fees"]


@dataclass(frozen=True)
class FlightPlanState:
    bank: Bank
    names: tuple[str, ...]
    dealt: tuple[tuple[int, ...], ...]
    start: str
    guide_name: str
    seed: int
    step: Step = "deal"
    page: int = 0  # setup page, or the player shown by the win check
    item: int = 0  # the turn menu's cursor
    cursor: int = 0  # a picker's cursor
    seat: int = 0
    turn: int = 1
    round: int = 1
    entry: Entry | None = None
    debt: Debt | None = None
    income: Income | None = None
    hub_fee: int | None = None
    note: str = ""  # the last transaction, in words
    winner: str | None = None
    winners: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def player(self) -> str:
        return self.names[self.seat]

    @property
    def guide(self) -> RouteGuide:
        return self.bank.guide

    @property
    def first_move(self) -> bool:
        return self.round == 1


def money(amount: int) -> str:
    """An amount as the banknotes print it: ``$250M``."""
    return f"${amount}M"


def transaction_done(state: FlightPlanState, note: str) -> FlightPlanState:
    """A transaction made: back to the turn menu with the note."""
    return replace(state, step="menu", entry=None, debt=None, cursor=0, note=note)


def back_to_menu(state: FlightPlanState) -> FlightPlanState:
    """Hold NEXT: back to the turn menu, where that is allowed."""
    match state.step:
        case "deal" | "menu":
            raise RuleError("not-allowed", "hold NEXT goes back to the turn menu from a choice")
        case "debt":
            assert state.debt is not None
            raise RuleError("not-allowed",
                            f"{state.debt.payer} must raise {money(state.debt.amount)} first; "
                            "hold BACK undoes")
        case "amount" if state.entry is not None and state.entry.purpose == "hub-fee":
            raise RuleError("not-allowed",
                            f"the hub use fee is needed to start {state.player}'s turn")
    return replace(state, step="menu", entry=None, cursor=0)
