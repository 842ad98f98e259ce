"""What a game on the box is: its options, the actions it takes, the effects it asks for.

Every game is a set of pure functions over an immutable state (the :class:`Game` protocol):

    new(options, seed) -> state
    step(state, action, now) -> (state, effects)      # raises RuleError, state untouched

The actions a game receives are the recognised gestures (:class:`Press`, :class:`Hold`) and
two that the box itself produces: :class:`Expire` (its countdown reached zero) and
:class:`Restore` (the box came back after a power cut; a running countdown must pause).
All four are journaled, so replaying them from ``new`` rebuilds the state exactly.

``now`` is the game clock: seconds on a clock that survives restarts (see
runtime/gameclock.py), never wall-clock time. A game keeps absolute deadlines on that clock
(core/timer.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from companion.core.buttons import Button
from companion.core.timer import Countdown
from companion.errors import CompanionError


@dataclass(frozen=True)
class Press:
    """A short press of a button."""

    button: Button


@dataclass(frozen=True)
class Hold:
    """A long press of a button."""

    button: Button


@dataclass(frozen=True)
class Expire:
    """The game's countdown reached zero."""


@dataclass(frozen=True)
class Restore:
    """The box restarted after losing power; a running countdown pauses."""


GameAction = Press | Hold | Expire | Restore

AUTOMATIC_ACTIONS = (Expire, Restore)
"""Actions the box makes by itself; undo skips over them to the last player action."""


def action_to_json(action: GameAction) -> dict[str, str]:
    """How the journal stores an action."""
    match action:
        case Press(button=button):
            return {"kind": "press", "button": str(button)}
        case Hold(button=button):
            return {"kind": "hold", "button": str(button)}
        case Expire():
            return {"kind": "expire"}
        case Restore():
            return {"kind": "restore"}
    raise TypeError(f"not a game action: {action!r}")


def action_from_json(data: object) -> GameAction:
    """The action a journal entry stores; ``ValueError`` for anything else."""
    if not isinstance(data, dict):
        raise ValueError(f"a journaled action is an object, got {data!r}")
    kind = data.get("kind")
    if kind in ("press", "hold"):
        button = Button(str(data.get("button")))
        return Press(button) if kind == "press" else Hold(button)
    if kind == "expire":
        return Expire()
    if kind == "restore":
        return Restore()
    raise ValueError(f"unknown journaled action {data!r}")


def describe_action(action: GameAction) -> str:
    """An action in a few words (``press NEXT``), for a game that cannot say more."""
    match action:
        case Press(button=button):
            return f"press {str(button).upper()}"
        case Hold(button=button):
            return f"hold {str(button).upper()}"
        case Expire():
            return "timer end"
        case Restore():
            return "power-cut pause"
    raise TypeError(f"not a game action: {action!r}")  # pragma: no cover


@dataclass(frozen=True)
class Play:
    """Play the named tune (core/tunes.py) on the buzzer."""

    tune: str


class RuleError(CompanionError):
    """An action the rules do not allow now. The state stays as it was.

    Built as ``(code, message)`` like every error of the family (companion/errors.py):
    ``code`` is the line protocol's error word (``not-allowed``, ``bad-argument``, ...);
    the message is what the screen and the ``err`` line say.
    """


class OptionError(RuleError):
    """A ``new`` option that the game does not know or does not accept (``bad-argument``)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad-argument", message)


@dataclass(frozen=True)
class OptionSpec:
    """One ``key=value`` option of ``new GAME``, and how the start menu offers it.

    ``choices`` are what UP / DOWN cycle through in the menu. ``accepts`` lets the line
    protocol take values outside the menu's choices (a number of seconds, say); ``allowed``
    describes the accepted values in error messages. ``explain`` is the one line the menu
    shows under the option (what it does at the table). ``shown_when`` hides the option in
    the menu unless another option has the given value (``("players", "1")`` for solo
    options); a hidden option keeps its default. ``notes`` gives a choice its own one line
    (``(choice, line)`` pairs), for an option asked as a question in ``explain`` whose
    choices need saying apart (Now Boarding's ``pace``). ``more`` puts the option under "More
    options" (issue #35): the box's menu skips it unless hold NEXT opened them, and the page
    folds it away; a folded option keeps the value it starts at. ``suggests`` pairs a value of
    this option with another option's value it sets when this one is chosen, and why
    (``(("teach", "vip", "off", "a first game ..."),)``: a first game without the VIP cards).
    """

    key: str
    label: str
    choices: tuple[str, ...]
    default: str
    accepts: Callable[[str], bool] | None = None
    allowed: str = ""
    explain: str = ""
    shown_when: tuple[str, str] | None = None
    notes: tuple[tuple[str, str], ...] = ()
    more: bool = False
    suggests: tuple[tuple[str, str, str, str], ...] = ()

    def note(self, value: str) -> str:
        """The one line saying what ``value`` means ("" when the option has no notes)."""
        return dict(self.notes).get(value, "")

    @property
    def changeable(self) -> bool:
        """Whether UP / DOWN can change the option in the menu (more than one choice)."""
        return len(self.choices) > 1

    def normalise(self, value: str) -> str:
        """The value as the game stores it, or :class:`OptionError` naming what is allowed."""
        cleaned = value.strip().lower()
        if cleaned in self.choices or (self.accepts is not None and self.accepts(cleaned)):
            return cleaned
        allowed = self.allowed or "|".join(self.choices)
        raise OptionError(f"{self.key}={value!r} is not allowed; use {self.key}={allowed}")


def resolve_options(specs: tuple[OptionSpec, ...], given: Mapping[str, str]) -> dict[str, str]:
    """Every option of a game, from what was given and the defaults; refuses unknown keys."""
    known = {spec.key: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        keys = ", ".join(known) or "none"
        raise OptionError(f"unknown option {unknown[0]!r}; this game takes: {keys}")
    return {spec.key: spec.normalise(given.get(spec.key, spec.default)) for spec in specs}


def remembered_options(specs: tuple[OptionSpec, ...],
                       options: Mapping[str, str]) -> dict[str, str]:
    """What of a game's chosen ``options`` the next game's menu starts from (issue #27): each
    option the menu can change, at a value the menu offers (a seed or a timer of 42 s given
    by 'new' is not offered, so not remembered)."""
    return {spec.key: options[spec.key] for spec in specs
            if spec.changeable and options.get(spec.key) in spec.choices}


def starting_values(specs: tuple[OptionSpec, ...],
                    remembered: Mapping[str, str]) -> tuple[str, ...]:
    """The values a game's options page opens with: the ones last chosen where the game still
    offers them, else each option's default."""
    return tuple(remembered[spec.key] if remembered.get(spec.key) in spec.choices
                 and spec.changeable else spec.default for spec in specs)


def option_json(spec: OptionSpec) -> dict[str, Any]:
    """One option as the table page draws it (state JSON ``menu.options``): its key, label,
    one-sentence explanation, the choices the menu offers, its default, and the option and
    value it is shown only with (or null); ``notes`` (a choice's own line), ``more`` (under
    "More options") and ``suggests`` ([value, option, its value, why] set when value is
    chosen)."""
    return {"key": spec.key, "label": spec.label, "explain": spec.explain,
            "choices": list(spec.choices), "default": spec.default,
            "shown_when": None if spec.shown_when is None else list(spec.shown_when),
            "notes": dict(spec.notes), "more": spec.more,
            "suggests": [list(suggestion) for suggestion in spec.suggests]}


def int_between(low: int, high: int) -> Callable[[str], bool]:
    """An ``accepts`` test for a whole number from ``low`` to ``high``."""

    def accepts(value: str) -> bool:
        return value.isdigit() and low <= int(value) <= high

    return accepts


S = TypeVar("S")


class Game(Protocol[S]):
    """A game the box runs: pure functions over an immutable state ``S``."""

    @property
    def name(self) -> str:
        """The game's name in CONTRACT.md (``now-boarding``, ``timer``, ...)."""
        ...

    @property
    def title(self) -> str:
        """The name shown in the menu."""
        ...

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        """The ``new`` options, in the order the menu asks for them."""
        ...

    def new(self, options: Mapping[str, str], seed: int) -> S:
        """The state at the start, from resolved options (all keys present)."""
        ...

    def step(self, state: S, action: GameAction, now: float) -> tuple[S, tuple[Play, ...]]:
        """Apply one action at ``now``; raise :class:`RuleError` if the rules forbid it."""
        ...

    def countdown(self, state: S) -> Countdown | None:
        """The countdown the box should watch (warnings, expiry, redraws), if any."""
        ...

    def to_json(self, state: S, now: float) -> dict[str, Any]:
        """The ``state`` object of CONTRACT.md section 3."""
        ...

    def result(self, state: S) -> Any:
        """``None`` while the game goes on; then ``"win"``, ``"lose"`` or a result object."""
        ...


@runtime_checkable
class Describes(Protocol):
    """A game that can say what an action does (optional; undo shows it: ``undone: ...``)."""

    def describe(self, state: Any, action: GameAction) -> str | None:
        """``action`` taken at ``state``, in a few words (``flight R3 start``), or None."""
        ...


class LazyGame:
    """A game whose rules are loaded on first use.

    The menu needs only every game's name and title; importing every game's rules at
    start-up costs tens of milliseconds on a PC and far more on a Pi Zero. The rules load
    when the game's options, ``new`` or anything else is first asked for. ``load`` must
    return a game of the same name and title (checked then).
    """

    def __init__(self, name: str, title: str, load: Callable[[], Game[Any]]) -> None:
        self._name = name
        self._title = title
        self._load = load
        self._game: Game[Any] | None = None

    @property
    def name(self) -> str:
        return self._name

    @property
    def title(self) -> str:
        return self._title

    @property
    def rules(self) -> Game[Any]:
        """The game itself, loaded now if it was not yet."""
        if self._game is None:
            game = self._load()
            if (game.name, game.title) != (self._name, self._title):
                raise ValueError(f"{self._name!r} loaded {game.name!r} titled {game.title!r}")
            self._game = game
        return self._game

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        return self.rules.options

    def new(self, options: Mapping[str, str], seed: int) -> Any:
        return self.rules.new(options, seed)

    def step(self, state: Any, action: GameAction, now: float) -> tuple[Any, tuple[Play, ...]]:
        return self.rules.step(state, action, now)

    def countdown(self, state: Any) -> Countdown | None:
        return self.rules.countdown(state)

    def to_json(self, state: Any, now: float) -> dict[str, Any]:
        return self.rules.to_json(state, now)

    def result(self, state: Any) -> Any:
        return self.rules.result(state)

    def describe(self, state: Any, action: GameAction) -> str | None:
        rules = self.rules
        return rules.describe(state, action) if isinstance(rules, Describes) else None
