"""The tune player's sound settings: mute, volume, and the listeners that show tunes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion import config as config_module
from companion.adapters.settings import SettingsFile
from companion.bootstrap import build_box
from companion.core.buttons import Button
from companion.core.tunes import TUNES, VOLUME_DUTY, SoundSettings
from companion.runtime.sound import TunePlayer
from companion.testing.clock import FakeClock
from companion.testing.recording import RecordingBuzzer
from companion.testing.simulated import simulated_controller


def test_sound_muted_player_records_and_announces_but_sounds_nothing() -> None:
    buzzer = RecordingBuzzer()
    player = TunePlayer(buzzer)
    heard: list[tuple[str, bool]] = []
    player.listeners.append(lambda name, muted: heard.append((name, muted)))
    player.apply(SoundSettings(muted=True), 0.0)
    player.start("alarm", 1.0)
    player.play_due(5.0)
    assert list(buzzer.tones) == []
    assert list(player.played) == ["alarm"] and heard == [("alarm", True)]
    assert player.next_change() is None


def test_sound_muting_stops_a_tune_that_is_playing() -> None:
    buzzer = RecordingBuzzer()
    player = TunePlayer(buzzer)
    player.start("alarm", 0.0)
    player.apply(SoundSettings(muted=True), 0.5)
    assert list(buzzer.tones)[-1] == (None, None)
    assert player.next_change() is None


@pytest.mark.parametrize("volume", sorted(VOLUME_DUTY))
def test_sound_volume_goes_to_the_buzzer_as_pwm_duty(volume: int) -> None:
    buzzer = RecordingBuzzer()
    player = TunePlayer(buzzer)
    player.apply(SoundSettings(volume), 0.0)
    assert buzzer.volumes == [VOLUME_DUTY[volume]]
    player.start("win", 0.0)
    assert buzzer.frequencies == [TUNES["win"][0][0]]


def test_sound_a_failing_listener_does_not_stop_the_tune() -> None:
    buzzer = RecordingBuzzer()
    player = TunePlayer(buzzer)

    def broken(name: str, muted: bool) -> None:
        raise RuntimeError("terminal gone")

    player.listeners.append(broken)
    player.start("click", 0.0)
    assert buzzer.frequencies == [TUNES["click"][0][0]]


def _chord(controller, at: float) -> None:
    controller.edge(Button.UP, True, at)
    controller.edge(Button.DOWN, True, at + 0.05)
    controller.edge(Button.UP, False, at + 0.3)
    controller.edge(Button.DOWN, False, at + 0.3)


def test_sound_chord_on_the_buttons_mutes_at_once_and_is_remembered(tmp_path: Path) -> None:
    clock, buzzer = FakeClock(), RecordingBuzzer()
    controller = simulated_controller(tmp_path, clock=clock, buzzer=buzzer,
                                      settings=SettingsFile(tmp_path))
    assert controller.command_line("new timer seconds=30") == "ok"
    controller.command_line("press next")  # the flight starts: its tune sounds
    assert controller.played[-1] == "flight-start"
    before = len(buzzer.tones)
    _chord(controller, controller.now())
    body = controller.app.to_json(controller.state, controller.now())
    assert body["sound"] == {"volume": 3, "muted": True}
    assert body["timer"]["state"] == "running"  # UP / DOWN did nothing to the game
    assert list(buzzer.tones)[before:] == [(None, None)]  # the tune playing stopped
    controller.advance(31.0)
    assert controller.played[-1] == "alarm"
    assert list(buzzer.tones)[before:] == [(None, None)]  # the warnings and alarm were silent
    assert SettingsFile(tmp_path).load() == SoundSettings(muted=True)
    controller.journal.close()

    restarted = simulated_controller(tmp_path, clock=clock, buzzer=RecordingBuzzer(),
                                     settings=SettingsFile(tmp_path))
    assert restarted.state.sound == SoundSettings(muted=True)
    _chord(restarted, restarted.now())
    assert SettingsFile(tmp_path).load() == SoundSettings()
    assert restarted.played[-1] == "click"  # sound is back: a click says so
    restarted.journal.close()


def test_sound_volume_from_the_menu_reaches_the_buzzer_and_the_file(tmp_path: Path) -> None:
    buzzer = RecordingBuzzer()
    controller = simulated_controller(tmp_path, buzzer=buzzer, settings=SettingsFile(tmp_path))
    assert buzzer.volumes == [VOLUME_DUTY[3]]  # the remembered (default) volume at start-up
    controller.command_line("press up")    # the last row: mute
    controller.command_line("press up")    # volume
    screen = controller.screen()
    assert screen.selected is not None and screen.lines[screen.selected] == "Volume 3/5"
    controller.command_line("press next")  # louder
    assert buzzer.volumes[-1] == VOLUME_DUTY[4]
    assert SettingsFile(tmp_path).load() == SoundSettings(4)
    assert controller.played[-1] == "click"
    controller.journal.close()


@pytest.mark.parametrize(("sounder", "alarm_hz"), [("piezo", 4000), ("magnetic", 2400),
                                                  ("speaker", 2500)])
def test_sound_the_box_plays_the_tunes_tuned_for_its_sounder(tmp_path: Path, sounder: str,
                                                             alarm_hz: int) -> None:
    """buzzer.sounder in the config reaches the player through bootstrap: time-up sounds on
    the fitted sounder's loud frequency."""
    config = config_module.defaults()
    config["buzzer"]["sounder"] = sounder
    built = build_box(config, backend="fake", clock=FakeClock(), state_dir=tmp_path,
                      rng=random.Random(1), drive="inline")
    try:
        player = built.controller.tunes
        assert player.tunes["alarm"] == ((alarm_hz, 1.2),)
        player.start("alarm", 0.0)  # the first note sounds at once; the silence is next
        assert player.notes == [(1.2, None)]
    finally:
        built.close()


def test_sound_config_refuses_a_sounder_it_has_no_tunes_for() -> None:
    with pytest.raises(config_module.ConfigError, match=r"buzzer\.sounder = 'siren'"):
        config_module.merge(config_module.defaults(), {"buzzer": {"sounder": "siren"}}, "x")


def test_options_last_chosen_survive_a_restart_beside_the_sound(tmp_path: Path) -> None:
    """Issue #27: the options a game was started with are the next game's, on this box (its
    state dir), after a restart too; saving them keeps the volume, and saving the volume keeps
    them."""
    controller = simulated_controller(tmp_path, settings=SettingsFile(tmp_path))
    assert controller.command_line("new now-boarding players=4 vip=on timer=relaxed") == "ok"
    controller.command_line("press back")  # the menu over the game: volume one step louder
    assert SettingsFile(tmp_path).load_options()["now-boarding"]["players"] == "4"
    controller.journal.close()

    restarted = simulated_controller(tmp_path, settings=SettingsFile(tmp_path))
    assert restarted.state.remembered["now-boarding"]["vip"] == "on"
    assert restarted.command_line("new timer seconds=30") == "ok"
    restarted.command_line("press back")  # the menu: choose Now Boarding (replace: yes)
    restarted.command_line("press down")
    restarted.command_line("press next")
    restarted.command_line("press next")
    menu = restarted.app.to_json(restarted.state, restarted.now())["menu"]
    assert menu["page"] == "options"
    assert {key: menu["values"][key] for key in ("players", "vip", "timer")} == {
        "players": "4", "vip": "on", "timer": "relaxed"}
    restarted.journal.close()
    store = SettingsFile(tmp_path)
    store.load()
    store.save(SoundSettings(volume=5))
    assert store.load_options()["now-boarding"]["timer"] == "relaxed"
    store.save_options({"planes": {"players": "2"}})
    assert SettingsFile(tmp_path).load() == SoundSettings(volume=5)
