"""What the table page's browser tests share (tests/web/test_page_*.py), one copy of each.

The phone sizes they run at; the recorders that stand in for the browser's vibration motor
and voice; a finger's tap on a button and the box's reply to it; the wait until the page
shows the box's latest screen (:func:`settle`), on which every tap and every read of the
Timer view depends; the checks that a view fits the phone without scrolling; the "never
TIME UP" check; axe-core's violations. Plain functions over a Playwright page: the fixtures
that open pages (``open_phone``, ``phone``, ``shoot``) live in conftest.py and use this.

The tests run with ``--import-mode=importlib``, so a test module is never imported by another:
they import this one as ``tests.web.page_support``.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

WAIT_MS = 10_000
"""How long a browser test waits for the page: for an action (each context's default timeout)
and for an ``expect`` (Playwright's own default, 5 s, is short for a loaded 2-core CI machine
running the box, Chromium and the test at once)."""

PORTRAIT = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}
SMALL = {"width": 320, "height": 568}
VIEWPORTS = pytest.mark.parametrize("viewport", [PORTRAIT, LANDSCAPE],
                                    ids=["portrait", "landscape"])
"""A test run once on a phone held upright and once on it turned sideways."""

CUE_RECORDER = """
window.__cues = [];
Navigator.prototype.vibrate = function (pattern) {
  window.__cues.push(["vibrate", JSON.stringify(pattern)]);
  return true;
};
if (window.speechSynthesis) {
  window.speechSynthesis.speak = (utterance) => window.__cues.push(["speak", utterance.text]);
  window.speechSynthesis.cancel = () => {};
}
"""
"""Vibration and speech replaced by a recorder (an init script): ``window.__cues`` holds
``["vibrate", pattern as JSON]`` and ``["speak", text]`` in the order the page asked."""

RECORDERS = {"cues": CUE_RECORDER}
"""The recorders a phone may be opened with (``phone(..., recorders=("cues",))``)."""

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


def is_line(response):
    """The reply to a protocol line the page sent (POST /api/line)."""
    return response.url.endswith("/api/line") and response.request.method == "POST"


def tap(page, selector):
    """Tap a button as a finger does; the box's reply line to that one tap."""
    with page.expect_response(is_line) as answer:
        page.locator(selector).tap()
    return answer.value.json()["reply"]


def model(box):
    """The box's screen model as the page gets it (GET /api/screen)."""
    answer = box.request("GET", "/api/screen")
    assert answer.status == 200, answer.body
    return answer.json


# The order in which the Timer view's big button picks its gesture (timer.js PRIMARY_ORDER).
PRIMARY_ORDER = ("next", "back", "hold_next", "up", "down", "hold_back")


def shown(screen):
    """What of a screen model the page must show before a test reads or taps it: the step's
    heading, its words (the Box tab's step card, drawn whatever the view), its list and chosen
    row, and the big button's gesture and label. No clock digits: a running countdown changes
    none of these."""
    keys = screen["keys"]
    gesture = next((gesture for gesture in PRIMARY_ORDER if keys.get(gesture)), None)
    return {"heading": screen["heading"], "say": screen.get("say") or None,
            "done": screen.get("notice") or screen.get("done") or "",
            "then": screen.get("then") or "", "choices": len(screen.get("choices") or []),
            "chosen": screen.get("chosen"), "gesture": gesture,
            "label": keys[gesture] if gesture else None}


def expect_shown(page, want):
    """Wait until the page shows ``want`` (a :func:`shown`)."""
    expect(page.locator("#timer-stage")).to_have_text(want["heading"])
    if want["say"] is not None:  # a screen without words: the card shows its panel lines
        expect(page.locator("#box-say")).to_have_text(want["say"])
    expect(page.locator("#box-done")).to_have_text(want["done"])
    expect(page.locator("#box-then")).to_have_text(want["then"])
    choices = page.locator("#box-choices li")
    expect(choices).to_have_count(want["choices"])
    if want["chosen"] is not None and want["choices"]:
        expect(choices.nth(want["chosen"])).to_have_class("chosen")
    if want["gesture"] is not None:
        primary = page.locator("#timer-primary")
        expect(primary).to_have_attribute("data-gesture", want["gesture"])
        expect(primary).to_have_text(want["label"])


def settle(page, box):
    """Wait until the page shows the box's latest screen (:func:`shown`): only then does a tap
    on the big button send what the box's screen offers, and only then does a read of the
    page describe that screen. The page hears of a screen through its event stream, later
    than the HTTP reply to the tap that made it, and two screens in a row can share a heading
    and a button (two Flight Plan scoring steps, a menu's rows), so no one field says the
    page caught up. Where the box moved on while the page was being waited for (a countdown
    ran out), the newer screen is waited for; where the box stood still, the page is wrong.
    The screen model waited for."""
    screen = model(box)
    for _ in range(3):
        try:
            expect_shown(page, shown(screen))
            return screen
        except AssertionError:
            newer = model(box)
            if shown(newer) == shown(screen):
                raise
            screen = newer
    expect_shown(page, shown(screen))
    return screen


def tap_until(page, box, step):
    """Tap the Timer view's big button until the box's game is at ``step``, each tap on the
    screen the page shows settled first (Now Boarding's "which VIP?", which opens with no card
    chosen: the first row tapped before the big button); the page then showing that step."""
    while (state := box.state())["step"] != step:
        settle(page, box)
        if state.get("ask") == "which" and state.get("vip_offer") is None:  # which VIP? (NB)
            assert tap(page, "#timer-choices .choice-pick >> nth=0") == "ok"  # none chosen yet
            continue
        assert tap(page, "#timer-primary") == "ok"
    settle(page, box)


def to_the_flight(page, box):
    """Tap the big button up to the flight and start it: the countdown running."""
    tap_until(page, box, "ready")
    expect(page.locator("#timer-primary")).to_have_text("Start flight")
    assert tap(page, "#timer-primary") == "ok"
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "flight")


def fits(page):
    """Nothing scrolls and nothing is cut: the page fits the viewport, the primary button is
    wholly on screen, and the Timer view's text is not clipped."""
    sizes = page.evaluate("""() => {
        const root = document.documentElement, main = document.querySelector('.timer-main');
        const button = document.querySelector('#timer-primary').getBoundingClientRect();
        return {width: root.scrollWidth, height: root.scrollHeight, innerWidth, innerHeight,
                cut: main.scrollHeight - main.clientHeight, bottom: button.bottom,
                right: button.right, top: button.top};
    }""")
    assert sizes["width"] <= sizes["innerWidth"], sizes
    assert sizes["height"] <= sizes["innerHeight"], sizes
    assert sizes["cut"] <= 1, sizes
    assert sizes["top"] >= 0 and sizes["bottom"] <= sizes["innerHeight"], sizes
    assert sizes["right"] <= sizes["innerWidth"], sizes


def page_fits(page):
    """The page itself never scrolls (a long list scrolls within the view)."""
    sizes = page.evaluate("""() => ({width: document.documentElement.scrollWidth,
        height: document.documentElement.scrollHeight, innerWidth, innerHeight})""")
    assert sizes["width"] <= sizes["innerWidth"], sizes
    assert sizes["height"] <= sizes["innerHeight"], sizes


def no_time_up(page):
    """Nowhere on the page "TIME UP" or a clock at "0:00"."""
    text = page.locator("body").inner_text()
    assert "TIME UP" not in text.upper()
    assert not re.search(r"(?<!\d)0:00(?!\d)", text), text


def axe_violations(page):
    """Every violation axe-core (vendored, injected here, never served by the page) finds on
    the page as it is now, whatever its impact: id, impact and the first nodes."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ["violations"]});
        return result.violations.map((v) => ({id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}));
    }""")


def serious_violations(page):
    """The serious and critical ones of :func:`axe_violations`."""
    return [found for found in axe_violations(page)
            if found["impact"] in ("serious", "critical")]
