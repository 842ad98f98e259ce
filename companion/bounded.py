"""Bounded JSON and TOML decoding: every JSON or TOML input of the companion goes through here.

The protocol's ``score`` line, ``companion score`` files, the config file and the Flight Plan
route guide are typed by people (or by anything on the serial line). Python's decoders trust
their input more than a box that must stay up can: ``json`` recurses once per bracket and dies
with RecursionError on a 2 KB line of ``[``; ``int()`` refuses more than 4300 digits with a bare
ValueError; ``1e999`` decodes to infinity and ``NaN`` to a value that equals nothing; a lone
surrogate escape (``"\\ud800"``) decodes to a string that cannot be written back out as UTF-8.

Rules enforced (each breach raises :class:`BoundedInputError`, whose message names the source
and, where known, the line and column; callers turn it into ``err bad-argument`` or exit 2):

- Nesting: at most :data:`MAX_DEPTH` arrays/objects/tables inside each other. The text is
  scanned before it is parsed (brackets outside strings and comments are counted, without
  recursion), and the decoded value is walked again without recursion, which also catches
  TOML's dotted keys (``a.b.c = 1`` nests without brackets).
- Numbers: an integer has at most :data:`MAX_DIGITS` digits; a float is finite (no ``1e999``,
  ``inf``, ``NaN``, ``Infinity``) and its numeral at most :data:`MAX_NUMERAL_LENGTH` characters.
- Text: every string and key is valid Unicode that UTF-8 can carry (no lone surrogates).
- JSON objects may not repeat a key (the second value would silently replace the first).
- Size: :data:`MAX_INPUT_CHARS` characters at most (a score file or guide is a few KB).

Pure: standard library only, no files.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterator
from typing import Any, Final

from companion.errors import FixedCodeError

MAX_DEPTH: Final = 32
MAX_DIGITS: Final = 30
MAX_NUMERAL_LENGTH: Final = 40
MAX_INPUT_CHARS: Final = 1_000_000

_DIGIT: Final = re.compile(r"[0-9]")


class BoundedInputError(FixedCodeError, ValueError):
    """JSON or TOML input that is malformed or past a bound; the message says where and why
    (``bad-argument``; still a ``ValueError`` for the callers that catch one)."""

    CODE = "bad-argument"


class MalformedInput(BoundedInputError):
    """Text that is not JSON (or TOML) at all, as opposed to a document past a bound."""


def loads_json(text: str, source: str) -> Any:
    """Decode one JSON document within the bounds; ``source`` names it in messages."""
    check_size(text, source)
    _check_json_depth(text, source)
    try:
        value = json.loads(
            text,
            parse_int=lambda numeral: _int(numeral, source),
            parse_float=lambda numeral: _float(numeral, source),
            parse_constant=lambda name: _refuse_constant(name, source),
            object_pairs_hook=lambda pairs: _object(pairs, source),
        )
    except json.JSONDecodeError as error:
        raise MalformedInput(f"{source}: not valid JSON: {error.msg} at line {error.lineno} "
                                f"column {error.colno}") from None
    check_value(value, source)
    return value


def loads_toml(text: str, source: str) -> dict[str, Any]:
    """Decode one TOML document within the bounds; ``source`` names it in messages."""
    check_size(text, source)
    _check_toml_depth(text, source)
    try:
        document = tomllib.loads(text, parse_float=lambda numeral: _float(numeral, source))
    except BoundedInputError:
        raise
    except tomllib.TOMLDecodeError as error:
        raise MalformedInput(f"{source}: not valid TOML: {error}") from None
    except ValueError:
        # int() refusing a numeral past its digit limit: tomllib lets that through as is.
        raise BoundedInputError(f"{source}: a number has more than {MAX_DIGITS} digits") from None
    check_value(document, source)
    return document


def check_value(value: Any, source: str) -> None:
    """Walk a decoded value (without recursion) and enforce the bounds on what it holds."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            depth += 1
            _check_depth(depth, source)
            for key, inner in item.items():
                _check_text(key, source)
                stack.append((inner, depth))
        elif isinstance(item, list):
            depth += 1
            _check_depth(depth, source)
            stack.extend((inner, depth) for inner in item)
        elif isinstance(item, str):
            _check_text(item, source)
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if abs(item) >= 10 ** MAX_DIGITS:
                raise BoundedInputError(f"{source}: a number has more than {MAX_DIGITS} digits")
        elif isinstance(item, float) and not math.isfinite(item):
            raise BoundedInputError(f"{source}: numbers must be finite, got {item}")


# -- internals ---------------------------------------------------------------------------------


def check_size(text: str, source: str) -> None:
    """Refuse text longer than :data:`MAX_INPUT_CHARS` (for formats decoded elsewhere: CSV)."""
    if len(text) > MAX_INPUT_CHARS:
        raise BoundedInputError(f"{source}: longer than {MAX_INPUT_CHARS} characters")


def _check_depth(depth: int, source: str, where: str = "") -> None:
    if depth > MAX_DEPTH:
        raise BoundedInputError(f"{source}:{where} nested deeper than {MAX_DEPTH} levels")


def _check_text(text: str, source: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BoundedInputError(
            f"{source}: text holds a lone surrogate (\\ud800-\\udfff), not a character"
        ) from None


def _int(numeral: str, source: str) -> int:
    digits = len(_DIGIT.findall(numeral))
    if digits > MAX_DIGITS:
        raise BoundedInputError(
            f"{source}: a number has {digits} digits, at most {MAX_DIGITS} allowed")
    return int(numeral)


def _float(numeral: str, source: str) -> float:
    if len(numeral) > MAX_NUMERAL_LENGTH:
        raise BoundedInputError(f"{source}: a number is longer than {MAX_NUMERAL_LENGTH} "
                                f"characters: {numeral[:20]}...")
    value = float(numeral.replace("_", ""))
    if not math.isfinite(value):
        raise BoundedInputError(f"{source}: numbers must be finite, got {numeral}")
    return value


def _refuse_constant(name: str, source: str) -> Any:
    raise BoundedInputError(f"{source}: {name} is not a number JSON allows")


def _object(pairs: list[tuple[str, Any]], source: str) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise BoundedInputError(f"{source}: key {key[:40]!r} appears twice in one object")
        result[key] = value
    return result


def _position(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f" line {line} column {column}:"


def _check_json_depth(text: str, source: str) -> None:
    """Count brackets outside strings; refuse before json's recursive parser sees the text."""
    depth = 0
    in_string = False
    escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            _check_depth(depth, source, _position(text, index))
        elif char in "]}":
            depth -= 1


def _toml_tokens(text: str) -> Iterator[tuple[int, str]]:
    """(index, bracket) for each bracket outside TOML strings and comments."""
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char == "#":
            end = text.find("\n", index)
            index = length if end == -1 else end
            continue
        if char in "\"'":
            triple = text.startswith(char * 3, index)
            quote = char * 3 if triple else char
            index += len(quote)
            while index < length:
                if char == '"' and text[index] == "\\":
                    index += 2
                    continue
                if text.startswith(quote, index):
                    index += len(quote)
                    # A multi-line string may end with up to two more quote characters.
                    while triple and index < length and text[index] == char:
                        index += 1
                    break
                if not triple and text[index] == "\n":
                    break  # an unterminated one-line string: tomllib names the error
                index += 1
            continue
        if char in "[]{}":
            yield index, char
        index += 1


def _check_toml_depth(text: str, source: str) -> None:
    depth = 0
    for index, bracket in _toml_tokens(text):
        if bracket in "[{":
            depth += 1
            _check_depth(depth, source, _position(text, index))
        else:
            depth = max(depth - 1, 0)
