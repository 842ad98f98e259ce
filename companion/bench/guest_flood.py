"""A paired phone among guests: its answers while guests hold the page's slots.

What is measured (full run; ``--short`` in brackets), issue #28:

- ``paired_phone_under_guest_flood``: 200 [40] ``GET /api/state`` requests of a paired phone
  (127.0.0.3, its pairing cookie; half on fresh connections, half on one kept alive), through
  the real event loop (the bench's :class:`~companion.bench.rig.Rig`, the table page on with
  ``pair_loopback`` and ``public_mirror``, so each loopback address is a phone or a guest of
  its own), while a flood process of :data:`GUESTS` guest addresses (127.0.0.50-54) holds
  :data:`SLOW_PER_GUEST` half-sent requests and :data:`STREAMS_PER_GUEST` event streams each,
  and :data:`READERS` more guest addresses (127.0.0.60-65) hold :data:`READERS_PER_GUEST`
  slow readers each (issue #38, 1: a static file asked :data:`READER_REQUESTS` times at once,
  read :data:`READ_BYTES_PER_SECOND` bytes a second through a small receive buffer), all
  reopening every one the server closes. One sample per request: the seconds from sending it
  to its whole answer, in ms; every answer that is not 200 is counted (``non_200``; the target
  is none). The guests' answers are counted by status beside the figure.

The phone pairs as a phone does: ``pair open`` at the box (a protocol line to the loop), then
``POST /api/pair/start`` and ``POST /api/pair`` with the code the box shows.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import selectors
import socket
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

GUESTS = 5
GUEST_ADDRESSES = tuple(f"127.0.0.{50 + n}" for n in range(GUESTS))
SLOW_PER_GUEST = 8
STREAMS_PER_GUEST = 8
PHONE = "127.0.0.3"
DRIBBLE_SECONDS = 2.0
READERS = 6
READER_ADDRESSES = tuple(f"127.0.0.{60 + n}" for n in range(READERS))
READERS_PER_GUEST = 8
READER_REQUESTS = 200
READ_BYTES_PER_SECOND = 3 * 1024
READ_BUFFER_BYTES = 4096


def _open_reader(port: int, source: str, readers: dict[socket.socket, str],
                 counts: Counter[str]) -> None:
    """A slow reader: the static file asked for again and again, its answers read slowly."""
    try:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, READ_BUFFER_BYTES)
        sock.bind((source, 0))
        sock.settimeout(5)
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                     * READER_REQUESTS)
        sock.setblocking(False)
        readers[sock] = source
        counts["readers_opened"] += 1
    except OSError as error:
        counts[f"reader_{type(error).__name__}"] += 1


def _read_slowly(port: int, readers: dict[socket.socket, str], counts: Counter[str]) -> None:
    """Each slow reader takes a second's worth; one the server closed is opened again."""
    for sock, source in list(readers.items()):
        try:
            data = sock.recv(READ_BYTES_PER_SECOND)
        except BlockingIOError:
            continue
        except OSError:
            data = b""
        if data:
            continue
        del readers[sock]
        sock.close()
        counts["readers_closed_by_server"] += 1
        _open_reader(port, source, readers, counts)


def _open(port: int, source: str, slow: bool, selector: selectors.BaseSelector,
          counts: Counter[str]) -> None:
    request = (b"GET /api/whoami HTTP/1.1\r\nX-Dribble: a" if slow else
               b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                        source_address=(source, 0))
        sock.sendall(request)
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, (source, slow))
        counts["slow_opened" if slow else "streams_opened"] += 1
    except OSError as error:
        counts[f"open_{type(error).__name__}"] += 1


def flood_main(port: int) -> int:
    """The guests' process: hold the sockets, say ``flooding``, run until standard input
    closes, then print what the server answered (by first status line) as one JSON object."""
    selector = selectors.DefaultSelector()
    counts: Counter[str] = Counter()
    stop = threading.Event()
    for source in GUEST_ADDRESSES:
        for _ in range(SLOW_PER_GUEST):
            _open(port, source, True, selector, counts)
        for _ in range(STREAMS_PER_GUEST):
            _open(port, source, False, selector, counts)
    readers: dict[socket.socket, str] = {}
    for source in READER_ADDRESSES:
        for _ in range(READERS_PER_GUEST):
            _open_reader(port, source, readers, counts)

    def watch_stdin() -> None:
        sys.stdin.read()
        stop.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    print("flooding", flush=True)
    seen: set[int] = set()
    next_dribble = time.monotonic() + DRIBBLE_SECONDS
    next_read = time.monotonic() + 1.0
    while not stop.is_set():
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            data = b""
            with contextlib.suppress(OSError):
                data = sock.recv(65536)
            if data:
                if sock.fileno() not in seen:
                    seen.add(sock.fileno())
                    counts[data.split(b"\r\n", 1)[0].decode(errors="replace")] += 1
                continue
            seen.discard(sock.fileno())
            selector.unregister(sock)
            sock.close()
            counts["closed_by_server"] += 1
            source, slow = key.data
            _open(port, source, slow, selector, counts)
        if time.monotonic() >= next_read:
            next_read += 1.0
            _read_slowly(port, readers, counts)
        if time.monotonic() >= next_dribble:
            next_dribble += DRIBBLE_SECONDS
            for key in list(selector.get_map().values()):
                if key.data[1]:
                    with contextlib.suppress(OSError):
                        key.fileobj.send(b"a")  # type: ignore[union-attr]
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    for sock in readers:
        sock.close()
    print(json.dumps(dict(counts)), flush=True)
    return 0


def _call(port: int, method: str, path: str, body: bytes = b"",
          headers: dict[str, str] | None = None) -> tuple[int, bytes, str | None]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                            source_address=(PHONE, 0))
    try:
        connection.request(method, path, body=body, headers={
            "Origin": f"http://127.0.0.1:{port}", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read(), response.getheader("Set-Cookie")
    finally:
        connection.close()


def pair_phone(rig: Any, port: int) -> str:
    """Open pairing at the box, pair the phone with the code it shows: the cookie."""
    rig.line("pair open")
    for _ in range(200):
        if rig.controller.state.pairing is not None:
            break
        time.sleep(0.01)
    if _call(port, "POST", "/api/pair/start")[0] != 200:
        raise RuntimeError("the box did not open pairing")
    code = rig.controller.state.pairing.code
    status, _, cookie = _call(port, "POST", "/api/pair", json.dumps({"code": code}).encode())
    if status != 200 or cookie is None:
        raise RuntimeError(f"the phone did not pair ({status})")
    return cookie.split(";")[0]


def guest_flood_worker(requests: int, state_dir: Path) -> dict[str, Any]:
    """The phone's answer times and statuses under the guests (see the module docstring)."""
    import subprocess

    from companion.bench.rig import Rig

    rig = Rig(state_dir, web=True, public_mirror=True)
    port = rig.box.web.server.server_address[1]
    figures: dict[str, Any] = {}

    def script(rig: Rig) -> None:
        cookie = pair_phone(rig, port)
        code = ("import sys; from companion.bench.guest_flood import flood_main; "
                "sys.exit(flood_main(int(sys.argv[1])))")
        flood = subprocess.Popen([sys.executable, "-c", code, str(port)],  # noqa: S603
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        latencies: list[float] = []
        statuses: Counter[str] = Counter()
        try:
            assert flood.stdout is not None and flood.stdin is not None
            if flood.stdout.readline().strip() != "flooding":
                raise RuntimeError("the flood process did not start")
            time.sleep(1.0)  # the guests are in
            kept = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                              source_address=(PHONE, 0))
            for number in range(requests):
                fresh = number % 2 == 0
                connection = (http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                                         source_address=(PHONE, 0))
                              if fresh else kept)
                started = time.perf_counter()
                try:
                    connection.request("GET", "/api/state", headers={"Cookie": cookie})
                    response = connection.getresponse()
                    response.read()
                    statuses[str(response.status)] += 1
                except (OSError, http.client.HTTPException) as error:
                    statuses[type(error).__name__] += 1
                    if not fresh:
                        kept.close()
                finally:
                    latencies.append((time.perf_counter() - started) * 1000.0)
                    if fresh:
                        connection.close()
            kept.close()
            output, _ = flood.communicate("", timeout=60)
            figures["guest_answers"] = json.loads(output.strip().splitlines()[-1])
        finally:
            if flood.poll() is None:
                flood.kill()
                flood.wait()
        figures["latencies_ms"] = latencies
        figures["statuses"] = dict(statuses)

    rig.run(script)
    return figures
