"""The one error family (companion/errors.py, DESIGN.md rule 15): every error class the
package defines derives from CompanionError and is built (code, message)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import companion
from companion.adapters.journal_rows import JournalDamage, JournalError, JournalUnavailable
from companion.bounded import BoundedInputError, MalformedInput
from companion.config import ConfigError
from companion.core.game import OptionError, RuleError
from companion.core.timer import TimerError
from companion.errors import CompanionError
from companion.exits import UsageError
from companion.games.flight_plan.ledger import BadArgument, CannotPay, MissingAmount, NotAllowed
from companion.games.scoring import ScoreInputError
from companion.protocol.commands import ProtocolError


def defined_errors() -> list[type[BaseException]]:
    found = []
    for module_info in pkgutil.walk_packages(companion.__path__, "companion."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == module.__name__:
                found.append(value)
    return found


def test_errors_every_error_class_is_a_companion_error() -> None:
    errors = defined_errors()
    assert len(errors) >= 18
    assert [error for error in errors if not issubclass(error, CompanionError)] == []


@pytest.mark.parametrize(("error", "code"), [
    (RuleError("not-allowed", "no"), "not-allowed"),
    (RuleError("bad-argument", "no"), "bad-argument"),
    (ProtocolError("unknown-command", "no"), "unknown-command"),
    (OptionError("no"), "bad-argument"),
    (TimerError("no"), "not-allowed"),
    (NotAllowed("no"), "not-allowed"),
    (BadArgument("no"), "bad-argument"),
    (CannotPay("no", "Ann", 5), "cannot-pay"),
    (MissingAmount("no"), "missing-amount"),
    (ScoreInputError("no"), "bad-argument"),
    (BoundedInputError("no"), "bad-argument"),
    (MalformedInput("no"), "bad-argument"),
    (ConfigError("no"), "bad-config"),
    (UsageError("no"), "usage"),
    (JournalError("no"), "journal"),
    (JournalDamage("no"), "journal-damage"),
    (JournalUnavailable("no"), "journal-unavailable"),
])
def test_errors_code_then_message(error: CompanionError, code: str) -> None:
    assert isinstance(error, CompanionError)
    assert (error.code, error.message, str(error)) == (code, "no", "no")


@pytest.mark.parametrize("error", [TimerError, ScoreInputError, BoundedInputError, NotAllowed])
def test_errors_value_errors_stay_value_errors_for_callers_that_catch_them(
        error: type[Exception]) -> None:
    assert issubclass(error, ValueError)
