"""A replaced game is resumed from the menu: replayed from the journal, current again,
its running countdown paused (runtime/resuming.py, adapters/journal.py)."""

from companion.protocol.lines import Line
from companion.testing.simulated import simulated_controller


def send(controller, *lines):
    for line in lines:
        reply = controller.command_line(line)
        assert reply is not None and reply.startswith("ok"), (line, reply)


def test_a_replaced_game_is_resumed_from_the_menu_exactly_as_it_was(tmp_path):
    controller = simulated_controller(tmp_path)
    send(controller, "new timer seconds=60", "press next", "wait 20")
    first = controller.game_id
    send(controller, "new planes players=2")
    assert [past.id for past in controller.state.resumable] == [first]
    # UP wraps past the Sound, Volume and Power off rows at the end to "Resume a game".
    send(controller, "press back", *("press up",) * 4, "press next")
    assert controller.screen().title == "Resume a game"
    send(controller, "press next", "press next")  # the timer; yes, replace the planes game
    assert controller.game_id == first
    assert controller.journal.current().id == first
    body = controller.app.to_json(controller.state, controller.now())
    assert body["game"] == "timer"
    assert body["timer"] == {"state": "paused", "remaining": 40.0, "duration": 60.0}
    # The planes game, replaced in turn, is now the one offered.
    assert [past.game for past in controller.state.resumable] == ["planes"]
    controller.journal.close()


def test_a_resumed_game_is_the_one_a_restart_comes_back_to(tmp_path):
    controller = simulated_controller(tmp_path)
    send(controller, "new timer seconds=60", "new planes players=2", "press back",
         *("press up",) * 4, "press next", "press next", "press next")
    controller.journal.close()
    restarted = simulated_controller(tmp_path)
    assert restarted.app.to_json(restarted.state, restarted.now())["game"] == "timer"
    restarted.journal.close()


def test_a_past_game_that_does_not_replay_is_refused_and_the_game_in_play_stays(tmp_path):
    controller = simulated_controller(tmp_path)
    send(controller, "new timer seconds=60", "press next")
    broken = controller.game_id
    send(controller, "new planes players=2")
    in_play = controller.game_id
    with controller.journal._db:  # a row no version of the box writes
        controller.journal._db.execute(
            "INSERT INTO actions (game_id, action, at, wall) VALUES (?, ?, 1.0, '')",
            (broken, '{"kind": "press", "button": "sideways"}'))
    send(controller, "press back", *("press up",) * 4, "press next", "press next",
         "press next")
    assert controller.game_id == in_play and controller.journal.current().id == in_play
    assert controller.app.to_json(controller.state, controller.now())["game"] == "planes"
    assert controller.state.notice.startswith("Cannot resume that game")
    controller.journal.close()


def test_a_game_replaced_from_the_table_page_is_offered_at_once(tmp_path):
    """The page's lines are keyed (their writes reach the journal with the key, after the
    line ran): the replaced game is still offered at once, on the page and in the box's menu
    (issue #36, 4: it lagged until the next replacement or a restart)."""
    controller = simulated_controller(tmp_path)
    lines = ["new timer seconds=60", "press next", "new planes players=2"]
    for number, line in enumerate(lines):
        assert controller.handle_keyed(Line(line), "phone-1", f"key-{number:05d}") == "ok"
    first = controller.journal.unfinished()[0].id
    assert [past.id for past in controller.state.resumable] == [first]
    assert controller.app.to_json(controller.state, controller.now())["game"] == "planes"
    send(controller, "press back")
    assert "Resume a game" in controller.screen().choices
    # resumed from the page in turn: the planes game is the one offered, at once
    send(controller, "press back")
    for number, line in enumerate(["press back", *("press up",) * 4, "press next",
                                   "press next", "press next"], start=len(lines)):
        assert controller.handle_keyed(Line(line), "phone-1", f"key-{number:05d}") == "ok"
    assert controller.game_id == first
    assert [past.game for past in controller.state.resumable] == ["planes"]
    controller.journal.close()
