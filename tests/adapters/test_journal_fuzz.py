"""Fuzzing the journal's rows, not only its bytes (issue #13): wrong types, unknown action
kinds, rows out of order, a game with no begin row, a replay the rules refuse.

The invariant: whatever the rows hold, the box starts. It either resumes a game the rows
replay, or keeps the journal's files aside under a dated name, says so on the screen and
starts fresh; either way play goes on and is saved, and the next start finds no damage.
"""

import json
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.adapters.journal import FILE_NAME, Journal
from companion.core.app import Recorded
from companion.core.buttons import Button
from companion.core.game import Press
from companion.testing.simulated import simulated_controller
from companion.ui.render import render

COMMANDS = ["press up", "press down", "press next", "hold next", "hold back", "press back",
            "new timer seconds=30", "new now-boarding players=3", "wait 5"]
GAMES = ["timer", "now-boarding", "now-boarding-v3", "overbooked", "planes", "flight-plan",
         "chess", ""]
KINDS = ["press", "hold", "expire", "restore", "teleport", "", None, 7]
BUTTONS = ["up", "down", "next", "back", "left", "", None, 3]

sql_values = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
    st.binary(max_size=20))
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8)
action_json = st.one_of(
    st.fixed_dictionaries({"kind": st.sampled_from(KINDS), "button": st.sampled_from(BUTTONS)}),
    json_values.map(json.dumps),
    st.text(max_size=30)).map(lambda value: value if isinstance(value, str) else json.dumps(value))

ACTION_COLUMNS = ["game_id", "action", "at", "wall"]
GAME_COLUMNS = ["game", "options", "seed", "started_at", "started_wall", "clock", "result",
                "current"]

mutations = st.one_of(
    st.tuples(st.just("set-action"), st.integers(0, 50), st.sampled_from(ACTION_COLUMNS),
              sql_values),
    st.tuples(st.just("set-game"), st.integers(0, 50), st.sampled_from(GAME_COLUMNS),
              sql_values),
    st.tuples(st.just("action-json"), st.integers(0, 50), action_json),
    st.tuples(st.just("game-name"), st.integers(0, 50), st.sampled_from(GAMES)),
    st.tuples(st.just("options"), st.integers(0, 50),
              st.dictionaries(st.sampled_from(["seconds", "players", "variant", "timer", "x"]),
                              st.text(max_size=6), max_size=3).map(json.dumps)),
    st.tuples(st.just("insert-action"), st.integers(-2, 60), action_json,
              st.floats(min_value=-10, max_value=1e4)),
    st.tuples(st.just("delete-game"), st.integers(0, 50)),
    st.tuples(st.just("delete-action"), st.integers(0, 50)),
    st.tuples(st.just("shuffle-actions"), st.randoms(use_true_random=False)),
    st.tuples(st.just("swap-at"), st.integers(0, 50), st.integers(0, 50)),
    st.tuples(st.just("duplicate-actions"), st.integers(0, 50)),
    st.tuples(st.just("all-current"), st.sampled_from([0, 1])),
)


def row_id(db, table, index):
    ids = [row[0] for row in db.execute(f"SELECT id FROM {table} ORDER BY id")]  # noqa: S608
    return ids[index % len(ids)] if ids else None


def mutate(db, mutation):
    kind, *arguments = mutation
    match kind:
        case "set-action" | "set-game":
            index, column, value = arguments
            table = "actions" if kind == "set-action" else "games"
            target = row_id(db, table, index)
            db.execute(f"UPDATE {table} SET {column} = ? WHERE id = ?",  # noqa: S608
                       (value, target))
        case "action-json":
            index, text = arguments
            db.execute("UPDATE actions SET action = ? WHERE id = ?",
                       (text, row_id(db, "actions", index)))
        case "game-name":
            index, name = arguments
            db.execute("UPDATE games SET game = ? WHERE id = ?", (name, row_id(db, "games", index)))
        case "options":
            index, text = arguments
            db.execute("UPDATE games SET options = ? WHERE id = ?",
                       (text, row_id(db, "games", index)))
        case "insert-action":
            game_id, text, at = arguments
            db.execute("INSERT INTO actions (game_id, action, at, wall) VALUES (?, ?, ?, 'w')",
                       (game_id, text, at))
        case "delete-game":
            db.execute("DELETE FROM games WHERE id = ?", (row_id(db, "games", arguments[0]),))
        case "delete-action":
            db.execute("DELETE FROM actions WHERE id = ?", (row_id(db, "actions", arguments[0]),))
        case "shuffle-actions":
            rows = db.execute("SELECT game_id, action, at, wall FROM actions").fetchall()
            arguments[0].shuffle(rows)
            db.execute("DELETE FROM actions")
            db.executemany("INSERT INTO actions (game_id, action, at, wall) VALUES (?, ?, ?, ?)",
                           rows)
        case "swap-at":
            first, second = (row_id(db, "actions", index) for index in arguments)
            db.execute("UPDATE actions SET at = (SELECT SUM(at) FROM actions WHERE id IN (?, ?))"
                       " - at WHERE id IN (?, ?)", (first, second, first, second))
        case "duplicate-actions":
            db.execute("INSERT INTO actions (game_id, action, at, wall) SELECT game_id, action,"
                       " at, wall FROM actions WHERE id >= ?", (row_id(db, "actions",
                                                                        arguments[0]),))
        case "all-current":
            db.execute("UPDATE games SET current = ?", (arguments[0],))


def tamper(folder, edits):
    """Apply what the schema lets through; what it refuses is not a journal anyone has."""
    db = sqlite3.connect(folder / FILE_NAME)
    for edit in edits:
        try:
            mutate(db, edit)
            db.commit()
        except (sqlite3.IntegrityError, OverflowError):
            db.rollback()
    db.close()


def outcome(box):
    """How the box started, for hypothesis's statistics (--hypothesis-show-statistics)."""
    reason = box.journal.recovered_from
    if reason is None:
        return "resumed a game" if box.journal.current() is not None else "started at the menu"
    if "does not replay" in reason:
        return "kept aside: a game that does not replay"
    return "kept aside: " + ("a bad row" if "row" in reason else "other damage")


def reply(controller, line):
    answer = controller.command_line(line)
    assert answer is not None and not answer.startswith("err unhandled"), answer
    return answer


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands=st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=12),
       edits=st.lists(mutations, min_size=1, max_size=4))
def test_journal_rows_whatever_they_hold_the_box_starts(commands, edits):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        first = simulated_controller(folder, journal=Journal.in_directory(folder,
                                                                          reserve_bytes=0))
        for command in commands:
            reply(first, command)
        first.journal.close()
        tamper(folder, edits)

        box = simulated_controller(folder, journal=Journal.in_directory(folder,
                                                                        reserve_bytes=0))
        assert reply(box, "state").startswith("ok ")
        render(box.screen())
        event(outcome(box))
        if box.journal.kept_aside is not None:
            assert (folder / box.journal.kept_aside).exists()
            assert box.state.notice.startswith("Journal damaged: kept as damaged-")
            assert box.journal.current() is None
        assert reply(box, "new timer seconds=10") == "ok"
        assert reply(box, "press next") == "ok"
        assert box.unsaved == []
        box.journal.close()

        again = simulated_controller(folder, journal=Journal.in_directory(folder,
                                                                          reserve_bytes=0))
        assert again.journal.recovered_from is None
        assert json.loads(reply(again, "state")[3:])["timer"]["state"] == "paused"
        again.journal.close()


ACTIONS = 20


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damage=st.one_of(
    st.tuples(st.just("flip-wal"), st.integers(min_value=0), st.integers(1, 255)),
    st.tuples(st.just("truncate-wal"), st.integers(min_value=0)),
    st.tuples(st.just("flip-shm"), st.integers(0, 135), st.integers(1, 255))))
def test_journal_write_ahead_log_damage_is_kept_aside_or_costs_at_most_the_last_write(damage):
    """Bytes of a crashed box's -wal (or -shm) changed: the box starts, and either keeps the
    files aside or has every action but possibly the last (a write the power cut short)."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        journal = Journal.in_directory(folder / "box", reserve_bytes=0)
        game = journal.begin_game("timer", {}, 1, 0.0, "wall")
        for index in range(ACTIONS):
            journal.append(game, Recorded(Press(Button.UP), float(index + 1)), "wall")
        image = folder / "image"
        image.mkdir()
        for suffix in ("", "-wal", "-shm"):
            (image / (FILE_NAME + suffix)).write_bytes(
                (folder / "box" / (FILE_NAME + suffix)).read_bytes())
        journal.close()
        kind, *arguments = damage
        target = image / (FILE_NAME + ("-shm" if kind == "flip-shm" else "-wal"))
        data = bytearray(target.read_bytes())
        if kind == "truncate-wal":
            del data[arguments[0] % len(data):]
        else:
            data[arguments[0] % len(data)] ^= arguments[1]
        target.write_bytes(bytes(data))

        reopened = Journal.in_directory(image, reserve_bytes=0)
        stored = reopened.current()
        if reopened.kept_aside is not None:
            event("kept aside")
            assert stored is None
            kept_file = image / (reopened.kept_aside + target.name.removeprefix(FILE_NAME))
            assert kept_file.read_bytes() == bytes(data)  # kept as found, byte for byte
        else:
            kept = 0 if stored is None else len(stored.history)
            event(f"opened, {ACTIONS - kept} actions short")
            # at most the last transaction (begin_game is one, each action one)
            assert kept >= ACTIONS - 1
        reopened.close()
