"""Flight Plan win checks and the ``flight-plan`` scorer (CONTRACT.md section 4)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.flight_plan import (
    check_win,
    example_guide_text,
    guide_from_routes,
    networks,
    parse_guide,
    score,
)
from companion.games.scoring import ScoreInputError


def r(number: int, origin: str, destination: str, r1: str, r2: str, **extra: Any) -> dict[str, Any]:
    return {"number": number, "from": origin, "to": destination, "regions": [r1, r2],
            "cargo": False, **extra}


# A chain P(NA) - Q(SA) - R(EU) - S(AF) - T(AP) - U(ME); and a second, separate chain.
CHAIN = [
    r(31, "P", "Q", "NA", "SA"),
    r(32, "Q", "R", "SA", "EU", cargo=True),
    r(63, "R", "S", "EU", "AF"),
    r(64, "S", "T", "AF", "AP"),
    r(90, "T", "U", "AP", "ME"),
    r(40, "V", "W", "NA", "SA"),
    r(41, "W", "X", "SA", "EU"),
    r(70, "Y", "Z", "AF", "AP"),
    r(71, "Z", "M", "AP", "ME"),
]
# Short haul: NA 1, 2, 3; EU 4, 5; AF 6; 7 runs NA -> EU and so counts for both.
SHORT = [
    r(1, "N1", "N2", "NA", "NA", hubs=["N1"]),
    r(2, "N2", "N3", "NA", "NA"),
    r(3, "N3", "N1", "NA", "NA", hubs=["N1"]),
    r(4, "E1", "E2", "EU", "EU", hubs=["E1"]),
    r(5, "E2", "E3", "EU", "EU"),
    r(6, "F1", "F2", "AF", "AF", hubs=["F1"]),
    r(8, "A1", "A2", "AP", "AP", hubs=["A1"]),
]


#: What a player holds when a test names nothing (issue #13: every field is required).
EMPTY: dict[str, list[Any]] = {"routes": [], "hubs": [], "fleets": [], "deactivated": []}


def one(guide: list[dict[str, Any]], **player: Any) -> dict[str, Any]:
    result = score({"routes": guide, "players": [{**EMPTY, "name": "Ann", **player}]})
    players: list[dict[str, Any]] = result["players"]
    return players[0]


# --- six regions --------------------------------------------------------------------------------


def test_flight_plan_win_six_regions_through_a_chain_of_cities() -> None:
    ann = one(CHAIN, routes=[31, 32, 63, 64, 90])
    assert ann["conditions"] == {"six-regions": True, "three-hubs": False, "short-haul": False}
    assert ann["breakdown"] == {"six-regions": 1, "three-hubs": 0, "short-haul": 0}
    assert ann["total"] == 1
    assert "six-regions" not in ann["missing"]


def test_flight_plan_win_six_regions_through_a_single_city() -> None:
    star = [r(31, "M", "A", "ME", "NA"), r(32, "M", "B", "ME", "SA"), r(33, "C", "M", "EU", "ME"),
            r(34, "M", "D", "ME", "AF"), r(35, "M", "E", "ME", "AP")]
    assert one(star, routes=[31, 32, 33, 34, 35])["conditions"]["six-regions"]


def test_flight_plan_win_six_regions_in_two_separate_networks_is_no_win() -> None:
    ann = one(CHAIN, routes=[40, 41, 70, 71])  # NA SA EU + AF AP ME, not connected
    assert not ann["conditions"]["six-regions"]
    assert ann["missing"]["six-regions"] == (
        "needs AF, AP, ME (best of 2 separate networks touches 3 of 6 regions; "
        "separate networks do not add up)"
    )


def test_flight_plan_win_chain_broken_in_the_middle() -> None:
    ann = one(CHAIN, routes=[31, 32, 64, 90])  # R-S missing
    assert not ann["conditions"]["six-regions"]
    assert ann["missing"]["six-regions"].startswith("needs AF, AP, ME (best of 2 separate")


def test_flight_plan_win_stray_route_does_not_spoil_a_network() -> None:
    assert one(CHAIN, routes=[31, 32, 63, 64, 90, 40])["conditions"]["six-regions"]


@pytest.mark.parametrize(
    ("routes", "missing"),
    [([], "no routes yet; needs NA, SA, EU, AF, AP, ME"), ([31], "needs EU, AF, AP, ME"),
     ([31, 32, 63, 64], "needs ME")],
)
def test_flight_plan_win_six_regions_missing_text(routes: list[int], missing: str) -> None:
    assert one(CHAIN, routes=routes)["missing"]["six-regions"] == missing


def test_flight_plan_win_networks_are_sorted_by_reach() -> None:
    guide = guide_from_routes(CHAIN)
    found = networks(guide, [70, 40, 41, 71, 31])
    assert found == [
        (frozenset({40, 41}), frozenset({"NA", "SA", "EU"})),
        (frozenset({70, 71}), frozenset({"AF", "AP", "ME"})),
        (frozenset({31}), frozenset({"NA", "SA"})),
    ]


# --- hubs ---------------------------------------------------------------------------------------


def test_flight_plan_win_three_hubs() -> None:
    ann = one(SHORT, routes=[1, 4, 6], hubs=["N1", "E1", "F1"])
    assert ann["conditions"]["three-hubs"]


def test_flight_plan_win_two_hubs_in_one_region_count_once() -> None:
    routes = [*SHORT, r(9, "N4", "N5", "NA", "NA", hubs=["N4"])]
    ann = one(routes, routes=[1, 9, 4], hubs=["N1", "N4", "E1"])
    assert not ann["conditions"]["three-hubs"]
    assert ann["missing"]["three-hubs"] == "hubs in 2 of 3 regions"


def test_flight_plan_win_hubs_in_three_regions_with_a_deactivated_asset_is_no_win() -> None:
    ann = one(SHORT, routes=[1, 4, 6], hubs=["N1", "E1", "F1"], fleets=["short"],
              deactivated=[4])
    assert ann["conditions"] == {"six-regions": False, "three-hubs": False, "short-haul": False}
    assert ann["total"] == 0
    assert ann["missing"]["three-hubs"] == "nothing may be deactivated: reactivate route 4"
    assert ann["missing"]["short-haul"].endswith("; and nothing may be deactivated: reactivate "
                                                 "route 4")


@pytest.mark.parametrize("item", ["short", "F1"])
def test_flight_plan_win_deactivated_fleet_or_hub_blocks_too(item: str) -> None:
    ann = one(SHORT, routes=[1, 4, 6], hubs=["N1", "E1", "F1"], fleets=["short"],
              deactivated=[item])
    assert not ann["conditions"]["three-hubs"]
    kind = "fleet" if item == "short" else "hub"
    assert ann["missing"]["three-hubs"] == f"nothing may be deactivated: reactivate {kind} {item}"


# --- short haul ---------------------------------------------------------------------------------


def test_flight_plan_win_all_short_haul_of_two_regions() -> None:
    ann = one(SHORT, routes=[1, 2, 3, 6])  # all NA + all AF
    assert ann["conditions"]["short-haul"]


def test_flight_plan_win_short_haul_missing_text() -> None:
    ann = one(SHORT, routes=[1, 2, 3, 4])
    assert not ann["conditions"]["short-haul"]
    assert ann["missing"]["short-haul"] == "short haul NA 3 of 3, EU 1 of 2 (needs 5)"


def test_flight_plan_win_short_haul_between_regions_counts_for_both() -> None:
    routes = [*SHORT, r(7, "N3", "E3", "NA", "EU")]
    ann = one(routes, routes=[1, 2, 3, 6])
    assert not ann["conditions"]["short-haul"]
    assert ann["missing"]["short-haul"] == "short haul AF 1 of 1, NA 3 of 4 (needs 7)"
    assert one(routes, routes=[1, 2, 3, 6, 7])["conditions"]["short-haul"]


def test_flight_plan_win_longer_routes_do_not_count_as_short_haul() -> None:
    routes = [*SHORT, r(31, "N1", "N9", "NA", "NA")]
    assert one(routes, routes=[1, 2, 3, 6])["conditions"]["short-haul"]


def test_flight_plan_win_short_haul_needs_two_regions_in_the_guide() -> None:
    ann = one([r(1, "A", "B", "NA", "NA")], routes=[1])
    assert ann["missing"]["short-haul"] == "the guide has short-haul routes in only 1 region(s)"


def test_flight_plan_win_check_win_direct() -> None:
    guide = guide_from_routes(SHORT)
    check = check_win(guide, [1, 2, 3, 6], ["N1", "E1", "F1"])
    assert check.won and check.met == 2
    assert set(check.missing) == {"six-regions"}


# --- the scorer ---------------------------------------------------------------------------------


def test_flight_plan_score_output_shape_ranking_and_winners() -> None:
    result = score({
        "routes": SHORT,
        "players": [
            {**EMPTY, "name": "Ann", "routes": [4], "hubs": ["E1"]},
            {**EMPTY, "name": "Bo", "routes": [1, 2, 3, 6, 8], "hubs": ["N1", "F1", "A1"]},
            {**EMPTY, "name": "Cy", "routes": [5], "hubs": [], "fleets": ["cargo"]},
        ],
    })
    assert result["game"] == "flight-plan"
    assert [p["name"] for p in result["players"]] == ["Ann", "Bo", "Cy"]
    assert result["ranking"] == [["Bo"], ["Ann", "Cy"]]
    assert result["winners"] == ["Bo"]
    assert result["players"][1]["total"] == 2
    json.dumps(result)  # plain JSON


def test_flight_plan_score_every_player_meeting_a_condition_wins() -> None:
    result = score({
        "routes": SHORT,
        "players": [
            {**EMPTY, "name": "Ann", "routes": [1, 2, 3, 6]},
            {**EMPTY, "name": "Bo", "routes": [4, 5, 8], "hubs": ["E1", "A1"]},
        ],
    })
    assert result["winners"] == ["Ann", "Bo"]  # both meet a condition: both are listed
    assert result["ranking"] == [["Ann", "Bo"]]
    result = score({
        "routes": SHORT,
        "players": [
            {**EMPTY, "name": "Ann", "routes": [1, 2, 3, 6]},
            {**EMPTY, "name": "Bo", "routes": [4, 8], "hubs": ["E1", "A1"]},
            {**EMPTY, "name": "Cy", "routes": [], "hubs": []},
            {**EMPTY, "name": "Di", "routes": [], "hubs": []},
        ],
    })
    assert result["winners"] == ["Ann"]
    assert result["ranking"] == [["Ann"], ["Bo", "Cy", "Di"]]


def test_flight_plan_score_guide_path_needs_a_reader() -> None:
    with pytest.raises(ScoreInputError, match=r"routes: a guide path \('g\.toml'\) is not"):
        score({"routes": "g.toml", "players": [{**EMPTY, "name": "Ann"}]})


def test_flight_plan_score_guide_path_read_by_the_caller() -> None:
    asked: list[str] = []

    def read(path: str) -> str:
        asked.append(path)
        return example_guide_text()

    result = score({"routes": "mine.toml", "players": [
        {**EMPTY, "name": "Ann", "routes": [1, 31, 45, 70],
         "hubs": ["Alderport", "Oradan", "Lumaro"]},
    ]}, read)
    assert asked == ["mine.toml"]
    assert result["winners"] == ["Ann"]
    assert result["players"][0]["conditions"]["three-hubs"]


def test_flight_plan_score_guide_path_csv() -> None:
    csv_text = "number,from,from_region,to,to_region\n1,A,NA,B,NA\n2,C,EU,D,EU\n"
    result = score({"routes": "g.csv", "players": [{**EMPTY, "name": "Ann", "routes": [1, 2]}]},
                   lambda _path: csv_text)
    assert result["players"][0]["conditions"]["short-haul"]


def test_flight_plan_score_guide_errors_name_the_file() -> None:
    with pytest.raises(ScoreInputError, match=r"^bad\.toml, line 1, route 1: regions"):
        score({"routes": "bad.toml", "players": [{**EMPTY, "name": "Ann"}]},
              lambda _p: '[[routes]]\nnumber = 1\nfrom = "A"\nto = "B"\nregions = ["X", "NA"]\n')


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "input: expected a JSON object, got list"),
        ({"players": [{**EMPTY, "name": "Ann"}]}, "input: missing field 'routes'"),
        ({"routes": 5, "players": [{**EMPTY, "name": "Ann"}]},
         "routes: expected a route guide path or a list of routes, got int"),
        ({"routes": SHORT}, "input: missing field 'players'"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "routes": [99]}]},
         "player 'Ann': routes: route 99 is not in the guide"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "routes": "1"}]},
         "player 'Ann': routes: expected a list, got str"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "routes": ["1"]}]},
         "player 'Ann': routes[0]: expected a whole number, got '1'"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "routes": [1, 1]}]},
         "player 'Ann': routes: 1 appears twice"),
        ({"routes": SHORT,
          "players": [{**EMPTY, "name": "Ann", "routes": [1]},
                      {**EMPTY, "name": "Bo", "routes": [1]}]},
         "player 'Bo': routes: route 1 is also owned by 'Ann'"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "hubs": ["Nowhere"]}]},
         "player 'Ann': hubs[0]: 'Nowhere' is not a city of the guide"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "hubs": ["N2"]}]},
         "player 'Ann': hubs[0]: 'N2' is not a hub city"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "hubs": ["N1", "N1"]}]},
         "player 'Ann': hubs: 'N1' appears twice"),
        ({"routes": SHORT,
          "players": [{**EMPTY, "name": "Ann", "hubs": ["N1"]},
                      {**EMPTY, "name": "Bo", "hubs": ["N1"]}]},
         "player 'Bo': hubs[0]: 'N1' is also a hub of 'Ann'"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "fleets": ["jumbo"]}]},
         "player 'Ann': fleets[0]: unknown fleet 'jumbo' (expected one of short, medium, long, "
         "ultra-long, cargo)"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "fleets": ["short", "short"]}]},
         "player 'Ann': fleets: 'short' appears twice"),
        ({"routes": SHORT,
          "players": [{**EMPTY, "name": "Ann", "routes": [1], "deactivated": [2]}]},
         "player 'Ann': deactivated[0]: 2 is none of the player's routes, hubs or fleets"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "deactivated": ["short"]}]},
         "player 'Ann': deactivated[0]: 'short' is none of the player's"),
        ({"routes": SHORT,
          "players": [{**EMPTY, "name": "Ann", "routes": [1], "deactivated": [1, 1]}]},
         "player 'Ann': deactivated: 'route 1' appears twice"),
        ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann"}, {**EMPTY, "name": "Ann"}]},
         "players[1].name: 'Ann' appears twice"),
    ],
)
def test_flight_plan_score_refuses_bad_input(data: Any, message: str) -> None:
    with pytest.raises(ScoreInputError) as caught:
        score(data)
    assert str(caught.value).startswith(message)


def test_flight_plan_score_hubs_free_when_guide_marks_none() -> None:
    routes = [r(1, "A", "B", "NA", "NA"), r(2, "C", "D", "EU", "EU"), r(3, "E", "F", "AF", "AF")]
    ann = one(routes, routes=[1, 2, 3], hubs=["A", "C", "E"])
    assert ann["conditions"]["three-hubs"]


# --- properties ---------------------------------------------------------------------------------

EXAMPLE = parse_guide(example_guide_text(), "example_guide.toml")
NUMBERS = [route.number for route in EXAMPLE.routes]
HUBS = sorted(EXAMPLE.hub_cities)


@st.composite
def tables(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(1, 4))
    routes = draw(st.permutations(NUMBERS))
    hubs = draw(st.permutations(HUBS))
    players = []
    for i in range(count):
        mine = routes[i::count][: draw(st.integers(0, 12))]
        my_hubs = hubs[i::count][: draw(st.integers(0, 3))]
        players.append({**EMPTY, "name": f"P{i}", "routes": mine, "hubs": my_hubs})
    return players


@given(tables(), st.randoms(use_true_random=False))
def test_flight_plan_score_does_not_depend_on_seat_order(
    players: list[dict[str, Any]], rng: Any
) -> None:
    first = score({"routes": "example.toml", "players": players}, lambda _p: example_guide_text())
    shuffled = list(players)
    rng.shuffle(shuffled)
    second = score({"routes": "example.toml", "players": shuffled}, lambda _p: example_guide_text())
    by_name = {p["name"]: p for p in second["players"]}
    for player in first["players"]:
        assert by_name[player["name"]] == player
        assert player["total"] == sum(player["conditions"].values())
        assert set(player["missing"]) == {k for k, met in player["conditions"].items() if not met}
    assert set(first["winners"]) == set(second["winners"])
    assert {frozenset(place) for place in first["ranking"]} == {
        frozenset(place) for place in second["ranking"]}


@pytest.mark.parametrize("missing", ["routes", "hubs", "fleets", "deactivated"])
def test_flight_plan_score_every_player_field_is_required(missing: str) -> None:
    # Issue #13: a missing "deactivated" was read as none, which can turn a loss into a win.
    player = {**EMPTY, "name": "Ann"}
    del player[missing]
    with pytest.raises(ScoreInputError, match=f"player 'Ann': missing field '{missing}'"):
        score({"routes": SHORT, "players": [player]})


@pytest.mark.parametrize(("data", "fragment"), [
    ({"routes": SHORT, "players": [{**EMPTY, "name": "Ann", "hub": ["N1"]}]},
     "player 'Ann': unknown key 'hub' (did you mean 'hubs'?)"),
    ({"routes": SHORT, "player": [], "players": [{**EMPTY, "name": "Ann"}]},
     "input: unknown key 'player' (did you mean 'players'?)"),
])
def test_flight_plan_score_refuses_unknown_keys(data: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ScoreInputError) as refusal:
        score(data)
    assert fragment in str(refusal.value)
