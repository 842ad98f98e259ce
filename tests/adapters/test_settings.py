"""The settings file: volume and mute remembered atomically; a broken file is the defaults."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.adapters.settings import FILE_NAME, SettingsFile
from companion.core.tunes import SoundSettings


def test_settings_missing_file_is_the_defaults(tmp_path: Path) -> None:
    assert SettingsFile(tmp_path).load() == SoundSettings()


@given(st.integers(1, 5), st.booleans())
def test_settings_round_trip(volume: int, muted: bool) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        store = SettingsFile(Path(directory))
        assert store.save(SoundSettings(volume, muted))
        assert store.load() == SoundSettings(volume, muted)
        assert os.listdir(directory) == [FILE_NAME]  # no temporary file left behind


def test_settings_save_replaces_the_old_file_whole(tmp_path: Path) -> None:
    store = SettingsFile(tmp_path)
    store.save(SoundSettings(5, muted=True))
    store.save(SoundSettings(2))
    assert json.loads((tmp_path / FILE_NAME).read_text()) == {"volume": 2, "muted": False}


@pytest.mark.parametrize(("content", "expected", "logged"), [
    ("{not json", SoundSettings(), "is not JSON"),
    ("[3, true]", SoundSettings(), "is not a JSON object"),
    ('{"volume": 9, "muted": true}', SoundSettings(3, muted=True), "volume 9 is not 1 to 5"),
    ('{"volume": "loud"}', SoundSettings(), "volume 'loud' is not 1 to 5"),
    ('{"volume": true}', SoundSettings(), "volume True is not 1 to 5"),
    ('{"volume": 4, "muted": "yes"}', SoundSettings(4), "muted 'yes' is not true or false"),
    ("", SoundSettings(), "is not JSON"),
])
def test_settings_a_broken_file_is_read_as_defaults_with_a_log_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, content: str,
        expected: SoundSettings, logged: str) -> None:
    (tmp_path / FILE_NAME).write_text(content)
    with caplog.at_level(logging.WARNING, logger="companion.adapters.settings"):
        assert SettingsFile(tmp_path).load() == expected
    assert logged in caplog.text


def test_settings_binary_garbage_is_read_as_defaults(tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"\xff\xfe\x00garbage")
    with caplog.at_level(logging.WARNING, logger="companion.adapters.settings"):
        assert SettingsFile(tmp_path).load() == SoundSettings()
    assert "unreadable" in caplog.text


def test_settings_a_save_that_fails_is_logged_not_raised(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the state dir should be")
    with caplog.at_level(logging.ERROR, logger="companion.adapters.settings"):
        assert SettingsFile(blocker).save(SoundSettings(1)) is False
    assert "could not save settings" in caplog.text


@pytest.mark.parametrize("options", [
    [1, 2], "players=4", {"now-boarding": "players=4"}, {"now-boarding": {"players": 4}},
])
def test_options_that_are_not_games_of_text_values_are_forgotten_the_sound_kept(
        tmp_path: Path, options: object, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / FILE_NAME).write_text(json.dumps({"volume": 4, "options": options}))
    store = SettingsFile(tmp_path)
    with caplog.at_level(logging.WARNING):
        assert store.load_options() == {}
    assert "options" in caplog.text
    assert store.load() == SoundSettings(volume=4)


def test_saving_one_half_of_the_file_keeps_the_other(tmp_path: Path) -> None:
    SettingsFile(tmp_path).save_options({"now-boarding": {"players": "4"}})
    SettingsFile(tmp_path).save(SoundSettings(volume=2, muted=True))
    fresh = SettingsFile(tmp_path)
    assert fresh.load_options() == {"now-boarding": {"players": "4"}}
    assert fresh.load() == SoundSettings(volume=2, muted=True)
