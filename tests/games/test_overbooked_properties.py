"""Properties of Overbooked scoring that hold for every plane, checked with hypothesis."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.games.overbooked import EVENT_IDS, VARIANTS, score

SEAT_LETTERS = "RWBGY."


@st.composite
def planes(draw: st.DrawFn, *, section_widths: list[int] | None = None) -> list[str]:
    """A plane of 1-5 rows and 1-3 sections of 1-4 seats across."""
    widths = section_widths or draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    row_count = draw(st.integers(1, 5))
    return [
        "|".join(draw(st.text(SEAT_LETTERS, min_size=w, max_size=w)) for w in widths)
        for _ in range(row_count)
    ]


@st.composite
def games(draw: st.DrawFn, *, variant: str | None = None, events: bool = True) -> dict[str, Any]:
    player_count = draw(st.integers(1, 4))
    return {
        "variant": variant or draw(st.sampled_from(VARIANTS)),
        "events": draw(st.lists(st.sampled_from(EVENT_IDS), unique=True)) if events else [],
        "players": [
            {
                "name": f"P{index}",
                "seats": draw(planes()),
                "overbooked": draw(st.integers(0, 4)),
                "vouchers": draw(st.integers(0, 8)),
                "bonus_cards": draw(st.integers(0, 3)),
            }
            for index in range(player_count)
        ],
    }


def scores_by_name(result: dict[str, Any]) -> dict[str, tuple[int, dict[str, int]]]:
    return {p["name"]: (p["total"], p["breakdown"]) for p in result["players"]}


@given(games())
def test_overbooked_total_is_the_sum_of_the_breakdown(game: dict[str, Any]) -> None:
    result = score(game)
    for player in result["players"]:
        assert player["total"] == sum(player["breakdown"].values())
        assert all(isinstance(points, int) for points in player["breakdown"].values())


@given(games())
def test_overbooked_ranking_holds_every_player_once_best_first(game: dict[str, Any]) -> None:
    result = score(game)
    totals = {p["name"]: p["total"] for p in result["players"]}
    places = [[totals[name] for name in place] for place in result["ranking"]]
    assert sorted(name for place in result["ranking"] for name in place) == sorted(totals)
    assert all(len(set(place)) == 1 for place in places)
    assert [place[0] for place in places] == sorted({t for t in totals.values()}, reverse=True)
    assert result["winners"] == result["ranking"][0]


@given(games())
def test_overbooked_mirroring_a_plane_left_right_changes_no_score(game: dict[str, Any]) -> None:
    mirrored = {
        **game,
        "players": [
            {**player, "seats": [row[::-1] for row in player["seats"]]}
            for player in game["players"]
        ],
    }
    assert scores_by_name(score(mirrored)) == scores_by_name(score(game))


@given(games(), st.randoms(use_true_random=False))
def test_overbooked_player_order_changes_no_score(game: dict[str, Any], rng: Any) -> None:
    shuffled_players = list(game["players"])
    rng.shuffle(shuffled_players)
    shuffled = {**game, "players": shuffled_players}
    original, moved = score(game), score(shuffled)
    assert scores_by_name(moved) == scores_by_name(original)
    assert [sorted(place) for place in moved["ranking"]] == [
        sorted(place) for place in original["ranking"]
    ]


@given(games(variant="base", events=False), st.data())
def test_overbooked_an_added_empty_row_costs_its_seat_count(
    game: dict[str, Any], data: st.DataObject
) -> None:
    """Base rules, no events: a new empty row at the back costs 1 per seat, nothing else.

    One precondition: a child in the old last row would now sit beside an empty seat and lose
    its protection, so children in that row are made couples first (a red disc is inert here:
    it only pairs with reds, and the empty row holds none).
    """
    index = data.draw(st.integers(0, len(game["players"]) - 1))
    player = game["players"][index]
    seats = [*player["seats"][:-1], player["seats"][-1].replace("W", "R")]
    before = {**game, "players": [*game["players"]]}
    before["players"][index] = {**player, "seats": seats}
    empty_row = "".join("|" if letter == "|" else "." for letter in seats[-1])
    after = {**before, "players": [*before["players"]]}
    after["players"][index] = {**player, "seats": [*seats, empty_row]}

    totals_before = {p["name"]: p["total"] for p in score(before)["players"]}
    totals_after = {p["name"]: p["total"] for p in score(after)["players"]}
    seat_count = len(empty_row.replace("|", ""))
    for name, total in totals_before.items():
        expected = total - seat_count if name == player["name"] else total
        assert totals_after[name] == expected


@given(planes(), st.sampled_from(VARIANTS))
def test_overbooked_a_full_plane_has_no_empty_seat_cost(rows: list[str], variant: str) -> None:
    full = [row.replace(".", "B") for row in rows]
    result = score({"variant": variant, "players": [{"name": "Ann", "seats": full, "overbooked": 0,
                                                     "vouchers": 0, "bonus_cards": 0}]})
    assert result["players"][0]["breakdown"]["empty-seats"] == 0
