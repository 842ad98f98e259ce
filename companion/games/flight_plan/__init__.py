"""Flight Plan (airline board game, 2-6 players): route guide, starting draw, banker, win check.

The pure engine, standard library only (no files, clock or OS):

- :mod:`.data`: regions, route classes, fleets, the route guide's records (:class:`Route`,
  :class:`RouteGuide`, ...) and the shipped made-up example (:func:`example_guide_text`).
- :mod:`.guide`: the route guide format the owner types in (TOML or CSV), its parser and
  validator.
- :mod:`.draw`: the starting routes (two d10 as tens and units, 0-0 is 100, repeats re-rolled,
  three per player) and the Quick Play set.
- :mod:`.banker`: the banker's arithmetic as an immutable state machine, over the records of
  :mod:`.ledger` (assets, accounts, the bank, its refusals).
- :mod:`.score`: the three win conditions and the ``flight-plan`` scorer (:func:`score`).

The box game (:class:`FlightPlanBanker`), the banker's helper on the buttons:

- :mod:`.game`: the Game and the dispatch of one input to its step.
- :mod:`.state`, :mod:`.start`, :mod:`.choices`, :mod:`.purchases`, :mod:`.payments`,
  :mod:`.turns`: the banker's steps (see game.py's docstring).

Each module's docstring states the rules it enforces.
"""

from companion.games.flight_plan.banker import (
    buy_fleet,
    buy_hub,
    buy_route,
    can_deactivate,
    check_player,
    deactivate,
    deactivation_value,
    declare_bankruptcy,
    fly_route,
    lift_region_limit,
    may_extend,
    open_bank,
    pay,
    pay_player,
    receive,
    regions_of,
    revenue_per_turn,
    sell,
    start_turn,
)
from companion.games.flight_plan.data import (
    FLEETS,
    HAUL_RANGES,
    HAULS,
    REGION_NAMES,
    REGIONS,
    BankRules,
    FleetPrices,
    Route,
    RouteGuide,
    example_guide_text,
    haul_of,
)
from companion.games.flight_plan.draw import (
    QUICK_PLAY,
    QUICK_PLAY_ROUTES,
    deal,
    deal_quick_play,
    draw_starting_routes,
    roll_route,
    roll_route_number,
    roll_starting_numbers,
)
from companion.games.flight_plan.game import FlightPlanBanker
from companion.games.flight_plan.guide import guide_from_routes, parse_guide
from companion.games.flight_plan.ledger import (
    Account,
    Asset,
    BadArgument,
    Bank,
    BankError,
    CannotPay,
    Holding,
    Income,
    MissingAmount,
    NotAllowed,
)
from companion.games.flight_plan.score import (
    CONDITIONS,
    GAME,
    WinCheck,
    check_win,
    load_guide,
    networks,
    score,
)

__all__ = [
    "CONDITIONS",
    "FLEETS",
    "GAME",
    "HAULS",
    "HAUL_RANGES",
    "QUICK_PLAY",
    "QUICK_PLAY_ROUTES",
    "REGIONS",
    "REGION_NAMES",
    "Account",
    "Asset",
    "BadArgument",
    "Bank",
    "BankError",
    "BankRules",
    "CannotPay",
    "FleetPrices",
    "FlightPlanBanker",
    "Holding",
    "Income",
    "MissingAmount",
    "NotAllowed",
    "Route",
    "RouteGuide",
    "WinCheck",
    "buy_fleet",
    "buy_hub",
    "buy_route",
    "can_deactivate",
    "check_player",
    "check_win",
    "deactivate",
    "deactivation_value",
    "deal",
    "deal_quick_play",
    "declare_bankruptcy",
    "draw_starting_routes",
    "example_guide_text",
    "fly_route",
    "guide_from_routes",
    "haul_of",
    "lift_region_limit",
    "load_guide",
    "may_extend",
    "networks",
    "open_bank",
    "parse_guide",
    "pay",
    "pay_player",
    "receive",
    "regions_of",
    "revenue_per_turn",
    "roll_route",
    "roll_route_number",
    "roll_starting_numbers",
    "score",
    "sell",
    "start_turn",
]
