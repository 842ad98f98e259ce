"""Issue #28, 3: a keyed action is done once, even across a power cut.

The table page's ``Idempotency-Key`` is kept in the journal with the line and its reply, in
the same transaction as the line's own rows, scoped to the phone's pairing token (or to the
box for its own loopback). Socket-free first (the controller over a journal in a temporary
folder: a crash between the journal write and the reply, a restart), then real
``companion run`` processes killed with SIGKILL: the same key after kill -9, a restart and an
address change runs once, and 20 kills with 3 phones retrying keyed lines lose nothing and
double nothing.
"""

import http.client
import json
import socket
import sqlite3
import threading

import pytest

from companion.adapters.journal import FILE_NAME
from companion.protocol.lines import Line
from companion.testing.simulated import simulated_controller
from tests.web.conftest import http_request, run_box

PHONE = "token:phone"


def rows(folder, table="actions"):
    db = sqlite3.connect(folder / FILE_NAME)
    try:
        return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # noqa: S608
    finally:
        db.close()


# -- without a socket ---------------------------------------------------------------------------

def test_a_key_runs_once_and_a_crash_before_the_reply_answers_the_first_result(tmp_path):
    controller = simulated_controller(tmp_path)
    assert controller.command_line("new timer seconds=600") == "ok"
    assert controller.handle_keyed(Line("press up"), PHONE, "key-00001") == "ok"
    # The reply never reached the phone (the power went): a new program, the same journal.
    controller.journal.close()
    again = simulated_controller(tmp_path)
    before = again.state
    assert again.handle_keyed(Line("press up"), PHONE, "key-00001") == "ok"
    assert again.state == before and rows(tmp_path) == 1
    reused = again.handle_keyed(Line("press down"), PHONE, "key-00001")
    assert reused.startswith("err key-reused ") and rows(tmp_path) == 1
    # Another holder's key of the same name is its own: it runs.
    assert again.handle_keyed(Line("press up"), "box", "key-00001") == "ok"
    assert rows(tmp_path) == 2 and rows(tmp_path, "line_keys") == 2
    again.journal.close()


def test_a_keyed_line_that_writes_nothing_keeps_its_reply_too(tmp_path):
    controller = simulated_controller(tmp_path)
    # In the menu UP moves the cursor: answered, no game row. Its key is kept all the same,
    # so once a game is in play (where UP would journal a row) the retry still runs nothing.
    assert controller.handle_keyed(Line("press up"), PHONE, "key-00002") == "ok"
    assert controller.handle_keyed(Line("frobnicate"), PHONE, "key-00005").startswith("err ")
    assert controller.command_line("new timer seconds=600") == "ok"
    assert controller.handle_keyed(Line("press up"), PHONE, "key-00002") == "ok"
    assert controller.handle_keyed(Line("frobnicate"), PHONE, "key-00005").startswith("err ")
    assert rows(tmp_path) == 0 and rows(tmp_path, "line_keys") == 2
    controller.journal.close()


def test_a_new_game_and_its_key_land_together(tmp_path):
    controller = simulated_controller(tmp_path)
    assert controller.handle_keyed(Line("new timer seconds=60"), PHONE, "key-00003") == "ok"
    assert controller.handle_keyed(Line("press up"), PHONE, "key-00004") == "ok"
    controller.journal.close()
    again = simulated_controller(tmp_path)
    assert again.handle_keyed(Line("new timer seconds=60"), PHONE, "key-00003") == "ok"
    assert rows(tmp_path, "games") == 1 and rows(tmp_path) == 1
    again.journal.close()


# -- real processes, killed -------------------------------------------------------------------

def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(port, source, method, path, *, body=b"", headers=None, timeout=10):
    answer = http_request(port, method, path, body, headers, timeout=timeout, source=source)
    return answer.status, json.loads(answer.body or b"{}"), answer.headers.get("set-cookie")


def pair(box, source):
    """Someone at the box opens pairing; the phone at ``source`` pairs: its cookie."""
    assert box.line("pair open") == "ok"
    assert call(box.port, source, "POST", "/api/pair/start")[0] == 200
    code = json.loads(box.line("screen").removeprefix("ok "))["lines"][0].split()[1]
    status, body, cookie = call(box.port, source, "POST", "/api/pair",
                                body=json.dumps({"code": code}).encode())
    assert (status, body) == (200, {"paired": True}), body
    return cookie.split(";")[0]


def keyed(port, source, cookie, text, key, *, timeout=10):
    return call(port, source, "POST", "/api/line", body=text.encode(),
                headers={"Cookie": cookie, "Idempotency-Key": key}, timeout=timeout)[:2]


@pytest.mark.slow
def test_the_same_key_after_kill_restart_and_a_new_address_runs_once(tmp_path):
    port = free_port()
    box = run_box(tmp_path, f"127.0.0.1:{port}")
    try:
        assert box.line("new timer seconds=600") == "ok"
        cookie = pair(box, "127.0.0.2")
        assert keyed(port, "127.0.0.2", cookie, "press up", "key-power-1") == (
            200, {"reply": "ok"})
    finally:
        box.process.kill()  # SIGKILL: no clean stop
        box.process.communicate()
    box = run_box(tmp_path, f"127.0.0.1:{port}")
    try:  # the phone's other address (its IPv6 one on a LAN): the token is what counts
        assert keyed(port, "127.0.0.3", cookie, "press up", "key-power-1") == (
            200, {"reply": "ok"})
        status, body = keyed(port, "127.0.0.3", cookie, "press down", "key-power-1")
        assert (status, body["error"]) == (422, "key-reused")
    finally:
        box.stop()
    box = run_box(tmp_path, f"127.0.0.1:{port}")
    try:
        assert keyed(port, "127.0.0.4", cookie, "press up", "key-power-1") == (
            200, {"reply": "ok"})
    finally:
        box.stop()
    assert rows(tmp_path) == 1 and rows(tmp_path, "line_keys") == 1


KILLS = 20
PHONES = ("127.0.0.11", "127.0.0.12", "127.0.0.13")
ACKS_PER_RUN = 4


class Phone(threading.Thread):
    """A phone pressing UP with a fresh key each time, retrying each key until answered."""

    def __init__(self, port, source, cookie, acked):
        super().__init__(daemon=True)
        self.port, self.source, self.cookie = port, source, cookie
        self.acked = acked  # the AckList shared with the test
        self.replies = {}
        self.stop = threading.Event()

    def run(self):
        number = 0
        while not self.stop.is_set():
            key = f"{self.source.replace('.', '-')}-{number:05d}"
            for _ in range(2000):  # retried until answered (a bounded loop)
                try:
                    status, body = keyed(self.port, self.source, self.cookie, "press up", key,
                                         timeout=5)
                except (OSError, http.client.HTTPException):
                    self.stop.wait(0.02)  # the box is down, or went mid-answer: it comes back
                    continue
                if status == 200 and "reply" in body:
                    self.replies[key] = body["reply"]
                    with self.acked:
                        self.acked.append(key)
                        self.acked.notify_all()
                    break
                self.stop.wait(0.02)  # 503 busy, 202 pending: ask again
            number += 1


@pytest.mark.slow
def test_kill_nine_twenty_times_with_three_phones_retrying_loses_and_doubles_nothing(
        tmp_path):
    port = free_port()
    box = run_box(tmp_path, f"127.0.0.1:{port}")
    assert box.line("new timer seconds=600") == "ok"
    cookies = [pair(box, source) for source in PHONES]
    shared = AckList(threading.Condition())
    phones = [Phone(port, source, cookie, shared) for source, cookie in zip(PHONES, cookies,
                                                                             strict=True)]
    for phone in phones:
        phone.start()
    try:
        for _ in range(KILLS):
            shared.wait_for_more(ACKS_PER_RUN)
            box.process.kill()
            box.process.communicate()
            box = run_box(tmp_path, f"127.0.0.1:{port}")
        shared.wait_for_more(ACKS_PER_RUN)
        for phone in phones:
            phone.stop.set()
        for phone in phones:
            phone.join(timeout=60)
            assert not phone.is_alive()
    finally:
        box.stop()
    answered = {key: reply for phone in phones for key, reply in phone.replies.items()}
    assert len(answered) == len(shared.keys)  # every key answered once to its phone
    ran = sum(1 for reply in answered.values() if reply == "ok")
    assert rows(tmp_path) == ran  # nothing lost, nothing doubled
    assert rows(tmp_path, "line_keys") == len(answered)


class AckList:
    """The keys the phones have had answered, and a way to wait for more (bounded)."""

    def __init__(self, condition):
        self.condition = condition
        self.keys = []

    def __enter__(self):
        return self.condition.__enter__()

    def __exit__(self, *exc):
        return self.condition.__exit__(*exc)

    def append(self, key):
        self.keys.append(key)

    def notify_all(self):
        self.condition.notify_all()

    def wait_for_more(self, count):
        with self.condition:
            target = len(self.keys) + count
            assert self.condition.wait_for(lambda: len(self.keys) >= target, timeout=60), (
                f"the phones got {len(self.keys)} answers, not {target}")
