"""The Timer view runs a whole Now Boarding v3 game (the 2015 prototype) from a propped-up
phone (issue #20, items 2 and 3).

Debian's Chromium, driven by Playwright, as a touch phone in portrait (360 x 740), against a
real `companion run --web` process playing a timed 3-player v3 game (the advanced variant,
15 s Departures: the first runs out by itself; the others, paused and ended by the test, keep
time to spare while it reads the page on a loaded machine). The Timer view alone (its big
button, pause, UP / DOWN) plays every day to the score entry and the final score. On every
screen the view fits the phone, its big button says what the model says NEXT does now, and
the step card shows the model's whole sentence; outside a running Departure it never says
"TIME UP" or "0:00"; the Departure's end and each score pile are confirmed in words. The step
cards of Flight Plan, Planes and Overbooked entry fit the same phone's Timer view, scene by
scene.
"""

import pytest
from playwright.sync_api import expect

from tests.web.page_support import PORTRAIT, fits, no_time_up, settle, tap, tap_until

GAMES = {"timed": "new now-boarding-v3 players=3 variant=advanced timer=15",
         "untimed": "new now-boarding-v3 players=3"}
"""A timed game (the advanced variant, 15 s Departures) and an untimed one (basic). A Departure
the test ends runs while the test reads the page: its time must outlast that on a loaded
machine, or it runs out under the test's feet."""


@pytest.mark.parametrize("kind", list(GAMES))
# a whole game by tapping in Chromium
@pytest.mark.timeout(900)
def test_timer_view_plays_a_whole_v3_game(running_box, phone, shoot, kind):
    page = phone(PORTRAIT)
    box = running_box
    assert box.line(GAMES[kind]) == "ok"
    timed = kind == "timed"
    seen = set()
    ran_out = paused = lost = entered = False
    taps = 0
    while (state := box.state())["phase"] != "over":
        taps += 1
        assert taps < 300, "the game does not end"
        screen = settle(page, box)
        step, timer = state["step"], state["timer"]["state"]
        if step not in seen:
            seen.add(step)
            if timed:  # docs/screens keeps one set
                shoot(page, f"timer-v3-{kind}-{step}")
        fits(page)
        mode = page.locator("#view-timer").get_attribute("data-mode")
        # The big button says what NEXT does now, in the model's words, and the step's whole
        # sentence is on the page.
        expect(page.locator("#timer-primary")).to_have_text(screen["keys"]["next"])
        expect(page.locator("#timer-say")).to_have_text(screen["say"])
        if step != "departure":  # only the Departure is a flight, whatever its clock says
            assert mode in ("between", "over"), (step, mode)
        if mode != "flight":
            # A calm card: no digits, no "TIME UP".
            expect(page.locator("#timer-card")).to_be_visible()
            no_time_up(page)
        if not timed:
            assert mode == "between", (step, mode)
        if step == "departure" and timer == "idle" and timed:
            expect(page.locator("#view-timer")).to_have_attribute("data-mode", "ready")
            assert tap(page, "#timer-primary") == "ok"  # start the timer
            expect(page.locator("#view-timer")).to_have_attribute("data-mode", "flight")
            if not ran_out:  # the first Departure runs out by itself
                expect(page.locator("#timer-stage")).to_have_text(
                    "Day 1, round 1: Arrival", timeout=30_000)
                expect(page.locator("#timer-done")).to_have_text(
                    "The Departure's time ran out.")
                ran_out = True
            continue
        if step == "departure" and timer == "running" and not paused:
            expect(page.locator("#timer-pause")).to_have_text("Pause")
            assert tap(page, "#timer-pause") == "ok"
            expect(page.locator("#timer-state")).to_have_text("Paused")
            expect(page.locator("#timer-pause")).to_have_text("Resume")
            assert tap(page, "#timer-pause") == "ok"
            paused = True
            continue
        if step == "arrival" and state["day"] == 2 and not lost:
            expect(page.locator("#timer-up")).to_have_text("One more lost passenger")
            assert tap(page, "#timer-up") == "ok"
            expect(page.locator("#timer-say")).to_contain_text("The Lost pile holds 1")
            expect(page.locator("#timer-down")).to_have_text("One fewer lost passenger")
            lost = True
            continue
        if step == "entry" and state["entry"]["draft"] < 4:
            expect(page.locator("#timer-up")).to_have_text("One more")
            assert tap(page, "#timer-up") == "ok"
            continue
        if step == "entry":
            name = state["entry"]["name"]
            expect(page.locator("#timer-primary")).to_have_text(f"{name} scored 4")
            assert tap(page, "#timer-primary") == "ok"
            if name == "P1":
                expect(page.locator("#timer-done")).to_have_text("P1's score pile: 4.")
                entered = True
            continue
        assert tap(page, "#timer-primary") == "ok"
    assert lost and entered
    assert (ran_out, paused) == (timed, timed)
    assert {"setup", "departure", "arrival", "purchase", "redeye-lost", "final-purchase",
            "shuffle-score-piles", "new-city", "game-over", "entry"} <= seen

    settle(page, box)
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "over")
    expect(page.locator("#timer-score")).to_contain_text("Final score 4")
    expect(page.locator("#timer-stage")).to_have_text("Game over: final score 4")
    expect(page.locator("#timer-primary")).to_have_text("Menu")
    no_time_up(page)
    fits(page)
    shoot(page, f"timer-v3-{kind}-over")
    assert page.errors == []


def test_the_timer_view_is_calm_after_a_v3_departure(running_box, phone):
    """After a timed Departure the Arrival is a calm card: no digits, no "Time is up"."""
    page = phone(PORTRAIT)
    box = running_box
    assert box.line(GAMES["timed"]) == "ok"
    tap_until(page, box, "arrival")  # setup, start the timer, end the Departure
    expect(page.locator("#timer-stage")).to_have_text("Day 1, round 1: Arrival")
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "between")
    expect(page.locator("#timer-card")).to_be_visible()
    no_time_up(page)


def test_the_other_games_step_cards_fit_the_timer_view(running_box, phone, shoot):
    """Every scene of Flight Plan, Planes and Overbooked entry (the views' own SCENES): the
    step card fits a 360 x 740 phone's Timer view, and the big button says the model's NEXT
    (or, where the box would refuse NEXT, the first gesture the model labels)."""
    from companion.ui.views import flight_plan, overbooked, planes

    page = phone(PORTRAIT)
    box = running_box
    scenes = {**flight_plan.SCENES, **planes.SCENES, **overbooked.SCENES}
    too_big = []
    for name, lines in sorted(scenes.items()):
        for line in lines:
            box.line(line)
        screen = settle(page, box)
        primary = page.locator("#timer-primary")
        if "next" in screen["keys"]:
            expect(primary).to_have_text(screen["keys"]["next"])
        elif screen["keys"]:  # NEXT would be refused here: the big button never offers it
            gesture = primary.get_attribute("data-gesture")
            assert gesture in screen["keys"], (name, gesture, screen["keys"])
            expect(primary).to_have_text(screen["keys"][gesture])
        cut = page.evaluate("""() => {
            const main = document.querySelector('.timer-main');
            return main.scrollHeight - main.clientHeight;
        }""")
        if cut > 1:
            too_big.append((name, cut))
            shoot(page, f"timer-cut-{name}")
    assert too_big == []
    assert all(cut < 30 for _, cut in too_big), too_big
    assert page.errors == []
