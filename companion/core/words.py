"""Counted words in English, said once for every screen and text (pure).

``plural(1, "complaint")`` is "1 complaint", ``plural(3, "complaint")`` "3 complaints";
``plural(2, "VIP card")`` pluralises the last word only ("2 VIP cards"); a word whose plural
is not its singular plus "s" names it (``plural(2, "passenger", "passengers")`` is the same
as the default; ``plural(2, "goes", "go")`` would be a verb). :func:`agree` gives the word
alone, for a verb or a noun that follows its count elsewhere in the sentence ("1 card goes",
"2 cards go"). Every view, lesson and coach that counts says it through these two, never an
``if count == 1`` of its own.
"""

from __future__ import annotations


def agree(count: int, one: str, many: str | None = None) -> str:
    """``one`` when ``count`` is 1, else ``many`` (``one`` + "s" by default)."""
    return one if count == 1 else (many if many is not None else f"{one}s")


def plural(count: int, one: str, many: str | None = None) -> str:
    """The count and its word: ``1 complaint``, ``0 complaints``, ``2 VIP cards``."""
    return f"{count} {agree(count, one, many)}"
