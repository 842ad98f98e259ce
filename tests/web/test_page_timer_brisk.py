"""``pace=brisk`` on the Timer view (issue #26, item 3): a round in at most three taps.

A propped-up phone at 360 x 740 runs a brisk game with the timer off: end the flight, then
"Done: start the flight" on the one maintenance card, which shows every chore of the round and
the coach; a complaint set on the card with the "+" button is filed by the same "done".
"""

from playwright.sync_api import expect

from tests.web.page_support import PORTRAIT, settle, tap, tap_until


def test_a_brisk_round_takes_two_taps_on_the_timer_view(running_box, phone, shoot):
    box = running_box
    assert box.line("new now-boarding players=3 pace=brisk timer=off") == "ok"
    page = phone(PORTRAIT)
    tap_until(page, box, "flight")  # setup, the first draw and weather, round 1
    rounds_tapped = []
    for _ in range(3):
        start = box.state()["round"]
        taps = 0
        while box.state()["step"] != "flight" or box.state()["round"] == start:
            settle(page, box)
            if box.state()["step"] == "turnaround" and start == 2:
                expect(page.locator("#timer-primary")).to_have_text("Done: start the flight")
                expect(page.locator("#box-say")).to_contain_text("Draw ")
                shoot(page, "timer-brisk-card")
                if not box.state()["pending"]:
                    assert tap(page, "#timer-up") == "ok"  # one complaint, on the card
                    settle(page, box)
                    expect(page.locator("#box-say")).to_contain_text("this round: 1")
                    taps += 1
            assert tap(page, "#timer-primary") == "ok"
            taps += 1
        rounds_tapped.append(taps)
    assert rounds_tapped == [2, 3, 2]  # round 2 had the complaint: one tap more
    assert box.state()["complaints"] == 1
    assert not page.errors
