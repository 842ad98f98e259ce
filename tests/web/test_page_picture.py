"""The picture of the table set up, on the Timer view's setup card (issue #35, DESIGN.md rule 17).

Debian's Chromium, driven by Playwright, as a phone (360 x 740 and 740 x 360), against a real
box playing a 3-player game with the VIP cards: the setup card shows the picture the state
names (``picture.src``, drawn by the box as SVG), loaded and with its sentence as alt text;
the card still fits the phone; a tap on the picture shows it at the phone's width, a tap
closes it. Nothing of the picture shows while the box is at the menu. The first screen is
pictured for docs/screens (``--regen-golden``).
"""

import pytest
from playwright.sync_api import expect

from tests.web.page_support import LANDSCAPE, PORTRAIT, fits, serious_violations, settle, tap

GAME = "new now-boarding players=3 vip=on seed=5"


def loaded(page):
    """The picture's natural width once the browser has drawn it (0: not loaded)."""
    return page.evaluate("() => document.querySelector('#timer-picture').naturalWidth")


@pytest.mark.parametrize("viewport", [PORTRAIT, LANDSCAPE], ids=["portrait", "landscape"])
def test_the_setup_card_shows_the_table_picture_and_still_fits(running_box, phone, shoot,
                                                                viewport):
    box = running_box
    page = phone(viewport, bypass_csp=True)  # axe is injected
    expect(page.locator("#timer-picture")).to_be_hidden()  # the menu: no picture
    assert box.line(GAME) == "ok"
    settle(page, box)
    picture = box.state()["picture"]
    assert picture["src"] == "/api/picture/table-3p-vip-seat.svg"
    image = page.locator("#timer-picture")
    expect(image).to_be_visible()
    expect(image).to_have_attribute("src", picture["src"])
    expect(image).to_have_attribute("alt", picture["alt"])
    page.wait_for_function("() => document.querySelector('#timer-picture').naturalWidth > 0")
    assert loaded(page) == 240
    if viewport is PORTRAIT:  # the README's (docs/screens with --regen-golden)
        shoot(page, "timer-portrait-setup-picture")
    fits(page)
    assert serious_violations(page) == []

    # A tap shows it whole, with every fact, at the phone's width; another tap puts it back.
    image.tap()
    expect(page.locator("#view-timer")).to_have_attribute("data-picture", "open")
    expect(image).to_have_attribute("src", picture["full"])
    assert picture["full"] == "/api/picture/table-3p-vip-seat-full.svg"
    width = page.evaluate("() => document.querySelector('#timer-picture')"
                          ".getBoundingClientRect().width")
    assert width >= min(viewport["width"], 600) - 40
    if viewport is PORTRAIT:
        shoot(page, "timer-portrait-setup-picture-open")
    image.tap()
    expect(page.locator("#view-timer")).to_have_attribute("data-picture", "shown")
    expect(image).to_have_attribute("src", picture["src"])
    fits(page)

    # The next page keeps the picture; the first draw has none.
    assert tap(page, "#timer-primary") == "ok"
    settle(page, box)
    expect(image).to_be_visible()
    while box.state()["step"] == "setup":
        settle(page, box)
        assert tap(page, "#timer-primary") == "ok"
    settle(page, box)
    assert box.state()["picture"] is None
    expect(image).to_be_hidden()
    assert page.errors == []


def test_the_lesson_on_moving_a_plane_shows_the_plane_and_still_fits(running_box, phone,
                                                                    shoot):
    box = running_box
    assert box.line("new now-boarding players=3 pace=teach timer=off seed=5") == "ok"
    page = phone(PORTRAIT)
    while (box.state()["lesson"] or {}).get("id") != "moving":
        settle(page, box)
        assert tap(page, "#timer-primary") == "ok"
        assert box.state()["step"] != "flight"
    settle(page, box)
    picture = box.state()["picture"]
    assert (picture["src"], picture["full"]) == ("/api/picture/plane.svg",
                                                 "/api/picture/plane-full.svg")
    expect(page.locator("#timer-picture")).to_be_visible()
    page.wait_for_function("() => document.querySelector('#timer-picture').naturalWidth > 0")
    shoot(page, "timer-lesson-plane")
    fits(page)
    assert page.errors == []
