"""Gestures from timestamped edges, under a fake clock (core/buttons.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.buttons import Button, Edge, Gesture, GestureRecognizer, GestureTiming

TIMING = GestureTiming(debounce=0.03, long_press=0.8, repeat_interval=0.15)


def feed(edges, until=None, recognizer=None):
    """Run edges through a recogniser, ticking at every deadline up to ``until``."""
    recognizer = recognizer or GestureRecognizer(TIMING)
    fired = []
    for button, pressed, at in edges:
        recognizer, gestures = _tick_until(recognizer, at, fired)
        recognizer, gestures = recognizer.on_edge(Edge(button, pressed, at))
        fired.extend(gestures)
    if until is not None:
        recognizer, _ = _tick_until(recognizer, until, fired)
    return recognizer, fired


def _tick_until(recognizer, until, fired):
    while (deadline := recognizer.next_deadline()) is not None and deadline < until:
        recognizer, gestures = recognizer.on_tick(deadline)
        fired.extend(gestures)
    recognizer, gestures = recognizer.on_tick(until)
    fired.extend(gestures)
    return recognizer, gestures


def test_gesture_ten_bouncing_edges_within_5ms_give_one_press():
    bounces = [(Button.NEXT, index % 2 == 0, 1.0 + index * 0.0005) for index in range(10)]
    _, fired = feed(bounces, until=3.0)
    assert fired == [Gesture("press", Button.NEXT, 1.0 + TIMING.debounce)]


def test_gesture_press_acts_on_the_first_edge_without_delay():
    recognizer, _ = feed([(Button.NEXT, True, 5.0)])
    assert recognizer.is_down(Button.NEXT)
    _, fired = feed([(Button.NEXT, True, 5.0), (Button.NEXT, False, 5.2)])
    assert fired == [Gesture("press", Button.NEXT, 5.2)]


def test_gesture_long_press_fires_once_while_held():
    _, fired = feed([(Button.NEXT, True, 1.0)], until=10.0)
    assert fired == [Gesture("hold", Button.NEXT, 1.8)]


def test_gesture_release_after_a_long_press_fires_nothing_more():
    _, fired = feed([(Button.BACK, True, 1.0), (Button.BACK, False, 4.0)], until=6.0)
    assert fired == [Gesture("hold", Button.BACK, 1.8)]


def test_gesture_press_during_a_long_press_does_not_double_fire():
    edges = [(Button.NEXT, True, 1.0),
             # bounce at the start of the press
             (Button.NEXT, False, 1.001), (Button.NEXT, True, 1.002),
             # another button pressed and released while NEXT is held
             (Button.UP, True, 2.0), (Button.UP, False, 2.1),
             (Button.NEXT, False, 3.0)]
    _, fired = feed(edges, until=5.0)
    assert fired == [Gesture("hold", Button.NEXT, 1.8), Gesture("press", Button.UP, 2.1)]


def test_gesture_up_and_down_repeat_when_held():
    _, fired = feed([(Button.UP, True, 0.0), (Button.UP, False, 1.2)], until=2.0)
    times = [round(gesture.at, 3) for gesture in fired]
    assert all(gesture == Gesture("press", Button.UP, gesture.at) for gesture in fired)
    assert times == [0.8, 0.95, 1.1]


def test_gesture_short_repeating_press_is_one_press():
    _, fired = feed([(Button.DOWN, True, 0.0), (Button.DOWN, False, 0.3)], until=2.0)
    assert fired == [Gesture("press", Button.DOWN, 0.3)]


def test_gesture_bouncing_release_still_ends_the_press():
    edges = [(Button.NEXT, True, 0.0), (Button.NEXT, False, 0.5), (Button.NEXT, True, 0.501),
             (Button.NEXT, False, 0.502)]
    recognizer, fired = feed(edges, until=2.0)
    assert fired == [Gesture("press", Button.NEXT, 0.5)]
    assert not recognizer.is_down(Button.NEXT)


def test_gesture_next_deadline_is_none_when_idle():
    assert GestureRecognizer(TIMING).next_deadline() is None
    recognizer, _ = feed([(Button.NEXT, True, 0.0), (Button.NEXT, False, 0.2)], until=1.0)
    assert recognizer.next_deadline() is None


@given(st.lists(st.tuples(st.sampled_from(list(Button)), st.booleans(),
                          st.floats(min_value=0.0, max_value=0.5)), max_size=40))
def test_gesture_every_press_is_matched_by_a_release_or_a_long_press(raw):
    # Whatever the bounce: every button ends released with nothing left pending, no more
    # long presses than presses, and each button's gestures in time order.
    at = 0.0
    edges = []
    for button, pressed, gap in raw:
        at += gap
        edges.append((button, pressed, at))
    for button in Button:
        edges.append((button, False, at + 1.0))
    recognizer, fired = feed(edges, until=at + 5.0)
    assert all(not recognizer.is_down(button) for button in Button)
    assert recognizer.next_deadline() is None
    presses = sum(1 for _, pressed, _ in edges if pressed)
    assert len([gesture for gesture in fired if gesture.kind == "hold"]) <= presses
    for button in Button:
        times = [gesture.at for gesture in fired if gesture.button is button]
        assert times == sorted(times)


# --- the UP+DOWN chord ---------------------------------------------------------------------

CHORD_CASES = [
    # UP then DOWN, released in either order: one chord when DOWN goes down, nothing else.
    ([(Button.UP, True, 1.0), (Button.DOWN, True, 1.05), (Button.UP, False, 1.3),
      (Button.DOWN, False, 1.35)], [Gesture("chord", Button.UP, 1.05)]),
    ([(Button.DOWN, True, 1.0), (Button.UP, True, 1.02), (Button.DOWN, False, 1.2),
      (Button.UP, False, 1.4)], [Gesture("chord", Button.UP, 1.02)]),
    # Held together for seconds: still one chord, no repeats from either button.
    ([(Button.UP, True, 1.0), (Button.DOWN, True, 1.1), (Button.UP, False, 5.0),
      (Button.DOWN, False, 5.0)], [Gesture("chord", Button.UP, 1.1)]),
    # UP released first, then pressed again while DOWN is still held: a plain UP press.
    ([(Button.UP, True, 1.0), (Button.DOWN, True, 1.1), (Button.UP, False, 1.3),
      (Button.UP, True, 1.5), (Button.UP, False, 1.6), (Button.DOWN, False, 2.0)],
     [Gesture("chord", Button.UP, 1.1), Gesture("press", Button.UP, 1.6)]),
    # One after the other is no chord: two presses.
    ([(Button.UP, True, 1.0), (Button.UP, False, 1.1), (Button.DOWN, True, 1.2),
      (Button.DOWN, False, 1.3)],
     [Gesture("press", Button.UP, 1.1), Gesture("press", Button.DOWN, 1.3)]),
    # UP already repeating when DOWN joins: the repeats so far stand, then the chord stops them.
    ([(Button.UP, True, 1.0), (Button.DOWN, True, 2.0), (Button.UP, False, 3.0),
      (Button.DOWN, False, 3.0)],
     [Gesture("press", Button.UP, 1.8), Gesture("press", Button.UP, 1.95),
      Gesture("chord", Button.UP, 2.0)]),
    # Bouncing edges on DOWN: the chord fires once, at the first accepted edge.
    ([(Button.UP, True, 1.0), (Button.DOWN, True, 1.05), (Button.DOWN, False, 1.051),
      (Button.DOWN, True, 1.052), (Button.UP, False, 1.5), (Button.DOWN, False, 1.5)],
     [Gesture("chord", Button.UP, 1.05)]),
]


@pytest.mark.parametrize(("edges", "expected"), CHORD_CASES)
def test_gesture_up_down_chord_fires_once_and_silences_both(edges, expected):
    _, fired = feed(edges, until=10.0)
    assert fired == expected


def test_gesture_chord_leaves_no_deadline_while_held():
    recognizer, fired = feed([(Button.UP, True, 1.0), (Button.DOWN, True, 1.1)], until=1.2)
    assert fired == [Gesture("chord", Button.UP, 1.1)]
    assert recognizer.next_deadline() is None


def test_gesture_chord_can_be_made_again_after_both_are_released():
    edges = [(Button.UP, True, 1.0), (Button.DOWN, True, 1.1), (Button.UP, False, 1.3),
             (Button.DOWN, False, 1.3), (Button.DOWN, True, 2.0), (Button.UP, True, 2.1),
             (Button.DOWN, False, 2.3), (Button.UP, False, 2.3)]
    _, fired = feed(edges, until=5.0)
    assert fired == [Gesture("chord", Button.UP, 1.1), Gesture("chord", Button.UP, 2.1)]
