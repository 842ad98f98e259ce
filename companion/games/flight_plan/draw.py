"""Flight Plan's starting routes: the 2d10 draw and the Quick Play set (rulebook, Game Setup 6-7).

Rules enforced:

- Two ten-sided dice are read as tens and units: a tens die of 7 and a units die of 8 is route
  78; 0 and 0 is route 100 (the rulebook's "0 and 00"). Every result is a route 1..100.
- Roll 3 x players times; a number already drawn is rolled again, so the draw holds 3 x players
  different route numbers.
- The drawn cards are shuffled and dealt three to each player (one at a time, round the table).
- Quick Play: the 18 route cards listed in the rulebook are shuffled and three are dealt to each
  player; the rest go back to the deck.
- 2 to 6 players (six player cards; the start-up cash is given for 2 and for 3 to 6 players).

Randomness is injected: pass a ``random.Random`` (seeded for a reproducible game). Each die is
``rng.randint(0, 9)``, tens first; the deal uses ``rng.shuffle``.
"""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Final

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
ROUTES_PER_PLAYER: Final = 3

#: The Quick Play starting set, by route class, as printed in the rulebook.
QUICK_PLAY: Final = MappingProxyType(
    {
        "short": (17, 18, 20, 24, 25),
        "medium": (33, 43, 45, 48, 52),
        "long": (64, 67, 70, 81, 87),
        "ultra-long": (94, 97, 100),
    }
)
QUICK_PLAY_ROUTES: Final = tuple(number for numbers in QUICK_PLAY.values() for number in numbers)


def roll_route_number(tens: int, units: int) -> int:
    """The route number shown by a tens die and a units die (each 0..9); 0 and 0 is 100."""
    for name, value in (("tens", tens), ("units", units)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
            raise ValueError(f"{name} die must be 0..9, got {value!r}")
    return 10 * tens + units or 100


def roll_route(rng: random.Random) -> int:
    """Roll the two dice once: a route number 1..100."""
    tens = rng.randint(0, 9)
    units = rng.randint(0, 9)
    return roll_route_number(tens, units)


def _check_players(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number, got {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"Flight Plan is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}"
        )


def roll_starting_numbers(rng: random.Random, players: int) -> list[int]:
    """3 x players different route numbers in the order rolled (repeats rolled again)."""
    _check_players(players)
    drawn: list[int] = []
    while len(drawn) < ROUTES_PER_PLAYER * players:
        number = roll_route(rng)
        if number not in drawn:
            drawn.append(number)
    return drawn


def deal(rng: random.Random, cards: list[int], players: int) -> list[list[int]]:
    """Shuffle ``cards`` and deal three to each player, one at a time round the table."""
    _check_players(players)
    needed = ROUTES_PER_PLAYER * players
    if len(cards) < needed:
        raise ValueError(f"need {needed} cards to deal to {players} players, got {len(cards)}")
    deck = list(cards)
    rng.shuffle(deck)
    return [deck[seat:needed:players] for seat in range(players)]


def draw_starting_routes(rng: random.Random, players: int) -> list[list[int]]:
    """Roll the starting routes (2d10, repeats re-rolled), shuffle them and deal 3 per player."""
    return deal(rng, roll_starting_numbers(rng, players), players)


def deal_quick_play(rng: random.Random, players: int) -> list[list[int]]:
    """Shuffle the Quick Play set and deal three to each player (the rest return to the deck)."""
    return deal(rng, list(QUICK_PLAY_ROUTES), players)
