"""What the docs say about the menu's rows, the `new` options and the command line's defaults
is checked against the code that defines them (companion/core/app.py's ``menu_items``, each
game's ``OptionSpec``, companion/cli.py's parser), so a row or an option added, moved or given
another default fails here until the docs say so.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.core.app import App
from companion.core.appstate import AppState, PastGame
from companion.core.game import OptionError, OptionSpec
from companion.core.menu import mute_item, volume_item
from companion.core.table_page import TablePage
from companion.games.flight_plan.start import example_guide
from companion.games.registry import playable_games

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
ADDITIONS = (ROOT / "docs" / "contract-additions.md").read_text(encoding="utf-8")
ROW_NAME = re.compile(r"\*\*([^*]+)\*\*|\"([^\"]+)\"|`([^`]+)`")
ALTERNATIVES = {"Sound: muted"}  # named beside "Sound: on" as the same row's other face


def every_row() -> list[str]:
    """The games page with every row that can show: a game in play, one to resume, the table
    page on, phones paired. Volume and mute as the docs write them (``n`` for the volume)."""
    app = App(playable_games(), TablePage("http://companion.local:8080/", ((True,),)),
              phones=True)
    state, _ = app.new_game(AppState(), "timer", {}, 1, 0.0)
    state = replace(state, resumable=(PastGame(1, "planes", "2026-11-28T00:00:00"),))
    rows = app.menu_items(state)
    games = {game.title for game in app.games.values()}
    named = {volume_item(state.sound): "Volume n/5", mute_item(state.sound): "Sound: on"}
    shown: list[str] = []
    for row in rows:
        if row in games:
            if "the games" not in shown:
                shown.append("the games")
        else:
            shown.append(named.get(row, row))
    return shown


def rows_in(text: str) -> list[str]:
    """The row names a sentence gives (bold, quoted or in code), with "the games" in place."""
    names: list[str] = []
    for match in re.finditer(ROW_NAME.pattern + r"|\bthe games\b", text):
        name = " ".join(next((group for group in match.groups() if group),
                             match.group(0)).split())  # a name wrapped across lines
        if name not in ALTERNATIVES:
            names.append(name)
    return names


def test_every_row_is_what_the_menu_shows() -> None:
    """The helper above is itself checked: it names each row of the real menu once."""
    rows = every_row()
    assert rows[0] == "Back to game" and rows[1] == "the games"
    assert {"Resume a game", "Table page", "Power off", "Forget phones"} <= set(rows)


def test_readme_lists_the_menus_rows_in_order() -> None:
    found = re.search(r"<!-- menu rows:[^>]*-->(.*?)<!-- /menu rows -->", README, re.S)
    assert found, "README.md: the menu's rows between <!-- menu rows ... --> markers"
    assert rows_in(found.group(1)) == every_row()


def test_protocol_lists_the_menus_rows_in_order() -> None:
    found = re.search(r"^- The menu's games page, top to bottom:(.*?)(?=^- |\Z)", PROTOCOL,
                      re.S | re.M)
    assert found, "docs/protocol.md: the bullet listing the menu's games page"
    assert rows_in(found.group(1)) == every_row()


def documented_options() -> dict[str, dict[str, list[str]]]:
    """docs/protocol.md's `new` options table: game -> key -> the values as written (the
    default first)."""
    section = PROTOCOL[PROTOCOL.index("### `new` options"):]
    section = section[:section.index("\n## ")]
    table: dict[str, dict[str, list[str]]] = {}
    for game, cells in re.findall(r"^\| `([a-z0-9-]+)` \| (.*) \|$", section, re.M):
        table[game] = {key: values.split("\\|")
                       for key, values in re.findall(r"`([a-z]+)=([^`]+)`", cells)}
    return table


GAMES = {game.name: game for game in playable_games()}
# With a route guide named in the config, Flight Plan also offers (and defaults to) "owner".
WITH_OWNER_GUIDE = {game.name: game for game in playable_games(example_guide())}


def test_the_options_table_names_every_game() -> None:
    assert set(documented_options()) == set(GAMES)


def _accepts(spec: OptionSpec, value: str) -> bool:
    try:
        spec.normalise(value)
    except OptionError:
        return False
    return True


def _covered(choice: str, written: list[str]) -> bool:
    """Whether a menu choice is among the values as written: itself, a numeric range that
    holds it (``5..600``), or a placeholder (``N``, ``<id,id,...>``)."""
    for value in written:
        if value in (choice, "N") or value.startswith("<"):
            return True
        low, dots, high = value.partition("..")
        if (dots and choice.isdigit() and low.isdigit() and high.isdigit()
                and int(low) <= int(choice) <= int(high)):
            return True
    return False


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_options_table_gives_each_games_keys_defaults_and_values(name: str) -> None:
    written = documented_options()[name]
    specs: dict[str, OptionSpec] = {spec.key: spec for spec in GAMES[name].options}
    assert list(written) == list(specs), f"{name}: the keys, in the menu's order"
    owned = {spec.key: spec for spec in WITH_OWNER_GUIDE[name].options}
    for key, spec in specs.items():
        values = written[key]
        assert values[0] == spec.default, f"{name} {key}: the default is {spec.default}"
        for value in values:
            if ".." in value or value == "N" or value.startswith("<"):
                continue
            assert _accepts(spec, value) or _accepts(owned[key], value), \
                f"{name} {key}={value} is written but refused"
        missing = [choice for choice in spec.choices if not _covered(choice, values)]
        assert not missing, f"{name} {key}: the menu offers {missing}, the table does not"


def added_options() -> dict[str, dict[str, list[str]]]:
    """docs/contract-additions.md's list of `new` keys beyond the contract (defaults first)."""
    start = ADDITIONS.index("- **`new` keys** beyond section 2")
    block = ADDITIONS[start:ADDITIONS.index("\n\n", start)]
    listed: dict[str, dict[str, list[str]]] = {}
    for game, cells in re.findall(r"^  - `([a-z0-9-]+)`: (.*?)(?=^  - |\Z)", block, re.M | re.S):
        listed[game] = {key: values.split("|")
                        for key, values in re.findall(r"`([a-z]+)=([^`]+)`", cells)}
    return listed


def test_the_contract_additions_give_real_keys_with_their_defaults_first() -> None:
    listed = added_options()
    assert set(listed) <= set(GAMES) and listed
    for name, keys in listed.items():
        specs = {spec.key: spec for spec in WITH_OWNER_GUIDE[name].options}
        plain = {spec.key: spec for spec in GAMES[name].options}
        for key, values in keys.items():
            assert key in specs, f"{name}: no option {key}"
            assert values[0] == plain[key].default, f"{name} {key}: the default comes first"
            for value in values:
                if ".." not in value and value != "N" and not value.startswith("<"):
                    assert _accepts(specs[key], value), f"{name} {key}={value} is refused"


def _default(command: str, flag: str) -> object:
    """The default argparse gives ``flag`` of ``companion COMMAND``."""
    from companion.cli import build_parser

    parser = build_parser()
    subparsers = next(action for action in parser._actions
                      if isinstance(action, argparse._SubParsersAction))
    sub = subparsers.choices[command]
    return next(action.default for action in sub._actions if flag in action.option_strings)


def _row(command: str) -> str:
    """docs/protocol.md's command-line table row of ``companion COMMAND``."""
    found = re.search(rf"^\| `companion {command}[^|]*\|(.*)$", PROTOCOL, re.M)
    assert found, f"docs/protocol.md: no row for companion {command}"
    return found.group(1)


@pytest.mark.parametrize(("command", "flag", "written"), [
    ("run", "--backend", "`--backend auto\\|pi\\|fake` (auto:"),
    ("simulate", "--seed", "default 1,"),
    ("render", "--scale", "at `--scale 1`"),
    ("render", "--out", "into `./screens` (`--out DIR`)"),
])
def test_the_command_lines_documented_defaults_are_the_parsers(command: str, flag: str,
                                                                written: str) -> None:
    assert written in _row(command)
    default = str(_default(command, flag))
    assert default in written.replace("./", ""), f"companion {command} {flag}: {default}"


def test_the_documented_config_default_is_the_programs() -> None:
    from companion.config import SYSTEM_CONFIG

    assert f"`--config FILE` (default `{SYSTEM_CONFIG}`)" in _row("run")
