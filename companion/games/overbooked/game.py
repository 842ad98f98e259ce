"""Overbooked on the box: the players enter their finished planes with the buttons; the box scores.

The scoring is :func:`companion.games.overbooked.score`; this module only collects its input
(CONTRACT.md section 4, ``overbooked``) one button at a time, then shows the result. Players are
named ``P1`` .. ``P4``. BACK never reaches the game: a short press opens the box menu and hold
BACK undoes the last button (the App replays the journal), so any slip can be taken back.

Options (``new overbooked ...``, offered in this order by the menu):
- ``players=1..4`` (2). One player is a solo game (rulebook "Solo Variant").
- ``variant=base|advanced`` (base).
- ``board=auto|4-player|1-3-player`` (auto: the 4-player side with 4 players, else the
  1-3-player side, as the rulebook's setup says). The empty planes are ``BOARD_PRESETS``.
- ``events=none|choose|<id,id,...>`` (none). ``choose`` starts with the events step below;
  a comma list of event ids (``EVENT_IDS``, each at most once) sets them directly.
- ``scenario=schools|couples|friends`` or the full ids (``schools-out``, ``couples-retreat``,
  ``best-friends-forever``) and ``difficulty=easy|medium|hard``: the solo scenario. The menu
  always asks them; with 2 or more players they are ignored.

Steps (``phase`` / ``step``) and buttons:
- ``setup`` / ``events`` (only with ``events=choose``): a cursor over the fifteen event cards.
  UP puts the card under the cursor in play, DOWN takes it out, NEXT moves the cursor on
  (after the last card it wraps to the first), hold NEXT ends the step.
- ``entry`` / ``seats``: a cursor over the player's plane, seat by seat in reading order. UP /
  DOWN cycle the seat's occupant (empty, red, white, blue, green, yellow, and round again);
  NEXT moves to the next seat, and on the last seat finishes the plane; hold NEXT finishes it
  at once: seats not reached stay empty. To correct a seat, hold BACK undoes back to it.
- ``entry`` / ``overbooked``, ``vouchers`` and, in the advanced variant only, ``bonus-cards``:
  UP / DOWN change the count, NEXT confirms it. They start at 0, at the starting vouchers (6,
  or the solo difficulty's 6 / 4 / 2) and at 0.
- Then the next player's ``seats``; after the last player ``over`` / ``result``: page 0 is the
  ranking (solo: the scenario won or lost and its conditions), then each player's breakdown
  (entries worth 0 left out; a long breakdown takes several pages). NEXT or DOWN shows the next
  page, UP the previous one; both wrap around.

Rules enforced (a refused button raises :class:`RuleError` and changes nothing):
- Counts are whole numbers from 0 to :data:`MAX_COUNT`: DOWN at 0 or UP at the top is refused.
- Hold NEXT works only to end a plane or the events step; a counting step wants NEXT.
- Nothing is entered after the result; BACK opens the menu for a new game.
- The box's own actions: ``Restore`` (after a power cut) changes nothing, as nothing here is
  timed; ``Expire`` is refused (there is no countdown).

``result`` is ``None`` until the last player is done, then exactly ``score(entry)``; the state
object adds ``entry``, the score input entered so far (every player, those not yet entered
with an empty plane), so it can be fed to ``companion score overbooked``.

:data:`Step` is the one owner of the step names (the ``step`` strings of the state JSON): a
closed ``Literal``, so the state holds no other name and a ``match`` on ``state.step`` that
misses one is a mypy error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, assert_never

from companion.core.buttons import Button
from companion.core.game import (
    Expire,
    GameAction,
    Hold,
    OptionError,
    OptionSpec,
    Play,
    Press,
    Restore,
    RuleError,
)
from companion.core.timer import Countdown
from companion.games.overbooked.events import EVENT_CARDS, EVENT_IDS
from companion.games.overbooked.score import score
from companion.games.overbooked.seatmap import (
    BOARD_PRESETS,
    Passenger,
    SeatMap,
    parse_seat_map,
)
from companion.games.overbooked.solo import SOLO_SCENARIOS, STARTING_VOUCHERS

MAX_PLAYERS = 4
MAX_COUNT = 99
"""The largest count a counting step takes (two digits on the screen)."""
STARTING_VOUCHERS_MULTIPLAYER = 6
ENTRIES_PER_PAGE = 4
"""Breakdown entries on one result page (four lines of the small font leave room for the status
line)."""

OCCUPANTS: tuple[Passenger | None, ...] = (
    None, Passenger.COUPLE, Passenger.CHILD, Passenger.BLUE, Passenger.GREEN, Passenger.YELLOW)
"""What UP steps through for a seat (DOWN goes the other way round)."""

SCENARIO_ALIASES: dict[str, str] = {
    "schools": "schools-out",
    "couples": "couples-retreat",
    "friends": "best-friends-forever",
}
"""The menu's short names for the solo scenarios (the full ids fit no menu line)."""

Step = Literal["events", "seats", "overbooked", "vouchers", "bonus-cards", "result"]
"""Every step of the entry, in order (the module docstring); the counting steps are the three
keys of :data:`COUNT_NAMES`."""

COUNT_NAMES: dict[Step, str] = {
    "overbooked": "overbooked passengers", "vouchers": "vouchers", "bonus-cards": "bonus cards"}

AUTO_BOARD = "auto"
CHOOSE_EVENTS = "choose"
NO_EVENTS = "none"


def _event_list(value: str) -> bool:
    ids = value.split(",")
    return all(event in EVENT_CARDS for event in ids) and len(set(ids)) == len(ids)


OPTIONS = (
    OptionSpec("players", "Players", ("1", "2", "3", "4"), "2",
               explain="Players at the table; 1 is the solo game"),
    OptionSpec("variant", "Variant", ("base", "advanced"), "base",
               explain="Advanced adds the advanced scoring"),
    OptionSpec("board", "Board", (AUTO_BOARD, *BOARD_PRESETS), AUTO_BOARD,
               explain="Board side; auto: by the player count"),
    OptionSpec("events", "Events", (NO_EVENTS, CHOOSE_EVENTS), NO_EVENTS,
               accepts=_event_list,
               allowed="none|choose|a comma list of event ids, e.g. full-flight,meteor-shower",
               explain="Event cards: none, or choose them next"),
    OptionSpec("scenario", "Solo", tuple(SCENARIO_ALIASES), "schools",
               accepts=lambda value: value in SOLO_SCENARIOS,
               allowed="|".join((*SCENARIO_ALIASES, *SOLO_SCENARIOS)),
               explain="The solo scenario to play", shown_when=("players", "1")),
    OptionSpec("difficulty", "Solo level", tuple(STARTING_VOUCHERS), "easy",
               explain="Solo: fewer starting vouchers is harder",
               shown_when=("players", "1")),
)


@dataclass(frozen=True)
class Sheet:
    """One player's entry: the plane and the three counts."""

    seats: SeatMap
    overbooked: int
    vouchers: int
    bonus_cards: int

    def to_json(self, name: str) -> dict[str, Any]:
        return {"name": name, "seats": list(self.seats.to_rows()), "overbooked": self.overbooked,
                "vouchers": self.vouchers, "bonus_cards": self.bonus_cards}


@dataclass(frozen=True)
class ResultPage:
    """One page of the result: the ranking (``player`` None) or part of a breakdown."""

    player: int | None
    entries: tuple[tuple[str, int], ...] = ()
    part: int = 1
    parts: int = 1


@dataclass(frozen=True)
class OverbookedEntryState:
    variant: str
    board: str
    events: tuple[str, ...]
    solo: tuple[str, str] | None
    """(scenario id, difficulty) in a solo game."""
    sheets: tuple[Sheet, ...]
    step: Step
    player: int = 0
    cursor: int = 0
    """The seat (reading order) in ``seats``, the event card in ``events``."""
    result_json: str | None = None
    """The score result, kept as JSON text so the state stays immutable."""
    pages: tuple[ResultPage, ...] = ()
    page: int = 0

    @property
    def advanced(self) -> bool:
        return self.variant == "advanced"

    @property
    def sheet(self) -> Sheet:
        return self.sheets[self.player]


def _count_of(sheet: Sheet, step: Step) -> int:
    return {"overbooked": sheet.overbooked, "vouchers": sheet.vouchers,
            "bonus-cards": sheet.bonus_cards}[step]


def _with_count(sheet: Sheet, step: Step, value: int) -> Sheet:
    if step == "overbooked":
        return replace(sheet, overbooked=value)
    if step == "vouchers":
        return replace(sheet, vouchers=value)
    return replace(sheet, bonus_cards=value)


def count_of(state: OverbookedEntryState) -> int:
    """The number a counting step is setting now."""
    return _count_of(state.sheet, state.step)


def player_name(index: int) -> str:
    return f"P{index + 1}"


def score_input(state: OverbookedEntryState) -> dict[str, Any]:
    """The entry in the ``score`` input format (CONTRACT.md section 4)."""
    data: dict[str, Any] = {
        "variant": state.variant,
        "events": list(state.events),
        "players": [sheet.to_json(player_name(index)) for index, sheet in enumerate(state.sheets)],
    }
    if state.solo is not None:
        data["solo"] = {"scenario": state.solo[0], "difficulty": state.solo[1]}
    return data


def result_of(state: OverbookedEntryState) -> dict[str, Any] | None:
    """The score result (a fresh object each call), or None before the last player is done."""
    if state.result_json is None:
        return None
    result: dict[str, Any] = json.loads(state.result_json)
    return result


def result_pages(result: Mapping[str, Any]) -> tuple[ResultPage, ...]:
    """The ranking page, then each player's non-zero breakdown entries in page-sized parts."""
    pages = [ResultPage(None)]
    for index, player in enumerate(result["players"]):
        entries = tuple((key, points) for key, points in player["breakdown"].items() if points)
        parts = max(1, -(-len(entries) // ENTRIES_PER_PAGE))
        for part in range(parts):
            chunk = entries[part * ENTRIES_PER_PAGE:(part + 1) * ENTRIES_PER_PAGE]
            pages.append(ResultPage(index, chunk, part + 1, parts))
    return tuple(pages)


def seat_position(seats: SeatMap, index: int) -> tuple[int, int]:
    """(row, column) of the ``index``-th seat in reading order."""
    return divmod(index, seats.column_count)


class OverbookedEntry:
    """Overbooked score entry on the box; see the module docstring."""

    name = "overbooked"
    title = "Overbooked score"
    options = OPTIONS

    def new(self, options: Mapping[str, str], seed: int) -> OverbookedEntryState:
        players = int(options["players"])
        if not 1 <= players <= MAX_PLAYERS:
            raise OptionError(f"players={players} is not allowed; use players=1..{MAX_PLAYERS}")
        board = options["board"]
        if board == AUTO_BOARD:
            board = "4-player" if players == 4 else "1-3-player"
        events_option = options["events"]
        events: tuple[str, ...] = ()
        if events_option not in (NO_EVENTS, CHOOSE_EVENTS):
            events = tuple(events_option.split(","))
        solo = None
        vouchers = STARTING_VOUCHERS_MULTIPLAYER
        if players == 1:
            scenario = SCENARIO_ALIASES.get(options["scenario"], options["scenario"])
            solo = (scenario, options["difficulty"])
            vouchers = STARTING_VOUCHERS[options["difficulty"]]
        empty = Sheet(parse_seat_map(list(BOARD_PRESETS[board]), "board"), 0, vouchers, 0)
        return OverbookedEntryState(
            variant=options["variant"], board=board, events=events, solo=solo,
            sheets=(empty,) * players,
            step="events" if events_option == CHOOSE_EVENTS else "seats")

    # -- actions -------------------------------------------------------------------------------

    def step(self, state: OverbookedEntryState, action: GameAction,
             now: float) -> tuple[OverbookedEntryState, tuple[Play, ...]]:
        match action:
            case Restore():
                return state, ()
            case Expire():
                raise RuleError("not-allowed", "Overbooked score entry has no timer")
            case Press(Button.BACK) | Hold(Button.BACK):
                raise RuleError("not-allowed",
                                "BACK is the box's: press for the menu, hold to undo")
        match state.step:
            case "events":
                return self._events(state, action)
            case "seats":
                return self._seats(state, action)
            case "overbooked" | "vouchers" | "bonus-cards":
                return self._count(state, action)
            case "result":
                return self._result(state, action)
        assert_never(state.step)

    def _events(self, state: OverbookedEntryState,
                action: GameAction) -> tuple[OverbookedEntryState, tuple[Play, ...]]:
        event = EVENT_IDS[state.cursor]
        match action:
            case Press(Button.UP):
                if event in state.events:
                    raise RuleError("not-allowed", f"{EVENT_CARDS[event].title} is already in play")
                chosen = tuple(e for e in EVENT_IDS if e in state.events or e == event)
                return replace(state, events=chosen), ()
            case Press(Button.DOWN):
                if event not in state.events:
                    raise RuleError("not-allowed", f"{EVENT_CARDS[event].title} is not in play")
                return replace(state, events=tuple(e for e in state.events if e != event)), ()
            case Press(Button.NEXT):
                return replace(state, cursor=(state.cursor + 1) % len(EVENT_IDS)), ()
            case Hold(Button.NEXT):
                return replace(state, step="seats", cursor=0), (Play("click"),)
        raise RuleError("not-allowed",
                        "events: UP in play, DOWN out, NEXT next card, hold NEXT done")

    def _seats(self, state: OverbookedEntryState,
               action: GameAction) -> tuple[OverbookedEntryState, tuple[Play, ...]]:
        seats = state.sheet.seats
        match action:
            case Press(Button.UP | Button.DOWN as button):
                row, column = seat_position(seats, state.cursor)
                index = OCCUPANTS.index(seats.occupant((row, column)))
                index = (index + (1 if button is Button.UP else -1)) % len(OCCUPANTS)
                sheet = replace(state.sheet,
                                seats=seats.with_occupant(row, column, OCCUPANTS[index]))
                return self._with_sheet(state, sheet), ()
            case Press(Button.NEXT) if state.cursor + 1 < seats.seat_count:
                return replace(state, cursor=state.cursor + 1), ()
            case Press(Button.NEXT) | Hold(Button.NEXT):
                return replace(state, step="overbooked", cursor=0), (Play("click"),)
        raise RuleError("not-allowed",
                        "seats: UP/DOWN passenger, NEXT next seat, hold NEXT plane done")

    def _count(self, state: OverbookedEntryState,
               action: GameAction) -> tuple[OverbookedEntryState, tuple[Play, ...]]:
        value = _count_of(state.sheet, state.step)
        what = COUNT_NAMES[state.step]
        match action:
            case Press(Button.UP | Button.DOWN as button):
                changed = value + (1 if button is Button.UP else -1)
                if changed < 0:
                    raise RuleError("not-allowed", f"{what} cannot go below 0")
                if changed > MAX_COUNT:
                    raise RuleError("not-allowed", f"{what}: at most {MAX_COUNT}")
                return self._with_sheet(state, _with_count(state.sheet, state.step, changed)), ()
            case Press(Button.NEXT):
                return self._after_count(state)
        raise RuleError("not-allowed", f"{what}: UP/DOWN change, NEXT confirms")

    def _after_count(self, state: OverbookedEntryState,
                     ) -> tuple[OverbookedEntryState, tuple[Play, ...]]:
        if state.step == "overbooked":
            return replace(state, step="vouchers"), (Play("click"),)
        if state.step == "vouchers" and state.advanced:
            return replace(state, step="bonus-cards"), (Play("click"),)
        if state.player + 1 < len(state.sheets):
            return replace(state, step="seats", player=state.player + 1, cursor=0), (Play("end"),)
        result = score(score_input(state))
        finished = replace(state, step="result", cursor=0, result_json=json.dumps(result),
                           pages=result_pages(result), page=0)
        won = "solo" not in result or result["solo"]["won"]
        return finished, (Play("win" if won else "lose"),)

    def _result(self, state: OverbookedEntryState,
                action: GameAction) -> tuple[OverbookedEntryState, tuple[Play, ...]]:
        match action:
            case Press(Button.NEXT | Button.DOWN):
                return replace(state, page=(state.page + 1) % len(state.pages)), ()
            case Press(Button.UP):
                return replace(state, page=(state.page - 1) % len(state.pages)), ()
        raise RuleError("not-allowed", "the scores are in: NEXT/UP/DOWN page, BACK menu")

    @staticmethod
    def _with_sheet(state: OverbookedEntryState, sheet: Sheet) -> OverbookedEntryState:
        sheets = (*state.sheets[:state.player], sheet, *state.sheets[state.player + 1:])
        return replace(state, sheets=sheets)

    # -- reading -------------------------------------------------------------------------------

    def countdown(self, state: OverbookedEntryState) -> Countdown | None:
        return None

    def to_json(self, state: OverbookedEntryState, now: float) -> dict[str, Any]:
        phase = {"events": "setup", "result": "over"}.get(state.step, "entry")
        body: dict[str, Any] = {
            "game": self.name, "players": len(state.sheets), "phase": phase, "step": state.step,
            "result": result_of(state), "variant": state.variant, "board": state.board,
            "events": list(state.events),
            "solo": (None if state.solo is None
                     else {"scenario": state.solo[0], "difficulty": state.solo[1]}),
            "player": None if state.step in ("events", "result") else player_name(state.player),
            "cursor": None, "page": None,
            "entry": score_input(state),
        }
        if state.step == "events":
            body["cursor"] = {"index": state.cursor, "event": EVENT_IDS[state.cursor]}
        elif state.step == "seats":
            seats = state.sheet.seats
            row, column = seat_position(seats, state.cursor)
            occupant = seats.occupant((row, column))
            body["cursor"] = {"index": state.cursor, "row": row, "column": column,
                              "occupant": "." if occupant is None else occupant.value}
        elif state.step == "result":
            body["page"] = {"index": state.page, "count": len(state.pages)}
        return body

    def result(self, state: OverbookedEntryState) -> dict[str, Any] | None:
        return result_of(state)
