"""The games the box offers in its menu, and the scorers ``companion score`` knows.

One line per game here; the menu lists games in this order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.core.game import Game
from companion.games.timer import RoundTimer

Scorer = Callable[[Mapping[str, Any]], dict[str, Any]]


def playable_games() -> list[Game[Any]]:
    """Every game the box can run, in menu order."""
    return [
        RoundTimer(),
    ]


def scorers() -> dict[str, Scorer]:
    """``companion score`` and the protocol's ``score``: game name -> scorer."""
    from companion.games import now_boarding_v3, planes

    return {
        "now-boarding-v3": now_boarding_v3.score,
        "planes": planes.score,
    }
