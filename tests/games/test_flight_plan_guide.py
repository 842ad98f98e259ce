"""Flight Plan route guide: parsing TOML, CSV and inline guides; every validator message."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.flight_plan import (
    FLEETS,
    HAUL_RANGES,
    REGIONS,
    BankRules,
    FleetPrices,
    Route,
    example_guide_text,
    guide_from_routes,
    haul_of,
    parse_guide,
)
from companion.games.scoring import ScoreInputError

GOOD = """\
title = "test"

[bank]
hub_use_fee = 10

[fleets]
short = 100
ultra-long = 250

[[routes]]
number = 1
from = "A"
to = "B"
regions = ["NA", "NA"]
hubs = ["A"]
price = 30
revenue = 10

[[routes]]
number = 95
from = "B"
to = "C"
regions = ["NA", "EU"]
cargo = true
"""

ROUTE_1 = 'number = 1\nfrom = "A"\nto = "B"\nregions = ["NA", "NA"]\n'


def test_flight_plan_guide_parses_good_toml() -> None:
    guide = parse_guide(GOOD, "g.toml")
    assert guide.title == "test"
    assert guide.source == "g.toml"
    assert [r.number for r in guide.routes] == [1, 95]
    first = guide.routes[0]
    assert first == Route(1, "A", "B", ("NA", "NA"), frozenset({"A"}), False, 30, 10, None)
    assert guide.routes[1].cargo is True
    assert guide.routes[1].price is None and guide.routes[1].revenue is None
    assert guide.fleets == FleetPrices(short=100, ultra_long=250)
    assert guide.fleets.price("ultra-long") == 250
    assert guide.fleets.price("medium") is None
    assert guide.bank == BankRules(hub_use_fee=10)
    assert guide.bank.start_cash(2) == 1000
    assert guide.bank.start_cash(6) == 750
    assert dict(guide.city_regions) == {"A": "NA", "B": "NA", "C": "EU"}
    assert guide.hub_cities == {"A"}
    assert guide.route(95) is guide.routes[1]
    assert guide.route(50) is None


def test_flight_plan_guide_defaults_are_the_rulebooks() -> None:
    guide = parse_guide("[[routes]]\n" + ROUTE_1, "g.toml")
    assert guide.bank == BankRules(1000, 750, 250, 20, None)
    assert guide.fleets == FleetPrices()
    assert guide.routes[0].hubs == frozenset()
    assert guide.routes[0].cargo is False


@pytest.mark.parametrize(
    ("number", "haul"),
    [(1, "short"), (30, "short"), (31, "medium"), (62, "medium"), (63, "long"), (89, "long"),
     (90, "ultra-long"), (100, "ultra-long")],
)
def test_flight_plan_guide_haul_classes(number: int, haul: str) -> None:
    assert haul_of(number) == haul


@pytest.mark.parametrize("number", [0, 101, -3])
def test_flight_plan_guide_haul_of_out_of_range(number: int) -> None:
    with pytest.raises(ValueError, match=r"1\.\.100"):
        haul_of(number)


def _routes(*bodies: str) -> str:
    """TOML with one [[routes]] table per body; table k's header is on line 1 + 6k."""
    return "".join("[[routes]]\n" + body + "\n" * (5 - body.count("\n")) for body in bodies)


def test_flight_plan_guide_routes_helper_places_headers() -> None:
    text = _routes(ROUTE_1, ROUTE_1)
    assert text.splitlines()[6] == "[[routes]]"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[routes]]\nnumber = \n", "g.toml: not valid TOML: "),
        ("[[route]]\n" + ROUTE_1,
         "g.toml: unknown key 'route' (did you mean 'routes'?); expected title, bank, fleets, "
         "routes"),
        ('title = "x"\n', "g.toml: no routes: add one [[routes]] table per route card"),
        ("routes = 3\n", "g.toml: routes: expected [[routes]] tables, got int"),
        ("routes = []\n", "g.toml: no routes: a guide needs at least one route"),
        ("title = 5\n" + "[[routes]]\n" + ROUTE_1, "g.toml: title: expected text, got 5"),
        (_routes(ROUTE_1.replace("number = 1", "number = 0")),
         "g.toml, line 1: number: must be at least 1, got 0"),
        (_routes(ROUTE_1.replace("number = 1", "number = 101")),
         "g.toml, line 1: number: must be at most 100, got 101"),
        (_routes(ROUTE_1.replace("number = 1", 'number = "1"')),
         "g.toml, line 1: number: expected a whole number, got '1'"),
        (_routes(ROUTE_1.replace("number = 1\n", "")), "g.toml, line 1: number: missing"),
        (_routes(ROUTE_1, ROUTE_1.replace('"A"', '"D"')),
         "g.toml, line 7, route 1: number: route 1 appears twice (first at g.toml, line 1, "
         "route 1)"),
        (_routes(ROUTE_1.replace('"NA", "NA"', '"NA", "XX"')),
         "g.toml, line 1, route 1: regions: unknown region 'XX' (expected one of NA, SA, EU, AF, "
         "AP, ME)"),
        (_routes(ROUTE_1.replace('"NA", "NA"', '"na", "NA"')),
         "g.toml, line 1, route 1: regions: unknown region 'na'"),
        (_routes(ROUTE_1.replace('["NA", "NA"]', '["NA"]')),
         "g.toml, line 1, route 1: regions: expected two regions (of from and to), got ['NA']"),
        (_routes(ROUTE_1.replace('regions = ["NA", "NA"]\n', "")),
         "g.toml, line 1, route 1: regions: missing"),
        (_routes(ROUTE_1, 'number = 2\nfrom = "B"\nto = "C"\nregions = ["EU", "EU"]\n'),
         "g.toml, line 7, route 2: regions: city 'B' is in EU here but in NA at g.toml, line 1, "
         "route 1"),
        (_routes(ROUTE_1.replace('to = "B"', 'to = "A"')),
         "g.toml, line 1, route 1: to: the route must end elsewhere than 'A'"),
        (_routes(ROUTE_1.replace('from = "A"\n', "")), "g.toml, line 1, route 1: from: missing"),
        (_routes(ROUTE_1.replace('to = "B"', 'to = "  "')),
         "g.toml, line 1, route 1: to: expected a city name, got '  '"),
        (_routes(ROUTE_1.replace('to = "B"', "to = 7")),
         "g.toml, line 1, route 1: to: expected a city name, got 7"),
        (_routes(ROUTE_1 + 'hubs = ["C"]\n'),
         "g.toml, line 1, route 1: hubs: 'C' is not one of the route's ends 'A', 'B'"),
        (_routes(ROUTE_1 + 'hubs = ["A", "A"]\n'),
         "g.toml, line 1, route 1: hubs: 'A' appears twice"),
        (_routes(ROUTE_1 + 'hubs = "A"\n'),
         "g.toml, line 1, route 1: hubs: expected a list of cities, got 'A'"),
        (_routes(ROUTE_1 + 'hubs = ["A"]\n',
                 'number = 2\nfrom = "A"\nto = "C"\nregions = ["NA", "NA"]\nhubs = []\n'),
         "g.toml, line 7, route 2: hubs: city 'A' is not a hub here but a hub at g.toml, line 1, "
         "route 1"),
        (_routes(ROUTE_1 + "hubs = []\n",
                 'number = 2\nfrom = "A"\nto = "C"\nregions = ["NA", "NA"]\nhubs = ["A"]\n'),
         "g.toml, line 7, route 2: hubs: city 'A' is a hub here but not a hub at g.toml, line 1"),
        (_routes(ROUTE_1 + 'cargo = "yes"\n'),
         "g.toml, line 1, route 1: cargo: expected true or false, got 'yes'"),
        (_routes(ROUTE_1 + "price = -5\n"),
         "g.toml, line 1, route 1: price: must be at least 0, got -5"),
        (_routes(ROUTE_1 + "revenue = 1.5\n"),
         "g.toml, line 1, route 1: revenue: expected a whole number, got 1.5"),
        (_routes(ROUTE_1 + "use_fee = true\n"),
         "g.toml, line 1, route 1: use_fee: expected a whole number, got True"),
        (_routes(ROUTE_1 + "prise = 40\n"),
         "g.toml, line 1: unknown key 'prise' (did you mean 'price'?)"),
        ("[fleets]\njumbo = 5\n" + _routes(ROUTE_1), "g.toml: [fleets]: unknown key 'jumbo'"),
        ("[fleets]\nshort = -1\n" + _routes(ROUTE_1),
         "g.toml: [fleets] short: must be at least 0, got -1"),
        ("fleets = 3\n" + _routes(ROUTE_1), "g.toml: [fleets]: expected a table, got 3"),
        ('[bank]\nhub_price = "x"\n' + _routes(ROUTE_1),
         "g.toml: [bank] hub_price: expected a whole number, got 'x'"),
        ("[bank]\nhub_fee = 5\n" + _routes(ROUTE_1),
         "g.toml: [bank]: unknown key 'hub_fee' (did you mean 'hub_use_fee'?)"),
    ],
)
def test_flight_plan_guide_refuses_broken_toml(text: str, message: str) -> None:
    with pytest.raises(ScoreInputError) as caught:
        parse_guide(text, "g.toml")
    assert message in str(caught.value)


def test_flight_plan_guide_broken_toml_names_the_line() -> None:
    with pytest.raises(ScoreInputError, match=r"g\.toml: not valid TOML: .*line 2"):
        parse_guide("[[routes]]\nnumber = \n", "g.toml")


def test_flight_plan_guide_inline_array_of_tables_names_the_index() -> None:
    text = 'routes = [{number = 1, from = "A", to = "B", regions = ["NA", "QQ"]}]\n'
    with pytest.raises(ScoreInputError, match=r"^g\.toml, routes\[0\], route 1: regions: unknown"):
        parse_guide(text, "g.toml")


# --- inline guides (the score input) ------------------------------------------------------------


def test_flight_plan_guide_inline_routes() -> None:
    guide = guide_from_routes(
        [
            {"number": 12, "from": "LHR", "to": "CDG", "regions": ["EU", "EU"], "cargo": False},
            {"number": 3, "from": "CDG", "to": "JFK", "regions": ["EU", "NA"], "cargo": True,
             "price": 40, "revenue": 10, "hubs": ["JFK"]},
        ]
    )
    assert [r.number for r in guide.routes] == [3, 12]
    assert guide.hub_cities == {"JFK"}


@pytest.mark.parametrize(
    ("routes", "message"),
    [
        ({"number": 1}, "routes: expected a list of routes, got dict"),
        ([], "routes: no routes"),
        ([5], "routes[0]: expected a route object, got int"),
        ([{"number": 1, "from": "A", "to": "B", "regions": ["EU", "EU"]},
          {"number": 2, "from": "B", "to": "C", "regions": ["EU", "ZZ"]}],
         "routes[1], route 2: regions: unknown region 'ZZ'"),
        ([{"number": 1, "from": "A", "to": "B", "regions": "EU"}],
         "routes[0], route 1: regions: expected two regions"),
        ([{"number": True, "from": "A", "to": "B", "regions": ["EU", "EU"]}],
         "routes[0]: number: expected a whole number, got True"),
        ([{"number": 1, "from": "A", "to": "B", "regions": ["EU", "EU"], "cargo": 1}],
         "routes[0], route 1: cargo: expected true or false, got 1"),
        ([{"number": 1, "from": "A", "to": "B", "regions": ["EU", "EU"], "hub": ["A"]}],
         "routes[0]: unknown key 'hub' (did you mean 'hubs'?)"),
    ],
)
def test_flight_plan_guide_refuses_broken_inline(routes: object, message: str) -> None:
    with pytest.raises(ScoreInputError) as caught:
        guide_from_routes(routes)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)


def test_flight_plan_guide_hubs_omitted_says_nothing() -> None:
    guide = guide_from_routes(
        [
            {"number": 1, "from": "A", "to": "B", "regions": ["EU", "EU"], "hubs": ["A"]},
            {"number": 2, "from": "A", "to": "C", "regions": ["EU", "EU"]},
        ]
    )
    assert guide.hub_cities == {"A"}


# --- CSV ----------------------------------------------------------------------------------------

GOOD_CSV = """\
# a comment line
number,from,from_region,to,to_region,from_hub,to_hub,cargo,price,revenue,use_fee
1,A,NA,B,NA,H,,no,30,10,5

95,B,NA,C,EU,,yes,C,,,
"""


def test_flight_plan_guide_parses_csv() -> None:
    guide = parse_guide(GOOD_CSV, "guide.CSV")
    assert guide.routes == (
        Route(1, "A", "B", ("NA", "NA"), frozenset({"A"}), False, 30, 10, 5),
        Route(95, "B", "C", ("NA", "EU"), frozenset({"C"}), True, None, None, None),
    )
    assert guide.bank == BankRules()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "g.csv: empty"),
        ("number,from,to\n", "g.csv, line 1: missing column 'from_region'"),
        ("number,from,from_region,to,to_region,prise\n",
         "g.csv, line 1: unknown column 'prise'"),
        ("number,from,from_region,to,to_region,to\n", "g.csv, line 1: column 'to' appears twice"),
        ("number,from,from_region,to,to_region\n", "g.csv: no routes"),
        ("#c\nnumber,from,from_region,to,to_region\n1,A,NA,B\n",
         "g.csv, line 3: expected 5 cells like the header, got 4"),
        ("number,from,from_region,to,to_region\none,A,NA,B,NA\n",
         "g.csv, line 2: number: expected a whole number, got 'one'"),
        ("number,from,from_region,to,to_region,cargo\n1,A,NA,B,NA,maybe\n",
         "g.csv, line 2: cargo: expected yes or no, got 'maybe'"),
        ("number,from,from_region,to,to_region,price\n1,A,NA,B,NA,4.5\n",
         "g.csv, line 2, route 1: price: expected a whole number, got '4.5'"),
        ("number,from,from_region,to,to_region\n1,A,NA,B,NA\n\n1,C,NA,D,NA\n",
         "g.csv, line 4, route 1: number: route 1 appears twice (first at g.csv, line 2, route 1)"),
        ("number,from,from_region,to,to_region\n1,A,NA,B,Europe\n",
         "g.csv, line 2, route 1: regions: unknown region 'Europe'"),
    ],
)
def test_flight_plan_guide_refuses_broken_csv(text: str, message: str) -> None:
    with pytest.raises(ScoreInputError) as caught:
        parse_guide(text, "g.csv")
    assert str(caught.value).startswith(message)


# --- round trip: any valid guide written as TOML or CSV reads back the same -----------------------

CITIES = [f"City {i}" for i in range(12)]
CITY_REGION = {city: REGIONS[i % 6] for i, city in enumerate(CITIES)}
HUB_CITIES = set(CITIES[::3])


@st.composite
def route_sets(draw: st.DrawFn) -> list[Route]:
    numbers = draw(st.lists(st.integers(1, 100), min_size=1, max_size=15, unique=True))
    routes = []
    for number in numbers:
        origin, destination = draw(st.lists(st.sampled_from(CITIES), min_size=2, max_size=2,
                                            unique=True))
        money = st.none() | st.integers(0, 500)
        routes.append(
            Route(
                number=number,
                origin=origin,
                destination=destination,
                regions=(CITY_REGION[origin], CITY_REGION[destination]),
                hubs=frozenset({origin, destination} & HUB_CITIES),
                cargo=draw(st.booleans()),
                price=draw(money),
                revenue=draw(money),
                use_fee=draw(money),
            )
        )
    return routes


def _toml(routes: list[Route]) -> str:
    out = []
    for r in routes:
        out.append(f'[[routes]]\nnumber = {r.number}\nfrom = "{r.origin}"\nto = "{r.destination}"\n'
                   f'regions = ["{r.regions[0]}", "{r.regions[1]}"]\n'
                   f"hubs = [{', '.join(f'{chr(34)}{h}{chr(34)}' for h in sorted(r.hubs))}]\n"
                   f"cargo = {str(r.cargo).lower()}\n")
        for key in ("price", "revenue", "use_fee"):
            if getattr(r, key) is not None:
                out.append(f"{key} = {getattr(r, key)}\n")
    return "".join(out)


def _csv(routes: list[Route]) -> str:
    def cell(value: int | None) -> str:
        return "" if value is None else str(value)

    rows = ["number,from,from_region,to,to_region,from_hub,to_hub,cargo,price,revenue,use_fee"]
    for r in routes:
        rows.append(",".join([
            str(r.number), r.origin, r.regions[0], r.destination, r.regions[1],
            "H" if r.origin in r.hubs else "", "H" if r.destination in r.hubs else "",
            "yes" if r.cargo else "no", cell(r.price), cell(r.revenue), cell(r.use_fee),
        ]))
    return "\n".join(rows) + "\n"


@given(route_sets())
def test_flight_plan_guide_round_trips_toml_and_csv(routes: list[Route]) -> None:
    expected = tuple(sorted(routes, key=lambda r: r.number))
    assert parse_guide(_toml(routes), "x.toml").routes == expected
    assert parse_guide(_csv(routes), "x.csv").routes == expected


# --- the shipped example ------------------------------------------------------------------------


def test_flight_plan_guide_example_parses_and_is_complete() -> None:
    text = example_guide_text()
    assert "NOT the publisher's data" in text.splitlines()[1]
    guide = parse_guide(text, "example_guide.toml")
    assert guide.routes
    for route in guide.routes:
        assert 1 <= route.number <= 100
        assert route.origin != route.destination
        assert set(route.regions) <= set(REGIONS)
        assert route.hubs <= set(route.cities)
        for city, region in zip(route.cities, route.regions, strict=True):
            assert guide.city_regions[city] == region
    assert {r for route in guide.routes for r in route.regions} == set(REGIONS)
    assert {guide.city_regions[c] for c in guide.hub_cities} == set(REGIONS)
    assert {route.haul for route in guide.routes} == set(HAUL_RANGES)
    assert {1, 100} <= {route.number for route in guide.routes}
    assert any(route.cargo for route in guide.routes)
    assert any(len(route.hubs) == 2 for route in guide.routes)
    assert any(route.price is None for route in guide.routes)
    assert any(route.revenue is None for route in guide.routes)
    assert any(route.regions[0] != route.regions[1] and route.haul == "short"
               for route in guide.routes)
    assert all(guide.fleets.price(fleet) is not None for fleet in FLEETS)
    assert guide.bank.hub_use_fee is not None


@pytest.mark.parametrize(
    ("text", "source", "message"),
    [
        ("[[routes]]\nnumber = " + "[" * 1000 + "\n", "g.toml", "nested deeper than 32"),
        ("[[routes]]\nnumber = " + "1" * 5000 + "\n", "g.toml", "more than 30 digits"),
        ("[[routes]]\nprice = inf\n", "g.toml", "finite"),
        ("x" + ".x" * 100 + " = 1\n", "g.toml", "nested deeper than 32"),
        ("number,from,from_region,to,to_region\n" + "1" * 5000 + ",A,EU,B,EU\n", "g.csv",
         "number: expected a whole number"),
        ('number,from,from_region,to,to_region\n1,"' + "A" * 200_000 + '",EU,B,EU\n', "g.csv",
         "g.csv, line 2: not valid CSV: field larger than field limit"),
    ],
)
def test_flight_plan_guide_bounds_depth_numbers_and_csv_errors(text, source, message) -> None:
    # Issue #13: RecursionError, int()'s digit limit and csv.Error escaped as tracebacks.
    with pytest.raises(ScoreInputError) as refusal:
        parse_guide(text, source)
    assert message in str(refusal.value)
    assert len(str(refusal.value)) < 300


def test_flight_plan_guide_refusal_stays_short_whatever_the_key() -> None:
    # Found by tests/test_parsers_fuzz.py: a 5000-character key was quoted whole.
    with pytest.raises(ScoreInputError) as refusal:
        guide_from_routes([{"number": 1, "from": "A", "to": "B", "regions": ["EU", "EU"],
                            "x" * 5000: 1}])
    message = str(refusal.value)
    assert len(message) < 500
    assert message.startswith("routes[0]: unknown key 'xxx")
    assert message.endswith("use_fee")
