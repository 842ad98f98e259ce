"""The box's own settings file in the state dir: the sound's volume and mute.

What it promises:
- ``settings.json`` next to the journal, a small JSON object (``{"volume": 3, "muted": false}``).
- A save is atomic: a temporary file in the same directory, flushed and fsynced, then
  ``os.replace`` over the old one and the directory fsynced, so a power cut leaves the old
  settings or the new ones, never half a file.
- Reading never stops the box: a missing file is the defaults; a file that is not JSON, not an
  object, or holds a value out of range is read as the defaults (each field that is good is
  kept) with one warning in the log naming the file and what is wrong.
- A save that fails (read-only state dir, full card) is logged and play goes on; the
  settings still apply until the box stops.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from companion.adapters.atomic_file import write_atomically
from companion.core.tunes import DEFAULT_VOLUME, VOLUME_STEPS, SoundSettings

log = logging.getLogger(__name__)

FILE_NAME = "settings.json"


class SettingsFile:
    """Load and save :class:`SoundSettings` in ``directory / settings.json``."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / FILE_NAME

    def load(self) -> SoundSettings:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return SoundSettings()
        except (OSError, UnicodeDecodeError) as error:
            log.warning("settings %s unreadable (%s); using the defaults", self.path, error)
            return SoundSettings()
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as error:
            log.warning("settings %s is not JSON (%s); using the defaults", self.path, error)
            return SoundSettings()
        if not isinstance(data, dict):
            log.warning("settings %s is not a JSON object; using the defaults", self.path)
            return SoundSettings()
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
        return SoundSettings(volume, muted)

    def save(self, settings: SoundSettings) -> bool:
        """Write ``settings`` atomically; False (and a log line) if it could not be saved."""
        text = json.dumps({"volume": settings.volume, "muted": settings.muted}) + "\n"
        try:
            write_atomically(self.path, text)
        except OSError as error:
            log.error("could not save settings to %s: %s", self.path, error)
            return False
        return True
