"""The runtime: inputs -> pure core -> effects, on one thread, sleeping until something is due.

The rooms (docs/architecture.md has the picture and the path of a button press):

- :mod:`~companion.runtime.controller`: the box's state and everything that changes it.
- :mod:`~companion.runtime.effects`: the core's effects carried out, journal before sound.
- :mod:`~companion.runtime.resuming`: games back from the journal (start-up, the menu).
- :mod:`~companion.runtime.commanding`: the protocol's commands carried out.
- :mod:`~companion.runtime.loop`: the event loop: a queue, a self-pipe, signals, deadlines.
- :mod:`~companion.runtime.channels`: line-protocol peers (the serial line, the table page):
  bounded input, output that never blocks the loop.
- :mod:`~companion.runtime.gameclock`: the game clock and its checkpoints.
- :mod:`~companion.runtime.journaling`: queued journal writes that survive a refusing disk.
- :mod:`~companion.runtime.sound`: the tune player.
- :mod:`~companion.runtime.health`: failing parts, logged once and retried with backoff.
- :mod:`~companion.runtime.simulate`: ``companion simulate``'s line runner.
"""

from companion.protocol.commands import same_value
from companion.runtime.channels import LineEvent, LineSource, ReplyTarget, SerialChannel
from companion.runtime.controller import Controller
from companion.runtime.gameclock import CHECKPOINT_SECONDS, STALE_HOURS, Clock
from companion.runtime.loop import EdgeEvent, EventLoop, GestureEvent, Notifier, StopEvent
from companion.runtime.simulate import simulate

__all__ = [
    "CHECKPOINT_SECONDS",
    "STALE_HOURS",
    "Clock",
    "Controller",
    "EdgeEvent",
    "EventLoop",
    "GestureEvent",
    "LineEvent",
    "LineSource",
    "Notifier",
    "ReplyTarget",
    "SerialChannel",
    "StopEvent",
    "same_value",
    "simulate",
]
