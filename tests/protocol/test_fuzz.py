"""Protocol fuzzing: random bytes never crash the box, every complete line gets exactly one
reply, and an error reply never changes the state."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.protocol.lines import Line, LineSplitter
from companion.testing.simulated import simulated_controller

WORDS = [b"press next", b"press up", b"hold next", b"hold back", b"undo", b"state", b"screen",
         b"new timer seconds=30", b"new now-boarding players=3", b"wait 3", b"help",
         b"press sideways", b"score planes {", b"expect timer.state=running", b"# c", b""]

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
