"""The box's state machine: menu, game actions, undo by replay, ticks (core/app.py)."""

import pytest

from companion.core.app import (
    App,
    AppState,
    JournalAction,
    JournalNew,
    JournalUndo,
    Recorded,
    SoundChanged,
)
from companion.core.buttons import Button, Gesture
from companion.core.game import Expire, Play, Press, RuleError
from companion.core.tunes import SoundSettings
from companion.games.timer import RoundTimer


@pytest.fixture
def app():
    return App([RoundTimer()])


def press(app, state, button, at):
    return app.gesture(state, Gesture("press", button, at), at)


def hold(app, state, button, at):
    return app.gesture(state, Gesture("hold", button, at), at)


def test_app_starts_in_the_menu_and_starts_a_game_from_it(app):
    state = AppState(next_seed=7)
    assert app.to_json(state, 0.0)["phase"] == "menu"
    state, _ = press(app, state, Button.NEXT, 0.0)  # choose the round timer
    assert state.menu.page == "options"
    state, _ = press(app, state, Button.UP, 0.0)  # 60 -> 90 seconds
    state, _ = press(app, state, Button.NEXT, 0.0)  # next option
    state, effects = press(app, state, Button.NEXT, 0.0)  # start
    assert state.menu is None
    assert effects[0] == JournalNew("timer", {"seconds": "90", "warnings": "10,5,3,2,1"}, 7, 0.0)
    assert app.to_json(state, 0.0)["timer"]["duration"] == 90.0


def test_app_game_actions_are_journaled_before_their_tunes(app):
    state, _ = app.new_game(AppState(), "timer", {"seconds": "30"}, 1, 0.0)
    state, effects = press(app, state, Button.NEXT, 2.0)
    assert effects == [JournalAction(Press(Button.NEXT), 2.0), Play("flight-start")]


def test_app_refused_action_changes_nothing(app):
    state, _ = app.new_game(AppState(), "timer", {"seconds": "30"}, 1, 0.0)
    state, _ = press(app, state, Button.NEXT, 0.0)
    with pytest.raises(RuleError) as refusal:
        press(app, state, Button.UP, 1.0)
    refused = app.refuse(state, refusal.value)
    assert refused.session == state.session
    assert "before the timer starts" in refused.notice


def test_app_tick_sounds_warnings_and_expires_on_the_deadline(app):
    state, _ = app.new_game(AppState(), "timer", {"seconds": "12"}, 1, 0.0)
    state, _ = press(app, state, Button.NEXT, 0.0)
    state, effects = app.tick(state, 7.0)
    # The 10 s mark at 2.0 and the 5 s mark at 7.0, each with its own tune.
    assert effects == [Play("warning-10"), Play("warning-5")]
    state, effects = app.tick(state, 11.999)
    assert effects == [Play("warning-3"), Play("warning-2"), Play("warning-1")]
    state, effects = app.tick(state, 12.0)
    assert effects == [JournalAction(Expire(), 12.0), Play("alarm")]
    assert app.to_json(state, 12.0)["timer"]["state"] == "expired"


def test_app_undo_drops_the_expiry_with_the_player_action_before_it(app):
    state, _ = app.new_game(AppState(), "timer", {"seconds": "12"}, 1, 0.0)
    state, _ = press(app, state, Button.NEXT, 0.0)
    state, _ = app.tick(state, 12.0)
    state, effects = hold(app, state, Button.BACK, 20.0)
    assert effects[0] == JournalUndo(2)
    assert app.to_json(state, 20.0)["timer"]["state"] == "idle"


def test_app_undo_with_nothing_to_undo_is_refused(app):
    state, _ = app.new_game(AppState(), "timer", {}, 1, 0.0)
    with pytest.raises(RuleError, match="nothing to undo"):
        app.undo(state, 1.0)


def test_app_restore_replays_the_history(app):
    history = [Recorded(Press(Button.UP), 1.0), Recorded(Press(Button.NEXT), 2.0)]
    state = app.restore("timer", {"seconds": "60", "warnings": "10"}, 1, history, 5.0)
    body = app.to_json(state, 5.0)
    assert body["timer"] == {"state": "running", "remaining": 72.0, "duration": 75.0}


def test_app_back_opens_the_menu_over_the_game_and_back_returns(app):
    state, _ = app.new_game(AppState(), "timer", {"seconds": "30"}, 1, 0.0)
    state, _ = press(app, state, Button.NEXT, 0.0)
    state, _ = press(app, state, Button.BACK, 1.0)
    assert app.to_json(state, 1.0)["menu"] == {"page": "games", "cursor": 0}
    assert app.menu_items(state)[0] == "Back to game"
    state, _ = press(app, state, Button.NEXT, 2.0)
    assert state.menu is None
    assert app.to_json(state, 2.0)["timer"]["remaining"] == 28.0


@pytest.mark.parametrize(("given", "message"), [
    ({"seconds": "0"}, "seconds='0' is not allowed"),
    ({"seconds": "abc"}, "seconds='abc' is not allowed"),
    ({"minutes": "3"}, "unknown option 'minutes'"),
    ({"warnings": "10,x"}, "warnings='10,x' is not allowed"),
])
def test_app_new_game_refuses_bad_options(app, given, message):
    with pytest.raises(RuleError, match=message):
        app.new_game(AppState(), "timer", given, 1, 0.0)


def test_app_unknown_game_is_a_bad_argument(app):
    with pytest.raises(RuleError) as refusal:
        app.new_game(AppState(), "chess", {}, 1, 0.0)
    assert refusal.value.code == "bad-argument"


# --- sound: volume and mute ----------------------------------------------------------------


def chord(app, state, at):
    return app.gesture(state, Gesture("chord", Button.UP, at), at)


def test_app_menu_ends_with_volume_and_mute(app):
    assert app.menu_items(AppState())[-2:] == ["Volume 3/5", "Sound: on"]
    muted = AppState(sound=SoundSettings(5, muted=True))
    assert app.menu_items(muted)[-2:] == ["Volume 5/5", "Sound: muted"]


def test_app_next_on_volume_steps_louder_and_wraps(app):
    state = AppState()
    state, _ = press(app, state, Button.UP, 0.0)  # wraps to the last row: mute
    state, _ = press(app, state, Button.UP, 0.0)  # volume
    heard = []
    for _ in range(3):
        state, effects = press(app, state, Button.NEXT, 0.0)
        heard.append(effects)
    assert [effects[0] for effects in heard] == [
        SoundChanged(SoundSettings(4)), SoundChanged(SoundSettings(5)),
        SoundChanged(SoundSettings(1))]
    # A click at the new volume, so the table hears how loud it is.
    assert all(effects[1:] == [Play("click")] for effects in heard)
    assert state.menu is not None and app.to_json(state, 0.0)["sound"] == {
        "volume": 1, "muted": False}


def test_app_next_on_mute_toggles_it_silently(app):
    state = AppState()
    state, _ = press(app, state, Button.UP, 0.0)  # the mute row
    state, effects = press(app, state, Button.NEXT, 0.0)
    assert effects == [SoundChanged(SoundSettings(muted=True))]
    assert app.menu_items(state)[-1] == "Sound: muted"
    state, effects = press(app, state, Button.NEXT, 0.0)
    assert effects == [SoundChanged(SoundSettings()), Play("click")]


def test_app_chord_mutes_at_once_in_a_game_and_never_reaches_it(app):
    state, _ = app.new_game(AppState(), "timer", {"seconds": "30"}, 1, 0.0)
    before = app.to_json(state, 1.0)
    state, effects = chord(app, state, 1.0)
    assert effects == [SoundChanged(SoundSettings(muted=True))]
    after = app.to_json(state, 1.0)
    assert after["sound"]["muted"] is True
    assert {**after, "sound": before["sound"]} == before  # the game did not move
    assert state.notice == "muted: UP+DOWN unmutes"
    state, effects = chord(app, state, 2.0)
    assert effects == [SoundChanged(SoundSettings()), Play("click")]
    assert state.notice is None


def test_app_sound_survives_starting_a_game(app):
    state = AppState(sound=SoundSettings(2, muted=True))
    state, _ = app.new_game(state, "timer", {"seconds": "30"}, 1, 0.0)
    assert state.sound == SoundSettings(2, muted=True)


# -- the table page's address (issue #15) -----------------------------------------------------

SMALL_CODE = ((True, False), (False, True))


def table_page_app():
    from companion.core.table_page import TablePage

    return App([RoundTimer()], table_page=TablePage("http://box.local:8080/", SMALL_CODE))


def test_app_menu_offers_the_table_page_only_while_the_web_is_on(app):
    assert "Table page" not in app.menu_items(AppState())
    items = table_page_app().menu_items(AppState())
    assert items[-4:] == ["Table page", "Power off", "Volume 3/5", "Sound: on"]


def open_table_page(app):
    state = AppState()
    for _ in range(4):  # up from the first row wraps: mute, volume, power off, table page
        state, _ = press(app, state, Button.UP, 0.0)
    row = state.menu.cursor
    state, effects = press(app, state, Button.NEXT, 0.0)
    assert (state.menu.page, effects) == ("table-page", [])
    assert app.to_json(state, 0.0)["menu"] == {"page": "table-page", "cursor": row}
    return state, row


@pytest.mark.parametrize("button", [Button.UP, Button.DOWN, Button.BACK])
def test_app_table_page_opens_from_the_menu_and_up_down_back_go_back(button):
    app = table_page_app()
    state, row = open_table_page(app)
    state, effects = press(app, state, button, 0.0)
    assert (state.menu.page, state.menu.cursor, effects) == ("games", row, [])
    assert state.pairing is None


def test_app_table_page_next_pairs_a_phone_for_two_minutes_and_back_closes_it():
    """Issue #28: pairing opens at the box ("Pair a phone"), counts down, BACK closes it."""
    from companion.core.table_page import WINDOW_SECONDS, pairing_open

    app = table_page_app()
    state, _ = open_table_page(app)
    state, effects = press(app, state, Button.NEXT, 10.0)
    assert state.menu.page == "table-page" and effects == [Play("click")]
    assert pairing_open(state, 10.0 + WINDOW_SECONDS - 0.1)
    assert not pairing_open(state, 10.0 + WINDOW_SECONDS)
    state, _ = press(app, state, Button.UP, 11.0)  # leaving the screen keeps it open
    assert pairing_open(state, 11.0)
    state, _ = press(app, state, Button.NEXT, 12.0)  # back on the Table page row
    state, _ = press(app, state, Button.BACK, 13.0)
    assert state.pairing is None and state.menu.page == "games"


def test_app_table_page_refuses_a_malformed_code():
    from companion.core.table_page import TablePage

    with pytest.raises(ValueError, match="square"):
        TablePage("http://box.local:8080/", ((True,), (False,)))
    with pytest.raises(ValueError, match="29"):
        TablePage("http://box.local:8080/", ((False,) * 33,) * 33)
