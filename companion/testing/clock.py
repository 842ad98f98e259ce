"""A clock that moves only when told: tests and ``companion simulate`` use it."""

from __future__ import annotations


class FakeClock:
    """Starts at ``start`` and moves only through :meth:`advance` or :meth:`set`."""

    def __init__(self, start: float = 0.0, wall_time: str = "2026-01-01T12:00:00+00:00") -> None:
        self._now = start
        self._wall = wall_time

    def monotonic(self) -> float:
        return self._now

    def wall(self) -> str:
        return self._wall

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a fake clock never goes backwards")
        self._now += seconds

    def set(self, instant: float) -> None:
        if instant < self._now:
            raise ValueError("a fake clock never goes backwards")
        self._now = instant
