"""Flight Plan starting routes: the 2d10 mapping, re-rolls, the deal and Quick Play."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.flight_plan import (
    QUICK_PLAY,
    QUICK_PLAY_ROUTES,
    deal,
    deal_quick_play,
    draw_starting_routes,
    haul_of,
    roll_route,
    roll_route_number,
    roll_starting_numbers,
)


class StubRandom(random.Random):
    """Dice values from a script; shuffle leaves the order alone."""

    def __init__(self, dice: Sequence[int]) -> None:
        super().__init__(0)
        self.dice = list(dice)
        self.rolls = 0

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (0, 9)
        self.rolls += 1
        return self.dice.pop(0)

    def shuffle(self, x: Any) -> None:
        return None


@pytest.mark.parametrize(
    ("tens", "units", "number"),
    [(7, 8, 78), (0, 0, 100), (0, 1, 1), (0, 9, 9), (1, 0, 10), (3, 0, 30), (9, 9, 99),
     (6, 3, 63), (9, 0, 90)],
)
def test_flight_plan_draw_two_dice_make_a_route_number(tens: int, units: int, number: int) -> None:
    assert roll_route_number(tens, units) == number


def test_flight_plan_draw_every_pair_is_a_different_route() -> None:
    numbers = {roll_route_number(t, u) for t in range(10) for u in range(10)}
    assert numbers == set(range(1, 101))


@pytest.mark.parametrize(("tens", "units"), [(10, 0), (-1, 3), (0, 10), (True, 0), (2.0, 1)])
def test_flight_plan_draw_refuses_impossible_dice(tens: Any, units: Any) -> None:
    with pytest.raises(ValueError, match=r"die must be 0\.\.9"):
        roll_route_number(tens, units)


def test_flight_plan_draw_rolls_tens_first() -> None:
    assert roll_route(StubRandom([7, 8])) == 78
    assert roll_route(StubRandom([0, 0])) == 100


def test_flight_plan_draw_rerolls_repeats() -> None:
    # 78, 78 again (re-rolled), 100, 5, 100 again, 78 again (both re-rolled), 42, 63, 11
    rng = StubRandom([7, 8, 7, 8, 0, 0, 0, 5, 0, 0, 7, 8, 4, 2, 6, 3, 1, 1])
    assert roll_starting_numbers(rng, 2) == [78, 100, 5, 42, 63, 11]
    assert rng.rolls == 18
    assert rng.dice == []


def test_flight_plan_draw_deals_three_each_round_the_table() -> None:
    rng = StubRandom([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9])
    assert draw_starting_routes(rng, 3) == [[1, 4, 7], [2, 5, 8], [3, 6, 9]]


@given(st.integers(0, 2**32), st.integers(2, 6))
def test_flight_plan_draw_seeded_deal_is_distinct_and_reproducible(seed: int, players: int) -> None:
    hands = draw_starting_routes(random.Random(seed), players)
    assert len(hands) == players
    assert all(len(hand) == 3 for hand in hands)
    cards = [card for hand in hands for card in hand]
    assert len(set(cards)) == 3 * players
    assert all(1 <= card <= 100 for card in cards)
    assert draw_starting_routes(random.Random(seed), players) == hands


def test_flight_plan_draw_seeded_rng_forces_real_repeats() -> None:
    # With 6 players (18 numbers) some seed repeats a number; the deal must still be distinct.
    for seed in range(50):
        rng = random.Random(seed)
        rolled = [roll_route(rng) for _ in range(18)]
        if len(set(rolled)) < 18:
            hands = draw_starting_routes(random.Random(seed), 6)
            assert len({c for hand in hands for c in hand}) == 18
            return
    pytest.fail("no seed below 50 rolled a repeat")


@pytest.mark.parametrize("players", [0, 1, 7, True])
def test_flight_plan_draw_refuses_player_counts(players: Any) -> None:
    with pytest.raises(ValueError, match="players"):
        draw_starting_routes(random.Random(1), players)


def test_flight_plan_draw_deal_needs_enough_cards() -> None:
    with pytest.raises(ValueError, match="need 9 cards"):
        deal(random.Random(1), [1, 2, 3], 3)


def test_flight_plan_draw_quick_play_set_is_the_rulebooks() -> None:
    assert QUICK_PLAY_ROUTES == (17, 18, 20, 24, 25, 33, 43, 45, 48, 52, 64, 67, 70, 81, 87,
                                 94, 97, 100)
    for haul, numbers in QUICK_PLAY.items():
        assert all(haul_of(number) == haul for number in numbers)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_flight_plan_draw_quick_play_deal(players: int) -> None:
    hands = deal_quick_play(random.Random(players), players)
    cards = [card for hand in hands for card in hand]
    assert [len(hand) for hand in hands] == [3] * players
    assert len(set(cards)) == 3 * players
    assert set(cards) <= set(QUICK_PLAY_ROUTES)
