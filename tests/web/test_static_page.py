"""The page's files: packaged, offline (nothing fetched from elsewhere), and every stable id
that app.js documents for the browser tests present in the page."""

from __future__ import annotations

import re
from importlib import resources

import pytest

STATIC = resources.files("companion.web") / "static"
SCRIPTS = ("app.js", "common.js", "timer.js", "menu.js", "awake.js", "pairing.js", "score.js",
           "history.js", "rules.js")
FILES = ("index.html", *SCRIPTS, "style.css", "favicon.svg", "rules-now-boarding.html")
# The one absolute URL the page may hold: the SVG namespace, which is a name, not a fetch.
ALLOWED_URLS = {"http://www.w3.org/2000/svg"}


def text(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def all_scripts() -> str:
    """The page's modules, one after the other (app.js, the entry, first)."""
    return "\n".join(text(name) for name in SCRIPTS)


def test_every_module_in_the_folder_is_known_and_imported() -> None:
    """The page is app.js and the modules it imports (directly or through another); a new
    module joins SCRIPTS, so every check here reads it."""
    on_disk = {path.name for path in STATIC.iterdir() if path.name.endswith(".js")}
    assert on_disk == set(SCRIPTS)
    imported = set(re.findall(r'from "\./([\w-]+\.js)"', all_scripts()))
    assert imported == set(SCRIPTS) - {"app.js"}


@pytest.mark.parametrize("name", FILES)
def test_page_file_is_packaged_and_fetches_nothing_from_elsewhere(name: str) -> None:
    body = text(name)
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"'`)]*", body))
    urls = {url for url in urls if not url.startswith("//")}  # JS comments, not URLs
    assert urls <= ALLOWED_URLS
    assert "@import" not in body


def test_index_loads_only_the_packaged_script_and_style() -> None:
    index = text("index.html")
    assert re.findall(r'<script[^>]*src="([^"]+)"', index) == ["/static/app.js"]
    assert re.findall(r'<link[^>]*href="([^"]+)"', index) == ["/static/favicon.svg",
                                                               "/static/style.css"]


def test_every_documented_stable_id_exists() -> None:
    script, index = text("app.js"), text("index.html")
    header = script.split("\nimport ", 1)[0]
    code = all_scripts()[len(header):]
    documented = set(re.findall(r"#([a-z][a-z0-9-]*[a-z0-9])\b", header))
    assert {"timer-digits", "score-send", "score-error", "button-next", "history"} <= documented
    for name in documented:
        in_page = f'id="{name}"' in index
        # Made by the script: the id as a string (or a template's start) in the code.
        made_by_script = re.search(rf"""["`]{re.escape(name)}["`$-]""", code)
        assert in_page or made_by_script, f"#{name} is documented but never made"


@pytest.mark.parametrize("control", ["button", "select", "input"])
def test_every_control_in_the_page_has_a_name(control: str) -> None:
    index = text("index.html")
    for tag in re.findall(rf"<{control}\b[^>]*>", index):
        named = "aria-label=" in tag or control == "button" or (
            (found := re.search(r'id="([^"]+)"', tag)) and f'for="{found.group(1)}"' in index)
        wrapped = control == "input" and re.search(
            rf"<label[^>]*>[^<]*(?:<[^l][^>]*>[^<]*)*{re.escape(tag)}", index)
        assert named or wrapped, tag


def string_literals(script: str) -> list[str]:
    """Every string literal of a script ("...", '...', `...`), comments left out."""
    code = re.sub(r"^\s*//.*$", "", script, flags=re.M)
    return [match.group(2) for match in
            re.finditer(r"""(["'`])((?:\\.|(?!\1).)*)\1""", code, flags=re.S)]


def test_the_script_holds_no_game_facts() -> None:
    """Titles and the Overbooked form's events and scenarios come from GET /api/games; the
    script names a game only by its id, to pick that game's form, and the page's HTML names
    none."""
    from companion.games.overbooked.events import EVENT_CARDS
    from companion.games.overbooked.solo import SCENARIO_TITLES
    from companion.games.registry import GAMES

    facts = {word for game in GAMES for word in (game.label, game.title)}
    facts |= {word for card in EVENT_CARDS.values() for word in (card.id, card.title)}
    facts |= set(SCENARIO_TITLES) | set(SCENARIO_TITLES.values())
    literals = string_literals(all_scripts())
    assert len(literals) > 100  # the extraction works
    for name, texts in (("the scripts", literals), ("index.html", [text("index.html")])):
        found = {fact for fact in facts for body in texts
                 if re.search(rf"(?<![\w-]){re.escape(fact)}(?![\w-])", body)}
        assert not found, f"{name} copies game facts: {sorted(found)}"


def test_the_script_reads_the_games_facts_from_the_box() -> None:
    script = all_scripts()
    assert 'getJson("/api/games")' in script
