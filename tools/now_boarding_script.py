#!/usr/bin/env python3
"""Write a `companion simulate` script that plays a whole game of Now Boarding: NEXT at every
step, every flight timer left to run out, no complaints; it ends with `expect` lines that the
game is over and won. tools/pi-trial runs it on the emulated Pi.

    python3 tools/now_boarding_script.py [--players N] [--seed S] > game.txt
    companion simulate game.txt          # exit 0, one `ok` per line, when the box plays it through

Promises: the script is found by playing the game in-process with the installed package's own
simulated controller (`companion.testing.simulated`), so it fits the rules that package plays;
it never sleeps (a fake clock); the state directory is a temporary folder, removed after.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

MAX_STEPS = 5000  # a whole 5-player game is a few hundred; more means the game never ends


def game_script(players: int, seed: int, state_dir: Path) -> list[str]:
    """The protocol lines of a whole game, ending with the checks that it was won."""
    from companion.testing.simulated import simulated_controller

    model = simulated_controller(state_dir)
    lines = [f"new now-boarding players={players} seed={seed}"]
    if model.command_line(lines[0]) != "ok":
        raise SystemExit(f"now_boarding_script: {lines[0]!r} was refused")
    try:
        for _ in range(MAX_STEPS):
            state = json.loads(str(model.command_line("state")).removeprefix("ok "))
            if state["phase"] == "over":
                break
            if state["step"] == "flight":
                lines += ["expect step=flight", "wait 60"]
                model.command_line("wait 60")
            else:
                lines.append("press next")
                reply = model.command_line("press next")
                if reply != "ok":
                    raise SystemExit(f"now_boarding_script: NEXT at {state['step']}: {reply}")
        else:
            raise SystemExit(f"now_boarding_script: no end after {MAX_STEPS} steps")
    finally:
        model.journal.close()
    return [*lines, "expect phase=over", "expect result=win", "expect complaints=0"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A simulate script for a whole Now Boarding "
                                                 "game.")
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6))
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="companion-script-") as tmp:
        lines = game_script(args.players, args.seed, Path(tmp))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
