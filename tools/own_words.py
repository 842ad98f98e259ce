#!/usr/bin/env python3
"""Check that a text the project wrote (rules, lessons, step cards) is in its own words.

The rulebooks are the source of facts, never of sentences (BRIEF, DESIGN rule 16). This tool
lists every passage a text shares with a source, made of runs of ``--words`` words in a row
(7 by default):
a sentence copied or closely paraphrased shows as a run; a shared fact ("15 seconds for two or
three players") is too short to make one.

What it promises:
- Words are compared in lower case, letters, digits and ``$`` only: punctuation, markup and
  line breaks never hide a copied run. An ``.html`` text is read without its tags and
  comments (the words a reader sees).
- Each shared passage is printed once, whole, with the source it is in; exit 1 when there is any, 0
  when there is none, 2 for a file that cannot be read.

Usage: python3 tools/own_words.py TEXT... --source RULEBOOK... [--words N]
e.g.   python3 tools/own_words.py companion/web/static/rules-now-boarding.html \
           --source ../shared/rules/now-boarding.txt ../shared/rules/FACTS.md
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections.abc import Iterable, Sequence
from html.parser import HTMLParser
from pathlib import Path

DEFAULT_RUN = 7


class _Visible(HTMLParser):
    """The text of an HTML document, without tags or comments."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def words(text: str) -> list[str]:
    """The words of ``text`` as compared: lower case, letters, digits and ``$``."""
    return re.findall(r"[a-z0-9$]+", text.lower())


def readable(path: Path) -> str:
    """The words a reader sees in ``path`` (an HTML file without its markup)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in (".html", ".htm"):
        visible = _Visible()
        visible.feed(text)
        return " ".join(visible.parts)
    return text


def runs(sequence: Sequence[str], length: int) -> Iterable[tuple[str, ...]]:
    return (tuple(sequence[i:i + length]) for i in range(len(sequence) - length + 1))


def shared_runs(ours: str, theirs: str, length: int = DEFAULT_RUN) -> list[str]:
    """Every passage of ``ours`` made of runs of ``length`` words that ``theirs`` holds too
    (overlapping runs make one passage, as long as the copy), in our order, each once."""
    known = set(runs(words(theirs), length))
    mine = words(ours)
    starts = [i for i, run in enumerate(runs(mine, length)) if run in known]
    found: dict[str, None] = {}
    first = previous = None
    for start in [*starts, None]:
        if first is not None and previous is not None and (start is None
                                                           or start > previous + 1):
            found.setdefault(" ".join(mine[first:previous + length]))
            first = None
        if start is not None:
            first = start if first is None else first
            previous = start
    return list(found)


def fingerprints(text: str, length: int = DEFAULT_RUN) -> set[str]:
    """Every run of ``length`` words of ``text`` as a short one-way hash (12 hex digits of its
    SHA-256): enough to find a copied run in a text of ours without holding the source's
    sentences (tests keep a rulebook's fingerprints; the rulebooks are never in a clone)."""
    return {_fingerprint(run) for run in runs(words(text), length)}


def _fingerprint(run: tuple[str, ...]) -> str:
    return hashlib.sha256(" ".join(run).encode()).hexdigest()[:12]


def shared_fingerprinted_runs(ours: str, prints: set[str],
                              length: int = DEFAULT_RUN) -> list[str]:
    """The runs of ``length`` words of ``ours`` whose fingerprint is in ``prints``, in our
    order, each once (overlapping runs are not joined: each names a run to rewrite)."""
    found: dict[str, None] = {}
    for run in runs(words(ours), length):
        if _fingerprint(run) in prints:
            found.setdefault(" ".join(run))
    return list(found)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("texts", nargs="+", type=Path, help="the project's texts")
    parser.add_argument("--source", nargs="+", type=Path, required=True,
                        help="the rulebooks and notes the texts were written from")
    parser.add_argument("--words", type=int, default=DEFAULT_RUN,
                        help=f"the shortest shared run reported (default {DEFAULT_RUN})")
    options = parser.parse_args(argv)
    if options.words < 3:
        parser.error("--words must be 3 or more: shorter runs are ordinary phrases")
    try:
        sources = {path: readable(path) for path in options.source}
        texts = {path: readable(path) for path in options.texts}
    except (OSError, UnicodeDecodeError) as error:
        print(f"own_words: cannot read {getattr(error, 'filename', '') or error}",
              file=sys.stderr)
        return 2
    copied = 0
    for text_path, text in texts.items():
        for source_path, source in sources.items():
            for run in shared_runs(text, source, options.words):
                copied += 1
                print(f"{text_path}: \"{run}\" is in {source_path}")
    if copied:
        print(f"{copied} passage(s) shared (runs of {options.words} words or more): say them "
              "in our own words",
              file=sys.stderr)
        return 1
    print(f"no run of {options.words} words shared with the sources")
    return 0


if __name__ == "__main__":
    sys.exit(main())
