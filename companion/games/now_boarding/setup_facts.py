"""The physical facts a table new to Now Boarding needs to set up and play, as one data table.

Issue #35: a new table guessed what a starting plane is made of, where the passenger card of
each plane goes, what to do with a weather card, which dot a token goes on, where a bought
route tile goes and when a temporary token is used. Each fact is said once here, in the
project's own words (rules/now-boarding.txt is the source of the facts only), in two sizes:

- ``label``: at most :data:`LABEL_WIDTH` characters, the short form the pictures write beside
  the thing it is about (companion/ui/pictures/now_boarding.py);
- ``sentence``: one whole sentence for a setup card or a lesson (``page`` names the setup
  page, or the lesson, whose text it belongs with), so the setup flow can say it where the
  picture cannot.

:func:`fact` finds one by its key. Nothing here changes during a game; the module is pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from companion.games.now_boarding.data import START_SEATS, START_SPEED

LABEL_WIDTH: Final = 38
"""The longest label: the picture's width (240 units) in its 6-unit font, less a margin."""


@dataclass(frozen=True)
class SetupFact:
    """One physical fact: its key, the picture's short label, the card's whole sentence, and
    the setup page (or lesson id) whose text it belongs with."""

    key: str
    label: str
    sentence: str
    page: str


SETUP_FACTS: Final = (
    SetupFact("plane-parts", "Plane: cockpit, wing, seat and tail",
              "A starting plane is four tiles: the cockpit in front, one seat, the tail "
              "behind, and the wing under them.", "planes"),
    SetupFact("one-seat", f"{START_SEATS} seat: {START_SEATS} passenger aboard",
              f"It starts with {START_SEATS} seat, so it carries {START_SEATS} passenger at "
              "a time.", "planes"),
    SetupFact("wing-speed", f"Wing: speed {START_SPEED}",
              f"The wing shows its speed: {START_SPEED} spaces in each flight.", "planes"),
    SetupFact("free-tile", "Free tile: a seat or a speed",
              "Each player adds one free tile: a seat beside the first seat, or a speed tile "
              "on the wing.", "free"),
    SetupFact("home-card", "Each plane: 1 card from home, face up",
              "Each plane gets one passenger card whose back shows its home airport: turn it "
              "face up by that airport.", "planes"),
    SetupFact("weather-card-done", "Weather card, token placed: set aside",
              "Once its token is on the board, put the weather card aside face up: it is "
              "not used again.", "weather"),
    SetupFact("token-dot", "Token on a route dot, not an airport",
              "A weather token goes on one dot of the card's route, never on an airport.",
              "weather"),
    SetupFact("route-tile", "Bought route tile: beside the tail",
              "A route tile you buy goes beside your tail, with the colours it opens.",
              "upgrades"),
    SetupFact("temp-used", "Temp token: yours till used, then back",
              "A temporary token you buy stays yours until you use it in a flight (one more "
              "passenger, or one more space); then it goes back to the supply.", "upgrades"),
)
"""Every physical fact, in the order a table meets them."""

FACT_KEYS: Final = tuple(item.key for item in SETUP_FACTS)


def fact(key: str) -> SetupFact:
    """The fact named ``key``; a ``KeyError`` that names the known keys otherwise."""
    for item in SETUP_FACTS:
        if item.key == key:
            return item
    raise KeyError(f"no setup fact {key!r}; known: {', '.join(FACT_KEYS)}")


def facts_for(page: str) -> tuple[SetupFact, ...]:
    """The facts whose sentence belongs with a setup page (or lesson) ``page``."""
    return tuple(item for item in SETUP_FACTS if item.page == page)
