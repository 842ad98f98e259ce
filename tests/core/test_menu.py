"""The start menu keeps games safe: asks before replacing one, resumes past ones, explains
options, hides solo options for a table, refuses changing a fixed option (core/app.py)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.app import App, AppState, JournalNew, PastGame, ResumeGame
from companion.core.buttons import Button, Gesture
from companion.core.game import Play, RuleError
from companion.games.registry import playable_games
from companion.ui.views.menu import menu_screen

NEXT, BACK, UP, DOWN = Button.NEXT, Button.BACK, Button.UP, Button.DOWN


@pytest.fixture(scope="module")
def app():
    return App(playable_games())


def press(app, state, *buttons):
    effects = []
    for button in buttons:
        state, effects = app.gesture(state, Gesture("press", button, 1.0), 1.0)
    return state, effects


def in_play(app, name="flight-plan"):
    state, _ = app.new_game(AppState(), name, {}, 1, 0.0)
    return state


def test_choosing_a_game_while_one_is_in_play_asks_first(app):
    state, _ = press(app, in_play(app), BACK, DOWN, NEXT)  # menu, Now Boarding, choose
    assert state.menu.page == "replace"
    assert menu_screen(app, state).lines == ("Replace the Flight", "Plan bank game?",
                                             "NEXT yes, BACK no")
    kept, _ = press(app, state, BACK)
    assert kept.session == state.session and kept.menu.page == "games"
    assert app.menu_items(kept)[kept.menu.cursor] == "Now Boarding"


def test_agreeing_to_replace_goes_on_to_the_new_games_options(app):
    state, _ = press(app, in_play(app), BACK, DOWN, NEXT, NEXT)
    assert state.menu.page == "options" and state.menu.game == "now-boarding"
    assert state.session.game == "flight-plan"  # replaced only when the new game starts


class EndedGame:
    """A game that has ended as soon as it starts (the real ones take a whole game)."""

    name, title, options = "ended", "Ended game", ()

    def new(self, options, seed):
        return "over"

    def result(self, state):
        return "win"


def test_an_ended_game_is_replaced_without_asking():
    app = App([EndedGame(), *playable_games()])
    state, _ = app.new_game(AppState(), "ended", {}, 1, 0.0)
    state, _ = press(app, state, BACK, DOWN, DOWN, NEXT)  # Now Boarding
    assert state.menu.page == "options"


def test_resume_a_game_is_offered_only_with_past_games(app):
    assert "Resume a game" not in app.menu_items(AppState())
    past = (PastGame(4, "planes", "2026-01-01T12:00:00+00:00"),)
    items = app.menu_items(AppState(resumable=past))
    # After the games, before the Power off, Volume and Sound rows that end the page.
    assert items.index("Resume a game") == len(items) - 4
    assert items[-5] == [game.title for game in app.games.values()][-1]


def test_resuming_a_past_game_asks_first_then_asks_the_runtime_to_replay_it(app):
    past = (PastGame(7, "planes", "2026-01-01T12:00:00+00:00"),
            PastGame(4, "timer", "2026-01-01T11:00:00+00:00"))
    state = AppState(session=in_play(app).session, menu=None, resumable=past)
    state, _ = press(app, state, BACK, UP, UP, UP, UP)  # wraps past Sound, Volume, Power off
    assert app.menu_items(state)[state.menu.cursor] == "Resume a game"
    state, _ = press(app, state, NEXT)
    assert state.menu.page == "history"
    assert menu_screen(app, state).lines[0] == "Planes         12:00"
    state, _ = press(app, state, DOWN, NEXT)
    assert (state.menu.page, state.menu.resume) == ("replace", 4)
    state, effects = press(app, state, NEXT)
    assert effects == [ResumeGame(4), Play("click")]
    assert state.menu is None and [p.id for p in state.resumable] == [7]


def test_resuming_with_no_game_in_play_needs_no_question(app):
    past = (PastGame(3, "planes", "2026-01-01T12:00:00+00:00"),)
    resumed, effects = press(app, AppState(resumable=past), UP, UP, UP, UP, NEXT, NEXT)
    assert effects == [ResumeGame(3), Play("click")]
    assert resumed.menu is None


def more_options(app, state):
    """Hold NEXT on an options page: the options under "More options" open."""
    return app.gesture(state, Gesture("hold", NEXT, 1.0), 1.0)[0]


def test_an_option_page_explains_the_option_in_one_line(app):
    state, _ = press(app, AppState(), NEXT)  # Now Boarding: pace
    state, _ = press(app, more_options(app, state), NEXT, NEXT)  # vip, timer, then strict
    screen = menu_screen(app, state)
    assert screen.main == "No pausing      <off>"
    assert screen.lines[0] == "On: flights never pause"
    assert screen.lines[-1] == "option 5 of 8"


def test_now_boarding_asks_two_questions_and_folds_the_rest_under_more_options(app):
    """Issue #35: pace and players; NEXT on players starts, hold NEXT opens the rest."""
    state, _ = press(app, AppState(), NEXT, NEXT)  # players, the last question
    assert menu_screen(app, state).status == "NEXT start  hold: more"
    started, effects = press(app, state, NEXT)
    assert isinstance(effects[0], JournalNew) and started.session is not None
    opened = more_options(app, state)
    assert app.game("now-boarding").options[opened.menu.cursor].key == "vip"
    with pytest.raises(RuleError, match="no more options"):
        more_options(app, opened)


def test_a_first_game_at_pace_teach_is_offered_without_the_vip_cards(app):
    specs = app.game("now-boarding").options
    keys = [spec.key for spec in specs]
    remembered = {"now-boarding": {"vip": "on"}}
    state, _ = press(app, AppState(remembered=remembered), NEXT)  # pace steps, vip on
    assert dict(zip(keys, state.menu.values, strict=True))["vip"] == "on"
    state, _ = press(app, state, DOWN)  # steps -> teach
    values = dict(zip(keys, state.menu.values, strict=True))
    assert (values["pace"], values["vip"]) == ("teach", "off")
    assert "no VIP" in menu_screen(app, state).lines[-1]  # the teach line says why
    _, effects = press(app, state, NEXT, NEXT)  # players, start: the folded vip is kept
    assert effects[0].options["vip"] == "off"


def test_now_boarding_asks_its_pace_first_as_a_question_with_a_line_per_answer(app):
    state, _ = press(app, AppState(), NEXT)  # Now Boarding's first option
    screen = menu_screen(app, state)
    assert screen.main == "Pace          <steps>"
    assert screen.lines == ("How well does the table", "know Now Boarding?",
                            "Knows it: step by step")
    assert screen.title.endswith("1 of 2")  # the rest under "More options" (issue #35)
    answers = []
    for _ in range(3):
        state, _ = press(app, state, UP)
        answers.append(menu_screen(app, state).lines[-1])
    assert len(set(answers)) == 3 and all(answers)


@pytest.mark.parametrize("game", [game.name for game in playable_games()])
def test_every_option_of_every_game_has_an_explanation(app, game):
    for spec in app.game(game).options:
        assert spec.explain, f"{game} option {spec.key} has no explanation"
        assert len(spec.explain) <= 50, spec.explain  # two lines of the small font


def test_an_option_up_down_cannot_change_is_not_shown_as_changeable(app):
    state, _ = press(app, AppState(), NEXT)
    state, _ = press(app, more_options(app, state), *[NEXT] * 5)  # Now Boarding: seed
    screen = menu_screen(app, state)
    assert screen.main == "Seed             auto" and "<" not in screen.main
    assert screen.status.startswith("fixed here")
    with pytest.raises(RuleError, match="Seed is auto here"):
        press(app, state, UP)


def test_solo_options_appear_only_for_one_player(app):
    overbooked = app.menu_items(AppState()).index("Overbooked score")
    state, _ = press(app, AppState(), *[DOWN] * overbooked, NEXT)
    state, _ = press(app, state, NEXT, NEXT, NEXT)  # players 2, variant, board
    state, effects = press(app, state, NEXT)  # events: the last shown option starts
    assert isinstance(effects[0], JournalNew)
    assert effects[0].options["players"] == "2"
    solo, _ = press(app, AppState(), *[DOWN] * overbooked, NEXT, DOWN)  # players 1
    solo, _ = press(app, solo, NEXT, NEXT, NEXT, NEXT)
    assert app.game("overbooked").options[solo.menu.cursor].key == "scenario"
    assert menu_screen(app, solo).lines[-1] == "option 5 of 6"


def test_a_hidden_option_starts_at_its_default(app):
    overbooked = app.menu_items(AppState()).index("Overbooked score")
    state, _ = press(app, AppState(), *[DOWN] * overbooked, NEXT, DOWN)  # players 1
    state, _ = press(app, state, NEXT, NEXT, NEXT, NEXT, UP)  # scenario changed
    state, _ = press(app, state, BACK, BACK, BACK, BACK, UP)  # back to players: 2
    state, effects = press(app, state, NEXT, NEXT, NEXT, NEXT)
    assert effects[0].options["scenario"] == "schools"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([NEXT, BACK, UP, DOWN]), max_size=40))
def test_property_a_game_in_play_is_replaced_only_after_the_question_was_answered_yes(
        presses):
    app = App(playable_games())
    past = (PastGame(9, "planes", "2026-01-01T12:00:00+00:00"),)
    state = AppState(session=in_play(app).session, menu=None, resumable=past)
    agreed = False
    for button in presses:
        asking = state.menu is not None and state.menu.page == "replace"
        was_in_play = app.in_play(state)
        try:
            state, effects = app.gesture(state, Gesture("press", button, 1.0), 1.0)
        except RuleError:
            continue
        agreed = agreed or (asking and button is NEXT)
        if state.menu is None:
            replaced = any(isinstance(e, (JournalNew, ResumeGame)) for e in effects)
            assert not (replaced and was_in_play and not agreed)
            agreed = False


# -- options last chosen, remembered per game (issue #27, item 3) -------------------------------

def test_a_games_options_page_starts_from_the_options_last_chosen_for_that_game(app):
    specs = app.game("now-boarding").options
    keys = [spec.key for spec in specs]
    chosen = {"players": "4", "vip": "on", "timer": "relaxed"}
    played, _ = app.new_game(AppState(), "now-boarding", chosen, 1, 0.0)
    assert {key: played.remembered["now-boarding"][key] for key in chosen} == chosen
    state, _ = press(app, AppState(remembered=played.remembered), NEXT)  # Now Boarding
    assert state.menu.page == "options"
    values = dict(zip(keys, state.menu.values, strict=True))
    assert {key: values[key] for key in chosen} == chosen
    # Another game keeps its own defaults.
    other = app.game("planes").options
    state, _ = press(app, AppState(remembered=played.remembered), DOWN, DOWN, NEXT)
    assert state.menu.game == "planes"
    assert state.menu.values == tuple(spec.default for spec in other)


def test_what_the_menu_does_not_offer_is_not_remembered_nor_started_from(app):
    played, _ = app.new_game(AppState(), "now-boarding", {"timer": "42", "seed": "7"}, 1, 0.0)
    assert "timer" not in played.remembered["now-boarding"]
    assert "seed" not in played.remembered["now-boarding"]
    stale = {"now-boarding": {"players": "9", "vip": "maybe", "gone": "x", "timer": "off"}}
    state, _ = press(app, AppState(remembered=stale), NEXT)
    values = dict(zip((spec.key for spec in app.game("now-boarding").options),
                      state.menu.values, strict=True))
    assert values["players"] == "3" and values["vip"] == "off" and values["timer"] == "off"


def test_the_options_page_in_the_state_json_carries_each_options_definition(app):
    state, _ = press(app, AppState(), NEXT)
    body = app.to_json(state, 0.0)["menu"]
    specs = app.game("now-boarding").options
    assert [option["key"] for option in body["options"]] == [spec.key for spec in specs]
    for option, spec in zip(body["options"], specs, strict=True):
        assert option["label"] == spec.label and option["explain"] == spec.explain
        assert option["choices"] == list(spec.choices) and option["default"] == spec.default
