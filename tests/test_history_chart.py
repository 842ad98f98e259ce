"""history.py's chart scales: every value on the plot, round tick steps, no crowded labels."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from companion.games.records import Chart
from companion.history import PLOT_LEFT, PLOT_RIGHT, _x_ticks, _y_scale


@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), max_size=40),
       st.booleans())
def test_history_y_scale_covers_every_value_in_few_round_steps(values: list[float],
                                                               whole: bool) -> None:
    low, high, step = _y_scale(values, whole)
    assert step > 0
    assert low <= min([0.0, *values]) and high >= max([1.0, *values])
    assert low <= 0 <= high
    assert (high - low) / step <= 12
    if whole:
        assert step == int(step)


@given(st.integers(min_value=0, max_value=5), st.integers(min_value=0, max_value=2000))
def test_history_x_tick_labels_never_overlap(low: int, count: int) -> None:
    high = low + count
    slot = (PLOT_RIGHT - PLOT_LEFT) / (count + 1)
    ticks = _x_ticks(Chart("t", "x", ()), low, high, slot)
    assert ticks[0] == (low, str(low))
    for (x0, label0), (x1, label1) in itertools.pairwise(ticks):
        assert (x1 - x0) * slot >= 3 * (len(label0) + len(label1)) + 6
