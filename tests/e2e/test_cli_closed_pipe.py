"""A closed pipe ends the command line quietly (issue #27, item 8): `companion score --help |
head` and any other command whose reader went away exit without a traceback and without a
word on standard error, as other command-line tools do.

The reader is gone before the command writes a byte (the read end of the pipe is closed
first), so every write fails: the worst case of `| head`, not a race the test might lose."""

import json
import os
import subprocess
import sys

import pytest

from companion.games.score_formats import EXAMPLES

COMPANION = [sys.executable, "-m", "companion"]


def into_a_closed_pipe(*arguments, stdin=""):
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([*COMPANION, *arguments], input=stdin, stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("arguments", [
    ("score", "--help"),
    ("score", "planes", "--help"),
    ("--help",),
    ("run", "--help"),
    ("render", "--list"),
    ("score", "overbooked", "--example"),
    ("score", "planes", "-"),
    ("score", "--json", "planes", "-"),
], ids=" ".join)
def test_a_closed_pipe_ends_quietly(arguments):
    result = into_a_closed_pipe(*arguments, stdin=json.dumps(EXAMPLES["planes"]))
    assert "Traceback" not in result.stderr
    assert "Exception ignored" not in result.stderr
    assert result.stderr == ""
    assert result.returncode in (0, 1)


def test_a_full_disk_still_says_so():
    """Quiet is for a reader that left; a disk that refuses the output still has its line."""
    with open("/dev/full", "w") as full:
        result = subprocess.run([*COMPANION, "score", "overbooked", "--example"], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    assert result.returncode == 1
    assert "No space left on device" in result.stderr
    assert "Traceback" not in result.stderr
