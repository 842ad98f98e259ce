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


KEYS: dict[TimerState, tuple[tuple[str, str], ...]] = {
    TimerState.IDLE: (("next", "Start"), ("up", "More time"), ("down", "Less time")),
    TimerState.RUNNING: (("next", "End the round"), ("hold_next", "Pause")),
    TimerState.PAUSED: (("next", "End the round"), ("hold_next", "Resume")),
    TimerState.EXPIRED: (("next", "Start again"),),
}
"""What each button does in each state, for the table page."""

SAY = {
    TimerState.IDLE: "Set the round's time, then start it.",
    TimerState.RUNNING: "The round is running.",
    TimerState.PAUSED: "Paused: nobody plays until it resumes.",
    TimerState.EXPIRED: "Time is up: the round is over.",
}


def timer_screen(state: TimerGame, now: float) -> Screen:
    """The round timer at ``now``, with its words for the table page."""
    countdown = state.countdown
    caption = CAPTIONS[countdown.state]
    if countdown.state is TimerState.EXPIRED and countdown.remaining(now) > 0:
        caption = "ENDED  NEXT again"
    round_text = f"Round {state.rounds}" if state.rounds else "Ready"
    say = SAY[countdown.state]
    if countdown.state is TimerState.EXPIRED and countdown.remaining(now) > 0:
        say = "Ended early: the round is over."
    return Screen("Round timer", big=clock_text(countdown.shown_seconds(now)), caption=caption,
                  status=f"{round_text}  BACK menu",
                  heading=f"Round timer: round {state.rounds}" if state.rounds else "Round timer",
                  say=say, keys=(*KEYS[countdown.state], ("back", "Menu"), ("hold_back", "Undo")))
