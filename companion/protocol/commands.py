"""The line protocol's commands and replies (CONTRACT.md section 2), as pure functions.

``parse(text)`` turns one line into a :class:`Command` (or ``None`` for a blank line or a
``#`` comment, which get no reply) and raises :class:`ProtocolError` for anything else that
is not a well-formed command. ``ok``, ``ok_json`` and ``err`` format the three reply forms.
Command words and button names are case-insensitive; ``new`` option keys are lower-cased,
values are kept for the game to judge (each ``key=value`` at most :data:`MAX_OPTION_CHARS`
characters). JSON (``score``, ``expect``) is decoded by :mod:`.bounded`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from companion.bounded import BoundedInputError, MalformedInput, loads_json
from companion.core.buttons import Button
from companion.errors import CompanionError

ERROR_CODE = re.compile(r"^[a-z]+(-[a-z]+)*$")


class ProtocolError(CompanionError):
    """A line that is not a valid command: ``err <code> <message>``."""


@dataclass(frozen=True)
class Help:
    pass


@dataclass(frozen=True)
class PressCommand:
    button: Button


@dataclass(frozen=True)
class HoldCommand:
    button: Button


@dataclass(frozen=True)
class NewCommand:
    game: str
    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class StateCommand:
    pass


@dataclass(frozen=True)
class ScreenCommand:
    pass


@dataclass(frozen=True)
class UndoCommand:
    pass


@dataclass(frozen=True)
class ScoreCommand:
    game: str
    data: Any


@dataclass(frozen=True)
class WaitCommand:
    seconds: float


@dataclass(frozen=True)
class PairOpenCommand:
    """``pair open``: open pairing for phones, as the menu's "Pair a phone" does (trusted
    channels only: the table page refuses it from anyone but the box's own loopback)."""


@dataclass(frozen=True)
class ExpectCommand:
    path: str
    value: Any


Command = (Help | PressCommand | HoldCommand | NewCommand | StateCommand | ScreenCommand
           | UndoCommand | ScoreCommand | WaitCommand | ExpectCommand | PairOpenCommand)

COMMANDS: dict[str, str] = {
    "help": "list the commands",
    "press BUTTON": "a short press of next, up, down or back",
    "hold BUTTON": "a long press of next, up, down or back",
    "new GAME [key=value ...]": "start a new game, leaving the current one in history",
    "state": "the current state as JSON",
    "screen": "the text on the display now",
    "undo": "take back the last accepted action (same as hold back)",
    "score GAME <json>": "score a finished game given as one JSON object",
    "wait SECONDS": "simulate only: move the fake clock forward",
    "expect PATH=VALUE": "simulate only: compare a state field with a value",
    "pair open": "open pairing for phones for 2 minutes (trusted channels only)",
}

MAX_WAIT_SECONDS = 7 * 24 * 3600
#: The longest ``key=value`` a ``new`` command takes.
MAX_OPTION_CHARS = 64


def opens_pairing(text: str) -> bool:
    """Whether a line is ``pair open`` (which only a trusted channel may send)."""
    word = text.strip().partition(" ")[0]
    return word.lower() == "pair"


def gets_reply(text: str) -> bool:
    """Whether a line gets a reply: blank lines and ``#`` comments get none."""
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("#")


def parse(text: str) -> Command | None:
    """One line -> a command; ``None`` for lines that get no reply."""
    if not gets_reply(text):
        return None
    stripped = text.strip()
    if "\x00" in stripped:
        raise ProtocolError("bad-argument", "the line contains a NUL byte")
    word, _, rest = stripped.partition(" ")
    word = word.lower()
    rest = rest.strip()
    match word:
        case "help":
            _no_arguments(word, rest)
            return Help()
        case "press" | "hold":
            button = _button(rest)
            return PressCommand(button) if word == "press" else HoldCommand(button)
        case "new":
            return _new(rest)
        case "state":
            _no_arguments(word, rest)
            return StateCommand()
        case "screen":
            _no_arguments(word, rest)
            return ScreenCommand()
        case "undo":
            _no_arguments(word, rest)
            return UndoCommand()
        case "score":
            return _score(rest)
        case "wait":
            return WaitCommand(_seconds(rest))
        case "expect":
            return _expect(rest)
        case "pair":
            if rest.lower() != "open":
                raise ProtocolError("bad-argument", "the only pair command is 'pair open'")
            return PairOpenCommand()
    raise ProtocolError("unknown-command", f"unknown command {_shown(word)}; try 'help'")


def ok() -> str:
    return "ok"


def ok_json(value: object) -> str:
    """``ok`` and one line of JSON (no newline can occur inside it)."""
    return "ok " + json.dumps(value, ensure_ascii=False, allow_nan=False)


def err(code: str, message: str) -> str:
    """``err <code> <message>``, on one line whatever the message holds."""
    if not ERROR_CODE.match(code):
        raise ValueError(f"error codes are lowercase words with hyphens, got {code!r}")
    flat = " ".join(message.split())
    return f"err {code} {flat}" if flat else f"err {code}"


def help_json() -> dict[str, object]:
    return {"commands": COMMANDS, "buttons": [str(button) for button in Button]}


def lookup(state: Any, path: str) -> Any:
    """A field of the state JSON by dotted path (``timer.state``, ``decks.morning``)."""
    value = state
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise ProtocolError("bad-argument", f"the state has no field {path!r}")
    return value


def literal(text: str) -> Any:
    """A JSON literal, or a bare word taken as a string (``expect step=flight``).

    A JSON value past the bounds of :mod:`.bounded` (too deep, a number too long) is refused
    with ``bad-argument`` rather than taken as a word."""
    try:
        return loads_json(text, "the value")
    except MalformedInput:
        return text
    except BoundedInputError as error:
        raise ProtocolError("bad-argument", str(error)) from None


# -- internals -------------------------------------------------------------------------------


def _shown(text: str, limit: int = 40) -> str:
    """Quote user text in a message, cut short so an error line stays short."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _no_arguments(word: str, rest: str) -> None:
    if rest:
        raise ProtocolError("bad-argument", f"{word} takes no arguments")


def _button(rest: str) -> Button:
    name = rest.lower()
    try:
        return Button(name)
    except ValueError:
        names = ", ".join(button.value for button in Button)
        raise ProtocolError("bad-argument",
                            f"unknown button {_shown(name)}; buttons: {names}") from None


def _new(rest: str) -> NewCommand:
    if not rest:
        raise ProtocolError("bad-argument", "new needs a game, e.g. 'new timer seconds=30'")
    game, *pairs = rest.split()
    _game_name(game)
    options: list[tuple[str, str]] = []
    seen: set[str] = set()
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key or not value:
            raise ProtocolError("bad-argument", f"options are key=value, got {_shown(pair)}")
        if len(pair) > MAX_OPTION_CHARS:
            # No option needs more; a 5000-digit number would end int() with a ValueError.
            raise ProtocolError("bad-argument", f"option {_shown(pair)} is longer than "
                                                f"{MAX_OPTION_CHARS} characters")
        key = key.lower()
        if key in seen:
            raise ProtocolError("bad-argument", f"option {key!r} is given twice")
        seen.add(key)
        options.append((key, value))
    return NewCommand(game.lower(), tuple(options))


def _game_name(game: str) -> None:
    if len(game) > MAX_OPTION_CHARS:
        raise ProtocolError("bad-argument", f"unknown game {_shown(game)}; try 'help'")


def _score(rest: str) -> ScoreCommand:
    game, _, document = rest.partition(" ")
    if not game or not document.strip():
        raise ProtocolError("bad-argument", "score needs a game and a JSON object on one line")
    _game_name(game)
    try:
        data = loads_json(document, "the score input")
    except BoundedInputError as error:
        raise ProtocolError("bad-argument", str(error)) from None
    return ScoreCommand(game.lower(), data)


def _seconds(rest: str) -> float:
    try:
        seconds = float(rest)
    except ValueError:
        raise ProtocolError("bad-argument",
                            f"wait needs a number of seconds, got {_shown(rest)}") from None
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_WAIT_SECONDS:
        raise ProtocolError("bad-argument",
                            f"wait takes 0 to {MAX_WAIT_SECONDS} seconds, got {_shown(rest)}")
    return seconds


def _expect(rest: str) -> ExpectCommand:
    path, equals, value = rest.partition("=")
    if not equals or not path.strip():
        raise ProtocolError("bad-argument",
                            "expect needs PATH=VALUE, e.g. expect timer.state=running")
    return ExpectCommand(path.strip(), literal(value.strip()))


def same_value(actual: Any, expected: Any) -> bool:
    """``expect`` equality: JSON's, so 20 equals 20.0 but true is not 1."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return type(actual) is type(expected) and actual == expected
    return bool(actual == expected)


def expect_failure(state: Any, path: str, expected: Any) -> str | None:
    """What ``expect PATH=VALUE`` says when the state's field differs (None: it holds)."""
    actual = lookup(state, path)
    if same_value(actual, expected):
        return None
    return f"{path} is {ok_json(actual)[3:]}, expected {ok_json(expected)[3:]}"
