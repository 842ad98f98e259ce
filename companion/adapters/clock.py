"""The monotonic clock: the only place the program reads the time for the timer.

Wall-clock time jumps on a Pi without a real-time clock when NTP syncs after boot, so it is
used only to date journal entries for people (``wall``), never for any countdown.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime


class MonotonicClock:
    """``time.monotonic()``: seconds, never going backwards, unaffected by NTP."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> str:
        """The date and time for people to read, ISO 8601 in UTC."""
        return datetime.now(UTC).isoformat(timespec="seconds")
