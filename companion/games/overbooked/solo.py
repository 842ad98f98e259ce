"""The three Overbooked solo scenarios (rulebook "Solo Variant", CLARIFICATIONS.md).

Rules enforced here:
- Vouchers start at 6 / 4 / 2 (easy / medium / hard); during play the player loses one per
  overbooked passenger and per card removed from the display and gains 2 per section filled.
  The score input gives the vouchers left at the end; the game is lost when they ran out, which
  we read as 0 left ("vouchers-left" must hold to win).
- A scenario is won when its two conditions hold at the end (and vouchers are left):
  - best-friends-forever: a group of 6+ of every friend colour; and 3+ couples or 3+ protected
    children.
  - couples-retreat: 5+ surrounded couples (every seat adjacent to either disc of the pair is
    occupied); and a friend group of 5+ or 3+ protected children.
  - schools-out: 8+ protected children; and a friend group of 5+ or 3+ couples.
- "Surrounded children" in the rulebook are protected children; groups, couples and protection
  follow the variant in play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from companion.games.overbooked.analysis import PlaneFacts
from companion.games.overbooked.seatmap import FRIENDS
from companion.games.scoring import (
    ScoreInputError,
    refuse_unknown_keys,
    require_field,
    require_object,
)

STARTING_VOUCHERS: dict[str, int] = {"easy": 6, "medium": 4, "hard": 2}

Conditions = Callable[[PlaneFacts], dict[str, bool]]


@dataclass(frozen=True)
class SoloGame:
    """The checked ``solo`` input object."""

    scenario: str
    difficulty: str

    @property
    def starting_vouchers(self) -> int:
        return STARTING_VOUCHERS[self.difficulty]


def _largest_friend_group(plane: PlaneFacts) -> int:
    return max(plane.largest_group(colour) for colour in FRIENDS)


def best_friends_forever(plane: PlaneFacts) -> dict[str, bool]:
    return {
        "group-of-6-of-each-friend-colour": all(
            plane.largest_group(colour) >= 6 for colour in FRIENDS
        ),
        "3-couples-or-3-protected-children": (
            len(plane.couples) >= 3 or len(plane.protected_children) >= 3
        ),
    }


def couples_retreat(plane: PlaneFacts) -> dict[str, bool]:
    surrounded = sum(1 for couple in plane.couples if plane.is_surrounded(couple))
    return {
        "5-surrounded-couples": surrounded >= 5,
        "friend-group-of-5-or-3-protected-children": (
            _largest_friend_group(plane) >= 5 or len(plane.protected_children) >= 3
        ),
    }


def schools_out(plane: PlaneFacts) -> dict[str, bool]:
    return {
        "8-protected-children": len(plane.protected_children) >= 8,
        "friend-group-of-5-or-3-couples": (
            _largest_friend_group(plane) >= 5 or len(plane.couples) >= 3
        ),
    }


SOLO_SCENARIOS: dict[str, Conditions] = {
    "best-friends-forever": best_friends_forever,
    "couples-retreat": couples_retreat,
    "schools-out": schools_out,
}
"""Each scenario's end conditions by id; the game is won when all of them hold."""

SCENARIO_TITLES: Final[Mapping[str, str]] = {
    "schools-out": "School's Out",
    "couples-retreat": "Couples' Retreat",
    "best-friends-forever": "Best Friends Forever",
}
"""Each scenario's printed title by id, in the order the table page offers them."""


def parse_solo(raw: object, player_count: int) -> SoloGame:
    """Check the ``solo`` input object: one player, a known scenario and difficulty."""
    solo = require_object(raw, "solo")
    refuse_unknown_keys(solo, ("scenario", "difficulty"), "solo")
    if player_count != 1:
        raise ScoreInputError(f"solo: a solo game has exactly one player, got {player_count}")
    scenario = require_field(solo, "scenario", "solo")
    if not isinstance(scenario, str) or scenario not in SOLO_SCENARIOS:
        known = ", ".join(SOLO_SCENARIOS)
        raise ScoreInputError(f"solo.scenario: unknown scenario {scenario!r} (expected {known})")
    difficulty = solo.get("difficulty", "easy")
    if not isinstance(difficulty, str) or difficulty not in STARTING_VOUCHERS:
        known = ", ".join(STARTING_VOUCHERS)
        raise ScoreInputError(
            f"solo.difficulty: unknown difficulty {difficulty!r} (expected {known})"
        )
    return SoloGame(scenario=scenario, difficulty=difficulty)


def solo_result(game: SoloGame, plane: PlaneFacts, vouchers: int) -> dict[str, Any]:
    """The output's ``solo`` object: whether the scenario is won and each condition."""
    conditions = {**SOLO_SCENARIOS[game.scenario](plane), "vouchers-left": vouchers > 0}
    return {
        "scenario": game.scenario,
        "difficulty": game.difficulty,
        "starting_vouchers": game.starting_vouchers,
        "won": all(conditions.values()),
        "conditions": conditions,
    }
