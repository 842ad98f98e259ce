"""The journal's kept idempotency keys are bounded in bytes and give way first (issue #38, 4).

A key keeps what a retry needs (its line's digest and its reply), never the line; all keys
together stay under ``KEY_BYTES``, the oldest dropped first; "Forget phones" drops the tokens'
keys; a journal of schema 2 (lines kept whole) migrates to digests; and when the disk is full
even on the reserve, the keys give way before an acknowledged action is refused.
"""

import sqlite3

import pytest

from companion.adapters import journal_keys
from companion.adapters.journal import FILE_NAME, Journal
from companion.adapters.journal_rows import JournalUnavailable
from companion.core.app import Recorded
from companion.core.buttons import Button
from companion.core.game import Press
from companion.protocol.lines import Line, line_digest
from companion.testing.simulated import simulated_controller
from tests.conftest import ConnectionStandIn

WALL = "2026-11-28T02:00:00+00:00"
PHONE = "token:phone"


def journal_bytes(folder):
    return sum(path.stat().st_size for path in folder.glob(f"{FILE_NAME}*"))


def kept(journal):
    return journal._db.execute("SELECT holder, key FROM line_keys ORDER BY rowid").fetchall()


def test_a_key_keeps_the_digest_of_its_line_never_the_line(tmp_path):
    journal = Journal.in_directory(tmp_path)
    line = "# " + "x" * 60_000
    journal.keep_line(PHONE, "key-00001", line_digest(line), None, WALL)
    assert journal.kept_line(PHONE, "key-00001") == (line_digest(line), None)
    stored = journal._db.execute("SELECT digest FROM line_keys").fetchone()[0]
    assert stored == line_digest(line) and len(stored) == 64
    journal.close()


def test_200_keyed_60_kb_lines_grow_the_journal_by_far_less_than_4_mib(tmp_path):
    controller = simulated_controller(tmp_path)
    assert controller.command_line("new timer seconds=600") == "ok"
    before = journal_bytes(tmp_path)
    for number in range(200):
        line = f"# {number} " + "x" * 60_000  # a comment: no reply, no game row
        assert controller.handle_keyed(Line(line), PHONE, f"key-{number:05}") is None
    grown = journal_bytes(tmp_path) - before
    assert grown <= 1 << 20, grown  # 200 x 60 KB kept whole would be 12 MB
    # Each key still answers its retry, and tells another line apart.
    assert controller.handle_keyed(Line("# 7 " + "x" * 60_000), PHONE, "key-00007") is None
    assert controller.handle_keyed(Line("press up"), PHONE, "key-00007").startswith(
        "err key-reused")
    controller.journal.close()


def test_all_keys_together_stay_under_the_byte_bound_the_oldest_going_first(tmp_path):
    journal = Journal.in_directory(tmp_path)
    reply = "ok " + "r" * 4000  # a reply as long as a state's
    for number in range(200):
        holder = PHONE if number % 2 else "box"
        journal.keep_line(holder, f"key-{number:05}", line_digest("state"), reply, WALL)
        assert journal_keys.kept_bytes(journal._db) <= journal_keys.KEY_BYTES
    keys = [key for _, key in kept(journal)]
    assert keys[-1] == "key-00199" and "key-00000" not in keys
    assert keys == sorted(keys)  # the newest stay, in order
    assert len(keys) >= journal_keys.KEY_BYTES // (len(reply) + 200)
    journal.close()


def test_forget_phones_drops_every_tokens_keys_and_keeps_the_boxs(tmp_path):
    journal = Journal.in_directory(tmp_path)
    for holder in (PHONE, "token:other", "box"):
        journal.keep_line(holder, "key-00001", line_digest("press up"), "ok", WALL)
    journal.forget_phone_keys()
    assert kept(journal) == [("box", "key-00001")]
    journal.close()


def test_forget_phones_from_the_menu_drops_the_keys_through_the_journal(tmp_path):
    controller = simulated_controller(tmp_path)
    assert controller.command_line("new timer seconds=600") == "ok"
    assert controller.handle_keyed(Line("press up"), PHONE, "key-00001") == "ok"
    assert controller.handle_keyed(Line("press up"), "box", "key-00002") == "ok"
    from companion.core.app import ForgetPhones

    controller.perform([ForgetPhones()], controller.now())
    assert controller.writer.kept_line(PHONE, "key-00001") is None
    assert controller.writer.kept_line("box", "key-00002") is not None
    controller.journal.close()
    again = Journal.in_directory(tmp_path)
    assert kept(again) == [("box", "key-00002")]
    again.close()


def test_the_byte_bound_holds_at_open_for_a_journal_kept_under_a_larger_one(tmp_path,
                                                                             monkeypatch):
    journal = Journal.in_directory(tmp_path)
    for number in range(50):
        journal.keep_line(PHONE, f"key-{number:05}", line_digest("state"), "ok " + "r" * 1000,
                          WALL)
    journal.close()
    monkeypatch.setattr(journal_keys, "KEY_BYTES", 10_000)
    reopened = Journal.in_directory(tmp_path)
    assert journal_keys.kept_bytes(reopened._db) <= 10_000
    assert kept(reopened)[-1] == (PHONE, "key-00049")
    reopened.close()


def test_a_schema_2_journal_keeps_its_keys_as_digests(tmp_path):
    journal = Journal.in_directory(tmp_path)
    game = journal.begin_game("timer", {"seconds": "30"}, 1, 0.0, "wall")
    journal.append(game, Recorded(Press(Button.NEXT), 1.0), "wall")
    journal.close()
    db = sqlite3.connect(tmp_path / FILE_NAME)
    db.executescript("""
        DROP TABLE line_keys;
        CREATE TABLE line_keys (holder TEXT NOT NULL, key TEXT NOT NULL, line TEXT NOT NULL,
                                reply TEXT, wall TEXT NOT NULL, PRIMARY KEY (holder, key));
        INSERT INTO line_keys VALUES ('token:phone', 'key-00001', 'press next', 'ok',
                                      '2026-11-28T02:00:00+00:00');
        UPDATE meta SET value = '2' WHERE key = 'schema';""")
    db.close()
    migrated = Journal.in_directory(tmp_path)
    assert migrated.recovered_from is None
    assert [r.action for r in migrated.current().history] == [Press(Button.NEXT)]
    assert migrated.kept_line(PHONE, "key-00001") == (line_digest("press next"), "ok")
    columns = [row[1] for row in migrated._db.execute("PRAGMA table_info(line_keys)")]
    assert "line" not in columns and "digest" in columns
    migrated.close()


class FullUntilKeysGo(ConnectionStandIn):
    """A disk that refuses new rows, the reserve spent, until the kept keys are deleted
    (their pages then hold the row): an injected fault, so it runs anywhere."""

    def __init__(self, journal):
        self.connection = journal._db
        self.keys_gone = False
        journal._db = self

    def execute(self, sql, *parameters):
        if sql.startswith("DELETE FROM line_keys") and "WHERE" not in sql:
            self.keys_gone = True
        elif sql.startswith("INSERT INTO actions") and not self.keys_gone:
            raise sqlite3.OperationalError("database or disk is full")
        return self.connection.execute(sql, *parameters)


def test_a_full_disk_with_the_reserve_spent_drops_the_keys_and_keeps_the_action(tmp_path):
    journal = Journal.in_directory(tmp_path, reserve_bytes=0)  # no reserve to spend
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    journal.keep_line(PHONE, "key-00001", line_digest("press up"), "ok", WALL)
    disk = FullUntilKeysGo(journal)
    journal.append(game, Recorded(Press(Button.UP), 1.0), "wall")  # acknowledged
    assert disk.keys_gone
    assert journal.kept_line(PHONE, "key-00001") is None
    assert len(journal.current().history) == 1
    journal.close()


def test_a_full_disk_with_no_keys_to_drop_still_refuses_the_write(tmp_path):
    journal = Journal.in_directory(tmp_path, reserve_bytes=0)
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    FullUntilKeysGo(journal)
    with pytest.raises(JournalUnavailable, match="full"):
        journal.append(game, Recorded(Press(Button.UP), 1.0), "wall")
    journal.close()


def test_on_a_real_full_disk_the_keys_go_before_any_action_is_refused(small_disk, tmp_path):
    assert small_disk.available() <= 8 << 20  # the 4 MiB tmpfs, not the machine's disk
    journal = Journal.in_directory(small_disk.path)  # the 1 MiB reserve
    game = journal.begin_game("timer", {}, 1, 0.0, "wall")
    for number in range(60):  # about 250 KB of keys
        journal.keep_line(PHONE, f"key-{number:05}", line_digest("state"), "ok " + "r" * 4000,
                          WALL)
    assert len(kept(journal)) > 30
    small_disk.fill()
    acknowledged = 0
    with pytest.raises(JournalUnavailable):
        for index in range(100_000):
            journal.append(game, Recorded(Press(Button.UP), float(index)), "wall")
            acknowledged += 1
    assert kept(journal) == []  # every key gave way before the first refusal
    assert acknowledged > 1000
    small_disk.free()
    journal.close()
    survivor = Journal.in_directory(small_disk.path, reserve_bytes=0)
    assert len(survivor.current().history) == acknowledged
    survivor.close()


def test_dropping_every_key_fits_in_the_reserve_it_is_dropped_in():
    from companion.adapters.disk_reserve import RESERVE_BYTES

    assert journal_keys.KEY_BYTES * 4 <= RESERVE_BYTES
