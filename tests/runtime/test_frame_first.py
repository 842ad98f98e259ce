"""An input's frame comes before its journal write; a line's reply after it (issue #29).

DESIGN.md rule 6 as the controller applies it: a press is decided, drawn (and the page's live
view told) at once, and written right behind, before the controller returns; the loop answers
a line only after that, so nothing acknowledged to a machine is ahead of the disk. The journal
here is the real one behind a gate (companion/testing/held_journal.py) that notes, at each
commit, what the panel showed and what the page's live view had heard.
"""

import io
import sqlite3
import threading

import pytest

from companion.core.buttons import Button
from companion.protocol.lines import Line
from companion.runtime import EventLoop
from companion.runtime.channels import LineEvent
from companion.testing.clock import FakeClock
from companion.testing.held_journal import gated_opener
from companion.testing.recording import RecordingDisplay, RecordingMirror
from companion.testing.simulated import simulated_controller

NEW = "new now-boarding players=3 seed=1"


class Commits:
    """The gate: at each commit, the panel's last frame and the mirror's last snapshot."""

    def __init__(self):
        self.display = RecordingDisplay()
        self.seen = []
        self.refuse = False
        self.mirror = None

    def __call__(self):
        snapshot = self.mirror.snapshots[-1].lines if self.mirror and self.mirror.snapshots \
            else None
        self.seen.append((list(self.display.text), snapshot))
        if self.refuse:
            raise sqlite3.OperationalError("disk I/O error")


class Target:
    def __init__(self, commits):
        self.commits = commits
        self.answers = []

    def answer(self, reply):
        self.answers.append((reply, len(self.commits.seen)))


@pytest.fixture
def box(tmp_path):
    commits = Commits()
    clock = FakeClock()
    controller = simulated_controller(tmp_path, clock=clock, display=commits.display,
                                      journal=gated_opener(commits)(tmp_path))
    return controller, commits, clock


def press(controller, clock, button=Button.NEXT):
    controller.edge(button, True)
    clock.advance(0.1)
    controller.edge(button, False)


def test_frame_first_a_button_press_is_drawn_before_its_write_and_written_before_it_returns(
        box):
    controller, commits, clock = box
    assert controller.command_line(NEW) == "ok"
    before = len(controller.journal.current().history)
    commits.seen.clear()
    press(controller, clock)
    assert len(commits.seen) == 1  # one action, one write, made before edge() returned
    drawn_at_commit, _ = commits.seen[0]
    assert drawn_at_commit == controller.display.text  # the new step was already drawn
    assert drawn_at_commit[0].startswith("Setup 2/2")
    assert len(controller.journal.current().history) == before + 1
    assert not controller.writer.unsaved


def test_frame_first_a_held_write_is_no_save_mark_but_a_refused_one_is(box):
    controller, commits, clock = box
    assert controller.command_line(NEW) == "ok"
    commits.refuse = True
    press(controller, clock)
    drawn_at_commit, _ = commits.seen[-1]
    assert "SAVE!" not in drawn_at_commit[0]  # the press's own frame: no failure yet
    assert controller.display.text[0].endswith("[SAVE!]")  # the refusal, right after it
    assert controller.writer.unsaved  # kept, and retried with backoff
    commits.refuse = False
    clock.advance(5)
    controller.tick()
    controller.refresh()
    assert not controller.writer.unsaved
    assert "SAVE!" not in controller.display.text[0]


def test_frame_first_undo_and_a_restart_see_the_actions_written_behind_their_frames(
        box, tmp_path):
    controller, _, clock = box
    assert controller.command_line(NEW) == "ok"
    press(controller, clock)
    press(controller, clock)
    assert controller.command_line("undo") == "ok"
    assert len(controller.journal.current().history) == 1
    state = controller.command_line("state")
    controller.journal.close()
    again = simulated_controller(tmp_path)
    assert again.command_line("state") == state
    again.journal.close()


def test_frame_first_the_menu_reads_past_games_after_the_writes_of_the_same_input(box):
    controller, _, clock = box
    assert controller.command_line(NEW) == "ok"
    press(controller, clock)
    # One input begins a new game and lists the games to resume: the new game's begin row
    # (which sets the old one aside) is written before the list is read.
    assert controller.command_line("new timer seconds=60") == "ok"
    assert [game.game for game in controller.state.resumable] == ["now-boarding"]


def test_frame_first_the_loop_answers_a_line_after_its_write_and_mirrors_before(box):
    controller, commits, _ = box
    mirror = RecordingMirror()
    commits.mirror = mirror
    loop = EventLoop(controller, out=io.StringIO(), channels=[mirror])
    target = Target(commits)
    loop.post(LineEvent(Line(NEW), target))
    loop.post(LineEvent(Line("press next"), target))
    loop.post(LineEvent(Line("state"), target))
    loop.stop("test")
    runner = threading.Thread(target=loop.run_without_signals)
    runner.start()
    runner.join(timeout=10)
    assert not runner.is_alive()
    loop.close()
    # Each reply came after its line's write (the writes counted when it was answered), in
    # the order of the lines; "state" writes nothing and waits for nothing.
    assert [reply.split(" ")[0] for reply, _ in target.answers] == ["ok", "ok", "ok"]
    writes = [count for _, count in target.answers]
    assert writes[0] >= 1 and writes[1] == writes[0] + 1 and writes[2] == writes[1]
    # The page's live view had the press's step when its write was made.
    _, mirrored_at_commit = commits.seen[writes[1] - 1]
    assert mirrored_at_commit[0].startswith("Setup 2/2")
