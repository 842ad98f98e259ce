"""``companion score GAME [FILE|-]``: one finished game, scored from a file.

What it promises (CONTRACT.md sections 1 and 4, docs/scoring.md): the input is JSON, or TOML
for a ``.toml`` file, read within the bounds of companion/bounded.py (depth, number
size, text size); it is checked by the same scorer the protocol's ``score`` uses, so a refusal
names the player, row and column or the field, with exit 2. The text output carries every
fact the ``--json`` object does. With no file and a terminal on standard input it prints the
usage instead of waiting; ``--example`` prints a valid file to start from.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.exits import EXIT_OK, UsageError


def score(args: argparse.Namespace) -> int:
    """Score one finished game from a file or standard input; print a table or JSON."""
    from companion.games.registry import scorers
    from companion.games.score_formats import example_text
    from companion.games.scoring import ScoreInputError, format_table

    base = Path.cwd() if args.file == "-" else Path(args.file).resolve().parent

    def read_guide(path: str) -> str:
        from companion.bounded import MAX_INPUT_CHARS

        guide = base / path
        try:
            with guide.open(encoding="utf-8") as handle:
                return handle.read(MAX_INPUT_CHARS + 1)  # the parser refuses anything longer
        except (OSError, UnicodeDecodeError) as error:
            raise ScoreInputError(f"routes: cannot read the route guide {guide}: "
                                  f"{getattr(error, 'strerror', None) or error}") from None

    available = scorers(read_guide)
    scorer = available.get(args.game)
    if scorer is None:
        raise UsageError(f"no scorer for {args.game!r}; scorers: {', '.join(sorted(available))}")
    if args.example:
        print(example_text(args.game))
        return EXIT_OK
    if args.file == "-" and sys.stdin.isatty():
        # Nobody is piping a file in: waiting for JSON typed at a terminal helps no one.
        sys.stderr.write(args.usage)
        raise UsageError(f"give a score FILE (or pipe one into standard input); "
                         f"'companion score {args.game} --example' prints one to start from")
    source = "standard input" if args.file == "-" else args.file
    data = read_score_file(args.file)
    try:
        result = scorer(data)
    except ScoreInputError as error:
        raise UsageError(f"{source}: {error}") from None
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(format_table(result))
    return EXIT_OK


def read_score_file(name: str) -> Any:
    """The decoded score input: JSON, or TOML for a ``.toml`` file, within the bounds of
    companion/bounded.py (depth, number size, text size)."""
    from companion.bounded import (
        MAX_INPUT_CHARS,
        BoundedInputError,
        loads_json,
        loads_toml,
    )

    if name == "-":
        try:
            text, source = sys.stdin.read(MAX_INPUT_CHARS + 1), "standard input"
        except UnicodeDecodeError:
            raise UsageError("standard input: not UTF-8 text") from None
    else:
        try:
            with open(name, encoding="utf-8") as handle:
                text, source = handle.read(MAX_INPUT_CHARS + 1), name
        except OSError as error:
            raise UsageError(f"{name}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{name}: not UTF-8 text") from None
    try:
        if name.endswith(".toml"):
            return loads_toml(text, source)
        return loads_json(text, source)
    except BoundedInputError as error:
        raise UsageError(str(error)) from None
