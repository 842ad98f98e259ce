"""Planes (AEG, 2-4 players) on the box: the boarding track during play, then score entry.

Rules enforced (rules/planes.txt as read by rules/CLARIFICATIONS.md; the scoring and the end
triggers are this package's data.py and score.py, reused here):

- Seats and colours: player 1 (the starting player) is Red, then Blue, Green, Yellow in turn
  order; colours nobody plays are neutral but keep their own plane. The box also counts the
  grey neutral cubes boarded on the grey planes (``grey=N`` neutral planes on the board, 2 by
  default). Each colour's plane holds 5 cubes (grey: 5 per grey plane).
- Every cube boarded on any plane moves the boarding token one space: the track is the number
  of cubes boarded. The game's end is triggered when a colour's plane(s) are full or the track
  reaches 12 (or the shorter mark agreed at setup, ``short=1..12``), per
  :func:`planes.end_triggered`. The game then ends after the current round, so every player has
  had the same number of turns (:func:`planes.turns_left_in_round`).
- Score = the VP of each scored goal card + 5 per own cube on the own plane; the ``result``
  object is exactly :func:`planes.score` of the data entered on the box.

Buttons (BACK is the box's: a press opens the menu, a hold undoes the last action):

- ``play`` / ``board``: NEXT moves the colour cursor (Red, Blue, Green, Yellow, Grey); UP boards
  a cube of that colour (the track moves on); DOWN takes one back (a correction).
- When a boarding fires a trigger, ``trigger`` announces it (tune "alarm"): UP / DOWN choose
  whose turn it was, NEXT confirms.
- ``last-round``: the board again, titled with the turns still to play; UP / DOWN still record
  cubes (they keep boarding until the round ends). Hold NEXT ends the game and starts the score
  entry. A correction that undoes the trigger goes back to ``board``.
- ``score`` / ``goals``, per player: the goal cards as a list. UP / DOWN set the VP of the card
  being entered (1-10; "-" = no card), NEXT adds it and starts the next card, hold NEXT ends the
  list (the card being entered is kept if it has a value).
- ``score`` / ``boarded``: UP / DOWN set the player's own cubes on their own plane (0-5, starting
  from the box's count of that colour), NEXT confirms; after the last player, ``over`` shows the
  result (tune "win").
- ``over`` / ``result``: NEXT / UP page forward, DOWN back: the ranking, then one page per player.

Illegal input raises :class:`RuleError` with a short reason and never changes the state.

:data:`Step` is the one owner of the step names (the ``step`` strings of the state JSON): a
closed ``Literal``, so the state holds no other name and a ``match`` on ``state.step`` that
misses one is a mypy error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, assert_never

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
    int_between,
)
from companion.core.timer import Countdown
from companion.games.planes.data import (
    COLOURS,
    CUBES_PER_PLAYER,
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEUTRAL_COLOUR,
    PLANE_SLOTS,
    TRACK_END,
)
from companion.games.planes.score import (
    end_mark,
    end_triggered,
    full_planes,
    score,
    turns_left_in_round,
)

#: Colours in the order of the cursor: the four party colours, then the grey neutrals.
BOARD_COLOURS: Final = (*COLOURS, NEUTRAL_COLOUR)
GREY: Final = len(COLOURS)
#: The highest VP the box lets one goal card have (the cards print 1 to a few stars).
MAX_GOAL_VP: Final = 10
DEFAULT_GREY_PLANES: Final = 2

OPTIONS: Final = (
    OptionSpec("players", "Players", tuple(str(n) for n in range(MIN_PLAYERS,
                                                                 MAX_PLAYERS + 1)), "2",
               explain="Players at the table"),
    OptionSpec("short", "Ends at track",
               tuple(str(n) for n in range(1, TRACK_END + 1)), str(TRACK_END),
               allowed=f"1..{TRACK_END}",
               explain="A shorter game ends earlier on the track"),
    OptionSpec("grey", "Grey planes", ("1", "2", "3", "4"), str(DEFAULT_GREY_PLANES),
               accepts=int_between(0, 4), allowed="0..4",
               explain="Grey planes on the board"),
)

#: Every step of the game, in the order a game meets them (the module docstring).
Step = Literal["board", "trigger", "last-round", "goals", "boarded", "result"]
PLAY_STEPS: Final[tuple[Step, ...]] = ("board", "trigger", "last-round")
SCORE_STEPS: Final[tuple[Step, ...]] = ("goals", "boarded")


@dataclass(frozen=True)
class Entry:
    """What was entered for one player: the VP of each goal card and the own cubes boarded."""

    goals: tuple[int, ...]
    boarded: int


@dataclass(frozen=True)
class PlanesState:
    """A game of Planes on the box; immutable."""

    players: int
    mark: int
    grey_planes: int
    step: Step = "board"
    cubes: tuple[int, ...] = (0,) * len(BOARD_COLOURS)
    cursor: int = 0
    seat: int = 0
    entries: tuple[Entry, ...] = ()
    cards: tuple[int, ...] = ()
    draft: int = 0
    boarded: int = 0
    page: int = 0

    @property
    def phase(self) -> str:
        if self.step in PLAY_STEPS:
            return "play"
        return "score" if self.step in SCORE_STEPS else "over"


# -- derived facts (pure helpers the view shares) ------------------------------------------------


def player_name(seat: int) -> str:
    """A player is named after their colour: seat 0 (the starting player) is Red."""
    return COLOURS[seat].capitalize()


def colour_name(index: int) -> str:
    return BOARD_COLOURS[index].capitalize()


def slots(state: PlanesState, index: int) -> int:
    """How many cubes colour ``index`` can board: 5, or 5 per grey plane."""
    return PLANE_SLOTS * (state.grey_planes if index == GREY else 1)


def track(state: PlanesState) -> int:
    """The boarding token's space: one per cube boarded on any plane."""
    return sum(state.cubes)


def fill(state: PlanesState) -> dict[str, int]:
    return dict(zip(BOARD_COLOURS, state.cubes, strict=True))


def plane_slots(state: PlanesState) -> dict[str, int]:
    return {colour: slots(state, index) for index, colour in enumerate(BOARD_COLOURS)}


def trigger(state: PlanesState) -> str | None:
    """Which end trigger has fired (end_triggered), or None."""
    # A board without grey planes has no grey plane to fill.
    capacity = {colour: size for colour, size in plane_slots(state).items() if size > 0}
    board = {colour: cubes for colour, cubes in fill(state).items() if colour in capacity}
    return end_triggered(track(state), board, state.mark, plane_slots=capacity)


def full_colours(state: PlanesState) -> list[str]:
    capacity = {colour: size for colour, size in plane_slots(state).items() if size > 0}
    board = {colour: cubes for colour, cubes in fill(state).items() if colour in capacity}
    return full_planes(board, capacity)


def turns_left(state: PlanesState) -> int:
    """Turns still to play in the round after the chosen seat's turn."""
    return turns_left_in_round(state.players, state.seat)


def players_after(state: PlanesState) -> list[str]:
    """The players still to play this round, in turn order."""
    return [player_name(seat) for seat in range(state.seat + 1, state.players)]


def score_input(state: PlanesState) -> dict[str, Any]:
    """The ``companion score planes`` input of what has been entered so far."""
    return {"players": [{"name": player_name(seat), "goals": list(entry.goals),
                         "boarded": entry.boarded}
                        for seat, entry in enumerate(state.entries)]}


def entering(state: PlanesState) -> int:
    """The seat whose score is being entered at ``goals`` / ``boarded``: the seats before it
    are entered (``boarded`` of the last seat moves on to ``result``)."""
    return len(state.entries)


def current_player(state: PlanesState) -> int | None:
    """The seat being entered during the score entry; None while boarding and at the result."""
    return entering(state) if state.phase == "score" else None


# -- the game ----------------------------------------------------------------------------------


class PlanesGame:
    """The Game protocol for Planes; see the module docstring."""

    name = GAME
    title = "Planes"
    options = OPTIONS

    def new(self, options: Mapping[str, str], seed: int) -> PlanesState:
        try:
            players = int(options.get("players", "2"))
            mark = int(options.get("short", str(TRACK_END)))
            grey = int(options.get("grey", str(DEFAULT_GREY_PLANES)))
        except ValueError as error:
            raise OptionError(f"a Planes option is not a number: {error}") from error
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise OptionError(f"players={players} is not allowed; use players=2..4")
        try:
            end_mark(mark)
        except ValueError as error:
            raise OptionError(f"short={mark} is not allowed; use short=1..12") from error
        return PlanesState(players=players, mark=mark, grey_planes=grey)

    def step(self, state: PlanesState, action: GameAction,
             now: float) -> tuple[PlanesState, tuple[Play, ...]]:
        match action:
            case Restore():
                return state, ()
            case Expire():
                raise RuleError("not-allowed", "Planes has no timer")
            case Press(Button.BACK) | Hold(Button.BACK):
                raise RuleError("not-allowed", "BACK belongs to the box: menu / hold to undo")
        kind = "hold" if isinstance(action, Hold) else "press"
        button = action.button if isinstance(action, Press | Hold) else None
        if button is None:  # pragma: no cover - every action kind is matched above
            raise RuleError("not-allowed", "that does nothing here")
        if kind == "hold" and button in (Button.UP, Button.DOWN):
            kind = "press"  # a held UP / DOWN repeats on the box: treat it as a press
        match state.step:
            case "board" | "last-round":
                return self._board(state, kind, button)
            case "trigger":
                return self._trigger(state, kind, button)
            case "goals":
                return self._goals(state, kind, button)
            case "boarded":
                return self._boarded(state, kind, button)
            case "result":
                return self._result(state, kind, button)
        assert_never(state.step)

    # -- play ------------------------------------------------------------------------------

    def _board(self, state: PlanesState, kind: str,
               button: Button) -> tuple[PlanesState, tuple[Play, ...]]:
        if kind == "hold":
            if state.step != "last-round":
                raise RuleError("not-allowed", "no end trigger yet: board cubes with UP")
            return replace(state, step="goals", cards=(), draft=0), (Play("click"),)
        if button is Button.NEXT:
            return replace(state, cursor=(state.cursor + 1) % len(BOARD_COLOURS)), ()
        index = state.cursor
        name = colour_name(index)
        cubes = list(state.cubes)
        if button is Button.UP:
            if slots(state, index) == 0:
                raise RuleError("not-allowed", f"no {name} plane in this game (grey=0)")
            if cubes[index] >= slots(state, index):
                raise RuleError("not-allowed",
                                f"the {name} plane is full ({slots(state, index)} slots)")
            cubes[index] += 1
        else:
            if cubes[index] == 0:
                raise RuleError("not-allowed", f"no {name} cube on its plane to take back")
            cubes[index] -= 1
        moved = replace(state, cubes=tuple(cubes))
        fired = trigger(moved)
        if state.step == "board" and fired is not None:
            return replace(moved, step="trigger", seat=0), (Play("final-round"),)
        if state.step == "last-round" and fired is None:
            return replace(moved, step="board"), (Play("click"),)
        return moved, (Play("click"),)

    def _trigger(self, state: PlanesState, kind: str,
                 button: Button) -> tuple[PlanesState, tuple[Play, ...]]:
        if kind == "hold":
            raise RuleError("not-allowed", "choose whose turn it was, then NEXT")
        if button is Button.NEXT:
            return replace(state, step="last-round"), (Play("click"),)
        step = 1 if button is Button.UP else -1
        return replace(state, seat=(state.seat + step) % state.players), ()

    # -- score entry -----------------------------------------------------------------------

    def _goals(self, state: PlanesState, kind: str,
               button: Button) -> tuple[PlanesState, tuple[Play, ...]]:
        if kind == "hold":
            cards = (*state.cards, state.draft) if state.draft else state.cards
            seat = entering(state)
            own = min(state.cubes[seat], CUBES_PER_PLAYER)
            return (replace(state, step="boarded", cards=cards, draft=0, boarded=own),
                    (Play("click"),))
        if button is Button.NEXT:
            if state.draft == 0:
                raise RuleError("not-allowed",
                                "set this card's VP with UP, or hold NEXT to end the list")
            return replace(state, cards=(*state.cards, state.draft), draft=0), (Play("click"),)
        if button is Button.UP:
            if state.draft >= MAX_GOAL_VP:
                raise RuleError("not-allowed", f"at most {MAX_GOAL_VP} VP on one goal card")
            return replace(state, draft=state.draft + 1), ()
        if state.draft == 0:
            raise RuleError("not-allowed", "no card being entered; UP sets its VP")
        return replace(state, draft=state.draft - 1), ()

    def _boarded(self, state: PlanesState, kind: str,
                 button: Button) -> tuple[PlanesState, tuple[Play, ...]]:
        if kind == "hold":
            raise RuleError("not-allowed", "UP / DOWN set the cubes, NEXT confirms")
        if button is Button.UP:
            if state.boarded >= CUBES_PER_PLAYER:
                raise RuleError("not-allowed", f"a player has {CUBES_PER_PLAYER} party cubes")
            return replace(state, boarded=state.boarded + 1), ()
        if button is Button.DOWN:
            if state.boarded == 0:
                raise RuleError("not-allowed", "already 0 cubes")
            return replace(state, boarded=state.boarded - 1), ()
        entries = (*state.entries, Entry(state.cards, state.boarded))
        done = replace(state, entries=entries, cards=(), draft=0, boarded=0)
        if len(entries) < state.players:
            return replace(done, step="goals"), (Play("click"),)
        return replace(done, step="result", page=0), (Play("win"),)

    def _result(self, state: PlanesState, kind: str,
                button: Button) -> tuple[PlanesState, tuple[Play, ...]]:
        if kind == "hold":
            raise RuleError("not-allowed", "game over: BACK menu, hold BACK undo")
        pages = state.players + 1
        step = -1 if button is Button.DOWN else 1
        return replace(state, page=(state.page + step) % pages), ()

    # -- reading ---------------------------------------------------------------------------

    def countdown(self, state: PlanesState) -> Countdown | None:
        return None

    def to_json(self, state: PlanesState, now: float) -> dict[str, Any]:
        fired = trigger(state)
        seat = current_player(state)
        entry: dict[str, Any] | None = None
        if state.phase != "play":
            entry = {"player": seat, "name": None if seat is None else player_name(seat),
                     "goals": list(state.cards), "draft": state.draft,
                     "boarded": state.boarded, "input": score_input(state)}
        after_trigger = state.step == "last-round" or state.phase != "play"
        return {
            "game": self.name,
            "players": state.players,
            "phase": state.phase,
            "step": state.step,
            "result": self.result(state),
            "names": [player_name(seat) for seat in range(state.players)],
            "mark": state.mark,
            "track": track(state),
            "cubes": fill(state),
            "slots": plane_slots(state),
            "colour": BOARD_COLOURS[state.cursor],
            "trigger": fired,
            "full": full_colours(state),
            "turn": player_name(state.seat) if after_trigger else None,
            "turns_left": turns_left(state) if after_trigger else None,
            "entry": entry,
            "page": state.page if state.step == "result" else None,
        }

    def result(self, state: PlanesState) -> dict[str, Any] | None:
        if state.step != "result":
            return None
        return score(score_input(state))
