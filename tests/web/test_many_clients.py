"""A page, three phones and the hardware buttons all act on one game without a lost or
doubled action (issue #15): four HTTP clients post lines at once while the test taps the
buttons through gpiozero's mock pins; the journal must hold exactly every action."""

import threading
from collections import Counter

from companion.core.app import Recorded
from companion.core.buttons import Button
from companion.core.game import Press

LINES_PER_CLIENT = 25
TAPS = 20


def tap(box, button):
    """A 0.1 s tap on the fake clock. Each edge is handled before the clock moves on: on the
    box the loop takes an edge within milliseconds, but a test thread racing the fake clock
    ahead would make the loop see the button held for seconds (and UP / DOWN repeat)."""
    pin = box.hardware.pin_factory.pin(box.config["buttons"][button.value])
    pin.drive_low()  # pull-up wiring: low is pressed
    box.state()  # a round trip through the loop: the edge is handled
    box.clock.advance(0.1)  # past the debounce, short of a long press
    pin.drive_high()
    box.state()
    box.clock.advance(0.1)


def test_four_clients_and_the_buttons_lose_and_double_nothing(web_box):
    assert web_box.line("new timer seconds=600").json == {"reply": "ok"}
    replies = []
    failures = []
    start = threading.Barrier(5)

    def client(number):
        try:
            start.wait(timeout=10)
            for index in range(LINES_PER_CLIENT):
                button = "up" if (index + number) % 2 else "down"
                replies.append(web_box.line(f"press {button}").json)
        except Exception as error:  # reported below, with the thread's name
            failures.append(f"client {number}: {error!r}")

    threads = [threading.Thread(target=client, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    start.wait(timeout=10)
    for index in range(TAPS):
        tap(web_box, Button.DOWN if index % 2 else Button.UP)
    for thread in threads:
        thread.join(timeout=60)
    assert not failures
    assert replies == [{"reply": "ok"}] * (4 * LINES_PER_CLIENT)

    web_box.state()  # every edge posted before this round trip has been handled
    stored = web_box.controller.journal.current()
    presses = Counter(recorded.action.button for recorded in stored.history
                      if isinstance(recorded, Recorded) and isinstance(recorded.action, Press))
    web_ups = sum(1 for number in range(4) for index in range(LINES_PER_CLIENT)
                  if (index + number) % 2)
    assert presses == Counter({Button.UP: web_ups + TAPS // 2,
                               Button.DOWN: 4 * LINES_PER_CLIENT - web_ups + TAPS // 2})
    assert len(stored.history) == 4 * LINES_PER_CLIENT + TAPS
