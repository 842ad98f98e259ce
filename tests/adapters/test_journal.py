"""The SQLite journal: durable actions, undo, replay, and recovery from damage."""

import sqlite3
from types import MappingProxyType

import pytest

from companion.adapters.journal import FILE_NAME, Journal
from companion.core.app import Recorded
from companion.core.buttons import Button
from companion.core.game import Expire, Hold, Press, Restore


def recorded(*actions):
    return [Recorded(action, float(index)) for index, action in enumerate(actions)]


def test_journal_keeps_every_action_in_order(tmp_path):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {"seconds": "30"}, 7, 0.0, "2026-01-01T00:00:00+00:00")
    actions = recorded(Press(Button.NEXT), Hold(Button.NEXT), Expire(), Restore())
    for action in actions:
        journal.append(game, action, "wall")
    journal.close()

    stored = Journal.in_directory(tmp_path).current()
    assert stored.game == "timer"
    assert stored.options == {"seconds": "30"}
    assert stored.seed == 7
    assert list(stored.history) == actions


def test_journal_undo_drops_the_last_rows_of_the_current_game(tmp_path):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    for action in recorded(Press(Button.UP), Press(Button.UP), Press(Button.NEXT)):
        journal.append(game, action, "wall")
    journal.drop_last(game, 2)
    assert [r.action for r in journal.current().history] == [Press(Button.UP)]


def test_journal_new_game_leaves_the_old_one_in_history(tmp_path):
    journal = Journal.in_directory(tmp_path)
    first = journal.begin_game("timer", {}, 1, 0.0, "wall-1")
    journal.append(first, Recorded(Press(Button.NEXT), 1.0), "wall-1")
    journal.set_result(first, "win")
    second = journal.begin_game("timer", {"seconds": "10"}, 2, 5.0, "wall-2")
    assert journal.current().id == second
    summaries = journal.games()
    assert [summary.id for summary in summaries] == [second, first]
    assert summaries[1].result == "win"
    assert summaries[1].actions == 1


def test_journal_clock_resumes_from_the_last_checkpoint(tmp_path):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {}, 1, 10.0, "wall")
    journal.append(game, Recorded(Press(Button.NEXT), 12.0), "wall")
    journal.checkpoint(game, 15.5)
    assert journal.last_clock() == 15.5


@pytest.mark.parametrize("damage", [
    pytest.param(lambda path: path.write_bytes(b"this is not a database at all" * 100),
                 id="garbage"),
    pytest.param(lambda path: path.write_bytes(b""), id="empty-file"),
    pytest.param(lambda path: path.write_bytes(path.read_bytes()[:1500]), id="truncated"),
])
def test_journal_damaged_file_is_moved_aside_and_a_fresh_one_starts(tmp_path, damage):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    for index in range(200):
        journal.append(game, Recorded(Press(Button.UP), float(index)), "wall")
    journal.close()
    for leftover in tmp_path.glob(FILE_NAME + "-*"):
        leftover.unlink()
    damage(tmp_path / FILE_NAME)

    reopened = Journal.in_directory(tmp_path)
    if reopened.recovered_from is None:
        # An empty file is a valid empty database to SQLite: nothing was lost, nothing kept.
        assert reopened.current() is None
    else:
        assert list(tmp_path.glob("journal.damaged-*.sqlite3"))
        assert reopened.current() is None
    reopened.begin_game("timer", {}, 1, 0.0, "wall")
    assert reopened.current() is not None


def test_journal_another_schema_version_is_moved_aside(tmp_path):
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                     "INSERT INTO meta VALUES ('schema', '99');")
    db.commit()
    db.close()
    journal = Journal.in_directory(tmp_path)
    assert "schema version 99" in journal.recovered_from
    assert journal.current() is None


def test_journal_a_directory_where_the_file_should_be_is_moved_aside(tmp_path):
    (tmp_path / FILE_NAME).mkdir()
    journal = Journal.in_directory(tmp_path)
    assert "is a directory" in journal.recovered_from
    assert (tmp_path / FILE_NAME).is_file()


def test_journal_an_unreadable_action_row_is_detected_at_open(tmp_path):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    journal.append(game, Recorded(Press(Button.NEXT), 1.0), "wall")
    journal.close()
    db = sqlite3.connect(tmp_path / FILE_NAME)
    db.execute("UPDATE actions SET action = '{\"kind\": \"teleport\"}'")
    db.commit()
    db.close()
    reopened = Journal.in_directory(tmp_path)
    assert "teleport" in reopened.recovered_from


class NextSchemaJournal(Journal):
    """The journal as a program with schema 2 would have it (a column added)."""

    schema_version = 2
    migrations = MappingProxyType({1: ("ALTER TABLE games ADD COLUMN venue TEXT",)})


def test_journal_an_older_schema_migrates_forward_keeping_every_game(tmp_path):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {"seconds": "30"}, 1, 0.0, "wall")
    journal.append(game, Recorded(Press(Button.NEXT), 1.0), "wall")
    journal.close()

    migrated = NextSchemaJournal.in_directory(tmp_path)
    assert migrated.recovered_from is None
    assert [r.action for r in migrated.current().history] == [Press(Button.NEXT)]
    migrated.close()
    db = sqlite3.connect(tmp_path / FILE_NAME)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("2",)
    assert "venue" in [column[1] for column in db.execute("PRAGMA table_info(games)")]
    db.close()


def test_journal_a_newer_schema_than_the_program_reads_is_moved_aside(tmp_path):
    NextSchemaJournal.in_directory(tmp_path).close()
    journal = Journal.in_directory(tmp_path)
    assert "newer than this program's 1" in journal.recovered_from
