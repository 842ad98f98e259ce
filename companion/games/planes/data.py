"""Planes' printed numbers, as data (rules/planes.txt and rules/FACTS.md).

The colours, the cubes and plane slots, the boarding track, the deck and the turn's phases, and
the words :func:`companion.games.planes.score.end_triggered` answers. Nothing here changes
during a game.
"""

from __future__ import annotations

from typing import Final

GAME: Final = "planes"

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4

#: The four player colours; every colour is in every game (unclaimed ones are neutral).
COLOURS: Final = ("red", "blue", "green", "yellow")
#: Neutral cubes are grey; grey planes stand at the board's neutral gates.
NEUTRAL_COLOUR: Final = "grey"

CUBES_PER_PLAYER: Final = 5
PLANE_SLOTS: Final = 5
VP_PER_BOARDED_CUBE: Final = 5

#: The boarding track runs from 0 to 12; the boarding token starts on 0 and moves one space per
#: cube boarded on any plane (any colour, neutral included). Reaching 12 ends the game.
TRACK_START: Final = 0
TRACK_END: Final = 12
#: The rulebook's example of a shorter game ("such as the '8' space"); any space from 1 to 12
#: may be agreed at setup.
SUGGESTED_SHORT_MARK: Final = 8

CARDS_DEALT: Final = 3
DECK_SIZE: Final = 60
#: Cards drawn at once for boarding a cube on a plane no player owns (a neutral plane).
NEUTRAL_BOARDING_DRAW: Final = 2
#: Neutral cubes placed on every empty non-gate space at setup.
NEUTRAL_CUBES_PER_SPACE: Final = 2
#: Party cubes in one space that make a blockage (a cone goes on the space).
BLOCKAGE_CUBES: Final = 7

#: A turn's phases in order: (key, title, mandatory).
TURN_PHASES: Final[tuple[tuple[str, str, bool], ...]] = (
    ("action", "May play 1 action", False),
    ("move", "Must make 1 move", True),
    ("goal", "May score 1 goal", False),
)

#: What :func:`end_triggered` answers.
TRIGGER_PLANE_FULL: Final = "plane-full"
TRIGGER_BOARDING_TRACK: Final = "boarding-track"
