"""What a player feels: NEXT through a Now Boarding game, each press journaled, on an SD card.

What is measured (full run; ``--short`` in brackets), on the rig (the real wiring, mock pins,
luma on a counting bus, the serial line on a pseudo-terminal) with its journal on the bench's
modelled SD card (:mod:`.sd_card`: every commit waits 30 ms, as a plain card's sync does):

- ``game_press_to_frame_ms``: 200 [40] NEXT presses through a Now Boarding game (3 players,
  seed 1; each press is one journaled action): the release edge of the mock pin to the end of
  the new frame's ``show``. The model is on for every other press and off for the rest, so the
  same run gives the same presses without it (``without_sd_model``) and the ratio of the two
  (``ratio_p50``; its target is the 1.5x of issue #29, ``ratio_p99`` is shown beside it).
  The next press waits until the write of the last one has landed.
- ``serial_ack_ms``: 100 [20] ``press next`` lines on the serial line, the model on: from
  writing the line to reading its ``ok``. It includes the sync by design: the box
  acknowledges an action to a machine only once it is on disk, so its ``min`` target is the
  model's 30 ms, and ``acks_after_write`` counts the replies read after their write's sync
  ended (all of them, or the box broke its promise).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from companion.bench.figures import distribution, percentile, with_target
from companion.bench.rig import Rig
from companion.bench.sd_card import SD_SYNC_SECONDS, SdCard

NEW_GAME = "new now-boarding players=3 seed=1"
PRESSES_PER_GAME = 80  # a new game before this one ends (a 3-player game of today's short
# flow ends after about 90 NEXT steps: a NEXT after the end is refused and writes nothing)


def ask(peer: int, line: str, seconds: float = 5.0) -> str:
    """One protocol line on the serial line's peer end, and its reply."""
    import select

    os.write(peer, line.encode() + b"\n")
    data = b""
    deadline = time.monotonic() + seconds
    while not data.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([peer], [], [], remaining)[0]:
            raise RuntimeError(f"no reply to {line!r}; got {data!r}")
        data += os.read(peer, 4096)
    return data.decode().strip()


def run_game_press_scenario(state_dir: Path, plan: dict[str, Any]) -> dict[str, Any]:
    """The two figures (see the module docstring), with their targets."""
    card = SdCard()
    rig = Rig(state_dir, serial=True, journal_opener=card.opener())
    samples: dict[str, list[float]] = {"modelled": [], "plain": [], "acks": []}
    acks_after_write = 0

    def script(rig: Rig) -> None:
        nonlocal acks_after_write
        time.sleep(0.5)  # the first frame and the journal settle
        path = rig.box.serial_path
        assert path is not None
        peer = os.open(path, os.O_RDWR | os.O_NOCTTY)
        try:
            for index in range(plan["presses"]):
                if index % PRESSES_PER_GAME == 0:
                    card.on = False
                    if ask(peer, NEW_GAME) != "ok":
                        raise RuntimeError("the bench could not start a Now Boarding game")
                card.on = index % 2 == 0
                seen = len(card.commits)
                latency = rig.click("next") * 1000
                card.wait_for_commit(seen)  # its write landed: the model may switch
                samples["modelled" if card.on else "plain"].append(latency)
                time.sleep(0.04)
            card.on = True
            for index in range(plan["presses"] // 2):
                if index % PRESSES_PER_GAME == 0 and ask(peer, NEW_GAME) != "ok":
                    raise RuntimeError("the bench could not start a Now Boarding game")
                seen = len(card.commits)
                started = time.perf_counter()
                reply = ask(peer, "press next")
                answered = time.perf_counter()
                if reply != "ok":
                    raise RuntimeError(f"press next answered {reply!r}")
                samples["acks"].append((answered - started) * 1000)
                commits = card.commits[seen:seen + 1]  # this line's write, if it landed
                acks_after_write += bool(commits) and commits[0] <= answered
                time.sleep(0.04)
        finally:
            os.close(peer)

    rig.run(script)
    modelled, plain = samples["modelled"], samples["plain"]
    model_ms = SD_SYNC_SECONDS * 1000
    press = {**distribution(modelled), "sd_sync_ms": model_ms,
             "without_sd_model": distribution(plain),
             "ratio_p50": round(percentile(modelled, 0.5) / percentile(plain, 0.5), 2),
             "ratio_p99": round(percentile(modelled, 0.99) / percentile(plain, 0.99), 2)}
    ack = {**distribution(samples["acks"]), "sd_sync_ms": model_ms,
           "acks_after_write": f"{acks_after_write}/{len(samples['acks'])}"}
    return {"game_press_to_frame_ms": with_target(press, "game_press_to_frame_ms"),
            "serial_ack_ms": with_target(ack, "serial_ack_ms")}
