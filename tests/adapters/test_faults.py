"""Faults the box survives: a full disk, a display or buzzer that fails mid-game, a stale
game, an unusable state folder, a serial device that vanishes and comes back, a damaged
journal at start, a disk that fills up mid-game or is full at start (issue #13)."""

import json
import logging
import queue
import sqlite3
import threading

from companion.adapters.journal import FILE_NAME, Journal
from companion.adapters.journal_rows import JournalUnavailable
from companion.core.app import Recorded
from companion.core.buttons import Button
from companion.core.game import Hold, Press
from companion.runtime import LineEvent, SerialChannel
from companion.testing.clock import FakeClock
from companion.testing.recording import RecordingBuzzer, RecordingDisplay
from companion.testing.simulated import simulated_controller


class FlakyJournal:
    """The real journal, refusing every write while ``failing`` (a full or read-only disk),
    as the adapter refuses: JournalUnavailable, SQLite's error its cause."""

    def __init__(self, journal):
        self.inner = journal
        self.failing = False

    def __getattr__(self, name):
        attribute = getattr(self.inner, name)
        if name in ("begin_game", "append", "drop_last", "set_result", "checkpoint",
                    "set_aside") and self.failing:
            def refuse(*_arguments):
                # What the journal adapter raises for SQLite's refusal (it translates it).
                cause = sqlite3.OperationalError("database or disk is full")
                raise JournalUnavailable(str(cause)) from cause
            return refuse
        return attribute


class FlakyDisplay(RecordingDisplay):
    def __init__(self):
        super().__init__()
        self.failing = False
        self.attempts = 0

    def show(self, image, text=()):
        self.attempts += 1
        if self.failing:
            raise OSError(121, "Remote I/O error")
        return super().show(image, text)


class FlakyBuzzer(RecordingBuzzer):
    failing = False

    def tone(self, frequency):
        if self.failing:
            raise OSError(5, "Input/output error")
        super().tone(frequency)


def state_of(controller):
    return json.loads(controller.command_line("state").removeprefix("ok "))


def test_faults_disk_full_plays_on_in_memory_and_saves_when_it_can(tmp_path, caplog):
    journal = FlakyJournal(Journal.in_directory(tmp_path))
    controller = simulated_controller(tmp_path, journal=journal)
    assert controller.command_line("new timer seconds=30") == "ok"
    journal.failing = True
    with caplog.at_level(logging.ERROR):
        for _ in range(3):
            assert controller.command_line("press up") == "ok"
    assert state_of(controller)["timer"]["duration"] == 45.0
    assert controller.screen().mark == "SAVE!"
    assert len(controller.unsaved) == 3
    assert len([r for r in caplog.records if "journal failed" in r.message]) == 1

    journal.failing = False
    controller.command_line("wait 60")  # the retry comes due
    assert controller.unsaved == []
    assert controller.screen().mark == ""
    journal.inner.close()
    stored = Journal.in_directory(tmp_path).current()
    assert len(stored.history) == 3


def test_faults_a_game_started_while_the_disk_is_full_is_saved_later(tmp_path):
    journal = FlakyJournal(Journal.in_directory(tmp_path))
    controller = simulated_controller(tmp_path, journal=journal)
    journal.failing = True
    controller.command_line("new timer seconds=20")
    controller.command_line("press next")
    journal.failing = False
    controller.command_line("wait 5")
    assert controller.game_id is not None
    stored = journal.inner.current()
    assert stored.options["seconds"] == "20"
    assert len(stored.history) == 1


def test_faults_display_failure_is_logged_once_retried_with_backoff_and_recovers(
        tmp_path, caplog):
    display = FlakyDisplay()
    controller = simulated_controller(tmp_path, display=display)
    controller.command_line("new timer seconds=90")
    controller.command_line("press next")
    display.failing = True
    display.attempts = 0
    with caplog.at_level(logging.WARNING):
        controller.command_line("wait 60")  # 60 redraws wanted, one per second
        assert display.attempts <= 8         # 1 + retries at 1, 2, 4, 8, 16, 30 s backoff
        assert state_of(controller)["timer"]["remaining"] == 30.0  # the timer went on
        display.failing = False
        controller.command_line("wait 31")
    failures = [r for r in caplog.records if "display failed" in r.message]
    recoveries = [r for r in caplog.records if "display works again" in r.message]
    assert len(failures) == 1 and len(recoveries) == 1
    assert display.frames  # a frame made it after recovery


def test_faults_failing_buzzer_never_stops_the_timer(tmp_path):
    buzzer = FlakyBuzzer()
    controller = simulated_controller(tmp_path, buzzer=buzzer)
    controller.command_line("new timer seconds=12")
    buzzer.failing = True
    controller.command_line("press next")
    controller.command_line("wait 12")
    assert state_of(controller)["timer"]["state"] == "expired"
    assert controller.buzzer_health.failing


def test_faults_stale_game_is_offered_next_resumes_it(tmp_path):
    first = simulated_controller(tmp_path, clock=FakeClock(wall_time="2026-03-01T20:00:00+00:00"))
    first.command_line("new timer seconds=40")
    first.command_line("press up")
    first.journal.close()

    later = FakeClock(wall_time="2026-03-02T19:00:00+00:00")  # 23 hours later
    again = simulated_controller(tmp_path, clock=later)
    assert "Game of 2026-03-01?" in again.screen().text_lines()
    assert again.command_line("press up").startswith("err not-allowed")
    assert again.command_line("press next") == "ok"
    assert state_of(again)["timer"]["duration"] == 45.0


def test_faults_stale_game_back_starts_fresh_and_keeps_it_in_history(tmp_path):
    first = simulated_controller(tmp_path, clock=FakeClock(wall_time="2026-03-01T20:00:00+00:00"))
    first.command_line("new timer seconds=40")
    first.journal.close()
    again = simulated_controller(tmp_path,
                                 clock=FakeClock(wall_time="2026-03-02T12:00:00+00:00"))
    assert again.command_line("press back") == "ok"
    assert state_of(again)["phase"] == "menu"
    assert again.journal.current() is None
    assert len(again.journal.games()) == 1


def test_faults_a_recent_game_resumes_without_asking(tmp_path):
    first = simulated_controller(tmp_path, clock=FakeClock(wall_time="2026-03-01T20:00:00+00:00"))
    first.command_line("new timer seconds=40")
    first.journal.close()
    again = simulated_controller(tmp_path,
                                 clock=FakeClock(wall_time="2026-03-01T23:00:00+00:00"))
    assert again.state.offer is None


def test_faults_unusable_state_folder_plays_in_memory_with_a_mark(tmp_path):
    not_a_folder = tmp_path / "state"
    not_a_folder.write_text("a file where the folder should be")
    journal = Journal.open_or_in_memory(not_a_folder)
    assert not journal.durable
    controller = simulated_controller(not_a_folder, journal=journal)
    assert controller.command_line("new timer seconds=30") == "ok"
    assert controller.command_line("press next") == "ok"
    assert controller.screen().mark == "SAVE!"
    assert not_a_folder.read_text() == "a file where the folder should be"


class VanishingLink:
    description = "usb0"

    def read(self, timeout):
        raise OSError(5, "device disconnected")

    def write(self, data):
        raise OSError(5, "device disconnected")

    def cancel(self):
        pass

    def close(self):
        pass


class ScriptedLink:
    description = "usb0 (back)"

    def __init__(self, data):
        self.data = data
        self.written = []

    def read(self, timeout):
        data, self.data = self.data, b""
        return data

    def write(self, data):
        self.written.append(bytes(data))
        return len(data)

    def cancel(self):
        pass

    def close(self):
        pass


def test_faults_serial_device_vanishes_and_comes_back(caplog):
    attempts = []

    def reopen():
        attempts.append(1)
        if len(attempts) < 3:
            raise OSError(2, "No such device")
        return ScriptedLink(b"state\n")

    channel = SerialChannel(VanishingLink(), reopen=reopen, retry_first=0.001)
    lines: queue.SimpleQueue[LineEvent] = queue.SimpleQueue()
    reader = threading.Thread(target=channel.read_lines, args=(lines.put,), daemon=True)
    with caplog.at_level(logging.WARNING):
        reader.start()
        event = lines.get(timeout=10)
        channel.stopping.set()
        reader.join(timeout=10)
    assert isinstance(event, LineEvent)
    assert event.item.text == "state"
    assert event.reply_to is channel
    assert len(attempts) == 3
    assert next(r.message for r in caplog.records if "failed" in r.message).startswith(
        "serial line usb0 failed")
    assert any("is back" in r.message for r in caplog.records)


def test_faults_replies_to_a_vanished_link_are_dropped_not_raised(caplog):
    channel = SerialChannel(VanishingLink())
    with caplog.at_level(logging.WARNING):
        channel.write_one(b"ok\n")
    assert "the reply is dropped" in caplog.text
    assert channel.outbox.dropped == 1


def test_faults_a_failing_display_is_retried_even_when_the_screen_did_not_change(tmp_path):
    display = FlakyDisplay()
    controller = simulated_controller(tmp_path, display=display)
    controller.command_line("new timer seconds=30")  # idle: the screen stays the same
    display.failing = True
    controller.last_screen = None
    controller.refresh()
    assert controller.display_health.failing
    display.failing = False
    retry_at = controller.next_wake()
    assert retry_at is not None and retry_at > controller.now()
    controller.command_line("wait 1.5")  # past the first retry, one second after the failure
    assert not controller.display_health.failing
    assert controller.next_wake() is None  # nothing left to do: the loop may sleep


def test_faults_writes_queued_for_a_game_stay_with_it_when_a_new_game_starts(tmp_path):
    journal = FlakyJournal(Journal.in_directory(tmp_path))
    controller = simulated_controller(tmp_path, journal=journal)
    controller.command_line("new timer seconds=30")
    journal.failing = True
    controller.command_line("press up")       # queued for the first game
    controller.command_line("press up")
    controller.command_line("new timer seconds=90")
    controller.command_line("press next")     # queued for the second game
    journal.failing = False
    controller.command_line("wait 5")
    assert controller.unsaved == []
    first, second = sorted(journal.inner.games(), key=lambda game: game.id)
    assert (first.actions, second.actions) == (2, 1)
    assert journal.inner.current().options["seconds"] == "90"


# -- issue #13: a damaged journal never stops the box; a full disk loses nothing -------------


def damage(folder, *statements):
    db = sqlite3.connect(folder / FILE_NAME)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def test_faults_a_number_column_holding_text_never_stops_the_box(tmp_path):
    first = simulated_controller(tmp_path)
    first.command_line("new timer seconds=30")
    first.command_line("press up")
    first.journal.close()
    damage(tmp_path, "UPDATE actions SET at = 'x'")

    again = simulated_controller(tmp_path)  # used to raise ValueError: a crash loop
    kept = again.journal.kept_aside
    assert (tmp_path / kept).exists()
    label = kept.removeprefix("journal.").removesuffix(".sqlite3")
    assert again.state.notice == f"Journal damaged: kept as {label}"
    assert "Journal damaged: kept as" in again.screen().text_lines()
    assert state_of(again)["phase"] == "menu"
    assert again.command_line("new timer seconds=20") == "ok"
    assert again.journal.current().options["seconds"] == "20"


def test_faults_a_game_whose_replay_is_refused_is_kept_aside(tmp_path):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {"seconds": "30"}, 1, 0.0, "wall")
    journal.append(game, Recorded(Press(Button.NEXT), 1.0), "wall")
    journal.append(game, Recorded(Press(Button.UP), 2.0), "wall")  # refused while running
    journal.close()

    again = simulated_controller(tmp_path)
    assert "does not replay" in again.journal.recovered_from
    assert again.state.notice.startswith("Journal damaged: kept as damaged-")
    assert again.journal.current() is None
    kept = Journal(tmp_path / again.journal.kept_aside)
    assert len(kept.current().history) == 2  # nothing lost: the game is in the kept file
    kept.close()
    assert state_of(again)["phase"] == "menu"


def test_faults_disk_full_saves_every_acknowledged_action_on_the_reserve(tmp_path, full_disk):
    journal = Journal.in_directory(tmp_path)
    disk = full_disk(journal)
    controller = simulated_controller(tmp_path, journal=journal)
    controller.command_line("new timer seconds=30")
    disk.fill()
    assert controller.command_line("press up") == "ok"
    assert controller.state.notice == "Disk full: saving on reserve. Free some space"
    for _ in range(4):
        assert controller.command_line("press up") == "ok"
    assert controller.unsaved == []  # every acknowledged press is on disk
    assert controller.screen().mark == "FULL!"  # until the disk has room again

    disk.full = False
    assert controller.command_line("press down") == "ok"
    assert controller.screen().mark == ""
    journal.close()
    assert len(Journal.in_directory(tmp_path).current().history) == 6


def test_faults_a_journal_that_cannot_open_at_start_is_retried_and_gets_the_game(tmp_path):
    state_dir = tmp_path / "state"
    state_dir.write_text("a file where the folder should be")  # as good as a full disk
    journal = Journal.open_or_in_memory(state_dir)
    controller = simulated_controller(state_dir, journal=journal)
    assert controller.state.notice == "Cannot save games: see the log"
    controller.command_line("new timer seconds=30")
    for command in ("press up", "press up", "press next"):
        assert controller.command_line(command) == "ok"
    controller.command_line("wait 3")
    assert controller.screen().mark == "SAVE!"

    state_dir.unlink()  # the disk is usable again
    controller.command_line("wait 10")  # the retry with backoff comes due
    assert controller.journal.durable
    assert controller.screen().mark == ""
    assert controller.state.notice == "Saving again: games are on disk"
    assert controller.command_line("hold next") == "ok"  # written straight to disk
    before = state_of(controller)
    controller.journal.close()

    again = simulated_controller(state_dir)
    after = state_of(again)
    assert after["timer"] == before["timer"]
    assert [r.action for r in again.journal.current().history] == [
        Press(Button.UP), Press(Button.UP), Press(Button.NEXT), Hold(Button.NEXT)]


def test_faults_stopping_tries_queued_writes_once_more_whatever_the_backoff(tmp_path):
    journal = FlakyJournal(Journal.in_directory(tmp_path))
    controller = simulated_controller(tmp_path, journal=journal)
    controller.command_line("new timer seconds=30")
    journal.failing = True
    controller.command_line("press up")
    controller.command_line("press up")  # backoff: no retry for a while
    journal.failing = False
    controller.shutdown()
    assert controller.unsaved == []
    assert len(journal.inner.current().history) == 2


def test_faults_run_closes_the_journal_itself_when_its_loop_stops(tmp_path, monkeypatch):
    """SIGTERM ends the loop; run must then checkpoint and close the journal, not leave the
    games in the -wal file for garbage collection at exit to fold in (or not)."""
    import companion.bootstrap
    from companion import cli
    from companion.runtime.loop import EventLoop

    kept = []  # holding the controller keeps its connection alive, as any cycle would
    build = companion.bootstrap.build_controller

    def build_and_play(*arguments, **options):
        controller = build(*arguments, **options)
        controller.command_line("new timer seconds=30")
        controller.command_line("press up")
        kept.append(controller)
        return controller
    monkeypatch.setattr(companion.bootstrap, "build_controller", build_and_play)
    monkeypatch.setattr(EventLoop, "run", lambda _loop: 0)  # as if stopped by SIGTERM

    assert cli.main(["run", "--backend", "fake", "--serial", "none",
                     "--state-dir", str(tmp_path), "--no-web"]) == 0
    wal = tmp_path / (FILE_NAME + "-wal")
    assert kept
    assert not wal.exists() or wal.stat().st_size == 0
