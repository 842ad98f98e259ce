"""Protocol fuzzing: random bytes never crash the box, every complete line gets exactly one
reply, and an error reply never changes the state."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.protocol.lines import Line, LineSplitter
from companion.testing.simulated import simulated_controller

WORDS = [b"press next", b"press up", b"hold next", b"hold back", b"undo", b"state", b"screen",
         b"new timer seconds=30", b"new now-boarding players=3", b"wait 3", b"help",
         b"press sideways", b"score planes {", b"expect timer.state=running", b"# c", b"",
         b"score x " + b"[" * 1000, b"score planes [" + b"5" * 5000 + b"]",
         b"expect a=" + b"{" * 900, b"score planes [1e999]", b"new timer seconds=" + b"9" * 5000,
         b"new " + b"g" * 5000]

lines = st.one_of(st.sampled_from(WORDS), st.binary(max_size=60))
streams = st.lists(st.tuples(lines, st.sampled_from([b"\n", b"\r", b"\r\n"])), max_size=25)


@settings(max_examples=60, deadline=None)
@given(streams)
def test_fuzz_one_reply_per_line_and_errors_change_nothing(tmp_path_factory, stream):
    controller = simulated_controller(tmp_path_factory.mktemp("fuzz"))
    splitter = LineSplitter()
    items = splitter.feed(b"".join(text + end for text, end in stream))
    for item in items:
        before = controller.app.to_json(controller.state, controller.now())
        reply = controller.handle(item)
        silent = isinstance(item, Line) and (not item.text.strip()
                                             or item.text.strip().startswith("#"))
        assert (reply is None) == silent
        if reply is not None:
            assert "\n" not in reply and "\r" not in reply
            assert reply == "ok" or reply.startswith(("ok ", "err "))
            if reply.startswith("err"):
                after = controller.app.to_json(controller.state, controller.now())
                assert after == before
    json.dumps(controller.app.to_json(controller.state, controller.now()))
    controller.journal.close()


# -- score lines: every game's example, mutated, spliced with hostile text (issue #13) ---------

from companion.games.score_formats import EXAMPLES  # noqa: E402

HOSTILE = [b"[" * 1000, b"{" * 40, b"9" * 5000, b"1e999", b"NaN", b"-Infinity", b'"\\ud800"',
           b"\x00", b"\xff", b'"a": 1, "a": 2', b"]]]]", b","]
scalars = (st.none() | st.booleans() | st.integers(-(10**40), 10**40)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8))


@st.composite
def score_lines(draw):
    game = draw(st.sampled_from(sorted(EXAMPLES)))
    document = json.loads(json.dumps(EXAMPLES[game]))
    if draw(st.booleans()):  # change one field of the example, or drop it
        key = draw(st.sampled_from(sorted(document)))
        if draw(st.booleans()):
            del document[key]
        else:
            document[key] = draw(scalars | st.lists(scalars, max_size=3))
    text = json.dumps(document, ensure_ascii=False).encode()
    if draw(st.booleans()):
        at = draw(st.integers(0, len(text)))
        noise = st.binary(max_size=6).map(lambda raw: raw.replace(b"\n", b"").replace(b"\r", b""))
        text = text[:at] + draw(st.sampled_from(HOSTILE) | noise) + text[at:]
    return b"score " + game.encode() + b" " + text


@settings(max_examples=150, deadline=None)
@given(st.lists(score_lines(), min_size=1, max_size=6))
def test_fuzz_score_lines_one_reply_each_and_nothing_changes(tmp_path_factory, lines):
    controller = simulated_controller(tmp_path_factory.mktemp("fuzz"))
    items = LineSplitter().feed(b"".join(line + b"\n" for line in lines))
    assert len(items) == len(lines)
    before = controller.app.to_json(controller.state, controller.now())
    for item in items:
        reply = controller.handle(item)
        assert reply is not None and "\n" not in reply and "\r" not in reply
        assert reply.startswith(("ok {", "err bad-argument", "err bad-encoding"))
        reply.encode("utf-8")  # the serial line can carry it
    assert controller.app.to_json(controller.state, controller.now()) == before
    controller.journal.close()
