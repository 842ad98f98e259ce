"""Splitting bytes into protocol lines with bounded memory (protocol/lines.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.protocol.lines import MAX_LINE_BYTES, BadEncoding, Line, LineSplitter, TooLong


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
