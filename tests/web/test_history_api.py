"""history_api.py: the BG Stats push-play link, the history listing and the export files.

One journal holds a finished 2-player Now Boarding game, a 2-player Overbooked game, a
Flight Plan game and an unfinished timer, played in-process with the simulated controller.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import sys
from collections.abc import Iterator
from datetime import UTC, timedelta, timezone
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from companion.adapters.journal import Journal, JournalError
from companion.core.app import App
from companion.games.registry import playable_games
from companion.history import export
from companion.testing.simulated import simulated_controller
from companion.web.history_api import (
    BGSTATS_PREFIX,
    bgstats_play,
    bgstats_url,
    history_route,
    route,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import test_history as played  # the e2e history test's games


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Journal]:
    state_dir = tmp_path_factory.mktemp("web-history")
    controller = simulated_controller(state_dir)
    played.now_boarding(controller)
    for lines in (played.OVERBOOKED, played.flight_plan_script(), played.TIMER):
        played.play(controller, lines)
    controller.journal.close()
    opened = Journal.in_directory(state_dir)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def app() -> App:
    return App(playable_games(None))


def decoded(url: str) -> dict[str, Any]:
    assert url.startswith(BGSTATS_PREFIX)
    data = url.removeprefix(BGSTATS_PREFIX)
    assert all(mark not in data for mark in " {}\"&#?")  # every reserved character encoded
    value: dict[str, Any] = json.loads(unquote(data))
    return value


def answer_json(journal: Journal, app: App, path: str) -> tuple[int, Any]:
    answer = history_route(path, journal, app, local_zone=UTC)
    assert answer is not None
    assert answer.content_type.startswith("application/json")
    return answer.status, json.loads(answer.body)


def test_listing_is_newest_first_with_table_chart_downloads(journal: Journal, app: App) -> None:
    status, listing = answer_json(journal, app, "/api/history")
    assert status == 200
    games = listing["games"]
    assert [game["game"] for game in games] == ["timer", "flight-plan", "overbooked",
                                                "now-boarding"]
    now_boarding = games[-1]
    assert now_boarding["result"] == "win"
    assert now_boarding["table"]["columns"][:3] == ["round", "stage", "time_used_s"]
    flights = now_boarding["record"]["flights"]
    assert len(now_boarding["table"]["rows"]) == flights > 0
    panels = now_boarding["chart"]["panels"]
    assert [panel["y_label"] for panel in panels] == ["flight time used (s)", "complaints"]
    assert panels[1]["marks"] == [{"value": 3, "label": "lost at 3"}]
    assert [x for x, _ in panels[0]["series"][0]["points"]] == list(range(1, flights + 1))
    # The complaints split by source (issue #26): in the record, and in the chart's series.
    assert now_boarding["record"]["complaints_by_source"] == {"anger": 2, "vip": 0, "exit": 0}
    assert [series["name"] for series in panels[1]["series"]] == [
        "waiting passengers", "unserved VIPs", "undelivered at the end", "total so far"]
    assert now_boarding["downloads"] == {
        "json": f"/api/history/{now_boarding['id']}.json",
        "csv": f"/api/history/{now_boarding['id']}.csv",
        "png": f"/api/history/{now_boarding['id']}.png"}
    assert games[0]["bgstats"] is None  # a timer has nothing to log


def test_downloads_are_the_files_history_export_writes(journal: Journal, app: App,
                                                       tmp_path: Path) -> None:
    export(journal, app, tmp_path, io.StringIO())
    for summary in journal.games():
        for suffix in ("json", "csv", "png"):
            answer = history_route(f"/api/history/{summary.id}.{suffix}", journal, app)
            assert answer is not None and answer.status == 200
            name = f"game-{summary.id}-{summary.game}.{suffix}"
            assert dict(answer.headers) == {
                "Content-Disposition": f'attachment; filename="{name}"'}
            assert answer.body == (tmp_path / name).read_bytes()
    png = history_route("/api/history/1.png", journal, app)
    assert png is not None and png.content_type == "image/png"
    assert Image.open(io.BytesIO(png.body)).size[0] == 760
    csv_answer = history_route("/api/history/1.csv", journal, app)
    assert csv_answer is not None
    rows = list(csv.reader(io.StringIO(csv_answer.body.decode())))
    assert rows[0][0] == "round" and len(rows) == 1 + len(journal_rounds(journal, app))


@pytest.mark.parametrize(("path", "status", "code"), [
    ("/api/history/99.json", 404, "not-found"),
    ("/api/history/abc.csv", 404, "not-found"),
    ("/api/history/99/bgstats", 404, "not-found"),
    ("/api/history/4/bgstats", 404, "no-play"),   # the timer: no result to log
])
def test_unknown_games_and_unfinished_ones_answer_json_errors(journal: Journal, app: App,
                                                              path: str, status: int,
                                                              code: str) -> None:
    got_status, body = answer_json(journal, app, path)
    assert (got_status, body["error"]) == (status, code)
    assert body["message"]  # says which game and why


@pytest.mark.parametrize("path", ["/api/historyx", "/api/state", "/api/history/1.exe",
                                  "/api/history/1/2"])
def test_paths_that_are_not_history_routes_are_left_to_the_server(journal: Journal, app: App,
                                                                  path: str) -> None:
    assert history_route(path, journal, app) is None


def test_now_boarding_link_is_cooperative_with_its_bgg_id(journal: Journal, app: App) -> None:
    status, body = answer_json(journal, app, "/api/history/1/bgstats")
    assert status == 200
    play = decoded(body["url"])
    assert play["sourceName"] == "Airline table companion"
    assert play["sourcePlayId"] == "1"
    assert play["game"] == {"name": "Now Boarding", "sourceGameId": "now-boarding",
                            "bggId": 231567, "highestWins": False, "noPoints": True}
    assert play["players"] == [{"name": "Player 1", "winner": True},
                               {"name": "Player 2", "winner": True}]
    assert play["playDate"] == "2026-01-01 12:00:00"
    assert isinstance(play["durationMin"], int) and play["durationMin"] >= 1


def test_scored_game_link_carries_scores_ranks_and_winners(journal: Journal, app: App) -> None:
    _, listing = answer_json(journal, app, "/api/history")
    overbooked = next(game for game in listing["games"] if game["game"] == "overbooked")
    play = decoded(overbooked["bgstats"])
    totals = {row["name"]: row["total"] for row in overbooked["result"]["players"]}
    assert {p["name"]: p["score"] for p in play["players"]} == totals
    assert [p["name"] for p in play["players"] if p["winner"]] == \
        overbooked["result"]["winners"]
    assert {p["rank"] for p in play["players"]} <= {1, 2}
    assert "bggId" not in play["game"]  # no citable id: left out, not guessed
    assert play["game"]["highestWins"] is True


def test_flight_plan_link_names_the_banks_players(journal: Journal, app: App) -> None:
    _, body = answer_json(journal, app, "/api/history/3/bgstats")
    play = decoded(body["url"])
    assert [p["name"] for p in play["players"]] == ["P1", "P2", "P3"]
    assert [p["name"] for p in play["players"] if p["winner"]] == ["P3"]
    assert play["game"]["noPoints"] is True


@pytest.mark.parametrize(("started", "zone", "expected"), [
    ("2026-03-07T19:05:09+00:00", UTC, "2026-03-07 19:05:09"),
    ("2026-03-07T23:30:00+00:00", timezone(timedelta(hours=2)), "2026-03-08 01:30:00"),
    ("2026-03-07T19:05:09", UTC, "2026-03-07 19:05:09"),
])
def test_play_date_is_local_time_in_bgstats_format(started: str, zone: timezone,
                                                   expected: str) -> None:
    document = {"id": 7, "game": "now-boarding", "started": started, "result": "lose",
                "options": {"players": "3"}, "actions": []}
    play = bgstats_play(document, local_zone=zone)
    assert play is not None
    assert play["playDate"] == expected
    assert "durationMin" not in play  # no actions: no duration to claim
    assert [p["winner"] for p in play["players"]] == [False, False, False]


@pytest.mark.parametrize(("instants", "minutes"), [
    ([0.0, 59.0], 1), ([10.0, 70.0], 1), ([10.0, 70.5], 2), ([5.0], 1), ([0.0, 3600.0], 60)])
def test_duration_is_first_to_last_action_rounded_up(instants: list[float],
                                                     minutes: int) -> None:
    document = {"id": 1, "game": "now-boarding", "started": "2026-01-01T00:00:00+00:00",
                "result": "win", "options": {"players": "2"},
                "actions": [{"at": at, "kind": "press", "button": "next"} for at in instants]}
    play = bgstats_play(document, local_zone=UTC)
    assert play is not None and play["durationMin"] == minutes


@given(st.text(min_size=1, max_size=30))
def test_any_player_name_survives_the_link(name: str) -> None:
    document = {"id": 2, "game": "planes", "started": "2026-01-01T00:00:00+00:00",
                "options": {"players": "1"}, "actions": [],
                "result": {"players": [{"name": name, "total": 9}], "ranking": [[name]],
                           "winners": [name]}}
    play = bgstats_play(document, local_zone=UTC)
    assert play is not None
    assert decoded(bgstats_url(play))["players"] == [{"name": name, "score": 9,
                                                      "winner": True, "rank": 1}]


def journal_rounds(journal: Journal, app: App) -> list[Any]:
    _, listing = answer_json(journal, app, "/api/history")
    rounds: list[Any] = listing["games"][-1]["record"]["rounds"]
    return rounds


def test_route_reads_the_journal_file_while_the_box_holds_it(journal: Journal,
                                                             app: App) -> None:
    answer = route(partial(Journal.reader, journal.path.parent), app)
    found = answer("/api/history/1.csv")
    assert found is not None
    assert (found.status, found.content_type) == (200, "text/csv; charset=utf-8")
    assert dict(found.headers) == {
        "Content-Disposition": 'attachment; filename="game-1-now-boarding.csv"'}
    assert found.body.startswith(b"round,stage")
    assert answer("/api/state") is None   # not a history route: left to the server


@pytest.mark.parametrize("state_dir", [None, "empty"])
def test_route_without_a_journal_lists_no_games(tmp_path: Path, app: App,
                                                state_dir: str | None) -> None:
    answer = route(None if state_dir is None else partial(Journal.reader, tmp_path), app)
    listing = answer("/api/history")
    assert listing is not None and json.loads(listing.body) == {"games": []}
    missing = answer("/api/history/1.json")
    assert missing is not None and missing.status == 404


def test_journal_reader_never_writes(journal: Journal) -> None:
    reader = Journal.reader(journal.path.parent)
    try:
        assert [game.id for game in reader.games()] == [game.id for game in journal.games()]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            reader._db.execute("DELETE FROM actions")
    finally:
        reader.close()
    assert sum(game.actions for game in journal.games()) > 0


def test_journal_reader_refuses_a_folder_without_a_journal(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no journal here"):
        Journal.reader(tmp_path)
    assert list(tmp_path.iterdir()) == []   # nothing created


def test_listing_replays_a_game_once_until_it_changes(tmp_path: Path, app: App,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.web import history_api

    controller = simulated_controller(tmp_path)
    played.play(controller, played.TIMER)
    played.play(controller, ["new timer seconds=30", "press next"])
    replays: list[int] = []
    real = history_api._game

    def counted(journal: Journal, app: App, game_id: int) -> Any:
        replays.append(game_id)
        return real(journal, app, game_id)

    monkeypatch.setattr(history_api, "_game", counted)
    journal = controller.journal
    cache: dict[Any, dict[str, Any]] = {}
    first = history_api.history_listing(journal, app, cache=cache, local_zone=UTC)
    assert sorted(replays) == [1, 2]
    replays.clear()
    assert history_api.history_listing(journal, app, cache=cache, local_zone=UTC) == first
    assert replays == []
    # The game in play goes on: only that game is replayed again.
    played.play(controller, ["wait 3", "press next"])
    again = history_api.history_listing(journal, app, cache=cache, local_zone=UTC)
    assert replays == [2]
    assert again["games"][0]["actions"] == first["games"][0]["actions"] + 1
    controller.journal.close()
