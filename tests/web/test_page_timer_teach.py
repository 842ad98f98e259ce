"""A ``pace=teach`` game from the Timer view (issue #26, item 2).

Debian's Chromium, driven by Playwright, as a touch phone in portrait (360 x 740), against a
real `companion run --web` process playing a 3-player teach game with the VIP cards and no
timer. The Timer view alone shows every lesson as a calm card (its title, its whole text, a
"More" link to its section of the Rules view, "Got it" on the big button) and dismisses it
with a tap; the first flight is the practice flight, said on its card, with no clock; the
lesson cards pass axe and fit the phone. The "More" link opens ``#rules/<section>``.
"""

from playwright.sync_api import expect

from tests.web.page_support import PORTRAIT, fits, serious_violations, settle, tap

TEACH = "new now-boarding players=3 pace=teach timer=off vip=on seed=11"


def check_lesson_card(page, lesson):
    """The Timer view shows ``lesson`` (the state's) as its card."""
    view = page.locator("#view-timer")
    expect(view).to_have_attribute("data-mode", "between")
    expect(view).to_have_class("view view-timer lesson")
    expect(page.locator("#timer-stage")).to_have_text(f"Lesson: {lesson['title']}")
    expect(page.locator("#timer-say")).to_have_text(lesson["text"])
    link = page.locator("#timer-more-link")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", f"#rules/{lesson['more']}")
    expect(page.locator("#timer-primary")).to_have_text("Got it")
    expect(page.locator("#timer-clock")).to_be_hidden()


def test_a_teach_game_shows_and_dismisses_its_lessons_in_the_timer_view(running_box, phone,
                                                                         shoot):
    box = running_box
    assert box.line(TEACH) == "ok"
    page = phone(PORTRAIT, bypass_csp=True)  # axe is injected

    shown = []
    while (state := box.state())["step"] != "flight":
        settle(page, box)
        lesson = state["lesson"]
        if lesson is not None:
            check_lesson_card(page, lesson)
            fits(page)
            if not shown:  # the pitch: looked at, and checked by axe
                assert serious_violations(page) == []
                shoot(page, "timer-lesson")
            shown.append(lesson["id"])
        else:
            expect(page.locator("#timer-more")).to_be_hidden()
        if lesson is None and state["ask"] == "which" and state["vip_offer"] is None:
            # "Which VIP?" opens with no card chosen: the table taps the first row first.
            assert tap(page, "#timer-choices .choice-pick >> nth=0") == "ok"
            continue
        assert tap(page, "#timer-primary") == "ok"
        assert len(shown) < 20 and state["round"] == 1
    assert shown == ["pitch", "moving", "boarding", "delivering", "vip", "weather"]

    # The practice flight: no clock, said on its card; NEXT ends it.
    settle(page, box)
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "flight")
    expect(page.locator("#timer-stage")).to_have_text("Practice flight: no clock")
    expect(page.locator("#timer-state")).to_have_text("No time limit")
    # Its clock counts up on the page (issue #35: a clock stuck at 0:01 looked frozen).
    expect(page.locator("#timer-digits")).to_have_text("0:02", timeout=5_000)
    expect(page.locator("#timer-say")).to_contain_text("Practice flight, no clock")
    expect(page.locator("#timer-primary")).to_have_text("End flight")
    expect(page.locator("#timer-pause")).to_be_hidden()
    shoot(page, "timer-practice")
    assert tap(page, "#timer-primary") == "ok"

    # After the flight, the anger lesson; its "More" opens the Rules view's section.
    settle(page, box)
    lesson = box.state()["lesson"]
    assert lesson["id"] == "anger"
    check_lesson_card(page, lesson)
    assert serious_violations(page) == []
    page.locator("#timer-more-link").tap()
    page.wait_for_url("**#rules/anger")
    assert page.errors == []
