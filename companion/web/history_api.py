"""The table page's history routes: past games as JSON, their export files, BG Stats links.

What it promises (issue #15; docs/web.md lists the routes; the route table's
``/api/history`` row calls the :func:`route` the composition root hands the web):

- ``GET /api/history`` -> ``{"games": [...]}``, newest first, at most :data:`LISTED` games:
  what ``companion history`` lists (id, game, options, started, last action, actions, result)
  plus the game's per-round ``table`` (the export's CSV columns and rows, with ``headings``
  in words and the indices of the columns a phone's page ``shown``: games/table_words.py),
  its ``chart`` (the
  export's chart as data, for the page to draw as SVG), the Now Boarding ``record``, the
  ``downloads`` and the ``bgstats`` link (``null`` for a game with nothing to log).
- ``GET /api/history/<id>.json`` / ``.csv`` / ``.png`` -> exactly the files
  ``companion history --export`` writes for that game (companion/history.py writes both:
  nothing is rewritten here), as downloads named ``game-<id>-<game>.<suffix>``.
- ``GET /api/history/<id>/bgstats`` -> ``{"url": "bgstats://..."}``, or 404 ``no-play`` for a
  game with no result yet (nothing to log); ``/api/history/<id>/bgstats.svg`` the same link
  as a QR code (SVG, from the box's own encoder), for a phone without the app.
- A game scored from its final count (the ``score`` line, the Score tab) is listed like a
  played game: its table and chart come from the scorer's answer (games/records.py
  ``scored``), and its BG Stats play from the same answer.
- An unknown game is 404 ``{"error": "not-found", ...}``; a malformed id is 404 too (it names
  no game). Errors are JSON, never tracebacks.

The BG Stats link follows BG Stats' documented push-play format ("Push plays to BG Stats
from other apps or websites", bgstatsapp.com/support): ``bgstats://app.bgstatsapp.com/
createPlay.html?data=`` and the play as URL-encoded JSON with ``sourceName``, ``sourcePlayId``,
``playDate`` ("YYYY-MM-DD HH:MM:SS", local time), ``durationMin``, ``game`` (``name``,
``sourceGameId``, ``bggId`` where known, ``highestWins``, ``noPoints``) and ``players``
(``name``, ``score``, ``rank``, ``winner``). The titles, BoardGameGeek ids and
``noPoints`` are each game's facts (companion/games/registry.py). Only Now Boarding's
BoardGameGeek id (231567, a JSON number as the format's example has it) is given (the issue
states it); the others are left out rather than guessed, which the format allows: BG Stats
then matches by name. ``winner`` is a boolean on every player (a cooperative game: every
player wins or every player loses). ``playDate`` has no zone in the documented format: it is
the box's local time, which is the table's (docs/scoring.md says so).

Threading: the functions read the journal they are given and replay games with ``app`` (pure).
:func:`route`, the server's history, opens a read-only view of the journal per request with
the opener the composition root hands it (``Journal.reader`` on the box's state folder), in
the server's thread, so it never shares the box's connection nor waits on the loop. The web
imports no adapter: it reads the journal through :class:`GamesReader`, and a journal that
cannot be opened or holds no such game is an error of the house's one family
(:class:`~companion.errors.CompanionError`, which the adapter raises in place of SQLite's).
A box whose journal is in memory (no opener) lists no games.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, Final, Protocol
from urllib.parse import quote

from companion.core.app import App
from companion.errors import CompanionError
from companion.games.registry import facts_of
from companion.games.table_words import heading, shown_columns
from companion.web.answers import Answer, status_of

if TYPE_CHECKING:
    from companion.games.records import Chart, History

JSON_UTF8: Final = "application/json; charset=utf-8"
#: The newest games the listing replays (each listed game is replayed once per request).
LISTED: Final = 50
BGSTATS_PREFIX: Final = "bgstats://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME: Final = "Airline table companion"
CONTENT_TYPES: Final[Mapping[str, str]] = {
    "json": JSON_UTF8,
    "csv": "text/csv; charset=utf-8",
    "png": "image/png",
}
_ROUTE: Final = re.compile(r"^/api/history(?:/(?P<id>[^/.]+)(?:\.(?P<suffix>json|csv|png)"
                           r"|/(?P<bgstats>bgstats)(?P<qr>\.svg)?)?)?/?$")
SVG: Final = "image/svg+xml"
#: Modules of quiet zone around the QR code (the standard's four).
QUIET: Final = 4


QrEncoder = Callable[..., Any]
"""Text -> QR modules (rows of booleans), as adapters/qr.py's ``qr_matrix``: handed in by the
composition root (the web imports no adapter of its own)."""


class GameSummary(Protocol):
    """One game as the journal lists it (adapters/journal.py ``GameSummary``)."""

    @property
    def id(self) -> int: ...
    @property
    def actions(self) -> int: ...
    @property
    def last_wall(self) -> str: ...
    @property
    def result(self) -> Any: ...


class GamesReader(Protocol):
    """A read-only view of the journal (adapters/journal.py ``Journal.reader``): the games,
    one game whole, and close. ``game`` of an id it does not hold raises
    :class:`~companion.errors.CompanionError`."""

    def games(self) -> Sequence[GameSummary]: ...
    def game(self, game_id: int) -> Any: ...
    def close(self) -> None: ...


def route(open_journal: Callable[[], GamesReader] | None, app: App,
          qr: QrEncoder | None = None) -> Callable[[str], Answer | None]:
    """The web's history (companion/web/routes.py ``Context.history``): the answer to a GET
    of ``path``, or None for a path that is not a history route. ``open_journal`` opens a
    read-only view of the journal for one request (None: the box keeps no journal on disk);
    ``qr`` draws the BG Stats link's QR code (without it, ``bgstats.svg`` answers 404
    ``no-play``)."""

    cache: dict[Any, dict[str, Any]] = {}   # dict operations are atomic: threads may share it

    def answer(path: str) -> Answer | None:
        try:
            if open_journal is None:
                raise CompanionError("journal", "the box keeps no journal on disk")
            journal = open_journal()
        except CompanionError:
            found = history_route(path, _NO_GAMES, app, qr=qr)
        else:
            try:
                found = history_route(path, journal, app, cache=cache, qr=qr)
            finally:
                journal.close()
        return found

    return answer


class _NoGames:
    """The journal of a box that keeps none on disk: no games."""

    def games(self) -> list[Any]:
        return []

    def game(self, game_id: int) -> Any:
        raise CompanionError("journal", f"no game {game_id}: the box keeps no journal on disk")

    def close(self) -> None:
        """Nothing to close."""


_NO_GAMES: GamesReader = _NoGames()


def history_route(path: str, journal: GamesReader, app: App, *,
                  local_zone: tzinfo | None = None,
                  cache: dict[Any, dict[str, Any]] | None = None,
                  qr: QrEncoder | None = None) -> Answer | None:
    """Answer a GET of ``path`` (without its query) under ``/api/history``; ``None`` when the
    path is not one of the history routes."""
    match = _ROUTE.match(path)
    if match is None:
        return None
    raw_id = match.group("id")
    if raw_id is None:
        return _json(200, history_listing(journal, app, local_zone=local_zone, cache=cache))
    if not raw_id.isdigit():
        return _error("not-found", f"no game {raw_id!r}")
    try:
        document, history = _game(journal, app, int(raw_id))
    except CompanionError:
        return _error("not-found", f"no game {raw_id} in the journal")
    if match.group("bgstats"):
        play = bgstats_play(document, local_zone=local_zone)
        if play is None:
            return _error("no-play", f"game {raw_id} has no result to log yet")
        if match.group("qr"):
            if qr is None:
                return _error("no-play", "this box draws no QR codes")
            return _qr_svg(bgstats_url(play), qr)
        return _json(200, {"url": bgstats_url(play)})
    suffix = match.group("suffix")
    if suffix is None:
        return _json(200, game_entry(document, history, local_zone=local_zone))
    return export_file(document, history, suffix)


def history_listing(journal: GamesReader, app: App, *, limit: int = LISTED,
                    local_zone: tzinfo | None = None,
                    cache: dict[Any, dict[str, Any]] | None = None) -> dict[str, Any]:
    """``{"games": [...]}``: the newest ``limit`` games, newest first (see the module).

    ``cache`` (kept by :func:`route` between requests) holds each game's entry under what
    would change it (its action count, last action and result), so a finished game is
    replayed once, not on every visit to the history tab."""
    games = []
    for summary in journal.games()[:limit]:
        key = (summary.id, summary.actions, summary.last_wall,
               json.dumps(summary.result, sort_keys=True))
        entry = None if cache is None else cache.get(key)
        if entry is None:
            document, history = _game(journal, app, summary.id)
            entry = game_entry(document, history, local_zone=local_zone)
            entry["actions"] = summary.actions
            if cache is not None:
                if len(cache) >= 2 * LISTED:
                    cache.clear()   # bounded; rebuilt from the journal on the next visit
                cache[key] = entry
        games.append(entry)
    return {"games": games}


def game_entry(document: Mapping[str, Any], history: History, *,
               local_zone: tzinfo | None = None) -> dict[str, Any]:
    """One game of the listing: the export's document without its action list, its table,
    chart, downloads and BG Stats link."""
    game_id = document["id"]
    entry: dict[str, Any] = {key: value for key, value in document.items() if key != "actions"}
    entry["title"] = _title(str(document["game"]))
    entry["actions"] = len(document.get("actions", ()))
    entry["table"] = {"columns": list(history.columns), "rows": [list(r) for r in history.rows],
                      # The page's headings in words and the columns a phone shows (#36).
                      "headings": [heading(column) for column in history.columns],
                      "shown": shown_columns(str(document["game"]), history.columns)}
    entry["chart"] = chart_data(history.chart)
    entry["downloads"] = {suffix: f"/api/history/{game_id}.{suffix}" for suffix in CONTENT_TYPES}
    play = bgstats_play(document, local_zone=local_zone)
    entry["bgstats"] = None if play is None else bgstats_url(play)
    return entry


def chart_data(chart: Chart) -> dict[str, Any]:
    """The chart as JSON: the same title, axes, panels, series, marks and ticks the PNG draws."""
    return {
        "title": chart.title, "x_label": chart.x_label,
        "x_ticks": [[x, label] for x, label in chart.x_ticks],
        "panels": [{
            "y_label": panel.y_label, "whole": panel.whole,
            "marks": [{"value": mark.value, "label": mark.label} for mark in panel.marks],
            "series": [{"name": series.name, "kind": series.kind, "colour": series.colour,
                        "points": [[x, y] for x, y in series.points]}
                       for series in panel.series],
        } for panel in chart.panels],
    }


def export_file(document: Mapping[str, Any], history: History, suffix: str) -> Answer:
    """The file ``history --export`` writes for this game, with the same name and bytes."""
    from companion.history import chart_image, document_json, export_stem, write_csv_rows

    filename = f"{export_stem(int(document['id']), str(document['game']))}.{suffix}"
    if suffix == "json":
        body = document_json(document).encode("utf-8")
    elif suffix == "csv":
        text = io.StringIO(newline="")
        write_csv_rows(history, text)
        body = text.getvalue().encode("utf-8")
    elif suffix == "png":
        picture = io.BytesIO()
        chart_image(document, history).save(picture, format="PNG")
        body = picture.getvalue()
    else:
        raise ValueError(f"no export file ends in .{suffix}")
    return Answer(200, CONTENT_TYPES[suffix], body,
                  (("Content-Disposition", f'attachment; filename="{filename}"'),))


# -- BG Stats ------------------------------------------------------------------------------------


def bgstats_url(play: Mapping[str, Any]) -> str:
    """The push-play link: the play as compact JSON, every reserved character encoded."""
    data = json.dumps(play, separators=(",", ":"), ensure_ascii=False)
    return BGSTATS_PREFIX + quote(data, safe="")


def bgstats_play(document: Mapping[str, Any], *,
                 local_zone: tzinfo | None = None) -> dict[str, Any] | None:
    """The play BG Stats imports for an exported game document, or ``None`` for a game with
    nothing to log (unfinished, or a plain round timer).

    ``playDate`` is when the game started, in ``local_zone`` (default: this machine's zone);
    ``durationMin`` the game-clock time from the first action to the last, in whole minutes
    rounded up (left out for a game without actions)."""
    game = str(document["game"])
    result = document.get("result")
    players = _players(game, result, document)
    if players is None:
        return None
    facts = facts_of(game)
    no_points = facts is not None and facts.no_points
    entry: dict[str, Any] = {"name": _title(game), "sourceGameId": game,
                             "highestWins": not no_points, "noPoints": no_points}
    if facts is not None and facts.bgg_id is not None:
        entry["bggId"] = facts.bgg_id
    play: dict[str, Any] = {"sourceName": SOURCE_NAME, "sourcePlayId": str(document["id"]),
                            "playDate": _play_date(str(document.get("started", "")), local_zone),
                            "game": entry, "players": players}
    duration = _duration_min(document.get("actions", ()))
    if duration is not None:
        play["durationMin"] = duration
    return play


def _players(game: str, result: Any, document: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    if result is None or game == "timer":
        return None
    count = _player_count(document)
    if isinstance(result, str):      # Now Boarding: the table wins or loses together
        return [{"name": f"Player {seat}", "winner": result == "win"}
                for seat in range(1, count + 1)]
    if not isinstance(result, Mapping):
        return None
    if isinstance(result.get("result"), str) and not result.get("players"):
        # Now Boarding scored from its final count: cooperative, as when played.
        seats = result.get("player_count")
        return [{"name": f"Player {seat}", "winner": result["result"] == "win"}
                for seat in range(1, (seats if isinstance(seats, int) else count) + 1)]
    winners = {str(name) for name in result.get("winners", ())}
    scored = result.get("players")
    if isinstance(scored, list) and scored:
        places = {str(name): place for place, names in enumerate(result.get("ranking", ()), 1)
                  for name in names}
        players = []
        for row in scored:
            name = str(row["name"])
            player: dict[str, Any] = {"name": name, "score": row.get("total"),
                                      "winner": name in winners}
            if name in places:
                player["rank"] = places[name]
            players.append(player)
        return players
    # Flight Plan: won by a condition; the bank names the players P1, P2, ...
    return [{"name": f"P{seat}", "winner": f"P{seat}" in winners}
            for seat in range(1, count + 1)]


def _player_count(document: Mapping[str, Any]) -> int:
    record = document.get("record")
    if isinstance(record, Mapping) and isinstance(record.get("players"), int):
        return int(record["players"])
    try:
        return int(document.get("options", {}).get("players", 0))
    except ValueError:
        return 0


def _play_date(started: str, local_zone: tzinfo | None) -> str:
    try:
        moment = datetime.fromisoformat(started)
    except ValueError:
        return started.replace("T", " ")[:19]
    if moment.tzinfo is not None:
        moment = moment.astimezone(local_zone)
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def _duration_min(actions: Any) -> int | None:
    instants = [float(action["at"]) for action in actions]
    if not instants:
        return None
    return max(1, math.ceil((max(instants) - min(instants)) / 60))


def _qr_svg(text: str, qr: QrEncoder) -> Answer:
    """``text`` as a QR code in SVG, drawn from the box's own encoder (adapters/qr.py, the
    pairing screen's): a phone without BG Stats shows it for another phone to scan."""
    try:
        matrix = qr(text, max_modules=177)   # up to version 40
    except ValueError:
        return _error("no-play", f"the link is too long for a QR code ({len(text)} characters)")
    size = len(matrix) + 2 * QUIET
    path = "".join(f"M{x + QUIET},{y + QUIET}h1v1h-1z" for y, row in enumerate(matrix)
                   for x, dark in enumerate(row) if dark)
    body = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
            f'shape-rendering="crispEdges" role="img" aria-label="QR code of the BG Stats link">'
            f'<rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path d="{path}" fill="#000"/></svg>')
    return Answer(200, SVG, body.encode("ascii"))


# -- helpers -------------------------------------------------------------------------------------


def _title(game: str) -> str:
    facts = facts_of(game)
    return game if facts is None else facts.title


def _game(journal: GamesReader, app: App, game_id: int) -> tuple[dict[str, Any], History]:
    # companion.history (Pillow's drawing, every game's records) loads with the first
    # request for history, not at start-up: the page is on by default off a Pi.
    from companion.history import game_document, records

    return game_document(journal.game(game_id), app, records())


def _json(status: int, value: Any) -> Answer:
    return Answer(status, JSON_UTF8, json.dumps(value, ensure_ascii=False).encode("utf-8"))


def _error(code: str, message: str) -> Answer:
    return _json(status_of(code), {"error": code, "message": message})
