"""State -> screen model, for the whole box: the menu, a notice, or the game's own view.

Each game has a view module here, registered in :data:`VIEWS` by game name. A refusal
(``AppState.notice``) shows in the alert box until the next accepted input, so the screen
always says why nothing happened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.core.app import App, AppState
from companion.ui.screen import Screen, alert_lines
from companion.ui.views import flight_plan, now_boarding, now_boarding_v3, overbooked, planes, timer
from companion.ui.views.menu import menu_screen

View = Callable[[Any, float], Screen]

VIEWS: dict[str, View] = {
    "now-boarding": now_boarding.now_boarding_screen,
    "now-boarding-v3": now_boarding_v3.now_boarding_v3_screen,
    "overbooked": overbooked.overbooked_screen,
    "planes": planes.planes_screen,
    "flight-plan": flight_plan.flight_plan_screen,
    "timer": timer.timer_screen,
}

SCENE_SOURCES: tuple[Any, ...] = (now_boarding, now_boarding_v3, overbooked, planes, timer,
                                  flight_plan)
"""View modules whose ``SCENES`` (name -> protocol lines) ``companion render`` draws."""


def all_view_scenes() -> dict[str, tuple[str, ...]]:
    """Every scene of every view module (``SCENES``, if it has any), in registration order."""
    scenes: dict[str, tuple[str, ...]] = {}
    for module in SCENE_SOURCES:
        scenes.update(getattr(module, "SCENES", {}))
    return scenes


def screen_for(app: App, state: AppState, now: float, mark: str = "") -> Screen:
    """What the display shows for ``state`` at ``now``; ``mark`` flags a lasting fault."""
    if state.offer is not None:
        screen = Screen("Welcome back", (state.offer, "NEXT: resume it", "BACK: new game"))
    elif state.menu is not None:
        screen = menu_screen(app, state)
    elif state.session is None:
        screen = Screen("Table companion", ("No game yet.", "Press BACK for", "the menu."))
    else:
        screen = VIEWS[state.session.game](state.session.state, now)
    if state.notice:
        screen = replace(screen, alert=alert_lines(state.notice))
    if mark:
        screen = replace(screen, mark=mark)
    return screen
