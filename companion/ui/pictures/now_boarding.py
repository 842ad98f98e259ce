"""Now Boarding's pictures as scenes, drawn from the game's data (DESIGN.md rule 17; pure).

- :func:`table_scene` (players, VIP variant, weather cards, the free tile chosen): the table
  set up. The board on the side for the player count, its airports and routes from
  data.routes (a route's dots are its spaces; a coloured route's dots wear its colour), the
  airports whose cards leave the game greyed; the Preflight chart's column for the count;
  the three stage decks with their "In pile" counts, the weather cards by each deck, the VIP
  cards by their decks when the variant is on; the upgrade tiles, the temporary tokens under
  the chart, the weather tokens a stage uses, the anger cubes and the complaint pile; and one
  plane from its tiles (cockpit, seat, tail, wing) with the free tile the player chose.
- :func:`plane_scene`: a plane and where its upgrades go (seats in the middle, speed tiles
  on the wing, route tiles beside the tail, the temporary seat's passenger under the cockpit).
- :func:`table_panel_scene`: the table in 128 x 64 units for the panel: the decks, weather
  and VIP counts against the chart's column, the board's side and the starting plane.
- :func:`scene_for`: the scene a :class:`~companion.games.now_boarding.pictures.PictureRequest`
  names (the page's ``GET /api/picture/<name>.svg``).

The physical facts a new table needs (companion/games/now_boarding/setup_facts.py) are the
pictures' labels, each tagged with its fact's key. Airport positions are our own rough map
(:data:`AIRPORT_AT`), not the board's art.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from companion.games.now_boarding import data
from companion.games.now_boarding.data import PREFLIGHT, STAGE_TITLES, STAGES
from companion.games.now_boarding.pictures import PictureRequest
from companion.games.now_boarding.setup_facts import fact
from companion.ui.pictures.scene import (
    Circle,
    Label,
    Line,
    Rect,
    Role,
    Scene,
    Shape,
    Size,
    text_width,
)

WIDTH: Final = 240
MARGIN: Final = 4

AIRPORT_AT: Final = {
    "SEA": (0.05, 0.06), "SFO": (0.02, 0.45), "LAX": (0.10, 0.86), "DEN": (0.34, 0.42),
    "DFW": (0.48, 0.64), "ORD": (0.64, 0.18), "ATL": (0.77, 0.58), "MIA": (0.97, 0.94),
    "JFK": (0.95, 0.10)}
"""Where each airport sits on the drawn board, as fractions of its inner width and height."""

HOME_ROLE: Final[dict[str, Role]] = {"ATL": "atl", "DFW": "dfw", "LAX": "lax", "ORD": "ord",
                                      "SEA": "sea"}
"""The starting airports (one a plane colour) and their colour roles."""

ANGER_CUBES: Final = 30
"""The anger cubes in the box (rules/now-boarding.txt's components)."""

SHORT_STAGE: Final = {"morning": "Morning", "afternoon": "Afternoon", "evening": "Evening"}


def _fact_label(x: int, y: int, key: str, colour: Role = "ink") -> Label:
    return Label(x, y, fact(key).label, colour=colour, fact=key)


def _centred(x: int, w: int, y: int, text: str, size: Size = "normal", *,
             colour: Role = "ink") -> Label:
    return Label(x + w // 2, y, text, size, colour, "middle")


def _pile(box: tuple[int, int, int, int], stroke: Role, lines: tuple[str, ...],
          colour: Role = "ink") -> Iterator[Shape]:
    """A face-down pile in ``box`` (x, y, w, h): two offset outlines, its lines centred."""
    x, y, w, h = box
    yield Rect(x + 2, y + 2, w - 2, h - 2, stroke=stroke, fill="ground")
    yield Rect(x, y, w - 2, h - 2, stroke=stroke, fill="paper")
    top = y + (h - 2 - 12 * len(lines)) // 2
    for index, text in enumerate(lines):
        yield _centred(x, w - 2, top + 12 * index, text, colour=colour)


# -- the board -----------------------------------------------------------------------------


def _board(players: int, top: int, height: int) -> Iterator[Shape]:
    left, width = MARGIN, WIDTH - 2 * MARGIN
    yield Label(MARGIN, top, f"Board: {data.board_side(players)} side up")
    top += 13
    yield Rect(left, top, width, height, stroke="line", fill="paper")
    inner = (left + 12, top + 6, width - 24, height - 15)
    airports = data.SMALL_SIDE_AIRPORTS if players <= 3 else data.ALL_AIRPORTS
    at = {code: (inner[0] + round(AIRPORT_AT[code][0] * inner[2]),
                 inner[1] + round(AIRPORT_AT[code][1] * inner[3])) for code in airports}
    for route in data.routes(players):
        (x1, y1), (x2, y2) = at[route.a], at[route.b]
        yield Line(x1, y1, x2, y2, "line")
        role: Role = HOME_ROLE[route.owner] if route.owner else "ink"
        for space in range(1, route.spaces + 1):
            step = space / (route.spaces + 1)
            yield Circle(round(x1 + (x2 - x1) * step), round(y1 + (y2 - y1) * step), 2,
                         stroke=None, fill=role)
    removed = data.REMOVED_AIRPORTS[players]
    for code, (x, y) in at.items():
        gone = code in removed
        fill: Role = "muted" if gone else HOME_ROLE.get(code, "ink")
        yield Circle(x, y, 4, stroke="ink", fill="ground" if gone else fill)
        below = y + 6 if y < top + height - 14 else y - 14
        yield Label(x, below, code, "small", "muted" if gone else "ink", "middle")
        if gone:  # its passenger cards leave the game
            yield Label(min(x, left + width - 22), below + 8, "no cards", "small", "muted",
                        "middle")


# -- the chart, the decks and the supply -----------------------------------------------------------

PITCH: Final = 28
"""A stage row's height: a pile of two lines and its shadow, and a gap."""


def _decks(players: int, vip: bool, weather_cards: bool, top: int) -> Iterator[Shape]:
    """The chart's column and, left of it, each stage's weather cards, deck and VIP cards."""
    chart = PREFLIGHT[players]
    chart_x, chart_w = 152, WIDTH - MARGIN - 152
    yield Label(MARGIN, top, f"Preflight chart: {players}P", colour="accent")
    columns = (chart_x + 16, chart_x + 42, chart_x + 68)
    for x, word in zip(columns, ("pile", "wthr", "draw"), strict=True):
        yield Label(x, top + 3, word, "small", "muted", "middle")
    rows = top + 14
    yield Rect(chart_x, rows, chart_w, 3 * PITCH - 2, stroke="accent", fill="paper")
    for index, stage in enumerate(STAGES):
        y = rows + PITCH * index
        if index:
            yield Line(chart_x, y - 1, chart_x + chart_w - 1, y - 1, "line")
        counts = (chart.in_pile[index], chart.weather[index], chart.draw[index])
        for x, count in zip(columns, counts, strict=True):
            yield Label(x, y + 7, str(count), anchor="middle")
        x = MARGIN
        if weather_cards:
            yield from _pile((x, y, 42, PITCH - 2), "go", (str(chart.weather[index]), "wthr"),
                             "go")
            x += 46
        deck_w = (116 if vip else 148) - x
        yield from _pile((x, y, deck_w, PITCH - 2), "ink", (SHORT_STAGE[stage],
                                                         f"{chart.in_pile[index]} cards"))
        if vip:
            yield from _pile((118, y, 32, PITCH - 2), "accent", ("VIP",), "accent")


def _supply(players: int, top: int) -> Iterator[Shape]:
    """The tiles, the temporary tokens under the chart; the weather tokens a stage uses, the
    anger cubes and the complaint pile."""
    supply = data.SUPPLY
    for index, item in enumerate(("seat", "speed", "route")):
        yield from _pile((MARGIN + 48 * index, top, 46, 28), "ink", (item, str(supply[item])))
    for index, item in enumerate(("seat", "speed")):
        cx = 172 + 44 * index
        yield Circle(cx, top + 13, 13, stroke="accent", fill="paper")
        yield Label(cx, top + 5, "temp", "small", "accent", "middle")
        yield Label(cx, top + 13, item, "small", "accent", "middle")
    top += 32
    per_stage = PREFLIGHT[players].weather[0] // 2
    tokens: tuple[tuple[str, Role], ...] = (("storm", "alarm"), ("tailwind", "go"))
    for index, (token, role) in enumerate(tokens):
        x = MARGIN + 64 * index
        yield Circle(x + 9, top + 9, 9, stroke=role, fill="paper")
        yield Label(x + 9, top + 3, str(per_stage), colour=role, anchor="middle")
        yield Label(x + 21, top + 3, token, colour=role)
    yield Rect(140, top, 46, 18, stroke="alarm", fill="paper")
    yield Label(163, top + 5, f"{ANGER_CUBES} anger", "small", "alarm", "middle")
    yield Rect(189, top, 47, 18, stroke="muted", dashed=True)
    yield Label(212, top + 5, "complaint", "small", "muted", "middle")


# -- the plane ----------------------------------------------------------------------------------


def _plane(top: int, seats: int, speed_tiles: int, route_tiles: int, *, free: str | None,
           slots: bool) -> Iterator[Shape]:
    """A plane from its tiles at ``top``: the cockpit, ``seats`` seats, the tail, the wing
    with ``speed_tiles`` more tiles on it, ``route_tiles`` by the tail; ``free`` names the
    free tile(s) (drawn in the accent colour); ``slots`` draws dashed places for upgrades."""
    x = MARGIN
    yield Rect(x, top, 44, 28, stroke="ink", fill="paper")
    yield _centred(x, 44, top + 8, "cockpit")
    x += 46
    for index in range(seats):
        extra = index >= data.START_SEATS
        role: Role = "accent" if extra and free == "seat" else "ink"
        yield Rect(x, top, 30, 28, stroke=role, fill="paper")
        yield _centred(x, 30, top + 3, "seat", colour=role)
        yield _centred(x, 30, top + 16, "free" if extra and free == "seat" else "1 pax",
                       "small", colour=role)
        x += 32
    if slots:
        for _ in range(2):
            yield Rect(x, top, 30, 28, stroke="muted", dashed=True)
            yield _centred(x, 30, top + 8, "seat", colour="muted")
            x += 32
    tail_x = x
    yield Rect(tail_x, top, 30, 28, stroke="ink", fill="paper")
    yield _centred(tail_x, 30, top + 8, "tail")
    for index in range(route_tiles):
        rx = tail_x + 32 + 36 * index
        role = "accent" if free is not None else "ink"
        yield Rect(rx, top, 34, 28, stroke=role, fill="paper")
        yield _centred(rx, 34, top + 3, "route", colour=role)
        yield _centred(rx, 34, top + 16, "free", "small", colour=role)
    if slots:
        yield Rect(tail_x + 32, top, 34, 28, stroke="muted", dashed=True)
        yield _centred(tail_x + 32, 34, top + 8, "route", colour="muted")
    wing_y = top + 32
    yield Rect(50, wing_y, 50, 24, stroke="ink", fill="paper")
    yield _centred(50, 50, wing_y + 2, "wing", colour="ink")
    yield _centred(50, 50, wing_y + 14, f"speed {data.START_SPEED}", "small")
    x = 102
    for _ in range(speed_tiles):
        role = "accent" if free == "speed" else "ink"
        yield Rect(x, wing_y, 30, 24, stroke=role, fill="paper")
        yield _centred(x, 30, wing_y + 2, "+1", colour=role)
        yield _centred(x, 30, wing_y + 14, "free" if free == "speed" else "speed", "small",
                       colour=role)
        x += 32
    if slots:
        for _ in range(2):
            yield Rect(x, wing_y, 30, 24, stroke="muted", dashed=True)
            yield _centred(x, 30, wing_y + 6, "+1", colour="muted")
            x += 32


def _bottom(shapes: list[Shape]) -> int:
    """The lowest unit any shape reaches."""
    lows = []
    for shape in shapes:
        if isinstance(shape, Label):
            lows.append(shape.y + (12 if shape.size == "normal" else 8))
        elif isinstance(shape, Rect):
            lows.append(shape.y + shape.h)
        elif isinstance(shape, Circle):
            lows.append(shape.cy + shape.r)
        else:
            lows.append(max(shape.y1, shape.y2))
    return max(lows, default=0)


def table_scene(players: int, vip: bool = False, free_tile: str | None = "seat",
                weather_cards: bool = True, full: bool = True) -> Scene:
    """The table set up for ``players`` (see the module docstring); ``free_tile`` is the
    pictured plane's free tile, "seat" or "speed" (None: a plane with none yet). ``full``
    adds the physical facts as lines of text under what they are about; without it the
    scene is compact enough to sit on a phone's setup card."""
    request = PictureRequest("table", players, vip, weather_cards, free_tile or "seat", full)
    shapes: list[Shape] = [*_board(players, 0, 100 if full else 68)]

    def facts(*keys: str, colour: Role = "ink") -> None:
        if full:
            top = _bottom(shapes) + 2
            for index, key in enumerate(keys):
                shapes.append(_fact_label(MARGIN, top + 13 * index, key, colour))

    facts("token-dot")
    shapes += _decks(players, vip, weather_cards, _bottom(shapes) + 4)
    if weather_cards:
        facts("weather-card-done", colour="go")
    if vip:
        shapes.append(Label(MARGIN, _bottom(shapes) + 2,
                            f"{data.vip_count(players)} VIP face down, by their back",
                            colour="accent"))
    shapes += _supply(players, _bottom(shapes) + 5)
    facts("temp-used", colour="accent")
    facts("plane-parts")
    top = _bottom(shapes) + 5
    seats = data.START_SEATS + (free_tile == "seat")
    speed = 1 if free_tile == "speed" else 0
    routes = 1 if players == 2 else 0
    shapes += _plane(top, seats, speed, routes, free=free_tile, slots=False)
    # the passenger card from home, face up, beside the plane
    card_x = WIDTH - MARGIN - 44
    shapes.append(Rect(card_x, top + 32, 44, 24, stroke="go", fill="paper"))
    shapes.append(_centred(card_x, 44, top + 34, "ATL>DEN", "small", colour="go"))
    shapes.append(_centred(card_x, 44, top + 44, "face up", "small", colour="go"))
    facts("one-seat", "wing-speed", "free-tile")
    facts("home-card", colour="go")
    facts("route-tile")
    return Scene(WIDTH, _bottom(shapes) + 3, f"The table for {players} players", request.alt,
                 tuple(shapes))


def plane_scene(full: bool = True) -> Scene:
    """A starting plane and the dashed places its upgrades go (see the module docstring);
    ``full`` writes where each upgrade goes and how the temporary tokens work under it,
    else one line says what the dashed tiles are."""
    shapes: list[Shape] = [_fact_label(MARGIN, 2, "plane-parts")]
    shapes += _plane(18, data.START_SEATS, 0, 0, free=None, slots=True)
    top = 18 + 62
    notes: tuple[tuple[str, Role, str | None], ...] = (
        (f"Seats: in the middle, up to {data.MAX_SEATS}", "ink", None),
        (f"Speed tiles: on the wing, up to {data.MAX_SPEED}", "ink", None),
        (fact("route-tile").label, "ink", "route-tile"),
        ("Temp seat: 1 more passenger, under", "accent", None),
        ("  the cockpit; temp speed: 1 space", "accent", None),
        (fact("temp-used").label, "accent", "temp-used"),
    ) if full else (("Dashed: where bought tiles go", "muted", None),)
    for text, role, key in notes:
        shapes.append(Label(MARGIN, top, text, colour=role, fact=key))
        top += 13
    return Scene(WIDTH, top + 2, "A plane and its upgrades",
                 PictureRequest(kind="plane", full=full).alt, tuple(shapes))


def table_panel_scene(players: int, vip: bool = False, weather_cards: bool = True) -> Scene:
    """The table in the panel's 128 x 64 pixels: per stage a row with its weather cards,
    its deck and its VIP cards, the chart's column and board side above."""
    chart = PREFLIGHT[players]
    shapes: list[Shape] = [
        Rect(0, 0, 128, 11, stroke=None, fill="ink"),
        Label(2, 2, f"Table {players}P  board {data.board_side(players)}", "small", "ground")]
    for index, stage in enumerate(STAGES):
        y = 14 + 13 * index
        x = 0
        if weather_cards:
            shapes.append(Rect(x, y, 20, 11, stroke="ink"))
            shapes.append(Label(x + 10, y + 2, f"W{chart.weather[index]}", "small",
                                anchor="middle"))
            x += 23
        deck_w = (99 if vip else 128) - x
        shapes.append(Rect(x, y, deck_w, 11, stroke="ink", fill="ink"))
        shapes.append(Label(x + 2, y + 2, f"{STAGE_TITLES[stage][:3]} {chart.in_pile[index]}",
                            "small", "ground"))
        if vip:
            shapes.append(Rect(102, y, 26, 11, stroke="ink", dashed=True))
            shapes.append(Label(116, y + 2, "VIP", "small", anchor="middle"))
    plane = f"Plane: {data.START_SEATS} seat, speed {data.START_SPEED}"
    shapes.append(Label(0, 55, plane, "small"))
    return Scene(128, 64, f"Table {players}P", PictureRequest("table", players, vip,
                                                                weather_cards).alt,
                 tuple(shapes))


def scene_for(request: PictureRequest) -> Scene:
    """The scene ``request`` names."""
    if request.kind == "plane":
        return plane_scene(request.full)
    return table_scene(request.players, request.vip, request.free_tile, request.weather_cards,
                       request.full)


def widest_label(scene: Scene) -> int:
    """The widest label's width in units (a test's measure of how close a scene runs)."""
    return max((text_width(label.text, label.size) for label in scene.labels()), default=0)
