"""Memory over a long session: many games on a fake clock, in a worker process.

What is measured (full run; ``--short`` in brackets): ``rss_mb``, the peak RSS of a worker
that plays 300 [40] games on a fake clock (round timer and whole Now Boarding games, journal
on disk, partial SSD1306 display): the worker's own peak (``VmHWM`` on Linux, see
:func:`~companion.bench.figures.peak_rss_mb`), not the bench's that started it;
``memory_growth`` compares its RSS and Python's allocated blocks after the first tenth of the
games with the end.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from companion.bench.display_bus import CountingBus, partial_ssd1306
from companion.bench.figures import current_rss_mb, peak_rss_mb


def session_lines() -> list[str]:
    """One round of the long session: a round timer to its alarm, and a whole Now Boarding
    game (the scene that plays to a loss), with waits on the fake clock."""
    from companion.ui.views.now_boarding import SCENES

    return ["new timer seconds=30", "press next", "wait 31", "press next", "wait 12",
            "hold next", "wait 3", "hold next", "wait 20", *SCENES["now-boarding-lose"],
            "wait 60", "press back"]


def session_worker(games: int, state_dir: Path) -> dict[str, Any]:
    import gc
    import random

    from companion.adapters.journal import Journal
    from companion.adapters.oled import Display
    from companion.core.app import App
    from companion.games.registry import playable_games, scorers
    from companion.runtime import Controller
    from companion.testing.clock import FakeClock
    from companion.testing.recording import RecordingBuzzer

    state_dir.mkdir(parents=True, exist_ok=True)
    buzzer = RecordingBuzzer()
    controller = Controller(App(playable_games()), Journal.in_directory(state_dir), FakeClock(),
                            Display(partial_ssd1306(CountingBus())), buzzer,
                            rng=random.Random(1), scorers=scorers(), simulated=True)
    lines = session_lines()
    first = max(1, games // 10)
    rss_first = blocks_first = 0.0
    for game in range(1, games + 1):
        for line in lines:
            controller.command_line(line)
        buzzer.tones.clear()  # the recorder's own log, not the box's state
        if game == first:
            gc.collect()
            rss_first, blocks_first = current_rss_mb(), sys.getallocatedblocks()
    gc.collect()
    rss_last, blocks_last = current_rss_mb(), sys.getallocatedblocks()
    controller.journal.close()
    return {"rss_mb": round(peak_rss_mb(), 2), "from_game": first,
            "rss_growth_mb": round(rss_last - rss_first, 3),
            "blocks_per_game": round((blocks_last - blocks_first) / max(1, games - first), 2)}
