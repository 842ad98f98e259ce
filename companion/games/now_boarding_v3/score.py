"""Now Boarding v3.0 prototype (2015, cooperative, 3-6 players): scoring and the schedule's rules.

Rules enforced (rules/now-boarding-v3-prototype.txt as read by rules/CLARIFICATIONS.md):

- A player's total is the value of every passenger in their score pile, face up and face down
  (spent passengers still count). The table's final score is
  ceil(sum of every player's total / number of players).
- Rating of the final score: 0-10 Keep trying!, 11-18 Notable, 19-24 Great, 25-29 Epic,
  30-32 Legendary, 33-41 Mythic, 42+ PERFECT. A lost game has no rating (``rating`` null):
  a loss is not "PERFECT" however many passengers were scored before it.
- Advanced variant: the game is lost at once when the Lost pile holds more than 2 x players
  passengers (exactly 2 x players is not yet a loss). The basic variant has no loss.
- The game is cooperative: the table wins or loses together. ``winners`` is every player unless
  the game is lost, then nobody; ``ranking`` is one place shared by every player.
- Schedule: 3 days of 6 rounds; the 6th round of a day is the Redeye. Each round has the steps
  Departure (60 s timer in the advanced variant, untimed in basic), Arrival and Purchase.
- Departure draws one passenger per airport per player; a player has 2 airports on day 1
  (Hub A and City B), 3 on day 2 (+ City C), 4 on day 3 (+ City D). The Redeye draws none.
- Between days: the final Purchase, then every score pile is shuffled back into the supply
  (after days 1 and 2 only: day 3's piles are what the game scores), then the next city board
  and its passenger tiles join the game.
- The game also ends (and is scored normally) when a Departure finds too few tiles in the
  supply for everyone's draw.

The numbers are data.py's. Pure: standard library only, no clock, no files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from companion.games.now_boarding_v3.data import (
    ADVANCED_DEPARTURE_SECONDS,
    AIRPORTS_BY_DAY,
    CITY_ADDED_BEFORE_DAY,
    DAYS,
    DEFAULT_VARIANT,
    GAME,
    LOST_PER_PLAYER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PASSENGERS_PER_PLAYER_COLOUR,
    RATINGS,
    REDEYE_ROUND,
    ROUNDS_PER_DAY,
    VARIANTS,
    Step,
)
from companion.games.scoring import (
    JsonObject,
    ScoreInputError,
    player_label,
    players_of,
    refuse_unknown_keys,
    require_field,
    require_int,
    require_list,
    require_object,
    shown,
)


@dataclass(frozen=True)
class DayEndStep:
    """A task done at the end of a day, after the Redeye round's steps (or during them)."""

    key: Step
    text: str


def end_of_day_steps(day: int) -> tuple[DayEndStep, ...]:
    """What the table does as day ``day`` ends, in order.

    Reading: the prototype says the score piles are shuffled back "at the end of the day" but
    also scores the score piles when day 3 ends; the companion shuffles only after days 1 and 2
    (otherwise every game would score 0), and after day 3 the game is scored.
    """
    _check_day(day)
    steps = [
        DayEndStep("redeye-lost",
                   "Passengers not at their destination after the Redeye's Arrival go to the "
                   "Lost pile (Vouchers in the final Purchase can save them)"),
        DayEndStep("final-purchase", "Final Purchase: buy until nothing more is affordable"),
    ]
    if day < DAYS:
        city = CITY_ADDED_BEFORE_DAY[day + 1]
        steps += [
            DayEndStep("shuffle-score-piles",
                       "Shuffle every score pile back into the face-down supply"),
            DayEndStep("new-city",
                       f"Each player adds City {city} and its passenger tiles to the supply; "
                       "mix the supply well"),
        ]
    else:
        steps.append(DayEndStep("game-over",
                                "Game over: each player totals their score pile (face up and "
                                "face down)"))
    return tuple(steps)


def _check_day(day: int) -> None:
    if isinstance(day, bool) or not isinstance(day, int) or not 1 <= day <= DAYS:
        raise ValueError(f"day: must be 1 to {DAYS}, got {day!r}")


def _check_players(players: int) -> None:
    if (isinstance(players, bool) or not isinstance(players, int)
            or not MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ValueError(f"players: must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players!r}")


def is_redeye(round_number: int) -> bool:
    """Whether ``round_number`` (1 to 6 within a day) is the Redeye round."""
    if (isinstance(round_number, bool) or not isinstance(round_number, int)
            or not 1 <= round_number <= ROUNDS_PER_DAY):
        raise ValueError(f"round: must be 1 to {ROUNDS_PER_DAY}, got {round_number!r}")
    return round_number == REDEYE_ROUND


def airports_per_player(day: int) -> int:
    """Airports each player runs on ``day``: 2, 3, 4 on days 1, 2, 3."""
    _check_day(day)
    return AIRPORTS_BY_DAY[day]


def passengers_to_draw(day: int, players: int, round_number: int | None = None) -> int:
    """Passenger tiles drawn at a Departure: one per airport per player.

    Give ``round_number`` (1 to 6) to account for the Redeye, which draws none; without it the
    answer is for an ordinary round. Redraws (a passenger drawn at its own destination goes back
    and another is drawn) do not change the count.
    """
    _check_day(day)
    _check_players(players)
    if round_number is not None and is_redeye(round_number):
        return 0
    return AIRPORTS_BY_DAY[day] * players


def supply_runs_short(supply: int, day: int, players: int, round_number: int | None = None) -> bool:
    """Whether a Departure with ``supply`` tiles left ends the game (too few to go around).

    The game then ends at once and is scored as usual (it is not a loss).
    """
    if isinstance(supply, bool) or not isinstance(supply, int) or supply < 0:
        raise ValueError(f"supply: expected a whole number >= 0, got {supply!r}")
    return supply < passengers_to_draw(day, players, round_number)


def departure_seconds(variant: str) -> int | None:
    """The Departure time limit: 60 s in the advanced variant, ``None`` (untimed) in basic."""
    if variant not in VARIANTS:
        raise ValueError(f"variant: expected one of {', '.join(VARIANTS)}, got {variant!r}")
    return ADVANCED_DEPARTURE_SECONDS if variant == "advanced" else None


def lost_limit(players: int) -> int:
    """The most passengers the Lost pile may hold in the advanced variant: 2 x players."""
    _check_players(players)
    return LOST_PER_PLAYER * players


def is_lost(lost: int, players: int) -> bool:
    """Advanced variant: the game is lost once the Lost pile holds more than 2 x players."""
    if isinstance(lost, bool) or not isinstance(lost, int) or lost < 0:
        raise ValueError(f"lost: expected a whole number >= 0, got {lost!r}")
    return lost > lost_limit(players)


def rating(score: int) -> str:
    """The rating of a final score (CLARIFICATIONS.md): 0-10 Keep trying! ... 42+ PERFECT."""
    if isinstance(score, bool) or not isinstance(score, int) or score < 0:
        raise ValueError(f"score: expected a whole number >= 0, got {score!r}")
    label = RATINGS[0][1]
    for lowest, band in RATINGS:
        if score >= lowest:
            label = band
    return label


def final_score(totals: Sequence[int]) -> int:
    """ceil(sum of the players' totals / number of players): the prototype says round up."""
    if not totals:
        raise ValueError("totals: need at least one player")
    # Integer ceiling division: exact for any size, unlike math.ceil on a float.
    return -(-sum(totals) // len(totals))


INPUT_KEYS: Final = ("variant", "lost", "players")
PLAYER_KEYS: Final = ("name", "passengers", "total")


def _player_total(player: Mapping[str, Any], index: int) -> int:
    label = player_label(player, index)
    has_list = "passengers" in player
    has_total = "total" in player
    if has_list and has_total:
        raise ScoreInputError(f"{label}: give either 'passengers' or 'total', not both")
    if has_total:
        return require_int(player["total"], f"{label}.total")
    if not has_list:
        raise ScoreInputError(f"{label}: missing field 'passengers' (or 'total')")
    values = require_list(player["passengers"], f"{label}.passengers")
    return sum(require_int(value, f"{label}.passengers[{position}]")
               for position, value in enumerate(values))


def score(data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a finished game of the Now Boarding v3 prototype (CONTRACT.md section 4).

    Input: ``{"variant": "basic"|"advanced", "lost": N, "players": [{"name",
    "passengers": [values...]}]}``, or ``"total": n`` in place of a player's list. ``variant``
    defaults to basic (as ``new now-boarding-v3`` does); ``lost`` is required in both variants
    (the contract gives it no default; it decides the result in advanced) and is at most the
    passenger tiles in play (22 per player). Unknown keys are refused.

    Output: ``{"game": "now-boarding-v3", "variant", "players": [{"name", "total",
    "breakdown": {"passengers"}}], "ranking", "winners", "score", "rating", "lost"}`` plus
    ``"lost_game"`` in the advanced variant; ``rating`` is null when the game is lost.

    The game is cooperative: ``ranking`` is one place shared by every player, and ``winners``
    is every player when the game is not lost and empty when it is (``lost_game`` true).
    Raises :class:`ScoreInputError` naming the player and field.
    """
    data = require_object(data, "input")
    refuse_unknown_keys(data, INPUT_KEYS, "input")
    variant = data.get("variant", DEFAULT_VARIANT)
    if variant not in VARIANTS:
        raise ScoreInputError(f"variant: expected one of {', '.join(VARIANTS)}, "
                              f"got {shown(variant)}")
    players = players_of(data, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS, keys=PLAYER_KEYS)
    results: list[JsonObject] = []
    for index, player in enumerate(players):
        total = _player_total(player, index)
        results.append({"name": player["name"], "total": total,
                        "breakdown": {"passengers": total}})
    lost = require_int(require_field(data, "lost", "input"), "lost")
    tiles = PASSENGERS_PER_PLAYER_COLOUR * len(players)
    if lost > tiles:
        raise ScoreInputError(f"lost: at most {tiles} (the passenger tiles of "
                              f"{len(players)} players), got {lost}")
    names = [str(result["name"]) for result in results]
    table_score = final_score([int(result["total"]) for result in results])
    lost_game = variant == "advanced" and lost > LOST_PER_PLAYER * len(players)

    outcome: dict[str, Any] = {
        "game": GAME,
        "variant": variant,
        "players": results,
        # Cooperative: everyone shares the one place, whatever they delivered themselves.
        "ranking": [names],
        "winners": [] if lost_game else list(names),
        "score": table_score,
        "rating": None if lost_game else rating(table_score),
        "lost": lost,
    }
    if variant == "advanced":
        outcome["lost_game"] = lost_game
    return outcome
