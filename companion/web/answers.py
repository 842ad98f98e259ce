"""What the table page answers, as data: :class:`Answer`, the web's errors, and their statuses.

Rules it enforces:
- **Errors are JSON** ``{"error": code, "message": text}`` (plus ``retry_after`` for a lockout),
  never a traceback.
- Every web error is a :class:`~companion.errors.CompanionError` built as ``(code, message)``;
  the HTTP status of a code is looked up in :data:`STATUS` here, at the edge, and is never
  stored in the error. An unknown code is a 500, so a code added without a status shows.
Pure: the standard library's ``json`` only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from companion.errors import CompanionError

STATUS: Final[Mapping[str, int]] = {
    "bad-encoding": 400,
    "bad-request": 400,
    "bad-json": 400,
    "bad-key": 400,
    "bad-length": 400,
    "one-line": 400,
    "short-body": 400,
    "bad-code": 403,
    "bad-secret": 403,
    "box-only": 403,
    "codes-spent": 403,
    "foreign-host": 403,
    "foreign-origin": 403,
    "no-origin": 403,
    "pairing-closed": 403,
    "unpaired": 403,
    "not-found": 404,
    "no-play": 404,
    "method-not-allowed": 405,
    "request-timeout": 408,
    "length-required": 411,
    "too-large": 413,
    "key-reused": 422,
    "locked": 429,
    "request-header-fields-too-large": 431,
    "internal": 500,
    "busy": 503,
    "not-ready": 503,
    "http-version-not-supported": 505,
}
"""The HTTP status of each error code the table page answers with."""

JSON: Final = "application/json"


class HttpError(CompanionError):
    """A request the table page refuses: ``code`` (a key of :data:`STATUS`) and a message."""


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: status, content type, body and extra headers."""

    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


def status_of(code: str) -> int:
    return STATUS.get(code, 500)


def json_answer(value: Any, status: int = 200,
                headers: tuple[tuple[str, str], ...] = ()) -> Answer:
    return Answer(status, JSON, json.dumps(value, ensure_ascii=False).encode(), headers)


def error_answer(code: str, message: str, retry_after: int | None = None) -> Answer:
    """The JSON error for ``code``, with its status (and ``Retry-After`` for a lockout, and
    for every 503: a phone the box cannot serve now is told when to come back)."""
    body: dict[str, Any] = {"error": code, "message": message}
    headers: tuple[tuple[str, str], ...] = ()
    if retry_after is None and status_of(code) == 503:
        retry_after = 1
    if retry_after is not None:
        body["retry_after"] = retry_after
        headers = (("Retry-After", str(retry_after)),)
    return json_answer(body, status_of(code), headers)


def answer_for(error: CompanionError) -> Answer:
    """The answer to a refusal raised while handling a request."""
    retry_after = getattr(error, "retry_after", None)
    return error_answer(error.code, error.message,
                        retry_after if isinstance(retry_after, int) else None)
