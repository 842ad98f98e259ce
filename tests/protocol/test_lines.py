"""Splitting bytes into protocol lines with bounded memory (protocol/lines.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.protocol.lines import (
    MAX_LINE_BYTES,
    BadEncoding,
    Line,
    LineSplitter,
    NotOneLine,
    TooLong,
    one_line,
)


def split(*chunks):
    splitter = LineSplitter()
    items = []
    for chunk in chunks:
        items += splitter.feed(chunk)
    return items


@pytest.mark.parametrize(("chunks", "lines"), [
    ((b"a\nb\n",), ["a", "b"]),
    ((b"a\rb\r",), ["a", "b"]),
    ((b"a\r\nb\r\n",), ["a", "b"]),
    ((b"a\r", b"\nb\n"), ["a", "b"]),           # CRLF split across reads
    ((b"a\n\nb\n",), ["a", "", "b"]),
    ((b"st", b"ate", b"\n"), ["state"]),
    ((b"unfinished",), []),
])
def test_lines_end_at_lf_cr_or_crlf(chunks, lines):
    assert split(*chunks) == [Line(text) for text in lines]


def test_lines_a_one_mebibyte_line_is_refused_once_and_not_kept():
    splitter = LineSplitter()
    items = []
    for _ in range(16):
        items += splitter.feed(b"x" * 65536)
        assert splitter.pending <= MAX_LINE_BYTES
    items += splitter.feed(b"\nstate\n")
    assert items == [TooLong(MAX_LINE_BYTES), Line("state")]


def test_lines_a_line_of_exactly_the_limit_is_accepted():
    assert split(b"y" * MAX_LINE_BYTES + b"\n") == [Line("y" * MAX_LINE_BYTES)]
    assert split(b"y" * (MAX_LINE_BYTES + 1) + b"\n") == [TooLong()]


def test_lines_invalid_utf8_is_reported_with_its_offset():
    assert split(b"ok\xff\xfe\n") == [BadEncoding(2, "invalid start byte")]


def test_lines_utf8_split_across_reads_is_whole():
    encoded = "Zürich ✈\n".encode()
    assert split(encoded[:2], encoded[2:8], encoded[8:]) == [Line("Zürich ✈")]


@given(st.binary(max_size=2000), st.lists(st.integers(min_value=1, max_value=50), max_size=30))
def test_lines_chunking_never_changes_the_result(data, cuts):
    whole = split(data)
    pieces = []
    start = 0
    for cut in cuts:
        pieces.append(data[start:start + cut])
        start += cut
    pieces.append(data[start:])
    assert split(*pieces) == whole


@pytest.mark.parametrize(("data", "item"), [
    (b"", Line("")),
    (b"\n", Line("")),
    (b"\r\n", Line("")),
    (b"state", Line("state")),
    (b"state\n", Line("state")),
    (b"state\r\n", Line("state")),
    (b"state\r", Line("state")),
    (b"  # a comment  ", Line("  # a comment  ")),
    (b"press next\npress next", NotOneLine(2)),
    (b"state\n\n", NotOneLine(2)),
    (b"state\n\r", NotOneLine(2)),
    (b"a\nb\nc", NotOneLine(3)),
    (b"\xff\xfe", BadEncoding(0, "invalid start byte")),
    (b"ok\n\xff", BadEncoding(0, "invalid start byte")),   # any bad line wins
    (b"x" * MAX_LINE_BYTES, Line("x" * MAX_LINE_BYTES)),
    (b"x" * (MAX_LINE_BYTES + 1), TooLong()),
])
def test_one_line_reads_a_message_that_must_hold_one_line(data, item):
    assert one_line(data) == item


@given(st.binary(max_size=200))
def test_one_line_agrees_with_the_splitter(data):
    item = one_line(data)
    splitter = LineSplitter()
    items = splitter.feed(data) + splitter.finish()
    if isinstance(item, NotOneLine):
        assert len(items) == item.lines > 1
    elif isinstance(item, BadEncoding):
        assert item in items
    else:
        assert items in ([item], []) and (items or item == Line(""))
