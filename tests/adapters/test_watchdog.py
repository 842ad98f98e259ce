"""The event loop pings systemd's watchdog itself, as often as asked and no more."""

import io
import threading

from companion.core.buttons import Button
from companion.runtime import EventLoop
from companion.testing.clock import FakeClock
from companion.testing.simulated import simulated_controller


class CountingNotifier:
    def __init__(self, interval):
        self.interval = interval
        self.pings = 0

    def ready(self):
        pass

    def watchdog(self):
        self.pings += 1

    def stopping(self):
        pass

    def watchdog_interval(self):
        return self.interval


def run_loop(loop):
    runner = threading.Thread(target=loop.run_without_signals)
    runner.start()
    runner.join(timeout=10)
    assert not runner.is_alive()


def test_watchdog_is_pinged_when_due_not_on_every_pass(tmp_path):
    clock = FakeClock()
    controller = simulated_controller(tmp_path, clock=clock)
    controller.command_line("new timer seconds=30")
    notifier = CountingNotifier(interval=10.0)
    loop = EventLoop(controller, out=io.StringIO(), notifier=notifier)
    # Three passes of the loop at the same instant: one ping.
    loop.post_gesture("press", Button.UP)
    loop.post_gesture("press", Button.UP)
    loop.stop("test")
    run_loop(loop)
    assert notifier.pings == 1
    # Both presses were handled: 30 -> 35 -> 40 seconds.
    assert controller.app.to_json(controller.state, 0.0)["timer"]["duration"] == 40.0

    clock.advance(10.0)  # the next ping is due
    loop.stop("test")
    run_loop(loop)
    assert notifier.pings == 2
