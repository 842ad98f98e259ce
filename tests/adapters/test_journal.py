"""The SQLite journal: durable actions, undo, replay, recovery from damage (rows, the
write-ahead log) and the disk reserve."""

import errno
import sqlite3
from types import MappingProxyType, SimpleNamespace

import pytest

from companion.adapters.disk_reserve import RESERVE_BYTES, RESERVE_NAME, Reserve
from companion.adapters.journal import FILE_NAME, Journal
from companion.adapters.journal_rows import JournalUnavailable
from companion.core.app import Recorded
from companion.core.buttons import Button
from companion.core.game import Expire, Hold, Press, Restore
from companion.protocol.lines import line_digest


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
    """The journal as a program with schema 4 would have it (a column added)."""

    schema_version = 4
    migrations = MappingProxyType({**Journal.migrations,
                                   3: ("ALTER TABLE games ADD COLUMN venue TEXT",)})


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
    assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("4",)
    assert "venue" in [column[1] for column in db.execute("PRAGMA table_info(games)")]
    db.close()


def test_journal_schema_1_gains_the_line_keys_and_keeps_every_game(tmp_path):
    """Issue #28, 3: a journal written before keyed lines were kept migrates forward."""
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {"seconds": "30"}, 1, 0.0, "wall")
    journal.append(game, Recorded(Press(Button.NEXT), 1.0), "wall")
    journal.close()
    tamper(tmp_path, "DROP TABLE line_keys", "UPDATE meta SET value = '1' WHERE key = 'schema'")
    migrated = Journal.in_directory(tmp_path)
    assert migrated.recovered_from is None
    assert [r.action for r in migrated.current().history] == [Press(Button.NEXT)]
    migrated.keep_line("box", "key-0001", line_digest("press next"), "ok",
                       "2026-11-28T02:00:00+00:00")
    assert migrated.kept_line("box", "key-0001") == (line_digest("press next"), "ok")
    migrated.close()


def test_journal_a_newer_schema_than_the_program_reads_is_moved_aside(tmp_path):
    NextSchemaJournal.in_directory(tmp_path).close()
    journal = Journal.in_directory(tmp_path)
    assert "newer than this program's 3" in journal.recovered_from


# -- damaged rows (issue #13) ---------------------------------------------------------------


def journal_with_a_game(folder, actions=3):
    journal = Journal.in_directory(folder)
    game = journal.begin_game("timer", {"seconds": "30"}, 1, 0.0, "wall")
    for index in range(actions):
        journal.append(game, Recorded(Press(Button.UP), float(index + 1)), "wall")
    journal.close()
    return game


def tamper(folder, *statements):
    db = sqlite3.connect(folder / FILE_NAME)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


@pytest.mark.parametrize(("statement", "named"), [
    ("UPDATE actions SET at = 'x'", "actions row 1: at is 'x'"),
    ("UPDATE actions SET at = 1e999", "at is inf"),
    ("UPDATE actions SET at = 1e300", "at is 1e+300"),
    ("UPDATE actions SET action = X'00ff'", "action is b'\\x00\\xff', not JSON text"),
    ("UPDATE actions SET action = '{\"kind\": \"press\"}'", "action:"),
    ("UPDATE actions SET action = '[[[[[[[[[[' || printf('%.100000c', '[')", "not JSON"),
    ("UPDATE actions SET wall = X'07'", "wall is b'\\x07', not text"),
    ("UPDATE actions SET game_id = 99", "game_id is 99, not a game with a begin row"),
    ("DELETE FROM games", "not a game with a begin row"),
    ("UPDATE games SET options = 'not json'", "options is not JSON"),
    ("UPDATE games SET options = '{\"seconds\": 30}'", "options is '{\"seconds\": 30}'"),
    ("UPDATE games SET seed = 'seven'", "seed is 'seven'"),
    ("UPDATE games SET clock = 'soon'", "clock is 'soon'"),
    ("UPDATE games SET started_at = X'01'", "started_at is b'\\x01'"),
    ("UPDATE games SET result = '{'", "result is not JSON"),
    ("UPDATE games SET current = 5", "current is 5"),
    ("UPDATE games SET game = ''", "game is ''"),
])
def test_journal_a_row_this_program_could_not_have_written_is_kept_aside(
        tmp_path, statement, named):
    journal_with_a_game(tmp_path)
    tamper(tmp_path, statement)

    reopened = Journal.in_directory(tmp_path)
    assert named in reopened.recovered_from
    assert reopened.kept_aside.startswith("journal.damaged-")
    assert (tmp_path / reopened.kept_aside).exists()
    assert reopened.current() is None
    assert reopened.last_clock() == 0.0
    assert reopened.games() == []


def test_journal_rows_it_wrote_itself_pass_the_row_checks(tmp_path):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {"seconds": "30"}, 2**31 - 1, 0.0, "wall")
    actions = recorded(Press(Button.NEXT), Hold(Button.NEXT), Expire(), Restore())
    for action in actions:
        journal.append(game, action, "wall")
    journal.set_result(game, {"winner": ["Ann"], "score": 3.5})
    journal.close()
    reopened = Journal.in_directory(tmp_path)
    assert reopened.recovered_from is None
    assert list(reopened.game(game).history) == actions


def test_journal_set_aside_damaged_keeps_the_files_and_starts_fresh(tmp_path):
    journal_with_a_game(tmp_path)
    journal = Journal.in_directory(tmp_path)
    name = journal.set_aside_damaged("game 1 does not replay")
    assert name == journal.kept_aside
    assert "game 1 does not replay" in journal.recovered_from
    kept = Journal(tmp_path / name)
    assert len(kept.current().history) == 3
    kept.close()
    assert journal.current() is None
    journal.begin_game("timer", {}, 1, 0.0, "wall")
    assert journal.current() is not None


# -- the write-ahead log (issue #13) --------------------------------------------------------


def crash_image(source, target):
    """The journal's files as a SIGKILL would leave them (the journal is still open)."""
    target.mkdir()
    for suffix in ("", "-wal", "-shm"):
        original = source / (FILE_NAME + suffix)
        if original.exists():
            (target / (FILE_NAME + suffix)).write_bytes(original.read_bytes())
    return target


def open_journal_with_actions(folder, actions):
    journal = Journal.in_directory(folder, reserve_bytes=0)
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    for index in range(actions):
        journal.append(game, Recorded(Press(Button.UP), float(index + 1)), "wall")
    return journal


def test_journal_close_leaves_nothing_in_the_write_ahead_log(tmp_path):
    journal = open_journal_with_actions(tmp_path, 20)
    wal = tmp_path / (FILE_NAME + "-wal")
    assert wal.stat().st_size > 0
    journal.close()
    journal.close()  # a second close is harmless
    assert not wal.exists() or wal.stat().st_size == 0


def test_journal_after_a_crash_the_log_is_replayed_in_full(tmp_path):
    journal = open_journal_with_actions(tmp_path / "box", 20)
    image = crash_image(tmp_path / "box", tmp_path / "image")
    journal.close()
    reopened = Journal.in_directory(image, reserve_bytes=0)
    assert reopened.recovered_from is None
    assert len(reopened.current().history) == 20


FRAME = 24 + 4096


def flip_byte(path, offset):
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(("damage", "said"), [
    pytest.param(lambda wal: flip_byte(wal, 20), "header is damaged", id="header-salt"),
    pytest.param(lambda wal: flip_byte(wal, 0), "header is damaged", id="header-magic"),
    pytest.param(lambda wal: wal.write_bytes(b"\0" * wal.stat().st_size), "header is damaged",
                 id="zeroed"),
    pytest.param(lambda wal: flip_byte(wal, 32 + 3 * FRAME + 500), "frame 4 is damaged",
                 id="middle-frame"),
    pytest.param(lambda wal: wal.write_bytes(wal.read_bytes()[:32 + 5 * FRAME + 100]),
                 "the wal-index says", id="truncated"),
    pytest.param(lambda wal: wal.write_bytes(wal.read_bytes()[:20]), "header is damaged",
                 id="truncated-header"),
    pytest.param(lambda wal: wal.write_bytes(b""), "the log is gone", id="emptied"),
])
def test_journal_a_damaged_write_ahead_log_is_kept_aside_with_the_database(
        tmp_path, damage, said):
    journal = open_journal_with_actions(tmp_path / "box", 20)
    image = crash_image(tmp_path / "box", tmp_path / "image")
    journal.close()
    damage(image / (FILE_NAME + "-wal"))
    kept_wal = (image / (FILE_NAME + "-wal")).read_bytes()

    reopened = Journal.in_directory(image, reserve_bytes=0)
    assert said in reopened.recovered_from
    aside = image / reopened.kept_aside
    assert aside.exists()
    assert (image / (reopened.kept_aside + "-wal")).read_bytes() == kept_wal
    assert (image / (reopened.kept_aside + "-shm")).exists()
    assert reopened.current() is None


def test_journal_a_log_already_copied_into_the_database_may_go(tmp_path):
    journal = open_journal_with_actions(tmp_path / "box", 20)
    journal._db.execute("PRAGMA wal_checkpoint(PASSIVE)")  # every frame is in the database
    image = crash_image(tmp_path / "box", tmp_path / "image")
    journal.close()
    (image / (FILE_NAME + "-wal")).write_bytes(b"")
    reopened = Journal.in_directory(image, reserve_bytes=0)
    assert reopened.recovered_from is None
    assert len(reopened.current().history) == 20


def test_journal_a_second_reader_of_a_live_journal_finds_no_damage(tmp_path):
    box = open_journal_with_actions(tmp_path, 20)
    reader = Journal.in_directory(tmp_path, reserve_bytes=0)  # companion history, say
    assert reader.recovered_from is None
    assert len(reader.current().history) == 20
    box.append(box.current().id, Recorded(Press(Button.UP), 30.0), "wall")
    assert len(reader.current().history) == 21
    reader.close()
    box.close()


def test_journal_a_torn_last_write_is_a_power_cut_not_damage(tmp_path):
    journal = open_journal_with_actions(tmp_path / "box", 20)
    image = crash_image(tmp_path / "box", tmp_path / "image")
    journal.close()
    wal = image / (FILE_NAME + "-wal")
    (image / (FILE_NAME + "-shm")).unlink()  # written after the frames: the cut came first
    frames = (wal.stat().st_size - 32) // FRAME
    flip_byte(wal, 32 + (frames - 1) * FRAME + 1000)  # the last transaction, cut short

    reopened = Journal.in_directory(image, reserve_bytes=0)
    assert reopened.recovered_from is None
    assert len(reopened.current().history) == 19


# -- the disk reserve (issue #13) -----------------------------------------------------------


def test_journal_the_clock_resumes_where_the_current_game_was(tmp_path):
    journal = Journal.in_directory(tmp_path, reserve_bytes=0)
    old = journal.begin_game("timer", {}, 3, 9000.0, "wall-0")
    journal.checkpoint(old, 9500.0)
    # A game begun while the journal could not be opened, on a clock that started at zero.
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    journal.append(game, Recorded(Press(Button.NEXT), 5.0), "wall")
    assert journal.last_clock() == 5.0
    journal.set_aside(game)  # no current game: the furthest over every game
    assert journal.last_clock() == 9500.0


def test_journal_a_full_disk_releases_the_reserve_and_the_write_lands(tmp_path, full_disk):
    journal = Journal.in_directory(tmp_path)
    reserve = tmp_path / RESERVE_NAME
    assert reserve.stat().st_size == RESERVE_BYTES
    assert not journal.on_reserve
    disk = full_disk(journal)
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")

    disk.fill()
    for action in recorded(Press(Button.UP), Press(Button.UP), Press(Button.NEXT)):
        journal.append(game, action, "wall")
    assert disk.refused == 1  # only the first write found the disk full
    assert not reserve.exists()
    assert journal.on_reserve

    disk.full = False
    journal.append(game, Recorded(Press(Button.NEXT), 9.0), "wall")
    assert reserve.stat().st_size == RESERVE_BYTES
    assert not journal.on_reserve
    assert len(journal.current().history) == 4


def test_journal_with_the_reserve_spent_a_full_disk_refuses_the_write(tmp_path, full_disk):
    journal = Journal.in_directory(tmp_path)
    disk = full_disk(journal)
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    journal.reserve.release()  # spent already, and then the disk fills up again
    disk.fill()
    with pytest.raises(JournalUnavailable, match="disk is full") as refused:
        journal.append(game, Recorded(Press(Button.UP), 1.0), "wall")
    assert isinstance(refused.value.__cause__, sqlite3.OperationalError)  # translated here
    assert journal.current().history == ()


def test_journal_reserve_is_not_written_back_while_the_disk_is_still_nearly_full(
        tmp_path, monkeypatch):
    reserve = Reserve(tmp_path / RESERVE_NAME, 4096)
    monkeypatch.setattr("companion.adapters.disk_reserve.os.statvfs",
                        lambda _path: SimpleNamespace(f_bavail=1, f_frsize=4096))
    assert not reserve.ensure()
    assert not reserve.path.exists()


def test_journal_a_reserve_that_cannot_be_written_backs_off(tmp_path, monkeypatch):
    reserve = Reserve(tmp_path / RESERVE_NAME, 4096)
    attempts = []

    def refuse(*_arguments):
        attempts.append(1)
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(reserve, "_write", refuse)
    results = [reserve.ensure() for _ in range(20)]
    assert not any(results)
    assert len(attempts) == 4  # tries at calls 1, 4, 9 and 18: skips 2, 4, 8, ...
    assert not reserve.path.exists()


def test_journal_on_a_real_full_disk_loses_no_acknowledged_write(small_disk, tmp_path):
    journal = Journal.in_directory(small_disk.path)
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    small_disk.fill()
    acknowledged = 0
    for index in range(400):
        journal.append(game, Recorded(Press(Button.UP), float(index)), "wall")
        acknowledged += 1
    assert journal.on_reserve
    image = crash_image(small_disk.path, tmp_path / "after-the-cut")
    small_disk.free()
    journal.append(game, Recorded(Press(Button.DOWN), 500.0), "wall")
    assert not journal.on_reserve  # room again: the reserve is back
    assert (small_disk.path / RESERVE_NAME).stat().st_size == RESERVE_BYTES
    journal.close()

    survivor = Journal.in_directory(image, reserve_bytes=0)
    assert survivor.recovered_from is None
    assert len(survivor.current().history) == acknowledged
    survivor.close()


# -- keyed lines (issue #28, 3) ----------------------------------------------------------------

WALL = "2026-11-28T02:00:00+00:00"


def test_journal_keeps_each_holders_last_keys_and_never_anothers(tmp_path, monkeypatch):
    from companion.adapters import journal_keys

    monkeypatch.setattr(journal_keys, "KEYS_PER_HOLDER", 5)
    journal = Journal.in_directory(tmp_path)
    journal.keep_line("token:victim", "victim-key", line_digest("press next"), "ok", WALL)
    for number in range(8):
        journal.keep_line("token:guest", f"guest-key-{number}", line_digest("state"),
                          f"ok {number}", WALL)
    assert journal.kept_line("token:victim", "victim-key") == (line_digest("press next"), "ok")
    assert journal.kept_line("token:guest", "guest-key-2") is None
    assert journal.kept_line("token:guest", "guest-key-3") == (line_digest("state"), "ok 3")
    assert journal.kept_line("box", "victim-key") is None  # scoped to its holder
    journal.close()


def test_journal_forgets_a_key_after_24_hours(tmp_path):
    journal = Journal.in_directory(tmp_path)
    journal.keep_line("box", "old-key-1", line_digest("press next"), None,
                      "2026-11-27T01:59:59+00:00")
    journal.keep_line("box", "new-key-1", line_digest("press next"), "ok", WALL)
    assert journal.kept_line("box", "old-key-1") is None
    assert journal.kept_line("box", "new-key-1") == (line_digest("press next"), "ok")
    journal.close()


def test_journal_together_writes_all_or_nothing(tmp_path):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")

    def half_done():
        journal.append(game, Recorded(Press(Button.NEXT), 1.0), "wall")
        journal.keep_line("box", "key-00001", line_digest("press next"), "ok", WALL)
        raise RuntimeError("the power went")

    with pytest.raises(RuntimeError):
        journal.together(half_done)
    assert journal.current().history == ()
    assert journal.kept_line("box", "key-00001") is None
    journal.together(lambda: (journal.append(game, Recorded(Press(Button.NEXT), 1.0), "wall"),
                              journal.keep_line("box", "key-00001", line_digest("press next"),
                                                "ok", WALL)))
    assert len(journal.current().history) == 1
    assert journal.kept_line("box", "key-00001") == (line_digest("press next"), "ok")
    journal.close()
