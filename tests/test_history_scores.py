"""Games scored from their final count are kept in history like played games (issue #20 item 5).

The protocol's ``score`` line (which the table page's Score tab sends) keeps the scored game in
the journal as a finished game of its own: listed by ``/api/history`` and ``companion history``
with its table, chart, downloads and a BG Stats link, while the game in play stays current.
The link's play is checked against BG Stats' documented push format ("Push plays to BG Stats
from other apps or websites", bgstatsapp.com/support): ``playDate`` as ``YYYY-MM-DD
HH:MM:SS``, a numeric ``bggId`` where one is known, and a boolean ``winner`` on every player.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
import zxingcpp
from PIL import Image, ImageDraw

from companion.adapters.journal import Journal
from companion.adapters.qr import qr_matrix
from companion.core.app import App
from companion.games.registry import playable_games
from companion.history import export, list_games
from companion.testing.simulated import simulated_controller
from companion.web.history_api import BGSTATS_PREFIX, history_route

OVERBOOKED = {"variant": "base", "events": [], "players": [
    {"name": "Ann", "seats": ["RRW|BBG", "GGG|YYY"], "overbooked": 0, "vouchers": 2},
    {"name": "Bo", "seats": ["RR.|BB.", "W..|YY."], "overbooked": 1, "vouchers": 0}]}
NOW_BOARDING = {"players": 3, "complaints": 2, "undelivered": 1, "unserved_vips": 0}
PLAY_KEYS = {"sourceName", "sourcePlayId", "playDate", "game", "players"}
GAME_KEYS = {"name", "sourceGameId", "highestWins", "noPoints"}


def decoded(url: str) -> dict[str, Any]:
    assert url.startswith(BGSTATS_PREFIX)
    play: dict[str, Any] = json.loads(unquote(url.removeprefix(BGSTATS_PREFIX)))
    return play


def assert_documented_play(play: dict[str, Any]) -> None:
    """The play has the push format's fields and types (see the module docstring)."""
    assert set(play) >= PLAY_KEYS
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert set(play["game"]) >= GAME_KEYS
    assert isinstance(play["game"]["highestWins"], bool)
    assert isinstance(play["game"]["noPoints"], bool)
    if "bggId" in play["game"]:
        assert type(play["game"]["bggId"]) is int
    assert play["players"]
    for player in play["players"]:
        assert isinstance(player["name"], str) and player["name"]
        assert type(player["winner"]) is bool
        if "score" in player:
            assert isinstance(player["score"], int | float)
        if "rank" in player:
            assert type(player["rank"]) is int


@pytest.fixture
def box(tmp_path: Path):
    controller = simulated_controller(tmp_path)
    controller.command_line("new now-boarding players=3 seed=4")
    controller.command_line("press next")
    yield controller
    controller.journal.close()


def score(box, game: str, data: dict[str, Any]) -> dict[str, Any]:
    reply = box.command_line(f"score {game} {json.dumps(data)}")
    assert reply.startswith("ok ")
    result: dict[str, Any] = json.loads(reply[3:])
    return result


def listing(journal: Journal) -> list[dict[str, Any]]:
    answer = history_route("/api/history", journal, App(playable_games()), local_zone=UTC)
    assert answer is not None and answer.status == 200
    games: list[dict[str, Any]] = json.loads(answer.body)["games"]
    return games


def test_a_scored_game_is_kept_and_the_game_in_play_stays_current(box) -> None:
    playing = box.game_id
    result = score(box, "overbooked", OVERBOOKED)
    assert box.game_id == playing
    assert box.journal.current().id == playing
    kept = listing(box.journal)[0]
    assert kept["game"] == "overbooked"
    assert kept["options"] == {"entered": "score", "players": "2", "variant": "base"}
    assert kept["result"] == result
    assert kept["table"]["columns"][:4] == ["player", "place", "total", "winner"]
    assert [row[0] for row in kept["table"]["rows"]] == ["Ann", "Bo"]
    assert kept["chart"]["panels"][0]["series"][0]["points"] == [
        [1, float(result["players"][0]["total"])], [2, float(result["players"][1]["total"])]]
    assert kept["downloads"]["csv"] == f"/api/history/{kept['id']}.csv"
    play = decoded(kept["bgstats"])
    assert_documented_play(play)
    assert play["sourcePlayId"] == str(kept["id"])
    assert "bggId" not in play["game"]  # not known for Overbooked: BG Stats matches by name
    assert {p["name"]: p["winner"] for p in play["players"]} == {
        p["name"]: p["name"] in result["winners"] for p in result["players"]}
    assert {p["name"]: p["score"] for p in play["players"]} == {
        p["name"]: p["total"] for p in result["players"]}


def test_a_now_boarding_final_count_is_kept_cooperative_with_its_bgg_id(box) -> None:
    result = score(box, "now-boarding", NOW_BOARDING)
    assert result["result"] == "win" and result["complaints_total"] == 2
    kept = listing(box.journal)[0]
    assert kept["game"] == "now-boarding" and kept["options"]["players"] == "3"
    assert kept["table"]["rows"] == [[3, 2, 0, 0, 2, "win"]]
    assert kept["chart"]["panels"][0]["marks"] == [{"value": 3, "label": "loss at 3"}]
    out = io.StringIO()
    list_games(box.journal, out)
    assert re.search(r"now-boarding +entered=score players=3 +0 +win", out.getvalue())
    play = decoded(kept["bgstats"])
    assert_documented_play(play)
    assert play["game"]["bggId"] == 231567
    assert play["game"]["noPoints"] is True
    assert [p["winner"] for p in play["players"]] == [True, True, True]


def test_the_csv_writes_booleans_as_the_page_shows_them(box) -> None:
    score(box, "overbooked", OVERBOOKED)
    kept = listing(box.journal)[0]
    answer = history_route(f"/api/history/{kept['id']}.csv", box.journal,
                           App(playable_games()))
    assert answer is not None and answer.status == 200
    rows = list(csv.reader(io.StringIO(answer.body.decode())))
    winners = [row[3] for row in rows[1:]]
    # The page draws the table from the JSON: true and false, not Python's True and False.
    assert winners == [json.dumps(cell) for cell in (row[3] for row in kept["table"]["rows"])]
    assert set(winners) <= {"true", "false"} and "true" in winners


def test_the_bgstats_link_is_also_a_qr_code(box) -> None:
    score(box, "planes", {"players": [{"name": "Ann", "goals": [3], "boarded": 2},
                                      {"name": "Bo", "goals": [], "boarded": 4}]})
    kept = listing(box.journal)[0]
    answer = history_route(f"/api/history/{kept['id']}/bgstats.svg", box.journal,
                           App(playable_games()), qr=qr_matrix)
    assert answer is not None and answer.status == 200
    assert answer.content_type == "image/svg+xml"
    svg = answer.body.decode()
    assert svg.startswith("<svg") and svg.count("h1v1h-1z") > 100  # dark modules drawn
    # Drawn back into pixels from the SVG's own squares, it reads as the link itself.
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    picture = Image.new("L", (size * 4, size * 4), 255)
    draw = ImageDraw.Draw(picture)
    for x, y in re.findall(r"M(\d+),(\d+)h1v1h-1z", svg):
        draw.rectangle((int(x) * 4, int(y) * 4, int(x) * 4 + 3, int(y) * 4 + 3), fill=0)
    assert [found.text for found in zxingcpp.read_barcodes(picture)] == [kept["bgstats"]]


def test_a_refused_score_keeps_nothing(box) -> None:
    before = len(box.journal.games())
    reply = box.command_line('score overbooked {"players": [{"name": "Ann", "seats": ["RX"]}]}')
    assert reply.startswith("err bad-argument")
    assert len(box.journal.games()) == before


def test_history_lists_and_exports_a_scored_game(box, tmp_path: Path) -> None:
    score(box, "now-boarding-v3", {"variant": "basic", "lost": 2, "players": [
        {"name": "Ann", "total": 9}, {"name": "Bo", "total": 7}, {"name": "Cy", "total": 4}]})
    out = io.StringIO()
    list_games(box.journal, out)
    assert "now-boarding-v3" in out.getvalue() and "entered=score" in out.getvalue()
    folder = tmp_path / "export"
    export(box.journal, App(playable_games()), folder, io.StringIO())
    stem = f"game-{box.journal.games()[0].id}-now-boarding-v3"
    assert json.loads((folder / f"{stem}.json").read_text())["result"]["score"] is not None
    assert (folder / f"{stem}.png").stat().st_size > 0
    assert (folder / f"{stem}.csv").read_text().startswith("player,place,total,winner")


def test_history_lists_a_scored_now_boarding_game_with_its_complaints_split(box) -> None:
    """Issue #36, item 9: ``companion history`` says the complaints by source, as the page's
    History does, for a Now Boarding game scored from its final count."""
    score(box, "now-boarding", {"players": 3, "complaints": 0, "undelivered": 3,
                                "unserved_vips": 1})
    out = io.StringIO()
    list_games(box.journal, out)
    assert out.getvalue().splitlines()[1].endswith(
        "win, 2 complaints: waiting passengers 0, unserved VIPs 1, undelivered at the end 1")


def test_a_restart_resumes_the_game_in_play_not_the_scored_one(tmp_path: Path) -> None:
    controller = simulated_controller(tmp_path)
    controller.command_line("new now-boarding players=2 seed=3")
    playing = controller.game_id
    score(controller, "now-boarding", NOW_BOARDING)
    controller.journal.close()
    again = simulated_controller(tmp_path)
    try:
        assert again.game_id == playing
        assert again.state.session is not None and again.state.session.game == "now-boarding"
        assert all(past.id != playing for past in again.state.resumable)
        assert [game.game for game in again.journal.games()] == ["now-boarding"] * 2
    finally:
        again.journal.close()


class RefusingJournal:
    """The real journal, refusing every write while ``failing`` (a full disk), as the adapter
    refuses: JournalUnavailable."""

    WRITES = ("begin_game", "keep_finished", "append", "drop_last", "set_result",
              "checkpoint", "set_aside")

    def __init__(self, journal: Journal) -> None:
        self.inner = journal
        self.failing = False

    def __getattr__(self, name: str) -> Any:
        from companion.adapters.journal_rows import JournalUnavailable

        attribute = getattr(self.inner, name)
        if name in self.WRITES and self.failing:
            def refuse(*_arguments: Any) -> None:
                raise JournalUnavailable("database or disk is full")
            return refuse
        return attribute


def test_a_score_sent_while_the_disk_refuses_waits_its_turn_and_loses_nothing(
        tmp_path: Path) -> None:
    journal = RefusingJournal(Journal.in_directory(tmp_path))
    controller = simulated_controller(tmp_path, journal=journal)
    controller.command_line("new now-boarding players=3 seed=2")
    journal.failing = True
    controller.command_line("press next")            # queued for the game in play
    result = score(controller, "overbooked", OVERBOOKED)   # queued: a game of its own
    controller.command_line("press next")            # queued for the game in play again
    assert len(controller.unsaved) == 3
    journal.failing = False
    controller.command_line("wait 5")
    assert controller.unsaved == []
    played, kept = sorted(journal.inner.games(), key=lambda game: game.id)
    assert (played.game, played.actions, played.result) == ("now-boarding", 2, None)
    assert (kept.game, kept.actions, kept.result) == ("overbooked", 0, result)
    assert journal.inner.current().id == played.id == controller.game_id
    journal.inner.close()
