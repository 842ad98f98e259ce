"""The Timer view runs a whole game from a propped-up phone (issue #20, items 2, 3 and 8).

Debian's Chromium, driven by Playwright, as a touch phone in portrait (360 x 740) and in
landscape (740 x 360), against a real `companion run --web` process. The page's Timer view
alone (its big button, pause, undo, UP / DOWN) starts a 3-player Now Boarding game from the
box's menu and plays it to a result. On every screen the view fits the phone without
scrolling and says what the next tap does; between flights and after the game it never
says "TIME UP" or "0:00"; a purchase, complaints and an undo are confirmed in words.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.web.page_support import (
    PORTRAIT,
    VIEWPORTS,
    fits,
    is_line,
    model,
    no_time_up,
    page_fits,
    settle,
    tap,
    tap_until,
)

SHOT_STEPS = {"portrait": {"setup", "ready", "flight", "passengers"},
              "landscape": {"ready", "flight"}}
"""The steps pictured for docs/screens (the first screen of each)."""


@VIEWPORTS
# a whole game by tapping in Chromium
@pytest.mark.timeout(900)
def test_timer_view_plays_a_whole_three_player_game(running_box, phone, shoot, viewport):
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
                shoot(page, f"timer-{name}-{step}")
        if step == "flight" and state["round"] == 3 and not paused:
            assert tap(page, "#timer-pause") == "ok"
            expect(page.locator("#timer-state")).to_have_text("Paused")
            expect(page.locator("#timer-pause")).to_have_text("Resume")
            if name == "portrait":
                shoot(page, "timer-portrait-paused")
            assert tap(page, "#timer-pause") == "ok"
            paused = True
            continue
        if step == "upgrades" and not bought:
            expect(page.locator("#timer-choices li")).to_have_count(5)
            expect(page.locator("#timer-choices li.chosen")).to_have_attribute(
                "aria-current", "true")
            assert tap(page, "#timer-pause") == "ok"  # hold NEXT: buy the selected row
            expect(page.locator("#timer-done")).to_contain_text("P1 bought a seat for $")
            shoot(page, f"timer-{name}-bought")
            assert tap(page, "#timer-undo") == "ok"
            expect(page.locator("#timer-done")).to_contain_text("undone: P1 bought seat")
            bought = undone = True
            continue
        if step == "anger" and state["round"] == 2 and not complained \
                and model(box)["heading"] == "Maintenance: anger":
            expect(page.locator("#timer-up")).to_have_text("One more complaint")
            assert tap(page, "#timer-up") == "ok"
            expect(page.locator("#timer-primary")).to_have_text("File 1 complaint")
            if name == "portrait":
                shoot(page, "timer-portrait-complaints")
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
    shoot(page, f"timer-{name}-over")
    assert page.errors == []


def test_timer_view_says_no_time_up_after_a_flight_runs_out(running_box, phone, shoot):
    """A 10 s flight (all of it last seconds, and long enough to be seen on a loaded machine)
    runs out: the last seconds say so in words and grow, the end is announced once,
    assertively; maintenance then shows a calm step card, no "TIME UP", no "0:00"."""
    page = phone(PORTRAIT)
    box = running_box
    assert box.line("new now-boarding players=3 timer=10") == "ok"
    tap_until(page, box, "ready")
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "ready")
    expect(page.locator("#timer-primary")).to_have_text("Start flight")
    assert tap(page, "#timer-primary") == "ok"
    view = page.locator("#view-timer")
    expect(view).to_have_class(re.compile(r"\blast-seconds\b"))
    expect(page.locator("#timer-state")).to_have_text("10 seconds left!")
    expect(page.locator("#timer-digits")).to_have_attribute("role", "timer")
    expect(page.locator("#timer-polite")).to_have_text("10 seconds left")
    shoot(page, "timer-portrait-last-seconds")
    # The flight runs out by itself: maintenance, and one assertive announcement.
    expect(view).to_have_attribute("data-mode", "between", timeout=30_000)
    expect(page.locator("#timer-assertive")).to_have_text("Time is up: the flight is over")
    expect(page.locator("#timer-stage")).to_have_text("Maintenance: anger")
    expect(view).not_to_have_class(re.compile(r"\blast-seconds\b"))
    no_time_up(page)
    shoot(page, "timer-portrait-maintenance")
    for _ in range(2):  # through the anger page and the draw: still calm
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
