"""Flight Plan's bank records: assets, holdings, accounts, income, the bank, and its refusals.

The data the banker's actions (:mod:`.banker`) read and replace; every record is immutable, so an
action that raises leaves the bank as it was. Refusals are :class:`BankError` (a ``ValueError``
with a short ``code`` for the line protocol): :class:`NotAllowed`, :class:`BadArgument`,
:class:`CannotPay` (naming the payer and the amount) and :class:`MissingAmount` (the guide lacks
an amount and none was given).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from companion.errors import FixedCodeError
from companion.games.flight_plan.data import RouteGuide

AssetKind = Literal["route", "fleet", "hub"]


class BankError(FixedCodeError, ValueError):
    """An action the rules forbid; each subclass's ``CODE`` is its word for the line protocol
    (still a ``ValueError``, as the banker's callers catch it)."""

    CODE = "not-allowed"


class NotAllowed(BankError):
    CODE = "not-allowed"


class BadArgument(BankError):
    CODE = "bad-argument"


class CannotPay(BankError):
    CODE = "cannot-pay"

    def __init__(self, message: str, payer: str, amount: int) -> None:
        super().__init__(message)
        self.payer = payer
        self.amount = amount


class MissingAmount(BankError):
    CODE = "missing-amount"


@dataclass(frozen=True, order=True)
class Asset:
    """A route (by number), a fleet (by type) or a hub (by city)."""

    kind: AssetKind
    key: int | str

    @classmethod
    def route(cls, number: int) -> Asset:
        return cls("route", number)

    @classmethod
    def fleet(cls, fleet: str) -> Asset:
        return cls("fleet", fleet)

    @classmethod
    def hub(cls, city: str) -> Asset:
        return cls("hub", city)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.key}"


@dataclass(frozen=True)
class Holding:
    """An owned asset, its purchase price and (routes) revenue; ``turns_left`` None = active."""

    asset: Asset
    price: int
    revenue: int = 0
    turns_left: int | None = None

    @property
    def active(self) -> bool:
        return self.turns_left is None


@dataclass(frozen=True)
class Account:
    name: str
    cash: int
    holdings: tuple[Holding, ...] = ()
    bought_this_turn: frozenset[Asset] = frozenset()
    unrestricted: bool = False
    bankrupt: bool = False

    def holding(self, asset: Asset) -> Holding | None:
        return next((h for h in self.holdings if h.asset == asset), None)

    def owns(self, asset: Asset) -> bool:
        return self.holding(asset) is not None

    def active(self, asset: Asset) -> bool:
        holding = self.holding(asset)
        return holding is not None and holding.active

    def assets(self, kind: AssetKind) -> list[Asset]:
        return [h.asset for h in self.holdings if h.asset.kind == kind]


@dataclass(frozen=True)
class Income:
    """What :func:`start_turn` collected, in $M."""

    routes: int = 0
    cargo: int = 0
    hub_fees: tuple[tuple[str, int], ...] = ()
    reactivated: tuple[Asset, ...] = ()

    @property
    def total(self) -> int:
        return self.routes + self.cargo + sum(amount for _payer, amount in self.hub_fees)


@dataclass(frozen=True)
class Bank:
    guide: RouteGuide
    accounts: tuple[Account, ...] = field(default=())

    def account(self, name: str) -> Account:
        for account in self.accounts:
            if account.name == name:
                return account
        raise BadArgument(f"no player named {name!r}")

    def owner(self, asset: Asset) -> Account | None:
        return next((a for a in self.accounts if a.owns(asset)), None)
