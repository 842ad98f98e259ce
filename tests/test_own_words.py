"""tools/own_words.py: runs of words a text of ours shares with a rulebook.

Punctuation, case, markup and line breaks never hide a copied run; a shared fact shorter than
the run is not one; the command exits 1 naming each run, 0 when there is none, 2 for a file it
cannot read.
"""

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # the tools are scripts beside each other
TOOL = importlib.import_module("own_words")

BOOK = ("When the timer runs out, everyone finishes their current action and the flight "
        "phase ends. Place 1 anger cube on each passenger card.")


@pytest.mark.parametrize(("ours", "found"), [
    ("When the TIMER runs out,\neveryone finishes their current action!",
     ["when the timer runs out everyone finishes their current action"]),
    ("Once time is up, finish what your hand is doing.", []),
    ("Put 1 anger cube on each waiting card.", []),             # a fact, not a sentence
])
def test_own_words_shared_runs(ours, found):
    assert TOOL.shared_runs(ours, BOOK, 7) == found


def test_own_words_reads_html_without_its_markup(tmp_path):
    page = tmp_path / "rules.html"
    page.write_text('<!-- place 1 anger cube on each passenger card -->\n<p>When the <a '
                    'href="#x">timer</a> runs <em>out</em>, everyone finishes their '
                    'turn.</p>', encoding="utf-8")
    assert TOOL.readable(page).split() == ["When", "the", "timer", "runs", "out", ",",
                                           "everyone", "finishes", "their", "turn."]
    assert TOOL.shared_runs(TOOL.readable(page), BOOK, 6) == [
        "when the timer runs out everyone finishes their"]


def test_own_words_command_exits_1_naming_each_run_and_0_when_none(tmp_path, capsys):
    book = tmp_path / "book.txt"
    book.write_text(BOOK, encoding="utf-8")
    copied = tmp_path / "copied.txt"
    copied.write_text("Rule: place 1 anger cube on each passenger card.", encoding="utf-8")
    ours = tmp_path / "ours.txt"
    ours.write_text("After the flight every waiting passenger gets a cube.", encoding="utf-8")

    assert TOOL.main([str(copied), "--source", str(book)]) == 1
    printed = capsys.readouterr()
    assert printed.out.splitlines() == [
        f'{copied}: "place 1 anger cube on each passenger card" is in {book}']
    assert "1 passage(s) shared" in printed.err

    assert TOOL.main([str(ours), "--source", str(book)]) == 0
    assert capsys.readouterr().out == "no run of 7 words shared with the sources\n"

    assert TOOL.main([str(tmp_path / "missing.txt"), "--source", str(book)]) == 2
    assert "missing.txt" in capsys.readouterr().err


def test_own_words_refuses_runs_too_short_to_mean_copying(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text(BOOK, encoding="utf-8")
    with pytest.raises(SystemExit) as refused:
        TOOL.main([str(book), "--source", str(book), "--words", "2"])
    assert refused.value.code == 2


def test_own_words_fingerprints_find_a_copied_run_without_the_source():
    prints = TOOL.fingerprints(BOOK, 7)
    assert all(len(p) == 12 for p in prints)
    assert "timer" not in " ".join(prints)  # hashes, never the source's words
    assert TOOL.shared_fingerprinted_runs(
        "Note: when the TIMER runs out, everyone finishes.", prints, 7) == [
        "when the timer runs out everyone finishes"]
    assert TOOL.shared_fingerprinted_runs("Once time is up, finish what your hand is doing.",
                                          prints, 7) == []
