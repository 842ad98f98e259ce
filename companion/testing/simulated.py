"""A controller on simulated parts, for tests, scenes and the bench.

Everything is a fake that records (display frames, tones) except the journal, which is the
real SQLite journal in the given folder, so a "restart" is simply a second controller over
the same folder.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from companion.adapters.journal import Journal
from companion.core.app import App
from companion.games.registry import playable_games, scorers
from companion.runtime import Controller
from companion.testing.clock import FakeClock
from companion.testing.recording import RecordingBuzzer, RecordingDisplay


def simulated_controller(state_dir: Path, *, clock: Any = None, display: Any = None,
                         buzzer: Any = None, journal: Any = None,
                         seed: int = 1, settings: Any = None) -> Controller:
    """A simulated controller (``wait`` and ``expect`` work) over ``state_dir``."""
    return Controller(App(playable_games()),
                      journal if journal is not None else Journal.in_directory(state_dir),
                      clock if clock is not None else FakeClock(),
                      display if display is not None else RecordingDisplay(),
                      buzzer if buzzer is not None else RecordingBuzzer(),
                      rng=random.Random(seed), scorers=scorers(), simulated=True,
                      settings=settings)
