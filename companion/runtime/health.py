"""The health of a part that may fail: the display, the buzzer, the journal.

What it promises: a failing part is logged once when it fails and once when it recovers (never
once per frame), and is retried with exponential backoff in between, from
:data:`RETRY_FIRST_SECONDS` up to :data:`RETRY_MAX_SECONDS`. Times are game-clock seconds
(:mod:`companion.runtime.gameclock`), so a fake clock tests the backoff.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 30.0


class PartHealth:
    """A part that may fail; see the module docstring."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failing = False
        self.failures = 0
        self.retry_at = 0.0
        self._backoff = RETRY_FIRST_SECONDS

    def may_try(self, now: float) -> bool:
        return not self.failing or now >= self.retry_at

    def failed(self, now: float, error: BaseException) -> None:
        self.failures += 1
        if not self.failing:
            log.error("%s failed (%s); retrying with backoff", self.name, error)
            self.failing = True
        self.retry_at = now + self._backoff
        self._backoff = min(self._backoff * 2, RETRY_MAX_SECONDS)

    def succeeded(self) -> None:
        if self.failing:
            log.warning("%s works again after %d failed attempts", self.name, self.failures)
        self.failing = False
        self.failures = 0
        self._backoff = RETRY_FIRST_SECONDS
