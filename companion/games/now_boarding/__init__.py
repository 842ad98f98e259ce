"""Now Boarding (retail, 2-5 players): the flight timer and the whole phase sequence.

``NowBoarding`` is the Game (game.py: the rules and the readings chosen), ``score`` scores a
finished game for ``companion score now-boarding`` and ``record`` gives a game's record for
``companion history``.
"""

from companion.games.now_boarding.game import NowBoarding
from companion.games.now_boarding.record import record, state_json
from companion.games.now_boarding.rules import NowBoardingState
from companion.games.now_boarding.score import score

__all__ = ["NowBoarding", "NowBoardingState", "record", "score", "state_json"]
