"""core/words.py: one way to say a count (issue #36, item 8)."""

import pytest

from companion.core.words import agree, plural


@pytest.mark.parametrize(("count", "one", "many", "said"), [
    (0, "complaint", None, "0 complaints"),
    (1, "complaint", None, "1 complaint"),
    (2, "complaint", None, "2 complaints"),
    (1, "VIP card", None, "1 VIP card"),
    (3, "VIP card", None, "3 VIP cards"),
    (1, "passenger", None, "1 passenger"),
    (2, "child", "children", "2 children"),
])
def test_plural_says_the_count_and_its_word(count, one, many, said):
    assert plural(count, one, many) == said


@pytest.mark.parametrize(("count", "said"), [(0, "go"), (1, "goes"), (2, "go")])
def test_agree_gives_the_word_alone(count, said):
    assert agree(count, "goes", "go") == said
