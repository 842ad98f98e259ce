"""Past games from the journal: the ``companion history`` listing and its export.

What it promises:
- The listing shows every game in the journal, newest first: when it started, the game, its
  options, how many actions it took and its result (``-`` while unfinished); a finished Now
  Boarding game's result also says its complaints by source, as the page's History does
  (waiting passengers, unserved VIPs, undelivered at the end: replayed for a played game,
  read from the breakdown for one scored from its final count).
- ``--export DIR`` writes, per game, ``game-<id>-<name>.json`` (how it started, every action,
  the result and, for Now Boarding, its record), ``.csv`` (one row per round, turn or
  meaningful step, as companion/games/records.py lists per game) and ``.png`` (that game's
  chart: a title, labelled axes with units, tick labels and a legend where there are several
  series).
- A game is rebuilt by replaying the journal, exactly as the box does at start-up, keeping the
  state after every action (its timeline). A game whose rules are no longer known (a game
  removed from the box) or whose journal no longer replays is listed and exported with one row
  per action and a chart of its actions over game time.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import Any, TextIO

from PIL import Image, ImageDraw

from companion.adapters.journal import GameSummary, Journal, StoredGame
from companion.core.app import App
from companion.core.game import RuleError, action_to_json
from companion.core.words import plural
from companion.games.records import Chart, History, Moment, Panel, Series, history_of, scored
from companion.games.score_formats import is_kept_from_score
from companion.ui.render import font
from companion.ui.views.now_boarding_phrases import complaint_split as split_words

Record = Callable[[Any], dict[str, Any]]


def records() -> dict[str, Record]:
    """The games that keep a record of their rounds: name -> record(state)."""
    from companion.games import now_boarding

    return {"now-boarding": now_boarding.record}


def list_games(journal: Journal, out: TextIO, app: App | None = None) -> int:
    """Print the listing (see the module docstring); ``app`` replays the Now Boarding games
    for their complaints split (every game the box plays when None)."""
    summaries = journal.games()
    if not summaries:
        print("No games yet.", file=out)
        return 0
    if app is None:
        from companion.games.registry import playable_games

        app = App(playable_games())
    rows = [["#", "started", "game", "options", "actions", "result"]]
    rows += [[str(s.id), s.started_wall.replace("T", " ")[:16], s.game, _options(s.options),
              str(s.actions), _result_text(s.result) + _split_text(journal, s, app)]
             for s in summaries]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
              .rstrip(), file=out)
    return 0


def complaint_split(journal: Journal, summary: GameSummary,
                    app: App) -> dict[str, int] | None:
    """A finished Now Boarding game's complaints by source (``anger``, ``vip``, ``exit``):
    from the scorer's breakdown for a game scored from its count, else by replaying it; None
    for another game, one unfinished, or one that no longer replays."""
    result = summary.result
    if summary.game != "now-boarding" or result is None:
        return None
    if isinstance(result, Mapping):
        breakdown = result.get("breakdown") or {}
        return {"anger": int(breakdown.get("complaints", 0)),
                "vip": int(breakdown.get("unserved-vips", 0)),
                "exit": int(breakdown.get("undelivered", 0))}
    try:
        _, final = timeline(journal.game(summary.id), app)
    except (RuleError, ValueError):
        return None
    record = records()["now-boarding"](final)
    split: dict[str, int] = record["complaints_by_source"]
    return split


def _split_text(journal: Journal, summary: GameSummary, app: App) -> str:
    split = complaint_split(journal, summary, app)
    if split is None:
        return ""
    total = split["anger"] + split["vip"] + split["exit"]
    return f", {plural(total, 'complaint')}: {split_words(split)}"


def export(journal: Journal, app: App, folder: Path, out: TextIO) -> int:
    """Write every game's JSON, CSV and PNG chart into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    known = records()
    for summary in journal.games():
        stored = journal.game(summary.id)
        document, history = game_document(stored, app, known)
        stem = folder / export_stem(stored.id, stored.game)
        stem.with_suffix(".json").write_text(document_json(document), encoding="utf-8")
        write_csv(history, stem.with_suffix(".csv"))
        chart_image(document, history).save(stem.with_suffix(".png"))
        print(f"{stem}.json .csv .png", file=out)
    return 0


def game_document(stored: StoredGame, app: App,
                  known: Mapping[str, Record]) -> tuple[dict[str, Any], History]:
    """The game's JSON document and its history (table and chart)."""
    document: dict[str, Any] = {
        "id": stored.id, "game": stored.game, "options": dict(stored.options),
        "seed": stored.seed, "started": stored.started_wall, "last_action": stored.last_wall,
        "result": stored.result,
        "actions": [{"at": round(r.at, 3), **action_to_json(r.action)}
                    for r in stored.history],
    }
    history: History | None = None
    if is_kept_from_score(dict(stored.options)) and isinstance(stored.result, Mapping):
        # Scored from its final count: nothing to replay; the scorer's answer is the game.
        return document, scored(stored.game, stored.result)
    try:
        moments, final = timeline(stored, app)
    except (RuleError, ValueError) as error:
        document["record_error"] = str(error)
    else:
        record = known.get(stored.game)
        if record is not None:
            document["record"] = record(final)
        history = history_of(stored.game, moments)
    return document, history if history is not None else actions_history(document)


def timeline(stored: StoredGame, app: App) -> tuple[list[Moment], Any]:
    """Replay the game, keeping its state JSON before the first action and after each one;
    also the final game state. Raises RuleError for a game the box no longer knows or a
    journal that no longer replays."""
    game = app.game(stored.game)
    state = game.new(MappingProxyType(dict(stored.options)), stored.seed)
    start = stored.history[0].at if stored.history else stored.clock
    moments = [Moment(start, None, game.to_json(state, start))]
    for recorded in stored.history:
        state, _ = game.step(state, recorded.action, recorded.at)
        moments.append(Moment(recorded.at, action_to_json(recorded.action),
                              game.to_json(state, recorded.at)))
    return moments, state


def actions_history(document: Mapping[str, Any]) -> History:
    """One row per action, for a game without a history of its own."""
    actions = document["actions"]
    rows = tuple((index, action["at"], action["kind"], action.get("button", ""))
                 for index, action in enumerate(actions, start=1))
    points = tuple((index, float(action["at"])) for index, action in enumerate(actions, 1))
    chart = Chart(f"{document['game']}: the actions over game time", "action",
                  (Panel("game time (s)", (Series("game time", points, kind="line"),)),))
    return History(("seq", "at_s", "kind", "button"), rows, chart)


def export_stem(game_id: int, game: str) -> str:
    """The export's file name without its suffix: ``game-<id>-<name>``."""
    return f"game-{game_id}-{game}"


def document_json(document: Mapping[str, Any]) -> str:
    """The exported ``.json`` file's text."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_csv(history: History, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        write_csv_rows(history, handle)


def write_csv_rows(history: History, handle: TextIO) -> None:
    """The exported ``.csv`` file's rows, written to ``handle`` (opened with newline="").
    Booleans are written as the table page shows them, ``true`` / ``false`` (JSON's words),
    not Python's ``True``; a missing value is an empty cell."""
    writer = csv.writer(handle)
    writer.writerow(history.columns)
    writer.writerows([_csv_cell(cell) for cell in row] for row in history.rows)


def _csv_cell(cell: Any) -> Any:
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "true" if cell else "false"
    return cell


def chart_image(document: Mapping[str, Any], history: History) -> Image.Image:
    """The exported ``.png`` file's picture: the game's chart under its heading."""
    return draw_chart(history.chart, _heading(document))


# -- the chart -------------------------------------------------------------------------------

WIDTH = 760
PLOT_LEFT, PLOT_RIGHT = 64, WIDTH - 100   # right of the plot: the marks' labels
HEADER = 66          # the title and two lines about the game
PANEL_LABEL = 18     # above each plot: the quantity and its unit, the legend
PANEL_HEIGHT = 150
PANEL_GAP = 12
FOOTER = 44          # x tick labels and the x axis label
GRID = "#dddddd"
AXIS = "black"
INK = "#222222"


def draw_chart(chart: Chart, heading: str) -> Image.Image:
    """Draw ``chart``: panels stacked over one x axis, each with its y axis, ticks, marks and
    legend; the x ticks and label under the last panel."""
    small, large = font("6x12"), font("8x16")
    panels = chart.panels
    height = HEADER + len(panels) * (PANEL_LABEL + PANEL_HEIGHT + PANEL_GAP) + FOOTER
    image = Image.new("RGB", (WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    draw.text((8, 6), _fit(chart.title, (WIDTH - 16) // 8), font=large, fill=AXIS)
    for index, line in enumerate(heading.splitlines()[:2]):
        draw.text((8, 28 + 14 * index), _fit(line, (WIDTH - 16) // 6), font=small, fill=INK)
    xs = [x for panel in panels for series in panel.series for x, _ in series.points]
    xs += [x for x, _ in chart.x_ticks]
    x_low, x_high = (min(xs), max(xs)) if xs else (0, 0)
    axis = XAxis(x_low, (PLOT_RIGHT - PLOT_LEFT) / (x_high - x_low + 1),
                 _x_ticks(chart, x_low, x_high, (PLOT_RIGHT - PLOT_LEFT) / (x_high - x_low + 1)))
    top = HEADER
    for panel in panels:
        plot_top = top + PANEL_LABEL
        _draw_panel(draw, panel, (plot_top, plot_top + PANEL_HEIGHT), axis)
        top = plot_top + PANEL_HEIGHT + PANEL_GAP
    bottom = top - PANEL_GAP
    for x, label in axis.ticks:
        draw.line((axis.centre(x), bottom, axis.centre(x), bottom + 4), fill=AXIS)
        draw.text((axis.centre(x) - 3 * len(label), bottom + 6), label, font=small, fill=INK)
    label_width = 6 * len(chart.x_label)
    draw.text(((PLOT_LEFT + PLOT_RIGHT - label_width) / 2, bottom + 24), chart.x_label,
              font=small, fill=AXIS)
    return image


@dataclass(frozen=True)
class XAxis:
    """The shared x axis: whole-number positions, one slot each, from ``low``."""

    low: int
    slot: float
    ticks: Sequence[tuple[int, str]]

    def centre(self, x: int) -> float:
        return PLOT_LEFT + (x - self.low + 0.5) * self.slot


def _draw_panel(draw: ImageDraw.ImageDraw, panel: Panel, span: tuple[int, int],
                axis: XAxis) -> None:
    small = font("6x12")
    plot_top, plot_bottom = span
    values = [y for series in panel.series for _, y in series.points]
    values += [mark.value for mark in panel.marks]
    y_low, y_high, step = _y_scale(values, panel.whole)

    def y_at(value: float) -> float:
        return plot_bottom - (plot_bottom - plot_top) * (value - y_low) / (y_high - y_low)

    draw.text((PLOT_LEFT - 56, plot_top - PANEL_LABEL + 2), panel.y_label, font=small, fill=AXIS)
    _legend(draw, panel, plot_top - PANEL_LABEL + 2)
    for x, _ in axis.ticks:
        draw.line((axis.centre(x), plot_top, axis.centre(x), plot_bottom), fill=GRID)
    tick = y_low
    while tick <= y_high + step / 1000:
        y = y_at(tick)
        draw.line((PLOT_LEFT, y, PLOT_RIGHT, y), fill=GRID)
        draw.line((PLOT_LEFT - 4, y, PLOT_LEFT, y), fill=AXIS)
        text = _number(tick)
        draw.text((PLOT_LEFT - 7 - 6 * len(text), y - 6), text, font=small, fill=INK)
        tick += step
    bars = [series for series in panel.series if series.kind == "bar"]
    lines = [series for series in panel.series if series.kind != "bar"]
    for series in panel.series:
        if series.kind == "bar":
            _bars(draw, series, (bars.index(series), len(bars)), axis, y_at)
        else:
            # Lines that share a value would hide each other: each sits 2 px from the next.
            _line(draw, series, axis,
                  partial(_shifted, y_at, 2 * (lines.index(series) - (len(lines) - 1) / 2)))
    for mark in panel.marks:
        y = y_at(mark.value)
        for x0 in range(PLOT_LEFT, PLOT_RIGHT, 8):
            draw.line((x0, y, min(x0 + 4, PLOT_RIGHT), y), fill="#c0392b", width=1)
        draw.text((PLOT_RIGHT + 6, y - 6), _fit(mark.label, (WIDTH - PLOT_RIGHT - 8) // 6),
                  font=small, fill="#c0392b")
    # The axes last, over the data: they must read whole.
    draw.line((PLOT_LEFT, plot_top, PLOT_LEFT, plot_bottom, PLOT_RIGHT, plot_bottom), fill=AXIS)
    if y_low < 0:
        draw.line((PLOT_LEFT, y_at(0), PLOT_RIGHT, y_at(0)), fill=AXIS)
    if not values or not any(series.points for series in panel.series):
        message = "nothing recorded yet"
        draw.text(((PLOT_LEFT + PLOT_RIGHT - 6 * len(message)) / 2,
                   (plot_top + plot_bottom) / 2 - 6), message, font=small, fill=INK)


def _bars(draw: ImageDraw.ImageDraw, series: Series, place: tuple[int, int], axis: XAxis,
          y_at: Callable[[float], float]) -> None:
    """Bars of ``series``, the ``place[0]``-th of ``place[1]`` bar series side by side."""
    small = font("6x12")
    index, count = place
    slot = axis.slot
    width = max(slot * 0.7 / count, 1.0)
    zero = y_at(0)
    show_values = all(6 * len(_number(y)) <= width + 4 for _, y in series.points)
    for x, y in series.points:
        x0 = axis.centre(x) - slot * 0.35 + index * width
        top, bottom = sorted((y_at(y), zero))
        draw.rectangle((x0, top, x0 + width - 1, bottom), fill=series.colour)
        if show_values and y != 0:
            text = _number(y)
            draw.text((x0 + (width - 6 * len(text)) / 2, top - 13 if y > 0 else bottom + 1),
                      text, font=small, fill=INK)


def _line(draw: ImageDraw.ImageDraw, series: Series, axis: XAxis,
          y_at: Callable[[float], float]) -> None:
    points = [(axis.centre(x), y_at(y)) for x, y in series.points]
    if series.kind == "step" and points:
        # Each value holds across its whole slot: a round's total reads over that round.
        half = axis.slot / 2
        stepped = [(points[0][0] - half, points[0][1])]
        for (x, y), (_, y_after) in itertools.pairwise(points):
            stepped += [(x + half, y), (x + half, y_after)]
        stepped.append((points[-1][0] + half, points[-1][1]))
        points = stepped
    if len(points) > 1:
        draw.line(points, fill=series.colour, width=2)
    if series.kind == "line" or len(points) == 1:
        for x, y in points:
            draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=series.colour)


def _shifted(y_at: Callable[[float], float], shift: float, value: float) -> float:
    return y_at(value) - shift


def _legend(draw: ImageDraw.ImageDraw, panel: Panel, y: int) -> None:
    if len(panel.series) < 2:
        return
    small = font("6x12")
    x = PLOT_RIGHT
    for series in reversed(panel.series):
        x -= 6 * len(series.name) + 22
        draw.rectangle((x, y + 2, x + 10, y + 10), fill=series.colour)
        draw.text((x + 14, y), series.name, font=small, fill=INK)


def _y_scale(values: Sequence[float], whole: bool) -> tuple[float, float, float]:
    """Axis bounds and tick step: from 0 (or below, for negative values) to a round number
    a little above the largest value, in about five steps."""
    low = min([0.0, *values])
    high = max([1.0, *values])
    if low < 0:
        low -= (high - low) * 0.08  # room for the value under the lowest bar
    span = (high - low) * 1.08
    raw = span / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    if whole:
        step = max(1.0, float(math.ceil(step)))
    return (math.floor(low / step) * step, math.ceil(low / step + span / step) * step, step)


def _x_ticks(chart: Chart, low: int, high: int, slot: float) -> list[tuple[int, str]]:
    """Tick labels that do not overlap: every x (or every 2nd, 5th, 10th...)."""
    ticks = list(chart.x_ticks) or [(x, str(x)) for x in range(low, high + 1)]
    widest = max((6 * len(label) for _, label in ticks), default=6) + 6
    every = next(n for n in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9)
                 if n * slot >= widest)
    return [(x, label) for x, label in ticks if (x - low) % every == 0]


def _number(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def _fit(text: str, characters: int) -> str:
    return text if len(text) <= characters else text[:characters - 1] + "~"


def _heading(document: Mapping[str, Any]) -> str:
    options = _options(document.get("options", {}))
    started = str(document.get("started", ""))[:16].replace("T", " ")
    return (f"game {document['id']}, started {started}, result: "
            f"{_result_text(document.get('result'))}\noptions: {options or '-'}")


def _options(options: Mapping[str, str]) -> str:
    return " ".join(f"{key}={value}" for key, value in options.items())


def _result_text(result: Any) -> str:
    if result is None:
        return "-"
    if isinstance(result, str):
        return result
    if isinstance(result, Mapping) and isinstance(result.get("result"), str):
        return str(result["result"])   # Now Boarding's final count, scored: win or lose
    if isinstance(result, Mapping) and "winners" in result:
        return "winners: " + ", ".join(map(str, result["winners"])) if result["winners"] \
            else "no winner"
    return json.dumps(result)[:40]
