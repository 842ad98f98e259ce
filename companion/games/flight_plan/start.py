"""The start of a Flight Plan box game: the options, the route guide and the starting draw.

Part of the box game (:mod:`.game`). Rules enforced here:

- Options ``players=2..6 start=draw|quick guide=example|owner seed=auto|N``; ``guide=owner`` is
  offered (and the default) only when the box was configured with the owner's route guide.
- The 2d10 draw deals 3 x players different routes, three to each player, re-rolling a number
  already drawn or missing from the guide (the box can only bank routes its guide knows); with a
  complete guide this is exactly :func:`~.draw.draw_starting_routes`. A guide with fewer routes
  than the draw needs is refused (use ``start=quick``).
"""

from __future__ import annotations

import random
from functools import cache

from companion.core.game import OptionError, OptionSpec
from companion.games.flight_plan.data import RouteGuide, example_guide_text
from companion.games.flight_plan.draw import ROUTES_PER_PLAYER, deal, roll_route
from companion.games.flight_plan.guide import parse_guide


def _is_seed(value: str) -> bool:
    return value.isdigit()


def options_for(has_owner_guide: bool) -> tuple[OptionSpec, ...]:
    """The options the menu offers; ``guide=owner`` only when the box has the owner's guide."""
    guides = ("owner", "example") if has_owner_guide else ("example",)
    return (
        OptionSpec("players", "Players", ("2", "3", "4", "5", "6"), "3",
                   explain="Players at the table"),
        OptionSpec("start", "Start routes", ("draw", "quick"), "draw",
                   explain="Draw: the box deals starting routes"),
        OptionSpec("guide", "Route guide", guides, guides[0],
                   explain="Which route guide the bank uses"),
        OptionSpec("seed", "Seed", ("auto",), "auto", accepts=_is_seed,
                   allowed="auto|<whole number>",
                   explain="Random draws; a fixed seed only by 'new'"),
    )


@cache
def example_guide() -> RouteGuide:
    """The bundled made-up route guide (package data), parsed once."""
    return parse_guide(example_guide_text(), "example_guide.toml")


def draw_for_guide(rng: random.Random, guide: RouteGuide, players: int) -> list[list[int]]:
    """The 2d10 draw, re-rolling numbers already drawn or missing from the guide; then the deal.

    With a guide of all 100 routes this is :func:`~.draw.draw_starting_routes` exactly.
    """
    needed = ROUTES_PER_PLAYER * players
    if len(guide.routes) < needed:
        raise OptionError(f"the route guide has {len(guide.routes)} routes; {players} players "
                          f"need {needed} for the draw (use start=quick)")
    drawn: list[int] = []
    while len(drawn) < needed:
        number = roll_route(rng)
        if number not in drawn and guide.route(number) is not None:
            drawn.append(number)
    return deal(rng, drawn, players)
