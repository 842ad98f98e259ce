"""The table page: how fast the box's news reaches the phones, and what the web costs in memory.

What is measured (full run; ``--short`` in brackets), on a real
``companion run --backend fake --serial none --web 127.0.0.1:0`` process:

- ``web_event_to_client_ms``: :data:`CLIENTS` event-stream clients connect (each a thread
  here reading a socket); then 200 [40] times, a ``press up`` / ``press down`` is POSTed to
  ``/api/line`` on a timer game, and each client's time from just before the POST is sent to
  the moment it has read the ``update`` event carrying the new duration is one sample
  (20 x 200 [40] samples). The next press waits until every client has its update.
- ``web_rss_mb``: that process's own peak RSS (Linux ``VmHWM``, read before it is stopped;
  ``ru_maxrss`` elsewhere), whole process, with the web on and the 20 clients connected.

The web stack is imported only in that process; :mod:`.startup` measures the start with the
page on (the default off a Pi) and with ``--no-web`` (as on a Pi).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.bench.figures import distribution, scalar, with_target
from companion.bench.startup import RunningBox, box_environment, run_command

CLIENTS = 20
WAIT_SECONDS = 10.0


class StreamClient:
    """One event-stream client: a thread reading updates, each stamped when read."""

    def __init__(self, host: str, port: int, arrived: threading.Condition) -> None:
        self.arrived = arrived
        self.updates: list[tuple[float, float]] = []  # (perf_counter, timer duration)
        self.socket = socket.create_connection((host, port), timeout=WAIT_SECONDS * 3)
        self.socket.sendall(f"GET /api/events HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n"
                            .encode())
        self.reader = self.socket.makefile("rb")
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self) -> None:
        event = None
        try:
            for raw in self.reader:
                line = raw.rstrip(b"\r\n")
                if line.startswith(b"event: "):
                    event = line[7:]
                elif line.startswith(b"data: ") and event == b"update":
                    received = time.perf_counter()
                    timer = json.loads(line[6:])["state"].get("timer") or {}
                    with self.arrived:
                        self.updates.append((received, float(timer.get("duration", -1))))
                        self.arrived.notify_all()
        except (OSError, ValueError):
            return

    def close(self) -> None:
        # Shut the socket down first: that wakes the reader thread, which holds the buffered
        # reader's lock (closing the reader before would wait for it forever).
        with contextlib.suppress(OSError):
            self.socket.shutdown(socket.SHUT_RDWR)
        self.thread.join(timeout=WAIT_SECONDS)
        for closing in (self.reader, self.socket):
            with contextlib.suppress(OSError):
                closing.close()


def post_line(connection: http.client.HTTPConnection, text: str) -> str:
    connection.request("POST", "/api/line", body=text.encode(),
                       headers={"Content-Type": "text/plain"})
    answer = connection.getresponse()
    reply = json.loads(answer.read())["reply"]
    if not isinstance(reply, str):
        raise RuntimeError(f"/api/line answered {reply!r}")
    return reply


def measure_web(events: int) -> dict[str, Any]:
    """``web_event_to_client_ms`` and ``web_rss_mb`` (see the module docstring)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="companion-bench-web-") as temporary:
        environment = box_environment(str(Path(temporary) / "pycache"))
        command = [*run_command(str(Path(temporary) / "state")), "--web", "127.0.0.1:0"]
        box = RunningBox(command, environment)
        clients: list[StreamClient] = []
        try:
            url = next(line.decode().strip()[4:] for line in box.before_ready
                       if line.startswith(b"web="))
            address = urlsplit(url)
            host, port = address.hostname or "127.0.0.1", address.port or 80
            control = http.client.HTTPConnection(host, port, timeout=WAIT_SECONDS)
            if post_line(control, "new timer seconds=600") != "ok":
                raise RuntimeError("the bench could not start a timer game")
            arrived = threading.Condition()
            clients = [StreamClient(host, port, arrived) for _ in range(CLIENTS)]
            with arrived:
                if not arrived.wait_for(lambda: all(c.updates for c in clients), WAIT_SECONDS):
                    raise RuntimeError("not every event-stream client got its first update")
            samples = _press_and_time(control, clients, arrived, events)
            control.close()
        finally:
            for client in clients:
                client.close()
            peak = box.stop()
    return {
        "web_event_to_client_ms": with_target(
            {**distribution(samples), "clients": CLIENTS, "events": events},
            "web_event_to_client_ms"),
        "web_rss_mb": scalar(peak, "web_rss_mb", clients=CLIENTS),
    }


def _press_and_time(control: http.client.HTTPConnection, clients: list[StreamClient],
                    arrived: threading.Condition, events: int) -> list[float]:
    samples: list[float] = []
    for index in range(events):
        seen = [len(client.updates) for client in clients]
        started = time.perf_counter()
        reply = post_line(control, "press up" if index % 2 == 0 else "press down")
        if reply != "ok":
            raise RuntimeError(f"press answered {reply!r}")
        def all_arrived(seen: list[int] = seen) -> bool:
            return all(len(c.updates) > n for c, n in zip(clients, seen, strict=True))

        with arrived:
            if not arrived.wait_for(all_arrived, WAIT_SECONDS):
                raise RuntimeError("an event-stream client missed an update")
        expected_changes = {client.updates[-1][1] for client in clients}
        if len(expected_changes) != 1:
            raise RuntimeError(f"clients disagree on the state: {expected_changes}")
        samples.extend((client.updates[n][0] - started) * 1000
                       for client, n in zip(clients, seen, strict=True))
    return samples
