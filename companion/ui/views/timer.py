"""The round timer's screen: big M:SS digits, what NEXT does now, the round count."""

from __future__ import annotations

from companion.core.timer import TimerState
from companion.games.timer import TimerGame
from companion.ui.screen import Screen


def clock_text(seconds: int) -> str:
    """Whole seconds as M:SS (or MM:SS from ten minutes)."""
    minutes, rest = divmod(max(0, seconds), 60)
    return f"{minutes}:{rest:02d}"


SCENES: dict[str, tuple[str, ...]] = {
    # UP wraps from the top of the menu past the Sound, Volume and Power off rows to the Timer.
    "timer-options": ("press up", "press up", "press up", "press up", "press next"),
    "timer-idle": ("new timer seconds=90",),
    "timer-running": ("new timer seconds=90", "press next", "wait 27.4"),
    "timer-paused": ("new timer seconds=90", "press next", "wait 52", "hold next"),
    "timer-expired": ("new timer seconds=30", "press next", "wait 30"),
    "timer-refused": ("new timer seconds=30", "press next", "press up"),
}
"""Screens for ``companion render`` and the golden tests: protocol lines, last screen kept."""

CAPTIONS = {
    TimerState.IDLE: "NEXT start  UP/DN time",
    TimerState.RUNNING: "NEXT end  hold NEXT pause",
    TimerState.PAUSED: "PAUSED  hold NEXT resume",
    TimerState.EXPIRED: "TIME! NEXT again",
}


def timer_screen(state: TimerGame, now: float) -> Screen:
    countdown = state.countdown
    caption = CAPTIONS[countdown.state]
    if countdown.state is TimerState.EXPIRED and countdown.remaining(now) > 0:
        caption = "ENDED  NEXT again"
    round_text = f"Round {state.rounds}" if state.rounds else "Ready"
    return Screen("Round timer", big=clock_text(countdown.shown_seconds(now)), caption=caption,
                  status=f"{round_text}  BACK menu")
