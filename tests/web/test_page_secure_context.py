"""The page on a phone's LAN path: plain HTTP on a non-loopback address, not a secure context
(issue #20, items 7 and 9).

The box runs inside a network namespace this test makes (only its loopback and one end of a
veth pair: nothing is exposed on the machine's own network), listening on every address of
that namespace. Debian's Chromium, outside it, opens the page at the namespace's veth address:
an origin that is not potentially trustworthy, so ``isSecureContext`` is false and the Wake
Lock API is absent, as on a phone at the table. The test pairs the page through its own form
(reading the code the box shows through the namespace's loopback, a trusted client) and then
checks that the page runs a game with no console error and keeps the screen on with its
built-in looping video. Skipped only where a namespace cannot be made (not root).
"""

import json
import os
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.web.page_support import PORTRAIT

# The README's "opens the page from a non-loopback address": with CI=true a skip fails
# (tests/conftest.py).
pytestmark = pytest.mark.claimed

CLIENT = r"""
import http.client, json, sys
port, method, path, body = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
connection.request(method, path, body=body.encode() or None)
answer = connection.getresponse()
print(json.dumps({"status": answer.status, "body": answer.read().decode()}))
"""


def ip(*arguments):
    return subprocess.run(["ip", *arguments], capture_output=True, text=True, check=False)


@pytest.fixture
def namespace():
    """(namespace name, the namespace's address): a veth pair to a namespace of its own."""
    suffix = f"{os.getpid() % 100000}"
    name, outside, inside = f"cpg{suffix}", f"cpa{suffix}", f"cpb{suffix}"
    octet = os.getpid() % 250 + 1
    here, there = f"10.232.{octet}.1", f"10.232.{octet}.2"
    made = ip("netns", "add", name)
    if made.returncode != 0:
        pytest.skip(f"cannot create a network namespace here: {made.stderr.strip()}")
    try:
        for step in (("link", "add", outside, "type", "veth", "peer", "name", inside),
                     ("link", "set", inside, "netns", name),
                     ("addr", "add", f"{here}/30", "dev", outside),
                     ("link", "set", outside, "up"),
                     ("netns", "exec", name, "ip", "addr", "add", f"{there}/30", "dev", inside),
                     ("netns", "exec", name, "ip", "link", "set", inside, "up"),
                     ("netns", "exec", name, "ip", "link", "set", "lo", "up")):
            done = ip(*step)
            if done.returncode != 0:
                pytest.skip(f"cannot set up a veth pair here: {' '.join(step)}: "
                            f"{done.stderr.strip()}")
        yield name, there
    finally:
        ip("link", "del", outside)
        ip("netns", "del", name)


class NamespacedBox:
    """`companion run --web 0.0.0.0:0` inside the namespace; trusted lines through its
    loopback."""

    def __init__(self, namespace, state_dir):
        self.namespace = namespace
        self.process = subprocess.Popen(
            ["ip", "netns", "exec", namespace, sys.executable, "-m", "companion", "run",
             "--backend", "fake", "--serial", "none", "--state-dir", str(state_dir),
             "--web", "0.0.0.0:0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = self.process.stdout.readline().strip()
        assert first.startswith("web="), (first, self.process.stderr.read()
                                           if self.process.poll() is not None else "")
        self.port = int(re.search(r":(\d+)/?$", first).group(1))
        assert self.process.stdout.readline().strip() == "ready"

    def request(self, method, path, body=""):
        done = subprocess.run(["ip", "netns", "exec", self.namespace, sys.executable, "-c",
                               CLIENT, str(self.port), method, path, body],
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def line(self, text):
        answer = self.request("POST", "/api/line", text)
        assert answer["status"] == 200, answer
        return json.loads(answer["body"])["reply"]

    def stop(self):
        self.process.terminate()
        try:
            self.process.communicate(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.communicate()


@pytest.fixture
def lan_box(namespace, tmp_path):
    name, address = namespace
    box = NamespacedBox(name, tmp_path)
    yield box, f"http://{address}:{box.port}/"
    box.stop()


def test_page_on_a_lan_address_is_no_secure_context_and_keeps_awake_by_video(lan_box,
                                                                            open_phone):
    box, url = lan_box
    page = open_phone(f"{url}?view=timer", PORTRAIT)
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'wakeLock' in navigator") is False

    # Unpaired: only the pairing form; paired through it with the code the box shows.
    expect(page.locator("#pairing")).to_be_visible()
    expect(page.locator("#tabs")).to_be_hidden()
    assert box.line("pair open") == "ok"  # at the box
    page.locator("#pair-start").tap()
    expect(page.locator("#pair-state")).to_have_attribute("data-state", "pending")
    screen = json.loads(box.line("screen").removeprefix("ok "))["lines"]
    code = next(line for line in screen if line.startswith("Pair "))
    page.fill("#pair-code", code.split()[1])
    page.locator("#pair-send").tap()
    expect(page.locator("#pairing")).to_be_hidden()
    expect(page.locator("#pair-message")).to_have_text("")
    expect(page.locator("#link-status")).to_have_text("Live")

    # A game in play: the screen is kept on by the built-in video, and the page says so.
    assert box.line("new now-boarding players=3") == "ok"
    expect(page.locator("#timer-primary")).to_have_text("Next page")
    status = page.locator("#wake-status")
    expect(status).to_have_attribute("data-method", "video")
    expect(status).to_contain_text("silent looping video")
    page.locator("#timer-primary").tap()
    expect(page.locator("#timer-stage")).to_contain_text("Setup 2 of")
    # The video is the box's own file: nothing was fetched from anywhere else.
    assert any(re.search(r"/static/awake\.(webm|mp4)$", found) for found in page.fetched)
    assert all(found.startswith(url) for found in page.fetched), page.fetched
    assert page.errors == []
