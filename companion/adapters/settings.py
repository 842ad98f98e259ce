"""The box's own settings file in the state dir: the sound's volume and mute, and the options
last chosen for each game (issue #27: the next game's menu starts from them).

What it promises:
- ``settings.json`` next to the journal, a small JSON object (``{"volume": 3, "muted": false,
  "options": {"now-boarding": {"players": "4", "vip": "on"}}}``). Saving the sound keeps the
  options and saving the options keeps the sound.
- A save is atomic: a temporary file in the same directory, flushed and fsynced, then
  ``os.replace`` over the old one and the directory fsynced, so a power cut leaves the old
  settings or the new ones, never half a file.
- Reading never stops the box: a missing file is the defaults; a file that is not JSON, not an
  object, or holds a value out of range is read as the defaults (each field that is good is
  kept) with one warning in the log naming the file and what is wrong. Options that are not
  an object of games, each an object of text values, are dropped the same way; whether a
  value is still one the game offers is the menu's to judge (core/menu.py).
- A save that fails (read-only state dir, full card) is logged and play goes on; the
  settings still apply until the box stops.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.adapters.atomic_file import write_atomically
from companion.core.tunes import DEFAULT_VOLUME, VOLUME_STEPS, SoundSettings

log = logging.getLogger(__name__)

FILE_NAME = "settings.json"
MAX_REMEMBERED = 32
"""Games and options per game kept at most: a file grown by hand stays small in memory."""

Remembered = Mapping[str, Mapping[str, str]]


class SettingsFile:
    """Load and save :class:`SoundSettings` and the remembered options in
    ``directory / settings.json``."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / FILE_NAME
        # The two halves of the file as last read or saved (None: not read yet): a save of
        # one half writes the other as the file has it.
        self._sound: SoundSettings | None = None
        self._options: dict[str, dict[str, str]] | None = None

    def _read(self) -> dict[str, Any] | None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            log.warning("settings %s unreadable (%s); using the defaults", self.path, error)
            return None
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as error:
            log.warning("settings %s is not JSON (%s); using the defaults", self.path, error)
            return None
        if not isinstance(data, dict):
            log.warning("settings %s is not a JSON object; using the defaults", self.path)
            return None
        return data

    def load(self) -> SoundSettings:
        data = self._read()
        if data is None:
            self._sound = SoundSettings()
            return self._sound
        volume, muted = data.get("volume", DEFAULT_VOLUME), data.get("muted", False)
        if isinstance(volume, bool) or not isinstance(volume, int) \
                or not 1 <= volume <= VOLUME_STEPS:
            log.warning("settings %s: volume %r is not 1 to %d; using %d", self.path, volume,
                        VOLUME_STEPS, DEFAULT_VOLUME)
            volume = DEFAULT_VOLUME
        if not isinstance(muted, bool):
            log.warning("settings %s: muted %r is not true or false; using false", self.path,
                        muted)
            muted = False
        self._sound = SoundSettings(volume, muted)
        return self._sound

    def load_options(self) -> dict[str, dict[str, str]]:
        """The options last chosen, per game (``{}`` when none are kept or the file is bad)."""
        data = self._read()
        options = {} if data is None else data.get("options", {})
        if not isinstance(options, dict) or not all(
                isinstance(game, str) and isinstance(chosen, dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in chosen.items())
                for game, chosen in options.items()):
            log.warning("settings %s: options are not games of text values; forgetting them",
                        self.path)
            options = {}
        self._options = {game: dict(list(chosen.items())[:MAX_REMEMBERED])
                         for game, chosen in list(options.items())[:MAX_REMEMBERED]}
        return {game: dict(chosen) for game, chosen in self._options.items()}

    def save(self, settings: SoundSettings) -> bool:
        """Write ``settings`` atomically; False (and a log line) if it could not be saved."""
        self._sound = settings
        return self._write()

    def save_options(self, remembered: Remembered) -> bool:
        """Write the options last chosen for each game, keeping the sound as it is."""
        self._options = {game: dict(chosen) for game, chosen in remembered.items()}
        return self._write()

    def _write(self) -> bool:
        sound = self._sound if self._sound is not None else self.load()
        options = self._options if self._options is not None else self.load_options()
        body: dict[str, Any] = {"volume": sound.volume, "muted": sound.muted}
        if options:
            body["options"] = options
        text = json.dumps(body) + "\n"
        try:
            write_atomically(self.path, text)
        except OSError as error:
            log.error("could not save settings to %s: %s", self.path, error)
            return False
        return True
