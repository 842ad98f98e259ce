"""Workers: the parts of the bench that run in processes of their own, so they run at the
same time as the event-loop scenario, or keep their memory figures apart from the bench's.

``worker`` is the entry point: ``naive N SECONDS WORK``, ``work SECONDS DIR``,
``session GAMES DIR``, ``web-flood FLIGHTS DIR``, ``guest-flood REQUESTS DIR``; it prints one
JSON object.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.bench.session import session_worker
from companion.bench.timing import naive_worker, work_worker

if TYPE_CHECKING:
    import subprocess

def start_worker(arguments: list[str]) -> subprocess.Popen[bytes]:
    """A worker process (see :func:`worker`) running now; :func:`finish_worker` reads it."""
    import subprocess

    code = "import sys; from companion.bench.workers import worker; sys.exit(worker(sys.argv[1:]))"
    return subprocess.Popen([sys.executable, "-c", code, *arguments],  # noqa: S603
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)


def finish_worker(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    """The worker's JSON object, once it has ended; :class:`RuntimeError` if it failed."""
    output, _ = process.communicate(timeout=900)
    if process.returncode != 0:
        raise RuntimeError(f"bench worker {process.args!r} failed ({process.returncode})")
    result: dict[str, Any] = json.loads(output)
    return result


def worker(arguments: Sequence[str]) -> int:
    """A bench worker: ``naive N SECONDS WORK``, ``work SECONDS DIR``, ``session GAMES DIR``;
    prints one JSON object."""
    kind, *rest = arguments
    if kind == "naive":
        result = naive_worker(int(rest[0]), int(rest[1]), float(rest[2]))
    elif kind == "work":
        result = work_worker(int(rest[0]), Path(rest[1]))
    elif kind == "session":
        result = session_worker(int(rest[0]), Path(rest[1]))
    elif kind == "web-flood":
        from companion.bench.web_flood import web_flood_worker

        result = web_flood_worker(int(rest[0]), Path(rest[1]))
    elif kind == "guest-flood":
        from companion.bench.guest_flood import guest_flood_worker

        result = guest_flood_worker(int(rest[0]), Path(rest[1]))
    else:
        raise ValueError(f"unknown bench worker {kind!r}")
    print(json.dumps(result))
    return 0
