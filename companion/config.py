"""Configuration: packaged defaults < /etc/companion/companion.toml < the boot partition's
companion.toml (/boot/firmware/companion.toml) < flags; or defaults < --config FILE < flags.

Rules it enforces:
- Every key of a config file must exist in the packaged defaults (companion/default_config.toml)
  and have the same type (an integer where the default is an integer, and so on); a few keys
  take only listed values. Anything else stops start-up with :class:`ConfigError`, whose
  message names the file, the key and what is allowed (the command line exits 2).
- A config file that is not valid TOML (or not UTF-8) is refused the same way, with its line
  and column; so is one nested too deep or holding a number too long to be real
  (companion/bounded.py).
- The system file and the boot partition's file are read only when they exist; a file named
  with ``--config`` must exist, and is then the only file read.
- The boot partition's file is the one a person edits from any computer (the SD card's FAT
  partition, as with Raspberry Pi Imager's settings): it overrides the system file key by key,
  and is held to the same rules (a bad key there stops start-up and names that file).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from companion.bounded import MAX_INPUT_CHARS, BoundedInputError, loads_toml
from companion.errors import FixedCodeError

SYSTEM_CONFIG = Path("/etc/companion/companion.toml")
# The SD card's FAT partition, where Raspberry Pi OS (Bookworm and later) and the companion's
# card image mount it: the settings a person can change without a shell (docs/pi-image.md).
BOOT_CONFIG = Path("/boot/firmware/companion.toml")

CHOICES: dict[str, tuple[Any, ...]] = {
    "buzzer.kind": ("passive", "active"),
    "buzzer.sounder": ("piezo", "magnetic", "speaker"),
    "shutdown.handler": ("overlay", "companion"),
    "display.rotate": (0, 1, 2, 3),
    "display.interface": ("i2c", "spi"),
    "led.shows": ("power-off", "countdown"),
}

Config = dict[str, dict[str, Any]]


class ConfigError(FixedCodeError):
    """A config file that cannot be used; the message says where and what is allowed."""

    CODE = "bad-config"


def defaults() -> Config:
    text = (resources.files("companion") / "default_config.toml").read_text(encoding="utf-8")
    return loads_toml(text, "default_config.toml")


def load(path: Path | None = None, *, system_path: Path = SYSTEM_CONFIG,
         boot_path: Path = BOOT_CONFIG) -> Config:
    """The packaged defaults overlaid with ``path`` (must exist), or else with the system file
    and then the boot partition's file (each if it exists)."""
    if path is not None:
        return merge(defaults(), _read(path), str(path))
    config = defaults()
    for source in (system_path, boot_path):
        if source.exists():
            config = merge(config, _read(source), str(source))
    return config


def _read(source: Path) -> dict[str, Any]:
    """A config file's TOML table; :class:`ConfigError` naming the file when it cannot be."""
    try:
        with source.open(encoding="utf-8") as handle:
            text = handle.read(MAX_INPUT_CHARS + 1)
    except OSError as error:
        raise ConfigError(f"{source}: cannot read the config file: "
                          f"{error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{source}: not UTF-8 text") from None
    try:
        return loads_toml(text, str(source))
    except BoundedInputError as error:
        raise ConfigError(str(error)) from None


def merge(config: Config, overrides: Mapping[str, Any], source: str) -> Config:
    """``config`` with ``overrides`` applied after checking every key and value."""
    merged = copy.deepcopy(config)
    for section, values in overrides.items():
        if section not in merged:
            shown = section if section.isprintable() else repr(section)
            raise ConfigError(f"{source}: unknown section [{shown}]; sections: "
                              f"{', '.join(merged)}")
        if not isinstance(values, Mapping):
            raise ConfigError(f"{source}: {section} must be a [{section}] table")
        for key, value in values.items():
            merged[section][key] = checked(section, key, value, merged[section], source)
    return merged


def checked(section: str, key: str, value: Any, current: Mapping[str, Any], source: str) -> Any:
    """``value`` if it suits ``section.key``, else :class:`ConfigError`."""
    name = f"{section}.{key}"
    if not name.isprintable():  # a key with a newline or a control character: one line still
        name = repr(name)
    if key not in current:
        raise ConfigError(f"{source}: unknown key {name}; [{section}] takes: "
                          f"{', '.join(current)}")
    default = current[key]
    if isinstance(default, bool) != isinstance(value, bool) or not isinstance(
            value, type(default)):
        raise ConfigError(f"{source}: {name} = {value!r} should be "
                          f"{_type_name(default)}, like the default {default!r}")
    if name == "web.listen" and value:
        try:
            parse_listen(value, "127.0.0.1")
        except ValueError as error:
            raise ConfigError(f"{source}: {name} = {value!r}: {error}") from None
    allowed = CHOICES.get(name)
    if allowed is not None and value not in allowed:
        raise ConfigError(f"{source}: {name} = {value!r} is not allowed; use one of "
                          f"{', '.join(repr(choice) for choice in allowed)}")
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        raise ConfigError(f"{source}: {name} = {value} must not be negative")
    return value


def parse_listen(text: str, default_host: str) -> tuple[str, int]:
    """``[HOST:]PORT`` (IPv6 hosts in brackets) -> (host, port); ValueError says what is
    wrong. A bare PORT binds ``default_host``."""
    host, _, port_text = text.strip().rpartition(":")
    host = host.strip("[]") if host else default_host
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValueError(f"the port {port_text!r} is not a number from 0 to 65535; "
                         "write PORT or HOST:PORT, e.g. 0.0.0.0:8080")
    if not host or any(character.isspace() or character in "/@" for character in host):
        raise ValueError(f"the host {host!r} is not an address or a name")
    return host, int(port_text)


def _type_name(value: Any) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number",
            str: "a string"}.get(type(value), type(value).__name__)
