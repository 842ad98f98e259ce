"""The bounded JSON/TOML decoder (companion/bounded.py): what it refuses, what it keeps."""

import json
import math
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bounded import (
    MAX_DEPTH,
    MAX_DIGITS,
    BoundedInputError,
    MalformedInput,
    loads_json,
    loads_toml,
)

DEEP = MAX_DEPTH + 1


@pytest.mark.parametrize(("text", "fragment"), [
    ("[" * 1000, "nested deeper than 32"),
    ("[" * DEEP + "]" * DEEP, "nested deeper than 32"),
    ('{"a":' * DEEP + "1" + "}" * DEEP, "nested deeper than 32"),
    ("[" + "9" * 5000 + "]", "5000 digits"),
    ("9" * (MAX_DIGITS + 1), f"at most {MAX_DIGITS}"),
    ("-" + "9" * (MAX_DIGITS + 1), f"at most {MAX_DIGITS}"),
    ("1e999", "finite"),
    ("-1e999", "finite"),
    ("[NaN]", "NaN"),
    ("Infinity", "Infinity"),
    ("-Infinity", "Infinity"),
    ("0." + "1" * 5000, "longer than 40"),
    ('"\\ud800"', "surrogate"),
    ('{"\\udfff": 1}', "surrogate"),
    ('{"a": 1, "a": 2}', "'a' appears twice"),
    ("{broken", "not valid JSON"),
])
def test_bounded_json_refuses(text, fragment):
    with pytest.raises(BoundedInputError) as refusal:
        loads_json(text, "in.json")
    assert fragment in str(refusal.value)
    assert str(refusal.value).startswith("in.json:")


def test_bounded_json_names_the_line_and_column_of_the_too_deep_bracket():
    with pytest.raises(BoundedInputError, match="line 2 column 33"):
        loads_json("\n" + "[" * 40, "in.json")


def test_bounded_json_brackets_inside_strings_do_not_count():
    text = json.dumps({"name": "[" * 500 + '\\"{' * 100})
    assert loads_json(text, "s")["name"].startswith("[[[")


def test_bounded_json_keeps_values_within_the_bounds():
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads_json(text, "s") is not None
    assert loads_json("9" * MAX_DIGITS, "s") == int("9" * MAX_DIGITS)
    assert loads_json('{"a": [1, 2.5, true, null, "x"]}', "s") == {"a": [1, 2.5, True, None, "x"]}


def test_bounded_json_syntax_errors_are_malformed_input_bounds_are_not():
    with pytest.raises(MalformedInput):
        loads_json("{", "s")
    with pytest.raises(BoundedInputError) as refusal:
        loads_json("[" * 100, "s")
    assert not isinstance(refusal.value, MalformedInput)


@pytest.mark.parametrize(("text", "fragment"), [
    ("a = " + "[" * 1000, "nested deeper than 32"),
    ("a = " + "{b = " * 200, "nested deeper than 32"),
    ("a" + ".a" * 100 + " = 1", "nested deeper than 32"),
    ("[" + ".".join(["t"] * 100) + "]", "nested deeper than 32"),
    ("a = " + "9" * 5000, "more than 30 digits"),
    ("a = " + "9" * 31, "more than 30 digits"),
    ("a = 0x" + "f" * 5000, "more than 30 digits"),
    ("a = inf", "finite"),
    ("a = -inf", "finite"),
    ("a = nan", "finite"),
    ("a = 1e999", "finite"),
    ('a = "\\ud800"', "not valid TOML"),  # tomllib itself refuses surrogate escapes
    ("a = [", "not valid TOML"),
])
def test_bounded_toml_refuses(text, fragment):
    with pytest.raises(BoundedInputError) as refusal:
        loads_toml(text, "in.toml")
    assert fragment in str(refusal.value)
    assert str(refusal.value).startswith("in.toml:")


@pytest.mark.parametrize("text", [
    'a = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["',
    "a = '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['",
    'a = """\n[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n"""',
    "a = '''[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['''",
    "# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\na = 1",
    'a = "\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["',
    'a = """x""""\nb = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["',
])
def test_bounded_toml_brackets_in_strings_and_comments_do_not_count(text):
    assert loads_toml(text, "s") == tomllib.loads(text)


def test_bounded_toml_keeps_ordinary_documents():
    text = "[[routes]]\nnumber = 12\nprice = 1_000\nrate = 0.5\nregions = ['EU', 'EU']\n"
    assert loads_toml(text, "s") == tomllib.loads(text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_bounded_json_round_trips_what_is_within_the_bounds(value):
    try:
        decoded = loads_json(json.dumps(value), "s")
    except BoundedInputError as refusal:
        # Only text that UTF-8 cannot carry (lone surrogates) is refused here.
        assert "surrogate" in str(refusal)
        return
    assert decoded == value


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]{}"\\:,0123456789.eE-+ntrufalsNIiy \n', max_size=400))
def test_bounded_json_fuzz_only_ever_raises_its_own_error(text):
    try:
        value = loads_json(text, "s")
    except BoundedInputError:
        return
    assert value == json.loads(text)
    if isinstance(value, float):
        assert math.isfinite(value)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[]{}\"'#=.,\\abc0123456789_xe+-infa \n", max_size=400))
def test_bounded_toml_fuzz_only_ever_raises_its_own_error(text):
    try:
        value = loads_toml(text, "s")
    except BoundedInputError:
        return
    assert value == tomllib.loads(text)
