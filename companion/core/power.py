"""The menu's "Power off" row: ask first, then the runtime switches the box off.

Rules it enforces (pure; core/app.py routes the menu's input here):
- "Power off" is a row of the menu's games page (before the sound rows), always there:
  without it, a box with no keyboard and no SSH could only be switched off by pulling the
  plug, which a card's file system may not survive.
- Choosing it asks first, as replacing a game does: "Power off the box?" NEXT yes, BACK no.
  BACK goes back to the row; any other button is refused with the reason.
- NEXT answers with the :class:`~companion.core.appstate.PowerOff` effect, after everything
  accepted so far is journaled (nothing is pending: the journal is written before effects).
  The runtime performs it through an adapter: `systemctl poweroff` on a Pi, a clean stop
  with a message on the fake backend. A game in play stays resumable after the next start.
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.appstate import AppState, Effect, Menu, PowerOff
from companion.core.buttons import Button
from companion.core.game import Play, RuleError

__all__ = ["POWERING_OFF", "POWER_OFF_ITEM", "answer", "ask"]

POWER_OFF_ITEM = "Power off"
# The LED in the case lights once the box has halted (hardware/README.md, Power).
POWERING_OFF = "Powering off: unplug when the box's LED lights (none: the Pi's green LED stops)"


def ask(state: AppState, menu: Menu) -> AppState:
    """The question page, remembering the row it was asked from."""
    return replace(state, menu=Menu(page="power-off", cursor=menu.cursor), notice=None)


def answer(state: AppState, menu: Menu, button: Button) -> tuple[AppState, list[Effect]]:
    """NEXT: power off; BACK: back to the menu's row."""
    if button is Button.NEXT:
        return replace(state, menu=None, notice=POWERING_OFF), [Play("end"), PowerOff()]
    if button is Button.BACK:
        return replace(state, menu=Menu(cursor=menu.cursor), notice=None), []
    raise RuleError("not-allowed", "NEXT powers off, BACK keeps it on")
