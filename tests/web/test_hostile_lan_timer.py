"""Issue #19: the timer is not for sale. The web shares the process, the cores and the GIL with
the event loop, so companion/web/server.py bounds what it takes: an accept budget, a lower CPU
priority for its threads (its event loop's and the routes' workers), and a 1 ms GIL switch
interval while it serves. The figure itself is
``companion bench``'s ``timer_end_error_ms_under_web_flood`` (companion/bench/web_flood.py):
no wall-clock timing is asserted here, only that each bound is in place."""

import os
import sys
from pathlib import Path

import pytest

from companion.web import server as server_module
from companion.web.server import ACCEPT_BURST, ACCEPTS_PER_SECOND, MAX_NICENESS, WEB_NICENESS


def nice_values():
    """The nice value of every thread of this process (Linux /proc)."""
    values = []
    for stat in Path("/proc/self/task").glob("*/stat"):
        fields = stat.read_text().rsplit(")", 1)[1].split()
        values.append(int(fields[16]))  # field 19 of stat(5), counted after the name
    return values


def test_the_web_threads_run_below_the_loops_priority(web_box):
    import http.client

    own = os.getpriority(os.PRIO_PROCESS, 0)  # the test's thread: 0, or more under `nice`
    lowered = min(MAX_NICENESS, own + WEB_NICENESS)
    connection = http.client.HTTPConnection("127.0.0.1", web_box.port, timeout=10)
    try:
        connection.request("GET", "/api/frame.png")  # a route run on a worker thread
        assert connection.getresponse().read()
        values = nice_values()
        if sys.platform == "linux":
            assert values.count(lowered) >= 2, values  # the event loop and a route's worker
            assert own in values  # the loop and the test's own threads are not lowered
        else:  # elsewhere a thread id is no process id: nothing is lowered
            assert set(values) == {own}
    finally:
        connection.close()


def test_serving_shortens_the_gil_switch_interval_to_a_millisecond(web_box):
    assert sys.getswitchinterval() <= 0.001


def test_stopping_the_page_puts_the_switch_interval_back(make_web_box):
    """The shortened interval is the served page's, not the rest of the process's (nor of
    the test session's)."""
    outside = sys.getswitchinterval()
    sys.setswitchinterval(0.004)  # a value of its own, whatever ran before
    try:
        box = make_web_box()
        assert sys.getswitchinterval() <= 0.001
        box.close()
        assert sys.getswitchinterval() == 0.004
    finally:
        sys.setswitchinterval(outside)


def test_the_acceptor_waits_once_its_budget_is_spent(web_box, monkeypatch):
    """``pace`` says how long the acceptor waits before its next accept (it waits on the
    event loop, which goes on serving the connections it has)."""
    server = web_box.service.server
    now = [1000.0]
    waits = []
    monkeypatch.setattr(server_module.time, "monotonic", lambda: now[0])
    server._tokens, server._filled = ACCEPT_BURST, now[0]
    for _ in range(int(ACCEPT_BURST)):
        assert server.pace() == 0.0  # a burst passes at once
    for _ in range(10):
        wait = server.pace()
        waits.append(wait)
        now[0] += wait
    assert waits == [pytest.approx(1 / ACCEPTS_PER_SECOND)] * 10  # then one per 5 ms
