"""A whole ``pace=teach`` game of the v3 prototype through `companion simulate` (issue #26,
item 7): the same mechanism as Now Boarding's (companion/core/lessons.py) with v3's own
lessons. Played in-process first (every lesson read and dismissed with NEXT), then the same
script through the simulate subprocess, with ``expect lesson.id=...`` before each "got it".
Checked: a lesson at each first use, in order; none while a Departure's countdown runs; each
at most 60 words; the default pace shows none.
"""

import json

import pytest

from companion.games.now_boarding_v3.lessons import LESSON_IDS
from companion.testing.simulated import simulated_controller
from tests.e2e.simulate_support import simulate_script

IN_ORDER = ("pitch", "departure", "arrival", "purchase", "redeye", "lost", "day-end",
            "scoring")


def state_of(model):
    return json.loads(model.command_line("state").removeprefix("ok "))


def play(model, lines):
    """Play to the end: the lessons met (with where), and the last state."""
    met = []
    while True:
        state = state_of(model)
        if state["lesson"] is not None:
            assert state["timer"]["state"] not in ("running", "paused"), state["step"]
            met.append({**state["lesson"], "step": state["step"], "day": state["day"]})
            line = "press next"
            lines += [f"expect lesson.id={state['lesson']['id']}", line]
        elif state["phase"] == "over":
            return met, state
        elif state["step"] == "departure" and state["timer"]["state"] == "running":
            line = "wait 20"  # the Departure's minute (15 s here) runs out
            lines += ["expect lesson=null", line]
        elif state["step"] == "entry":
            line = "press up" if state["entry"]["draft"] < 5 else "press next"
            lines.append(line)
        else:
            line = "press next"
            lines += ["expect lesson=null", line]
        assert model.command_line(line) == "ok", (state["step"], line)


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_a_v3_teach_game_teaches_at_each_first_use(tmp_path, variant):
    new = f"new now-boarding-v3 players=3 pace=teach variant={variant} timer=15"
    model = simulated_controller(tmp_path / "play")
    assert model.command_line(new) == "ok"
    lines = [new]
    met, end = play(model, lines)
    model.journal.close()
    assert tuple(lesson["id"] for lesson in met) == IN_ORDER == LESSON_IDS
    assert [lesson["day"] for lesson in met] == [1] * len(IN_ORDER[:-1]) + [3]
    assert end["result"]["score"] == 5
    for lesson in met:
        assert len(lesson["text"].split()) <= 60, lesson
        assert lesson["more"] is None and "{" not in lesson["text"]
    lost = next(lesson for lesson in met if lesson["id"] == "lost")["text"]
    assert ("more than 6 lost loses at once" in lost) is (variant == "advanced"), lost

    lines.append("expect phase=over")
    assert set(simulate_script(lines, tmp_path, "v3-teach.txt")) == {"ok"}


def test_the_default_pace_of_v3_shows_no_lesson(tmp_path):
    model = simulated_controller(tmp_path)
    assert model.command_line("new now-boarding-v3 players=3") == "ok"
    for _ in range(60):
        state = state_of(model)
        assert state["lesson"] is None and state["pace"] == "steps"
        if state["step"] == "entry":
            break
        assert model.command_line("press next") == "ok"
    model.journal.close()
