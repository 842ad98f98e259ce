"""A whole ``pace=teach`` game of Now Boarding through `companion simulate` (issue #26 item 2).

The button script is found by playing the game in-process (the simulated controller over a
real journal): every lesson is read, then dismissed with NEXT ("got it"); the table serves
every VIP, files one complaint in round 3 and leaves 2 passengers undelivered at the end, so
every first use the issue lists happens. The checks: a lesson at each first use, in game
order; none while a countdown runs (nor during any flight); each at most 60 words; those
before the first flight at most 250 together; the first flight a practice flight without
the clock. The same script then runs through the `companion simulate` subprocess, with an
``expect lesson.id=...`` before each "got it". Undo and a restart (journal replay) never show
a seen lesson again; the default pace never shows one.
"""

import json

import pytest

from companion.games.now_boarding.lessons import LESSON_IDS, RULES_SECTIONS
from companion.testing.simulated import simulated_controller
from tests.e2e.simulate_support import simulate_script

TEACH = "new now-boarding players=3 pace=teach timer=off vip=on seed=11"
IN_ORDER = ("pitch", "moving", "boarding", "delivering", "vip", "weather", "anger",
            "upgrades", "first-complaint", "stage", "final-round", "exit", "result")
"""The lessons of this game, in the order the table meets them: what a flight is before the
VIP cards and the weather that change it (issue #35). The short flow has one anger page, so
the anger lesson also says the tally's end; "complaints" is the full flow's count page's."""


def state_of(model):
    return json.loads(model.command_line("state").removeprefix("ok "))


def screen_of(model):
    return json.loads(model.command_line("screen").removeprefix("ok "))


def words(text):
    return len(text.split())


def choose(state):
    """What the table does at ``state`` (no lesson showing): one protocol line."""
    if state["step"] == "anger" and state["ask"] == "count" and state["round"] == 3 \
            and state["pending"] == 0 and state["complaints"] == 0:
        return "press up"  # one passenger got a 4th cube
    if state["step"] == "exit" and state["pending"] < 2:
        return "press up"  # two passengers left undelivered: one more complaint
    if state["ask"] == "which" and state["vip_offer"] is None:
        return "press down"  # "which VIP?" opens with none chosen: the table chooses the first
    return "press next"  # serve every VIP (NEXT yes), end every flight, go on


def play(model, lines):
    """Play the teach game to its end; the lessons met, with where they showed."""
    met = []
    while True:
        state = state_of(model)
        lesson = state["lesson"]
        if lesson is not None:
            assert state["timer"]["state"] != "running" and state["step"] != "flight"
            screen = screen_of(model)
            assert screen["lines"][0] == lesson["title"], screen  # the title bar
            assert screen["lines"][-1].startswith("NEXT got it"), screen
            met.append({**lesson, "flights": len(state["flights"]), "step": state["step"]})
            lines += [f"expect lesson.id={lesson['id']}", "press next"]
            assert model.command_line("press next") == "ok"
            continue
        if state["phase"] == "over":
            return met, state
        if state["step"] == "flight" and state["round"] == 1:  # the practice flight
            assert state["timer"] == {"state": "idle", "remaining": 0.0, "duration": 0.0}
            assert "practice" in " ".join(screen_of(model)["lines"])
        line = choose(state)
        lines += ["expect lesson=null", line]
        assert model.command_line(line) == "ok", (state["step"], line)


def test_a_teach_game_teaches_every_rule_at_its_first_use(tmp_path):
    model = simulated_controller(tmp_path / "play")
    model.command_line(TEACH)
    lines = [TEACH]
    met, end = play(model, lines)
    model.journal.close()

    assert tuple(lesson["id"] for lesson in met) == IN_ORDER
    # This game meets every lesson there is but the full flow's count page's.
    assert set(LESSON_IDS) - {"complaints"} == set(IN_ORDER)
    assert end["result"] == "win" and end["complaints"] == 2
    for lesson in met:
        assert words(lesson["text"]) <= 60, lesson
        assert lesson["more"] in RULES_SECTIONS, lesson
        assert "{" not in lesson["text"], lesson  # every field filled
    before_first_flight = [lesson for lesson in met if lesson["flights"] == 0]
    assert [lesson["id"] for lesson in before_first_flight] == list(IN_ORDER[:6])
    assert sum(words(lesson["text"]) for lesson in before_first_flight) <= 250
    result = met[-1]["text"]
    assert result.startswith("You won. Complaints in all: 2. Kept waiting: 1; unserved "
                             "VIPs: 0; undelivered at the end: 1 (left at airports and on "
                             "planes: 2)"), result

    lines += ["expect phase=over", "expect result=win", "expect complaints=2",
              "expect lesson=null"]
    assert set(simulate_script(lines, tmp_path, "teach.txt")) == {"ok"}


def dismiss_lessons(model):
    shown = []
    while (lesson := state_of(model)["lesson"]) is not None:
        shown.append(lesson["id"])
        assert model.command_line("press next") == "ok"
    return shown


def to_first_ready(model):
    """From a new teach game to round 1's ready card, every lesson on the way dismissed."""
    while True:
        dismiss_lessons(model)
        state = state_of(model)
        if state["step"] == "ready":
            return
        assert model.command_line(choose(state)) == "ok"  # (which VIP? the first card)


def test_undo_never_shows_a_seen_lesson_again(tmp_path):
    model = simulated_controller(tmp_path)
    model.command_line(TEACH)
    to_first_ready(model)
    assert model.command_line("press next") == "ok"  # the practice flight starts
    assert model.command_line("hold back") == "ok"  # ... and is taken back
    state = state_of(model)
    assert (state["step"], state["lesson"]) == ("ready", None)
    assert model.command_line("press next") == "ok"
    assert model.command_line("press next") == "ok"  # the flight ends: the anger lesson
    assert dismiss_lessons(model) == ["anger"]
    assert model.command_line("hold back") == "ok"  # takes back "got it"
    assert state_of(model)["lesson"]["id"] == "anger"
    assert model.command_line("press next") == "ok"
    assert model.command_line("press up") == "ok"  # one complaint set on the one anger page
    assert model.command_line("hold back") == "ok"  # ... and taken back
    state = state_of(model)
    assert (state["step"], state["ask"], state["lesson"]) == ("anger", "count", None)
    model.journal.close()


def test_a_restarted_teach_game_does_not_repeat_the_lessons_seen(tmp_path):
    model = simulated_controller(tmp_path)
    model.command_line(TEACH)
    to_first_ready(model)
    before = state_of(model)
    model.journal.close()
    restarted = simulated_controller(tmp_path)  # a power cut: the journal replayed
    after = state_of(restarted)
    assert (after["step"], after["lesson"]) == ("ready", None)
    assert after["round"] == before["round"]
    assert restarted.command_line("press next") == "ok"
    assert state_of(restarted)["step"] == "flight"
    restarted.journal.close()


def test_the_practice_flight_has_no_clock_and_the_second_flight_has(tmp_path):
    model = simulated_controller(tmp_path)
    model.command_line("new now-boarding players=3 pace=teach seed=2")
    to_first_ready(model)
    assert "practice flight" in " ".join(screen_of(model)["lines"]).lower()
    assert model.command_line("press next") == "ok"
    model.command_line("wait 120")  # no clock: nothing runs out
    state = state_of(model)
    assert state["step"] == "flight" and state["timer"]["state"] == "idle"
    assert state["elapsed"] == pytest.approx(120, abs=1)
    assert model.command_line("hold next").startswith("err")  # nothing to pause
    model.command_line("press next")
    while state_of(model)["step"] != "ready":
        dismiss_lessons(model)
        if state_of(model)["step"] != "ready":
            assert model.command_line("press next") == "ok"
    assert "practice" not in " ".join(screen_of(model)["lines"]).lower()
    assert model.command_line("press next") == "ok"
    state = state_of(model)
    assert state["timer"]["state"] == "running" and state["lesson"] is None
    model.command_line("wait 15")
    assert state_of(model)["step"] == "anger"
    model.journal.close()


@pytest.mark.parametrize("pace", ["", " pace=steps"])
def test_the_default_pace_never_shows_a_lesson(tmp_path, pace):
    model = simulated_controller(tmp_path)
    model.command_line(f"new now-boarding players=3 timer=off vip=on seed=11{pace}")
    while (state := state_of(model))["phase"] != "over":
        assert state["lesson"] is None
        assert "got it" not in " ".join(screen_of(model)["lines"])
        choosing = state["ask"] == "which" and state["vip_offer"] is None  # the first card
        assert model.command_line("press down" if choosing else "press next") == "ok"
    model.journal.close()
