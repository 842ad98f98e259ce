"""The Timer view runs a whole game from a propped-up phone (issue #20, items 2, 3 and 8).

Debian's Chromium, driven by Playwright, as a touch phone in portrait (360 x 740) and in
landscape (740 x 360), against a real `companion run --web` process. The page's Timer view
alone (its big button, pause, undo, UP / DOWN) starts a 3-player Now Boarding game from the
box's menu and plays it to a result. On every screen the view fits the phone without
scrolling and says what the next tap does; between flights and after the game it never
says "TIME UP" or "0:00"; a purchase, complaints and an undo are confirmed in words.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SHOT_STEPS = {"portrait": {"setup", "ready", "flight", "passengers"},
              "landscape": {"ready", "flight"}}
"""The steps pictured for docs/screens (the first screen of each)."""
PORTRAIT = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}


@pytest.fixture
def phone(browser, running_box):
    """``phone(viewport)``: the box's page in a touch phone's browser, Timer view open, live;
    console errors collected in ``page.errors``."""
    contexts = []

    def open_phone(viewport):
        context = browser.new_context(viewport=viewport, device_scale_factor=1,
                                      is_mobile=True, has_touch=True)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("console", lambda message: message.type == "error"
                and page.errors.append(message.text))
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.goto(f"{running_box.url}?view=timer")
        expect(page.locator("#link-status")).to_have_text("Live")
        return page

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture(autouse=True)
def shots(request, tmp_path, monkeypatch):
    """Screenshots go to docs/screens only with ``pytest --regen-golden`` (look at them)."""
    folder = SCREENS if request.config.getoption("--regen-golden") else tmp_path / "screens"
    monkeypatch.setitem(SHOTS, "folder", folder)


SHOTS = {"folder": SCREENS}


def screenshot(page, name):
    folder = SHOTS["folder"]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"web-{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 0


def model(box):
    """The box's screen model as the page gets it (GET /api/screen)."""
    answer = box.request("GET", "/api/screen")
    assert answer.status == 200, answer.body
    return answer.json


def is_line(response):
    return response.url.endswith("/api/line") and response.request.method == "POST"


def tap(page, selector):
    """Tap a Timer view button as a finger does; the box's reply line."""
    with page.expect_response(is_line) as answer:
        page.locator(selector).tap()
    return answer.value.json()["reply"]


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


def fits(page):
    """Nothing scrolls and nothing is cut: the page fits the viewport, the primary button is
    wholly on screen, and the view's text is not clipped."""
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
    """The page itself never scrolls (a long list scrolls within the view) and the view's
    buttons are on screen."""
    sizes = page.evaluate("""() => ({width: document.documentElement.scrollWidth,
        height: document.documentElement.scrollHeight, innerWidth, innerHeight})""")
    assert sizes["width"] <= sizes["innerWidth"], sizes
    assert sizes["height"] <= sizes["innerHeight"], sizes


def visible_text(page):
    return page.locator("body").inner_text()


def no_time_up(page):
    text = visible_text(page)
    assert "TIME UP" not in text.upper()
    assert not re.search(r"(?<!\d)0:00(?!\d)", text), text


@pytest.mark.parametrize("viewport", [PORTRAIT, LANDSCAPE], ids=["portrait", "landscape"])
# a whole game by tapping in Chromium
@pytest.mark.timeout(900)
def test_timer_view_plays_a_whole_three_player_game(running_box, phone, viewport):
    page = phone(viewport)
    name = "portrait" if viewport is PORTRAIT else "landscape"
    box = running_box
    # The box's menu, from the Timer view, as the page's own controls (issue #27): the whole
    # games list, then Now Boarding's options as a form (3 players, the default), start.
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "menu")
    expect(page.locator("#timer-menu .menu-row.chosen")).to_have_count(1)
    page_fits(page)
    with page.expect_response(is_line):
        page.locator("#timer-menu .menu-row", has_text=re.compile("^Now Boarding$")).tap()
    expect(page.locator("#timer-options fieldset.option").first).to_be_visible()
    expect(page.locator("#timer-primary")).to_have_text("Start game")
    page_fits(page)
    assert tap(page, "#timer-primary") == "ok"
    state = box.state()
    assert (state["game"], state["players"], state["step"]) == ("now-boarding", 3, "setup")

    seen = set()
    bought = complained = paused = undone = False
    taps = 2
    while (state := box.state())["phase"] != "over":
        taps += 1
        assert taps < 400, "the game does not end"
        settle(page, box)
        mode = page.locator("#view-timer").get_attribute("data-mode")
        fits(page)
        primary = page.locator("#timer-primary")
        # Every screen says what the next tap does, in the model's words.
        expect(primary).to_have_text(model(box)["keys"]["next"])
        if mode == "between":
            no_time_up(page)
        step = state["step"]
        if step not in seen:
            seen.add(step)
            if step in SHOT_STEPS[name]:
                screenshot(page, f"timer-{name}-{step}")
        if step == "flight" and state["round"] == 3 and not paused:
            assert tap(page, "#timer-pause") == "ok"
            expect(page.locator("#timer-state")).to_have_text("Paused")
            expect(page.locator("#timer-pause")).to_have_text("Resume")
            if name == "portrait":
                screenshot(page, "timer-portrait-paused")
            assert tap(page, "#timer-pause") == "ok"
            paused = True
            continue
        if step == "upgrades" and not bought:
            expect(page.locator("#timer-choices li")).to_have_count(5)
            expect(page.locator("#timer-choices li.chosen")).to_have_attribute(
                "aria-current", "true")
            assert tap(page, "#timer-pause") == "ok"  # hold NEXT: buy the selected row
            expect(page.locator("#timer-done")).to_contain_text("P1 bought a seat for $")
            screenshot(page, f"timer-{name}-bought")
            assert tap(page, "#timer-undo") == "ok"
            expect(page.locator("#timer-done")).to_contain_text("undone: P1 bought seat")
            bought = undone = True
            continue
        if step == "anger" and state["round"] == 2 and not complained \
                and model(box)["heading"] == "Maintenance: file complaints":
            expect(page.locator("#timer-up")).to_have_text("One more complaint")
            assert tap(page, "#timer-up") == "ok"
            expect(page.locator("#timer-primary")).to_have_text("File 1 complaint")
            if name == "portrait":
                screenshot(page, "timer-portrait-complaints")
            assert tap(page, "#timer-primary") == "ok"
            expect(page.locator("#timer-done")).to_contain_text("1 complaint filed")
            complained = True
            continue
        assert tap(page, "#timer-primary") == "ok"
    assert bought and complained and paused and undone
    assert {"setup", "ready", "flight", "anger", "passengers", "upgrades", "exit"} <= seen

    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "over")
    verdict = "WIN" if state["result"] == "win" else "LOSS"
    expect(page.locator("#timer-verdict")).to_have_text(verdict)
    expect(page.locator("#timer-score")).to_contain_text(f"{state['complaints']} complaint")
    fits(page)
    no_time_up(page)
    screenshot(page, f"timer-{name}-over")
    assert page.errors == []


def test_timer_view_says_no_time_up_after_a_flight_runs_out(running_box, phone):
    """A 10 s flight (all of it last seconds, and long enough to be seen on a loaded machine)
    runs out: the last seconds say so in words and grow, the end is announced once,
    assertively; maintenance then shows a calm step card, no "TIME UP", no "0:00"."""
    page = phone(PORTRAIT)
    box = running_box
    assert box.line("new now-boarding players=3 timer=10") == "ok"
    while box.state()["step"] != "ready":
        settle(page, box)
        assert tap(page, "#timer-primary") == "ok"
    settle(page, box)
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "ready")
    expect(page.locator("#timer-primary")).to_have_text("Start flight")
    assert tap(page, "#timer-primary") == "ok"
    view = page.locator("#view-timer")
    expect(view).to_have_class(re.compile(r"\blast-seconds\b"))
    expect(page.locator("#timer-state")).to_have_text("10 seconds left!")
    expect(page.locator("#timer-digits")).to_have_attribute("role", "timer")
    expect(page.locator("#timer-polite")).to_have_text("10 seconds left")
    screenshot(page, "timer-portrait-last-seconds")
    # The flight runs out by itself: maintenance, and one assertive announcement.
    expect(view).to_have_attribute("data-mode", "between", timeout=30_000)
    expect(page.locator("#timer-assertive")).to_have_text("Time is up: the flight is over")
    expect(page.locator("#timer-stage")).to_have_text("Maintenance: anger cubes")
    expect(view).not_to_have_class(re.compile(r"\blast-seconds\b"))
    no_time_up(page)
    screenshot(page, "timer-portrait-maintenance")
    for _ in range(3):  # through the complaints and the draw: still calm
        settle(page, box)
        assert tap(page, "#timer-primary") == "ok"
        settle(page, box)
        no_time_up(page)
    assert page.errors == []


def test_timer_view_shows_the_menu_over_a_game_and_plain_labels_without_words(running_box,
                                                                              phone):
    """BACK during a game opens the box's menu: the Timer view lists it whole, a button a row,
    and a Back to the game, not the paused game's clock; a new v3 game then gets its own labels
    back."""
    page = phone(PORTRAIT)
    box = running_box
    assert box.line("new now-boarding players=3") == "ok"
    expect(page.locator("#timer-primary")).to_have_text("Next page")
    assert tap(page, "#timer-primary") == "ok"
    assert box.line("press back") == "ok"  # the box's menu, over the game
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "menu")
    expect(page.locator("#timer-menu .menu-row.chosen")).to_have_text("Back to game")
    expect(page.locator("#timer-back")).to_have_text("Back")
    expect(page.locator("#timer-back")).to_be_visible()
    expect(page.locator("#timer-primary")).to_be_hidden()
    page_fits(page)
    assert box.line("new now-boarding-v3 players=3") == "ok"
    expect(page.locator("#view-timer")).not_to_have_attribute("data-mode", "menu")
    settle(page, box)
    expect(page.locator("#timer-primary")).to_have_text(re.compile(r"\S"))
    assert tap(page, "#timer-primary") == "ok"
    settle(page, box)  # the screen after the tap, not the one before it
    fits(page)
    assert page.errors == []
