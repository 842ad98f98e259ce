"""Parsing protocol lines and formatting replies (protocol/commands.py)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.buttons import Button
from companion.protocol import commands as proto


@pytest.mark.parametrize(("line", "command"), [
    ("help", proto.Help()),
    ("press next", proto.PressCommand(Button.NEXT)),
    ("PRESS Back", proto.PressCommand(Button.BACK)),
    ("hold up", proto.HoldCommand(Button.UP)),
    ("new timer seconds=30", proto.NewCommand("timer", (("seconds", "30"),))),
    ("New Now-Boarding Players=3 vip=on",
     proto.NewCommand("now-boarding", (("players", "3"), ("vip", "on")))),
    ("state", proto.StateCommand()),
    ("  screen  ", proto.ScreenCommand()),
    ("undo", proto.UndoCommand()),
    ('score planes {"players": []}', proto.ScoreCommand("planes", {"players": []})),
    ("wait 2.5", proto.WaitCommand(2.5)),
    ("expect timer.state=running", proto.ExpectCommand("timer.state", "running")),
    ("expect timer.remaining=20.0", proto.ExpectCommand("timer.remaining", 20.0)),
    ("expect result=null", proto.ExpectCommand("result", None)),
])
def test_commands_parse(line, command):
    assert proto.parse(line) == command


@pytest.mark.parametrize("line", ["", "   ", "# a comment", "  # indented comment"])
def test_commands_blank_and_comment_lines_get_no_reply(line):
    assert proto.parse(line) is None


@pytest.mark.parametrize(("line", "code", "fragment"), [
    ("jump", "unknown-command", "unknown command 'jump'"),
    ("press", "bad-argument", "unknown button ''"),
    ("press left", "bad-argument", "unknown button 'left'"),
    ("new", "bad-argument", "needs a game"),
    ("new timer seconds", "bad-argument", "key=value"),
    ("new timer seconds=1 seconds=2", "bad-argument", "given twice"),
    ("state now", "bad-argument", "takes no arguments"),
    ("score planes {broken", "bad-argument", "not valid JSON"),
    ("score planes", "bad-argument", "JSON object"),
    ("wait soon", "bad-argument", "number of seconds"),
    ("wait -1", "bad-argument", "0 to"),
    ("wait nan", "bad-argument", "0 to"),
    ("expect timer.state", "bad-argument", "PATH=VALUE"),
    ("press\x00next", "bad-argument", "NUL"),
])
def test_commands_refuse_malformed_lines(line, code, fragment):
    with pytest.raises(proto.ProtocolError) as refusal:
        proto.parse(line)
    assert refusal.value.code == code
    assert fragment in refusal.value.message


def test_commands_reply_forms():
    assert proto.ok() == "ok"
    assert proto.ok_json({"lines": ["a\nb"]}) == 'ok {"lines": ["a\\nb"]}'
    assert proto.err("not-allowed", "only a running\ntimer can pause") == (
        "err not-allowed only a running timer can pause")
    with pytest.raises(ValueError):
        proto.err("Not Allowed", "x")


def test_commands_help_lists_every_command():
    listed = proto.help_json()["commands"]
    for word in ("help", "press", "hold", "new", "state", "screen", "undo", "score", "wait",
                 "expect"):
        assert any(key.split()[0] == word for key in listed)


def test_commands_lookup_dotted_paths():
    state = {"timer": {"state": "running"}, "decks": [3, 4]}
    assert proto.lookup(state, "timer.state") == "running"
    assert proto.lookup(state, "decks.1") == 4
    with pytest.raises(proto.ProtocolError, match=r"no field 'timer\.nope'"):
        proto.lookup(state, "timer.nope")


@given(st.text(max_size=300))
def test_commands_any_text_parses_or_is_refused_with_a_one_line_error(text):
    try:
        proto.parse(text)
    except proto.ProtocolError as error:
        reply = proto.err(error.code, error.message)
        assert "\n" not in reply and "\r" not in reply
        assert len(reply) < 300


def test_commands_json_replies_are_one_line_valid_json():
    reply = proto.ok_json({"text": "line1\r\nline2\u2028", "n": 1.5})
    assert "\n" not in reply and "\r" not in reply
    assert json.loads(reply[3:]) == {"text": "line1\r\nline2\u2028", "n": 1.5}


@pytest.mark.parametrize(("line", "fragment"), [
    ("score x " + "[" * 1000, "nested deeper than 32"),
    ('score planes {"players":[{"name":"a","goals":[' + "5" * 5000 + '],"boarded":1}]}',
     "5000 digits"),
    ("score planes [1e999]", "finite"),
    ("score planes [NaN]", "NaN"),
    ('score planes {"players": [], "players": []}', "appears twice"),
    ("expect a=" + "[" * 1000, "nested deeper than 32"),
    ("expect a=" + "7" * 5000, "5000 digits"),
])
def test_commands_bound_json_depth_and_number_size(line, fragment):
    # Issue #13: these raised RecursionError / ValueError and took the daemon down.
    with pytest.raises(proto.ProtocolError) as refusal:
        proto.parse(line)
    assert refusal.value.code == "bad-argument"
    assert fragment in refusal.value.message


@pytest.mark.parametrize("option", ["seconds=" + "9" * 5000, "seed=" + "1" * 60, "k=" + "x" * 63])
def test_commands_refuse_option_values_too_long_to_be_real(option):
    # Issue #13 (found probing 'new' after the fix): int() of 5000 digits ended the daemon.
    with pytest.raises(proto.ProtocolError) as refusal:
        proto.parse(f"new timer {option}")
    assert refusal.value.code == "bad-argument"
    assert "longer than 64 characters" in refusal.value.message
    assert len(refusal.value.message) < 120


@pytest.mark.parametrize("line", ["new " + "g" * 5000, "score " + "g" * 5000 + " {}"])
def test_commands_refuse_a_game_name_too_long_to_be_real_with_a_short_message(line):
    with pytest.raises(proto.ProtocolError) as refusal:
        proto.parse(line)
    assert refusal.value.code == "bad-argument"
    assert len(refusal.value.message) < 120
