"""The line protocol's commands, carried out on the box (CONTRACT.md section 2).

What it promises: exactly one reply per command line (``ok``, ``ok <json>`` or
``err <code> <message>``), none for a blank or comment line; a line the splitter refused
(too long, not UTF-8) gets its ``err`` here too. A command the rules refuse leaves the state
as it was and shows why on the screen (DESIGN.md rule 5); ``wait`` and ``expect`` work only
in simulate. Outside simulate, time is brought up to date before a command acts.

It drives the controller through :class:`Box`, the few things a command needs, so it never
imports the controller (which delegates ``handle`` and ``command_line`` here).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from companion.core.app import App, AppState
from companion.core.appstate import JournalScored
from companion.core.buttons import Gesture
from companion.core.game import RuleError
from companion.core.menu import opens_pairing_window
from companion.core.table_page import open_pairing
from companion.games.score_formats import kept_options
from companion.games.scoring import score_input, score_summary
from companion.protocol import commands as proto
from companion.protocol.lines import BadEncoding, Item, PhoneLine, TooLong
from companion.ui.screen import Screen
from companion.ui.views import mirror_screen


class Box(Protocol):
    """What the commands use of the controller."""

    state: AppState
    app: App
    simulated: bool

    @property
    def scorers(self) -> Any: ...

    def now(self) -> float: ...

    def tick(self, now: float | None = None) -> None: ...

    def refresh(self, now: float | None = None) -> None: ...

    def note_activity(self) -> None: ...

    def advance(self, seconds: float) -> None: ...

    def screen(self) -> Screen: ...

    def act_on(self, gesture: Gesture, raise_errors: bool = False) -> None: ...

    def perform(self, effects: list[Any], now: float, sound_first: bool = False) -> None: ...


def handle(box: Box, item: Item) -> str | None:
    """One protocol line (or a line-splitter fault) -> the reply, or ``None``."""
    if isinstance(item, TooLong):
        return proto.err("too-long", f"line longer than {item.limit} bytes; dropped")
    if isinstance(item, BadEncoding):
        return proto.err("bad-encoding",
                         f"line is not valid UTF-8 at byte {item.offset}; dropped")
    return command_line(box, item.text, phone=isinstance(item, PhoneLine))

def command_line(box: Box, text: str, *, phone: bool = False) -> str | None:
    """One line's text -> the reply: a refusal leaves the state as it was and says why on
    the screen (a rule) or only on the line (a malformed command). ``phone``: it came from
    a phone on the table page (:class:`~companion.protocol.lines.PhoneLine`)."""
    try:
        command = proto.parse(text)
    except proto.ProtocolError as error:
        return proto.err(error.code, error.message)
    if command is None:
        return None
    box.note_activity()
    if not box.simulated:
        box.tick()
    try:
        reply = perform(box, command, phone=phone)
    except RuleError as error:
        box.state = box.app.refuse(box.state, error)
        reply = proto.err(error.code, error.message)
    except proto.ProtocolError as error:
        reply = proto.err(error.code, error.message)
    box.refresh()
    return reply


def perform(box: Box, command: proto.Command, *, phone: bool = False) -> str:
    """Carry out one parsed command; its ``ok`` reply (a refusal raises). From a ``phone``
    (issue #38, 7): ``screen`` is the table page's mirror, without the pairing code, and a
    press that would open pairing is refused ``box-only``, as ``pair open`` is."""
    now = box.now()
    if phone and isinstance(command, proto.PressCommand | proto.HoldCommand):
        gesture = Gesture("press" if isinstance(command, proto.PressCommand) else "hold",
                          command.button, now)
        if opens_pairing_window(box.state, gesture):
            raise proto.ProtocolError("box-only", "pairing opens at the box: Menu, Table "
                                                  "page, Pair a phone")
    match command:
        case proto.Help():
            return proto.ok_json(proto.help_json())
        case proto.PressCommand(button=button):
            box.act_on(Gesture("press", button, now), raise_errors=True)
            return proto.ok()
        case proto.HoldCommand(button=button):
            box.act_on(Gesture("hold", button, now), raise_errors=True)
            return proto.ok()
        case proto.NewCommand(game=game, options=options):
            box.state, effects = box.app.new_game(box.state, game, dict(options),
                                                    box.state.next_seed, now)
            box.perform(effects, now)
            return proto.ok()
        case proto.StateCommand():
            return proto.ok_json(box.app.to_json(box.state, now))
        case proto.ScreenCommand():
            screen = box.screen()
            if phone:
                screen = mirror_screen(box.app, box.state, now, screen) or screen
            return proto.ok_json({"lines": screen.text_lines()})
        case proto.UndoCommand():
            box.state, effects = box.app.undo(box.state, now)
            box.perform(effects, now)
            return proto.ok()
        case proto.ScoreCommand(game=game, data=data):
            result = score_input(box.scorers, game, data)
            # The box's screen shows the result too (a score entered on the table page,
            # or sent on the serial line), in the alert box until the next input.
            box.state = replace(box.state, notice=score_summary(result))
            # ... and history keeps it, like a played game (docs/scoring.md, "Kept").
            box.perform([JournalScored(game, kept_options(game, data, result), result, now)],
                        now)
            return proto.ok_json(result)
        case proto.PairOpenCommand():
            box.state = open_pairing(box.state, now)
            return proto.ok()
        case proto.WaitCommand(seconds=seconds):
            if not box.simulated:
                raise RuleError("unsupported", "wait works only in simulate")
            box.advance(seconds)
            return proto.ok()
        case proto.ExpectCommand(path=path, value=expected):
            if not box.simulated:
                raise RuleError("unsupported", "expect works only in simulate")
            failure = proto.expect_failure(box.app.to_json(box.state, now), path, expected)
            if failure is not None:
                raise RuleError("expect-failed", failure)
            return proto.ok()
    raise RuleError("unsupported", f"unhandled command {command!r}")
