"""The "Power off" question (core/power.py): asked in the large font, like replacing a game."""

from __future__ import annotations

from companion.core.power import POWER_OFF_ITEM
from companion.ui.screen import Screen

__all__ = ["power_off_screen"]


def power_off_screen() -> Screen:
    return Screen(POWER_OFF_ITEM, ("Power off the box?", "NEXT yes, BACK no"),
                  status="games stay saved")
