"""Planes (AEG, 2014, 2-4 players): the boarding track during play, then score entry and scoring.

The modules (every game package has the same shape):

- :mod:`.data`: the printed numbers (colours, cubes, plane slots, the boarding track, the deck).
- :mod:`.score`: the end triggers and the ``planes`` scorer (:func:`score`).
- :mod:`.game`: the box game (:class:`PlanesGame`): the buttons' flow, from boarding to the result.

Everything public of ``data`` and ``score`` is re-exported here, so ``planes.COLOURS`` and
``planes.score`` read the same as before the package.
"""

from companion.games.planes.data import (
    BLOCKAGE_CUBES,
    CARDS_DEALT,
    COLOURS,
    CUBES_PER_PLAYER,
    DECK_SIZE,
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEUTRAL_BOARDING_DRAW,
    NEUTRAL_COLOUR,
    NEUTRAL_CUBES_PER_SPACE,
    PLANE_SLOTS,
    SUGGESTED_SHORT_MARK,
    TRACK_END,
    TRACK_START,
    TRIGGER_BOARDING_TRACK,
    TRIGGER_PLANE_FULL,
    TURN_PHASES,
    VP_PER_BOARDED_CUBE,
)
from companion.games.planes.game import PlanesGame, PlanesState
from companion.games.planes.score import (
    end_mark,
    end_triggered,
    full_planes,
    score,
    turns_left_in_round,
)

__all__ = [
    "BLOCKAGE_CUBES",
    "CARDS_DEALT",
    "COLOURS",
    "CUBES_PER_PLAYER",
    "DECK_SIZE",
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NEUTRAL_BOARDING_DRAW",
    "NEUTRAL_COLOUR",
    "NEUTRAL_CUBES_PER_SPACE",
    "PLANE_SLOTS",
    "SUGGESTED_SHORT_MARK",
    "TRACK_END",
    "TRACK_START",
    "TRIGGER_BOARDING_TRACK",
    "TRIGGER_PLANE_FULL",
    "TURN_PHASES",
    "VP_PER_BOARDED_CUBE",
    "PlanesGame",
    "PlanesState",
    "end_mark",
    "end_triggered",
    "full_planes",
    "score",
    "turns_left_in_round",
]
