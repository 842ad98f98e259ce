"""`companion score --help` says which fields are optional exactly as the scorers decide it
(issue #31: the help once called fields optional that every scorer refused to miss).

Each field of each game's example (top level, a player's, an inline route's) is removed in
turn: the scorer must accept the input without it exactly when score_formats.OPTIONAL lists
it. Optional fields the example leaves out are added to it, to show the scorer knows them.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.registry import scorers
from companion.games.score_formats import EXAMPLES, FORMATS, OPTIONAL, help_text
from companion.games.scoring import ScoreInputError

SCORERS = scorers()
EXAMPLE_FILES = Path(__file__).resolve().parents[2] / "docs" / "examples"
# A value for each optional field that no example gives (solo: the solo example file).
ADDED = {"routes[].price": 10, "routes[].revenue": 7, "routes[].use_fee": 3}


def fields(example: dict[str, Any]) -> list[str]:
    """Every field path of an example: its keys, and each key of its first player and first
    inline route as ``players[].key`` / ``routes[].key``."""
    paths = list(example)
    for listed in ("players", "routes"):
        items = example.get(listed)
        if isinstance(items, list) and items and isinstance(items[0], dict):
            paths += [f"{listed}[].{key}" for key in items[0]]
    return paths


def without(example: dict[str, Any], path: str) -> dict[str, Any]:
    data = copy.deepcopy(example)
    container, marker, key = path.partition("[].")
    if marker:
        del data[container][0][key]
    else:
        del data[path]
    return data


def accepted(game: str, data: dict[str, Any]) -> bool:
    try:
        SCORERS[game](data)
    except ScoreInputError:
        return False
    return True


CASES = [(game, path) for game, example in EXAMPLES.items() for path in fields(example)]


def test_every_example_scores_and_the_tables_name_the_same_games() -> None:
    assert set(FORMATS) == set(OPTIONAL) == set(EXAMPLES)
    assert all(accepted(game, example) for game, example in EXAMPLES.items())


@pytest.mark.parametrize(("game", "path"), CASES, ids=[f"{g}:{p}" for g, p in CASES])
def test_a_field_may_be_left_out_exactly_when_the_help_says_optional(game: str,
                                                                     path: str) -> None:
    assert accepted(game, without(EXAMPLES[game], path)) == (path in OPTIONAL[game]), (
        f"{game}: without {path} the scorer "
        f"{'accepts' if path not in OPTIONAL[game] else 'refuses'} the input")


def test_optional_fields_the_examples_leave_out_are_known_to_the_scorers() -> None:
    given = {(game, path) for game, path in CASES}
    for game, optional in OPTIONAL.items():
        for path in optional:
            if (game, path) in given:
                continue
            if path == "solo":
                solo = json.loads((EXAMPLE_FILES / "overbooked-solo.json").read_text())
                assert accepted(game, solo)
                continue
            data = copy.deepcopy(EXAMPLES[game])
            container, _, key = path.partition("[].")
            data[container][0][key] = ADDED[path]
            assert accepted(game, data), f"{game}: {path} is not a field the scorer knows"


def test_bonus_cards_are_required_in_the_advanced_variant() -> None:
    advanced = copy.deepcopy(EXAMPLES["overbooked"]) | {"variant": "advanced"}
    assert accepted("overbooked", advanced)
    assert not accepted("overbooked", without(advanced, "players[].bonus_cards"))
    assert "required in the advanced variant" in OPTIONAL["overbooked"]["players[].bonus_cards"]


@pytest.mark.parametrize("game", sorted(FORMATS))
def test_the_help_names_optional_fields_only_in_its_optional_line(game: str) -> None:
    """The free text never says "optional" (it once did, wrongly): the line built from
    OPTIONAL is the only place, and it names every optional field."""
    assert "optional" not in FORMATS[game]
    text = " ".join(help_text(game).split())
    if OPTIONAL[game]:
        line = text[text.index("optional, every other field required:"):text.index("example:")]
        for path in OPTIONAL[game]:
            assert path.rpartition(".")[2] in line
    else:
        assert "every field is required." in text
