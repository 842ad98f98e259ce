"""What ``companion history --export`` shows of each game: a table and a chart (pure).

A game's history is read from its *timeline*: the state JSON (CONTRACT.md section 3, the same
object the ``state`` command answers) before the first action and after every journaled
action, with the game-clock instant of each. Only the public state is read, so a game's
internals can change without breaking its history.

What it promises, per game (one CSV row per round, turn or meaningful step, never one per
button press; every chart has a title, labelled axes with units and tick labels):

- ``now-boarding``: one row per round (flight phase): the flight time used and the complaints
  filed in that round's maintenance, by source (waiting passengers, unserved VIPs,
  undelivered at the end), with the running total, in all and by source (the last row splits
  the whole game's). Chart: flight time used per round against the timer, and complaints
  per round by source against the loss at 3.
- ``now-boarding-v3``: one row per round of the 3 days: the Departure time used and the Lost
  pile at the round's end. Chart: the Lost pile per round (against the advanced variant's
  limit) and the Departure time used per round.
- ``planes``: one row per move of the boarding track (a cube boarded, or taken back as a
  correction): every colour's cubes and the track after it. Chart: the track against its end
  mark, and each plane's cubes, over the moves.
- ``flight-plan``: one row for the deal and one per turn (the state as the turn ended): every
  player's cash and routes owned. Chart: cash per player per turn, and routes owned.
- ``overbooked``: one row per player: place, total and every scoring category. Chart: the
  total per player (players still being entered: their seats filled so far).
- ``timer``: one row per run of the countdown: its duration, the time used and how it ended.
  Chart: time used per run against the duration.

A game *scored* from its final count (the protocol's ``score``, the table page's Score tab)
has no timeline: :func:`scored` reads the scorer's answer instead. A game with players (every
scorer but Now Boarding's): one row per player, place, total and every scoring category;
chart: the total per player. Now Boarding's final count: one row, the complaints by source,
the total and the verdict; chart: complaints by source against the loss at 3.

A game without a history here (a game removed from the box) is exported with one row per
action by the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from companion.core.words import plural
from companion.games.registry import GAMES

Cell = str | int | float | bool | None


@dataclass(frozen=True)
class Moment:
    """The game's state JSON at ``at`` (game-clock seconds), after ``action`` (``None`` for
    the state the game started in)."""

    at: float
    action: Mapping[str, str] | None
    state: Mapping[str, Any]


@dataclass(frozen=True)
class Series:
    """One set of points on a panel. ``x`` values are whole numbers (rounds, turns, moves,
    players); ``bar`` draws a bar per point, ``line`` joins them, ``step`` holds each value
    until the next."""

    name: str
    points: tuple[tuple[int, float], ...]
    kind: Literal["bar", "line", "step"] = "bar"
    colour: str = "#4a7ab8"


@dataclass(frozen=True)
class Mark:
    """A horizontal reference line across a panel (a limit, a duration), with its label."""

    value: float
    label: str


@dataclass(frozen=True)
class Panel:
    """One plot: ``y_label`` names the quantity and its unit, e.g. ``"time used (s)"``."""

    y_label: str
    series: tuple[Series, ...]
    marks: tuple[Mark, ...] = ()
    whole: bool = False  # the quantity is a count: ticks at whole numbers only


@dataclass(frozen=True)
class Chart:
    """Panels stacked over one shared x axis. ``x_ticks`` names x positions where a number
    alone would not do (players, day.round); otherwise the x values are the tick labels."""

    title: str
    x_label: str
    panels: tuple[Panel, ...]
    x_ticks: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class History:
    """The CSV (``columns`` and ``rows``) and the chart of one game."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    chart: Chart


Builder = Callable[[Sequence[Moment]], History]

#: Colours for players' series, in seat order (distinct in print and for colour-blind eyes).
PLAYER_COLOURS: Final = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
#: Planes' colours as drawn (the grey neutrals darker than the grid).
PLANES_COLOURS: Final = {"red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c",
                         "yellow": "#d4a017", "grey": "#7f7f7f"}
BAR: Final = "#4a7ab8"
ALARM: Final = "#c0392b"


def history_of(game: str, timeline: Sequence[Moment]) -> History | None:
    """The history of ``game`` from its timeline, or ``None`` for a game without one."""
    builder = BUILDERS.get(game)
    return None if builder is None or not timeline else builder(timeline)


# -- Now Boarding ------------------------------------------------------------------------------


#: Where a Now Boarding complaint comes from (the state's ``complaints_by_round`` keys), in
#: the chart's words and colours.
COMPLAINT_SOURCES: Final = (("anger", "waiting passengers", ALARM),
                            ("vip", "unserved VIPs", "#8e44ad"),
                            ("exit", "undelivered at the end", "#d68910"))


def now_boarding(timeline: Sequence[Moment]) -> History:
    final = timeline[-1].state
    by_round = {row["round"]: row for row in final.get("complaints_by_round", [])}
    sources = [source for source, _, _ in COMPLAINT_SOURCES]
    columns = ("round", "stage", "time_used_s", "ended", "final", "complaints",
               "complaints_anger", "complaints_vip", "complaints_exit", "complaints_total",
               *(f"complaints_{source}_total" for source in sources))
    rows: list[tuple[Cell, ...]] = []
    used: list[tuple[int, float]] = []
    filed: dict[str, list[tuple[int, float]]] = {source: [] for source in sources}
    running: list[tuple[int, float]] = []
    total = 0
    so_far = dict.fromkeys(sources, 0)
    for flight in final.get("flights", []):
        number = int(flight["round"])
        added = by_round.get(number, {"anger": 0, "vip": 0, "exit": 0, "total": 0})
        total += added["total"]
        for source in sources:
            so_far[source] += added[source]
            filed[source].append((number, float(added[source])))
        rows.append((number, flight["stage"], flight["used"], flight["ended"], flight["final"],
                     added["total"], added["anger"], added["vip"], added["exit"], total,
                     *(so_far[source] for source in sources)))
        used.append((number, float(flight["used"])))
        running.append((number, float(total)))
    duration = float(final.get("timer", {}).get("duration") or 0.0)
    time_marks = (Mark(duration, f"timer {duration:g} s"),) if duration > 0 else ()
    chart = Chart(
        title=f"Now Boarding, {final['players']} players: flight time and complaints per round",
        x_label="round",
        panels=(
            Panel("flight time used (s)", (Series("time used", tuple(used)),), time_marks),
            Panel("complaints",
                  (*(Series(name, tuple(filed[source]), colour=colour)
                     for source, name, colour in COMPLAINT_SOURCES),
                   Series("total so far", tuple(running), kind="step", colour="#333333")),
                  (Mark(3, "lost at 3"),), whole=True),
        ),
    )
    return History(columns, tuple(rows), chart)


# -- Now Boarding v3 ---------------------------------------------------------------------------


def now_boarding_v3(timeline: Sequence[Moment]) -> History:
    rounds: dict[tuple[int, int], list[Moment]] = {}
    start_of: dict[tuple[int, int], float] = {}
    previous_at = timeline[0].at
    for moment in timeline:
        state = moment.state
        in_play = state["phase"] == "day" or (state["phase"] == "over"
                                              and state.get("reason") == "lost")
        if in_play:
            key = (int(state["day"]), int(state["round"]))
            if key not in rounds:
                rounds[key] = []
                start_of[key] = previous_at
            rounds[key].append(moment)
        previous_at = moment.at
    columns = ("day", "round", "redeye", "departure_s", "ended", "lost", "lost_added")
    rows: list[tuple[Cell, ...]] = []
    lost_points: list[tuple[int, float]] = []
    time_points: list[tuple[int, float]] = []
    ticks: list[tuple[int, str]] = []
    lost_before = 0
    first = timeline[0].state
    for index, (key, moments) in enumerate(sorted(rounds.items()), start=1):
        used, ended = _departure_used(moments, start_of[key])
        last = moments[-1].state
        lost = int(last["lost"])
        rows.append((key[0], key[1], bool(last["redeye"]), used, ended, lost,
                     lost - lost_before))
        lost_before = lost
        lost_points.append((index, float(lost)))
        if used is not None:
            time_points.append((index, used))
        ticks.append((index, f"{key[0]}.{key[1]}"))
    limit = first.get("lost_limit")
    panels = [Panel("Lost pile (passengers)", (Series("at the round's end", tuple(lost_points),
                                                      colour=ALARM),),
                    (Mark(float(limit), f"lost above {limit}"),) if limit else (), whole=True)]
    if time_points:
        # The Departure timer's length, from any moment it was set (not at setup).
        duration = max(float(m.state.get("timer", {}).get("duration") or 0.0)
                       for m in timeline)
        panels.append(Panel("Departure time used (s)", (Series("time used", tuple(time_points)),),
                            (Mark(duration, f"timer {duration:g} s"),) if duration > 0 else ()))
    chart = Chart(f"Now Boarding v3 ({first['variant']}), {first['players']} players: "
                  "the Lost pile and the Departures", "day.round", tuple(panels), tuple(ticks))
    return History(columns, tuple(rows), chart)


def _departure_used(moments: Sequence[Moment], started: float) -> tuple[float | None, str | None]:
    """Seconds the round's Departure took: on its timer when timed, else from the round's
    start to the end of Departure (``None`` when the round never left Departure)."""
    for moment in moments:
        state = moment.state
        if state["step"] != "departure" and state.get("ended") is not None:
            timer = state.get("timer", {})
            if state.get("timed"):
                used = float(timer["duration"]) - float(timer["remaining"])
            else:
                used = moment.at - started
            return round(used, 3), str(state["ended"])
    return None, None


# -- Planes ------------------------------------------------------------------------------------


def planes(timeline: Sequence[Moment]) -> History:
    first = timeline[0].state
    colours = tuple(first["cubes"])
    columns = ("move", "at_s", "colour", "change", "track", *colours, "trigger")
    rows: list[tuple[Cell, ...]] = []
    track_points: list[tuple[int, float]] = [(0, float(first["track"]))]
    cube_points: dict[str, list[tuple[int, float]]] = {
        colour: [(0, float(first["cubes"][colour]))] for colour in colours}
    before = first
    for moment in timeline[1:]:
        state = moment.state
        changed = [c for c in colours if state["cubes"][c] != before["cubes"][c]]
        if changed:
            move = len(rows) + 1
            colour = changed[0]
            change = int(state["cubes"][colour]) - int(before["cubes"][colour])
            rows.append((move, round(moment.at, 3), colour, change, state["track"],
                         *(state["cubes"][c] for c in colours), state.get("trigger")))
            track_points.append((move, float(state["track"])))
            for c in colours:
                cube_points[c].append((move, float(state["cubes"][c])))
        before = state
    in_play = [c for c in colours if c in (name.lower() for name in first["names"])
               or c == "grey"]
    chart = Chart(
        f"Planes, {first['players']} players: the boarding track",
        "move (a cube boarded, or taken back)",
        (Panel("boarding track (cubes)",
               (Series("track", tuple(track_points), kind="step", colour="#333333"),),
               (Mark(float(first["mark"]), f"ends at {first['mark']}"),), whole=True),
         Panel("cubes on the plane(s)",
               tuple(Series(c, tuple(cube_points[c]), kind="step", colour=PLANES_COLOURS.get(
                   c, "#333333")) for c in in_play),
               (Mark(float(first["slots"]["red"]), f"full at {first['slots']['red']}"),),
               whole=True)),
    )
    return History(columns, tuple(rows), chart)


# -- Flight Plan -------------------------------------------------------------------------------


def flight_plan(timeline: Sequence[Moment]) -> History:
    first = timeline[0].state
    names = tuple(first["names"])
    columns = ("turn", "round", "player", *(f"cash_{n}" for n in names),
               *(f"routes_{n}" for n in names), "bankrupt")
    # The state as each turn ended: the last moment of each turn number.
    ends: dict[int, Mapping[str, Any]] = {}
    for moment in timeline[1:]:
        ends[int(moment.state["turn"])] = moment.state
    snapshots: list[tuple[int, Cell, Cell, Mapping[str, Any]]] = [(0, None, "deal", first)]
    snapshots += [(turn, state["round"], state["player"], state)
                  for turn, state in sorted(ends.items())]
    rows: list[tuple[Cell, ...]] = []
    cash: dict[str, list[tuple[int, float]]] = {n: [] for n in names}
    routes: dict[str, list[tuple[int, float]]] = {n: [] for n in names}
    for turn, round_, player, state in snapshots:
        owned = {n: len(state["assets"][n]["routes"]) for n in names}
        rows.append((turn, round_, player, *(state["cash"][n] for n in names),
                     *(owned[n] for n in names), " ".join(state.get("bankrupt", []))))
        for n in names:
            cash[n].append((turn, float(state["cash"][n])))
            routes[n].append((turn, float(owned[n])))
    colours = dict(zip(names, PLAYER_COLOURS, strict=False))
    chart = Chart(
        f"Flight Plan, {len(names)} players: cash and routes at the end of each turn",
        "turn (0: the deal)",
        (Panel("cash ($M)", tuple(Series(n, tuple(cash[n]), kind="line", colour=colours[n])
                                  for n in names)),
         Panel("routes owned", tuple(Series(n, tuple(routes[n]), kind="step",
                                            colour=colours[n]) for n in names), whole=True)),
    )
    return History(columns, tuple(rows), chart)


# -- Overbooked --------------------------------------------------------------------------------


def overbooked(timeline: Sequence[Moment]) -> History:
    final = timeline[-1].state
    result = final.get("result")
    title = f"Overbooked ({final['variant']}), {plural(final['players'], 'player')}"
    if not isinstance(result, Mapping):
        return _overbooked_unfinished(final, title)
    places = {name: place for place, names in enumerate(result["ranking"], start=1)
              for name in names}
    categories: list[str] = []
    for player in result["players"]:
        categories += [key for key in player["breakdown"] if key not in categories]
    columns = ("player", "place", "total", *categories)
    rows = tuple((p["name"], places.get(p["name"]), p["total"],
                  *(p["breakdown"].get(key, 0) for key in categories))
                 for p in result["players"])
    solo = result.get("solo")
    if isinstance(solo, Mapping):
        title += ": scenario " + ("won" if solo.get("won") else "lost")
    else:
        title += ": points per player"
    numbered = list(enumerate(result["players"], start=1))
    chart = Chart(title, "player",
                  (Panel("points", (Series("total", tuple((index, float(p["total"]))
                                                         for index, p in numbered)),),
                         whole=True),),
                  tuple((index, str(p["name"])) for index, p in numbered))
    return History(columns, rows, chart)


def _overbooked_unfinished(final: Mapping[str, Any], title: str) -> History:
    players = (final.get("entry") or {}).get("players", [])
    rows = tuple((p["name"], sum(seat not in ".|" for row in p["seats"] for seat in row),
                  p["overbooked"], p["vouchers"], p["bonus_cards"]) for p in players)
    chart = Chart(title + ": unfinished, seats entered so far", "player", (Panel(
        "seats filled", (Series("seats filled", tuple((index, float(row[1]))
                                                      for index, row in enumerate(rows, 1))),),
        whole=True),), tuple((index, str(row[0])) for index, row in enumerate(rows, 1)))
    return History(("player", "seats_filled", "overbooked", "vouchers", "bonus_cards"), rows,
                   chart)


# -- a game scored from its final count ------------------------------------------------------


def scored(game: str, result: Mapping[str, Any]) -> History:
    """The history of a game kept from the scorer's answer ``result`` (see the module)."""
    title = GAMES_BY_NAME[game].title if game in GAMES_BY_NAME else game
    if game == "now-boarding":
        sources = (("complaints", "complaints"), ("undelivered", "undelivered"),
                   ("unserved-vips", "unserved VIPs"))
        breakdown = result.get("breakdown", {})
        total = result.get("complaints_total", 0)
        verdict = str(result.get("result", ""))
        rows: tuple[tuple[Cell, ...], ...] = ((
            result.get("player_count"), *(breakdown.get(key, 0) for key, _ in sources), total,
            verdict),)
        chart = Chart(f"{title}, scored: {verdict.upper()} with {total} complaints", "source",
                      (Panel("complaints", (Series("complaints", tuple(
                          (index, float(breakdown.get(key, 0)))
                          for index, (key, _) in enumerate(sources, 1))),),
                          (Mark(3, "loss at 3"),), whole=True),),
                      tuple((index, name) for index, (_, name) in enumerate(sources, 1)))
        return History(("players", "complaints", "undelivered_complaints",
                        "unserved_vip_complaints", "complaints_total", "result"), rows, chart)
    players = [p for p in result.get("players", ()) if isinstance(p, Mapping)]
    places = {name: place for place, names in enumerate(result.get("ranking", ()), start=1)
              for name in names}
    winners = set(result.get("winners", ()))
    categories: list[str] = []
    for player in players:
        categories += [key for key in player.get("breakdown", {}) if key not in categories]
    rows = tuple((p["name"], places.get(p["name"]), p.get("total"), p["name"] in winners,
                  *(p.get("breakdown", {}).get(key, 0) for key in categories))
                 for p in players)
    numbered = list(enumerate(players, start=1))
    chart = Chart(f"{title}, scored: points per player", "player",
                  (Panel("points", (Series("total", tuple(
                      (index, float(p.get("total") or 0)) for index, p in numbered)),),
                         whole=True),),
                  tuple((index, str(p["name"])) for index, p in numbered))
    return History(("player", "place", "total", "winner", *categories), rows, chart)


# -- the round timer ---------------------------------------------------------------------------


def timer(timeline: Sequence[Moment]) -> History:
    rows: list[tuple[Cell, ...]] = []
    used: list[tuple[int, float]] = []
    durations: list[tuple[int, float]] = []
    before = timeline[0].state
    for moment in timeline[1:]:
        state = moment.state
        if state["step"] == "expired" and before["step"] in ("running", "paused"):
            clock = state["timer"]
            spent = round(float(clock["duration"]) - float(clock["remaining"]), 3)
            ended = "time" if float(clock["remaining"]) <= 0 else "next"
            rows.append((state["rounds"], clock["duration"], spent, ended))
            used.append((int(state["rounds"]), spent))
            durations.append((int(state["rounds"]), float(clock["duration"])))
        before = state
    chart = Chart("Round timer: time used per run", "run",
                  (Panel("time (s)", (Series("time used", tuple(used)),
                                      Series("duration", tuple(durations), kind="step",
                                             colour="#333333"))),))
    return History(("run", "duration_s", "time_used_s", "ended"), tuple(rows), chart)


GAMES_BY_NAME: Final = {facts.name: facts for facts in GAMES}

BUILDERS: Final[Mapping[str, Builder]] = {
    facts.name: globals()[facts.module] for facts in GAMES}
"""Each game's history builder: the function above named after its module (its facts in
companion/games/registry.py say which module; a game without one fails here, at import)."""
