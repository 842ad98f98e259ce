"""Past games from the journal: the ``companion history`` listing and its export.

What it promises:
- The listing shows every game in the journal, newest first: when it started, the game, its
  options, how many actions it took and its result (``-`` while unfinished).
- ``--export DIR`` writes, per game, ``game-<id>-<name>.json`` (how it started, every action,
  the result and, where the game keeps one, its record), ``.csv`` (one row per round for
  games with rounds, one row per action otherwise) and ``.png`` (a chart: time used and
  complaints per round, or the actions over time).
- A game is rebuilt by replaying the journal, exactly as the box does at start-up; a game
  whose rules are no longer known (a game removed from the box) is listed and exported
  without a record.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

from PIL import Image, ImageDraw

from companion.adapters.journal import Journal, StoredGame
from companion.core.app import App
from companion.core.game import RuleError, action_to_json
from companion.ui.render import font

Record = Callable[[Any], dict[str, Any]]


def records() -> dict[str, Record]:
    """The games that keep a record of their rounds: name -> record(state)."""
    from companion.games import now_boarding

    return {"now-boarding": now_boarding.record}


def list_games(journal: Journal, out: TextIO) -> int:
    summaries = journal.games()
    if not summaries:
        print("No games yet.", file=out)
        return 0
    rows = [["#", "started", "game", "options", "actions", "result"]]
    rows += [[str(s.id), s.started_wall.replace("T", " ")[:16], s.game, _options(s.options),
              str(s.actions), _result_text(s.result)] for s in summaries]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
              .rstrip(), file=out)
    return 0


def export(journal: Journal, app: App, folder: Path, out: TextIO) -> int:
    """Write every game's JSON, CSV and PNG chart into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    known = records()
    for summary in journal.games():
        stored = journal.game(summary.id)
        document = game_document(stored, app, known)
        stem = folder / f"game-{stored.id}-{stored.game}"
        stem.with_suffix(".json").write_text(json.dumps(document, indent=2, ensure_ascii=False)
                                             + "\n", encoding="utf-8")
        write_csv(document, stem.with_suffix(".csv"))
        chart(document).save(stem.with_suffix(".png"))
        print(f"{stem}.json .csv .png", file=out)
    return 0


def game_document(stored: StoredGame, app: App,
                  known: Mapping[str, Record]) -> dict[str, Any]:
    document: dict[str, Any] = {
        "id": stored.id, "game": stored.game, "options": dict(stored.options),
        "seed": stored.seed, "started": stored.started_wall, "last_action": stored.last_wall,
        "result": stored.result,
        "actions": [{"at": round(r.at, 3), **action_to_json(r.action)}
                    for r in stored.history],
    }
    record = known.get(stored.game)
    if record is not None:
        try:
            state = app.restore(stored.game, stored.options, stored.seed, stored.history,
                                stored.clock)
        except (RuleError, ValueError) as error:
            document["record_error"] = str(error)
        else:
            assert state.session is not None
            document["record"] = record(state.session.state)
    return document


def write_csv(document: Mapping[str, Any], path: Path) -> None:
    rounds = (document.get("record") or {}).get("rounds")
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        if rounds is not None:
            writer.writerow(["round", "stage", "time_used_s", "ended", "final", "complaints"])
            for row in rounds:
                writer.writerow([row["round"], row["stage"], row["time_used"], row["ended"],
                                 row["final"], row["complaints"]])
        else:
            writer.writerow(["seq", "at_s", "kind", "button"])
            for index, action in enumerate(document["actions"], start=1):
                writer.writerow([index, action["at"], action["kind"], action.get("button", "")])


CHART_SIZE = (640, 320)
MARGIN = 48


def chart(document: Mapping[str, Any]) -> Image.Image:
    """Bars of flight time used per round with complaints marked above, or, for games
    without rounds, the count of actions over game time."""
    image = Image.new("RGB", CHART_SIZE, "white")
    draw = ImageDraw.Draw(image)
    width, height = CHART_SIZE
    label = font("6x12")
    title = f"game {document['id']}: {document['game']}  result: " \
            f"{_result_text(document.get('result'))}"
    draw.text((MARGIN, 8), title, font=label, fill="black")
    left, top, right, bottom = MARGIN, 32, width - 16, height - MARGIN
    draw.line((left, top, left, bottom, right, bottom), fill="black")
    rounds = (document.get("record") or {}).get("rounds")
    if rounds:
        most = max([row["time_used"] for row in rounds] + [1.0])
        slot = (right - left) / len(rounds)
        for index, row in enumerate(rounds):
            x0 = left + index * slot + slot * 0.15
            x1 = left + (index + 1) * slot - slot * 0.15
            # Headroom above the tallest bar for up to three complaint marks.
            y = bottom - (bottom - top - 30) * row["time_used"] / most
            draw.rectangle((x0, y, x1, bottom), fill="#4a7ab8")
            for complaint in range(row["complaints"]):
                cy = y - 8 - complaint * 10
                draw.ellipse((x0, cy - 4, x0 + 8, cy + 4), fill="#c0392b")
            if len(rounds) <= 24 or index % 2 == 0:
                draw.text((x0, bottom + 4), str(row["round"]), font=label, fill="black")
        draw.text((left, height - 20), f"flight seconds used per round (max {most:.0f} s); "
                  "red: complaints", font=label, fill="black")
    else:
        actions = document["actions"]
        if actions:
            start = actions[0]["at"]
            span = max(actions[-1]["at"] - start, 1.0)
            points = [(left + (right - left) * (a["at"] - start) / span,
                       bottom - (bottom - top) * (index + 1) / len(actions))
                      for index, a in enumerate(actions)]
            draw.line([(left, bottom), *points], fill="#4a7ab8", width=2)
        draw.text((left, height - 20), f"{len(actions)} actions over game time",
                  font=label, fill="black")
    return image


def _options(options: Mapping[str, str]) -> str:
    return " ".join(f"{key}={value}" for key, value in options.items())


def _result_text(result: Any) -> str:
    if result is None:
        return "-"
    if isinstance(result, str):
        return result
    if isinstance(result, Mapping) and "winners" in result:
        return "winners: " + ", ".join(map(str, result["winners"])) if result["winners"] \
            else "no winner"
    return json.dumps(result)[:40]
