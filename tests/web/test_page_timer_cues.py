"""Heard and felt, not only seen (issue #20, items 7 and 8): vibration and spoken cues at 10 s
and at the end of a flight, each with its off switch; the screen kept on during a game.

The browser's vibration motor and voice are replaced by recorders (an init script), so the
test reads what the page asked of them; the flight is a real 10 s countdown of a real box (all
of it last seconds, and long enough for the page to see it run on a loaded machine).
"""

from playwright.sync_api import expect

from tests.web.page_support import PORTRAIT, to_the_flight


def fly_to_the_end(page, box):
    """From anywhere in the game, tap the Timer view's big button to the next flight, start
    it and let it run out (10 s). Each tap waits for the page to show the box's screen: the
    big button sends what the page last heard the box offer."""
    to_the_flight(page, box)
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "between",
                                                          timeout=30_000)


def test_cues_at_ten_seconds_and_at_the_end_each_with_an_off_switch(running_box, phone):
    box = running_box
    page = phone(PORTRAIT, recorders=("cues",))
    page.locator("#settings summary").tap()
    expect(page.locator("#cue-vibrate")).to_be_checked()  # on unless turned off
    expect(page.locator("#cue-speak")).not_to_be_checked()  # spoken cues are asked for
    page.locator("#cue-speak").check()
    page.locator("#settings summary").tap()

    assert box.line("new now-boarding players=3 timer=10") == "ok"
    # A game in play keeps the screen on, and the page says how.
    status = page.locator("#wake-status")
    expect(status).not_to_have_attribute("data-method", "off")
    expect(status).to_contain_text("Screen stays on")
    fly_to_the_end(page, box)
    expect(page.locator("#timer-assertive")).to_have_text("Time is up: the flight is over")
    cues = page.evaluate("window.__cues")
    assert ["speak", "ten seconds"] in cues
    assert ["vibrate", "[200]"] in cues
    assert ["speak", "flight over. maintenance"] in cues
    assert ["vibrate", "[400,150,400]"] in cues
    assert cues.count(["speak", "ten seconds"]) == 1  # one warning per flight

    # Both off: the next flight is silent and still.
    page.locator("#settings summary").tap()
    page.locator("#cue-speak").uncheck()
    page.locator("#cue-vibrate").uncheck()
    page.locator("#settings summary").tap()
    page.evaluate("window.__cues = []")
    fly_to_the_end(page, box)
    expect(page.locator("#timer-stage")).to_have_text("Maintenance: anger")
    assert page.evaluate("window.__cues") == []

    # The game over (or the switch off), the screen may sleep again.
    page.locator("#settings summary").tap()
    page.locator("#wake-on").uncheck()
    expect(status).to_have_attribute("data-method", "off")
    expect(status).to_have_text("Screen may sleep: turned off here.")
