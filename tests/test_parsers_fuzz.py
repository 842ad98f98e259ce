"""Fuzzing every parser but the protocol's (tests/protocol/test_fuzz.py) and the journal's:
score files (JSON and TOML, each game), the config file and the Flight Plan route guide.

Each parser either answers or raises its own typed error with a one-line message: never
RecursionError, a bare ValueError, a KeyError... (issue #13). The inputs are the shipped
examples with a random part replaced, removed or added, rendered as JSON or TOML, then
possibly cut or spliced with hostile text (deep brackets, huge numbers, surrogates).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bounded import BoundedInputError, loads_json, loads_toml
from companion.config import ConfigError, defaults, load
from companion.games.flight_plan import example_guide_text, parse_guide
from companion.games.registry import scorers
from companion.games.score_formats import EXAMPLES
from companion.games.scoring import ScoreInputError, format_table

EXAMPLES_RUN = 120

HOSTILE = st.sampled_from([
    "[" * 1000, "{" * 40, "9" * 5000, "1e999", "-1e999", "NaN", "Infinity", "0x" + "f" * 200,
    '"\\ud800"', "inf", "nan", "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f",
    "\x00", "\r\n", "'''", '"""', "#", "=", "[[players]]", "]]", ",", ":", "\\",
])

scalars = (st.none() | st.booleans() | st.integers(-(10**40), 10**40)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
           | st.sampled_from(["base", "advanced", "basic", "schools-out", "EU", "NA", "short",
                              "cargo", "London", "full-flight", "RR.|BBG", "Ann"]))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                max_size=4),
    max_leaves=10)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (the root included)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


@st.composite
def mutated(draw: st.DrawFn, example: Any) -> Any:
    """``example`` with up to three parts replaced, removed, or given a new key."""
    value = json.loads(json.dumps(example))
    for _ in range(draw(st.integers(0, 3))):
        path = draw(st.sampled_from(_paths(value)))
        if not path:
            continue
        *head, last = path
        parent = value
        for step in head:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "remove", "add"]))
        if action == "replace":
            parent[last] = draw(json_values)
        elif action == "remove":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=12))] = draw(json_values)
        else:
            parent.append(draw(json_values))
    return value


def _toml_inline(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_inline(item) for item in value if item is not None) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key)} = {_toml_inline(item)}"
                               for key, item in value.items() if item is not None) + "}"
    raise TypeError(value)


def to_toml(document: Any) -> str:
    """A JSON object as TOML (nulls left out: TOML has none); arrays of objects as [[tables]]."""
    if not isinstance(document, dict):
        return f"value = {_toml_inline(document)}\n" if document is not None else ""
    scalars_part, tables = [], []
    for key, value in document.items():
        if value is None:
            continue
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            for item in value:
                tables.append(f"[[{json.dumps(key)}]]")
                tables += [f"{json.dumps(k)} = {_toml_inline(v)}" for k, v in item.items()
                           if v is not None]
        else:
            scalars_part.append(f"{json.dumps(key)} = {_toml_inline(value)}")
    return "\n".join([*scalars_part, *tables]) + "\n"


@st.composite
def spliced(draw: st.DrawFn, text: str) -> str:
    """``text``, possibly cut short or with hostile text put in at a random place."""
    match draw(st.sampled_from(["as-is", "cut", "splice", "splice"])):
        case "cut":
            return text[:draw(st.integers(0, len(text)))]
        case "splice":
            at = draw(st.integers(0, len(text)))
            return text[:at] + draw(HOSTILE | st.text(max_size=8)) + text[at:]
    return text


def _score_text(game: str, text: str, toml: bool) -> None:
    """What ``companion score`` does with a file: decode, score, print. Only typed errors."""
    try:
        data = loads_toml(text, "in.toml") if toml else loads_json(text, "in.json")
        result = scorers(lambda path: example_guide_text())[game](data)
    except (BoundedInputError, ScoreInputError) as refusal:
        message = str(refusal)
        assert message and "\n" not in message and len(message) < 2000
        return
    json.dumps(result, allow_nan=False).encode("utf-8")
    format_table(result).encode("utf-8")


@pytest.mark.parametrize("game", sorted(EXAMPLES))
@settings(max_examples=EXAMPLES_RUN, deadline=None)
@given(data=st.data())
def test_fuzz_score_json_files(game: str, data: st.DataObject) -> None:
    document = data.draw(mutated(EXAMPLES[game]))
    _score_text(game, data.draw(spliced(json.dumps(document, ensure_ascii=False))), toml=False)


@pytest.mark.parametrize("game", sorted(EXAMPLES))
@settings(max_examples=EXAMPLES_RUN, deadline=None)
@given(data=st.data())
def test_fuzz_score_toml_files(game: str, data: st.DataObject) -> None:
    document = data.draw(mutated(EXAMPLES[game]))
    try:
        text = to_toml(document)
    except TypeError:
        return  # a shape TOML cannot write (a list of mixed tables and values)
    _score_text(game, data.draw(spliced(text)), toml=True)


@settings(max_examples=EXAMPLES_RUN, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_config_file(tmp_path: Path, data: st.DataObject) -> None:
    document = data.draw(mutated(defaults()))
    path = tmp_path / "companion.toml"
    path.write_text(data.draw(spliced(to_toml(document))), encoding="utf-8",
                    errors="surrogatepass")
    try:
        config = load(path)
    except ConfigError as refusal:
        assert "\n" not in str(refusal) and str(path) in str(refusal)
        return
    assert set(config) == set(defaults())


@settings(max_examples=EXAMPLES_RUN, deadline=None)
@given(data=st.data())
def test_fuzz_route_guide_toml(data: st.DataObject) -> None:
    text = data.draw(spliced(example_guide_text()))
    try:
        guide = parse_guide(text, "guide.toml")
    except ScoreInputError as refusal:
        assert "\n" not in str(refusal)
        return
    assert guide.routes


CSV = ("number,from,from_region,to,to_region,from_hub,to_hub,cargo,price,revenue\n"
       "12,London,EU,Paris,EU,H,,no,40,10\n"
       "45,Paris,EU,Cairo,AF,,,yes,60,15\n")


@settings(max_examples=EXAMPLES_RUN, deadline=None)
@given(data=st.data())
def test_fuzz_route_guide_csv(data: st.DataObject) -> None:
    text = data.draw(spliced(data.draw(spliced(CSV))))
    try:
        guide = parse_guide(text, "guide.csv")
    except ScoreInputError as refusal:
        assert "\n" not in str(refusal)
        return
    assert guide.routes


@settings(max_examples=EXAMPLES_RUN, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(
    ["number", "from", "to", "regions", "hubs", "cargo", "price", "revenue", "use_fee", "x"]),
    json_values, max_size=9), max_size=4))
def test_fuzz_inline_route_guide(routes: list[dict[str, Any]]) -> None:
    try:
        scorers()["flight-plan"]({"routes": routes, "players": []})
    except ScoreInputError as refusal:
        assert "\n" not in str(refusal)
