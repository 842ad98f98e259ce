"""The timer is not for sale: the alarm's lateness while unpaired clients flood the page.

What is measured (full run; ``--short`` in brackets), issue #19:

- ``timer_end_error_ms_under_web_flood``: 10 [3] round-timer flights of 5 s through the real
  event loop (the bench's :class:`~companion.bench.rig.Rig`, as ``timer_end_error_ms``), with
  the table page on (``[web] pair_loopback = true``, so every loopback address is an unpaired
  client of its own) while a flood process attacks it: :data:`HOLDERS` hostile connections held
  open from six addresses (127.0.0.10-15), each dribbling a header byte every
  :data:`DRIBBLE_SECONDS` and reconnecting when the server closes it (past the per-address cap
  or at the head deadline), and :data:`FLOODERS` addresses (127.0.0.20-23) sending unpaired
  requests back to back, each on a fresh connection: ``GET /api/state``, ``POST /api/line``,
  ``POST /api/pair/start``, ``POST /api/pair`` with a wrong code, ``GET /api/whoami``. One
  sample per flight: alarm start minus the countdown's deadline. The flood's answers are
  counted by status beside the figure, so a run shows what the server was doing.

The flood runs in a process of its own (an attacker's CPU is not the box's), on the same
machine, so on a small machine it competes for the cores as the box's own threads do.
"""

from __future__ import annotations

import contextlib
import json
import selectors
import socket
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

HOLDERS = 48
HOLDER_ADDRESSES = tuple(f"127.0.0.{n}" for n in range(10, 16))
FLOODERS = 4
FLOODER_ADDRESSES = tuple(f"127.0.0.{n}" for n in range(20, 20 + FLOODERS))
DRIBBLE_SECONDS = 2.0
FLIGHT_SECONDS = 5


def _requests(host: str) -> list[bytes]:
    def post(path: str, body: bytes) -> bytes:
        return (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
                f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n").encode() + body

    get = f"GET {{}} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    return [get.format("/api/state").encode(), post("/api/line", b"press next"),
            post("/api/pair/start", b""), post("/api/pair", b'{"code": "000000"}'),
            get.format("/api/whoami").encode()]


def _flood(port: int, source: str, stop: threading.Event, counts: Counter[str]) -> None:
    requests = _requests(f"127.0.0.1:{port}")
    index = 0
    while not stop.is_set():
        request = requests[index % len(requests)]
        index += 1
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5,
                                          source_address=(source, 0)) as sock:
                sock.sendall(request)
                answer = sock.recv(64)
            status = answer.split(b" ", 2)[1].decode() if answer.count(b" ") >= 2 else "none"
        except OSError as error:
            status = type(error).__name__
        counts[status] += 1


def _hold(port: int, stop: threading.Event, counts: Counter[str]) -> None:
    """Keep :data:`HOLDERS` half-sent requests open, a byte at a time, reopening each."""
    selector = selectors.DefaultSelector()
    sources = [HOLDER_ADDRESSES[n % len(HOLDER_ADDRESSES)] for n in range(HOLDERS)]

    def open_one(source: str) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                            source_address=(source, 0))
            sock.sendall(b"GET /api/whoami HTTP/1.1\r\nX-Dribble: a")
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, source)
            counts["held_opened"] += 1
        except OSError as error:
            counts[f"held_{type(error).__name__}"] += 1

    for source in sources:
        open_one(source)
    next_dribble = time.monotonic() + DRIBBLE_SECONDS
    while not stop.is_set():
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            with contextlib.suppress(OSError):
                if sock.recv(4096):
                    continue  # an answer (503, 408): the close follows
            selector.unregister(sock)
            sock.close()
            counts["held_closed_by_server"] += 1
            open_one(key.data)
        if time.monotonic() >= next_dribble:
            next_dribble += DRIBBLE_SECONDS
            for key in list(selector.get_map().values()):
                with contextlib.suppress(OSError):
                    key.fileobj.send(b"a")  # type: ignore[union-attr]
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]


def flood_main(port: int) -> int:
    """The flood process: start, say ``flooding``, run until standard input closes, then
    print the answers counted by status as one JSON object."""
    stop = threading.Event()
    counts: Counter[str] = Counter()
    threads = [threading.Thread(target=_hold, args=(port, stop, counts), daemon=True)]
    threads += [threading.Thread(target=_flood, args=(port, source, stop, counts), daemon=True)
                for source in FLOODER_ADDRESSES]
    for thread in threads:
        thread.start()
    print("flooding", flush=True)
    sys.stdin.read()
    stop.set()
    for thread in threads:
        thread.join(timeout=15)
    print(json.dumps(dict(counts)), flush=True)
    return 0


def web_flood_worker(flights: int, state_dir: Path) -> dict[str, Any]:
    """The flights' alarm errors under the flood (see the module docstring)."""
    import subprocess

    from companion.bench.rig import Rig

    rig = Rig(state_dir, web=True)
    port = rig.box.web.server.server_address[1]
    figures: dict[str, Any] = {}

    def script(rig: Rig) -> None:
        code = ("import sys; from companion.bench.web_flood import flood_main; "
                "sys.exit(flood_main(int(sys.argv[1])))")
        flood = subprocess.Popen([sys.executable, "-c", code, str(port)],  # noqa: S603
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert flood.stdout is not None and flood.stdin is not None
            if flood.stdout.readline().strip() != "flooding":
                raise RuntimeError("the flood process did not start")
            time.sleep(1.0)  # the holders are in, the flood is under way
            rig.display.frame.clear()
            rig.line(f"new timer seconds={FLIGHT_SECONDS}")
            if not rig.display.frame.wait(2.0):
                raise RuntimeError("the round timer did not start")
            time.sleep(0.2)
            for _ in range(flights):
                rig.flight(FLIGHT_SECONDS)
                time.sleep(0.3)
            output, _ = flood.communicate("", timeout=60)
            figures["flood_answers"] = json.loads(output.strip().splitlines()[-1])
        finally:
            if flood.poll() is None:
                flood.kill()
                flood.wait()
        figures["errors_ms"] = list(rig.buzzer.errors_ms)
        figures["wake_ms"] = list(rig.buzzer.wake_ms)

    rig.run(script)
    return figures
