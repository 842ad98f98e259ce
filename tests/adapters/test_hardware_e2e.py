"""End to end through gpiozero's MockFactory and luma's dummy display (the fake backend)."""

import random

import pytest
from PIL import Image

from companion import config as config_module
from companion.bootstrap import build_box
from companion.testing.clock import FakeClock
from companion.testing.recording import RecordingBuzzer


@pytest.fixture
def box(tmp_path):
    """A controller on the fake backend, buttons wired to it inline (mock pins call back
    on the caller's thread), its buzzer recorded, and its fake clock."""
    config = config_module.defaults()
    # The piezo's tunes, whose frequencies the buzzer test spells out (the default sounder is
    # the speaker; each sounder's tunes reaching the pin is tests/runtime/test_sound.py's).
    config["buzzer"]["sounder"] = "piezo"
    clock = FakeClock()

    def record_tones(hardware):
        hardware.buzzer = RecordingBuzzer(hardware.buzzer, clock=clock.monotonic)

    built = build_box(config, backend="fake", clock=clock, state_dir=tmp_path,
                      rng=random.Random(1), drive="inline", simulated=True,
                      instrument=record_tones)
    # The controller plays through the recorder; the hardware keeps its own device.
    built.hardware.buzzer = built.controller.buzzer.inner
    yield built.controller, built.hardware, clock, config
    built.close()


def pin(hardware, number):
    return hardware.pin_factory.pin(number)


def tap(hardware, clock, number, held=0.1):
    pin(hardware, number).drive_low()   # pull-up wiring: low is pressed
    clock.advance(held)
    pin(hardware, number).drive_high()


def frame_bytes(device):
    return device.image.tobytes() if hasattr(device, "image") else None


def test_e2e_next_pin_starts_the_timer_and_a_new_frame_appears(box):
    controller, hardware, clock, config = box
    assert controller.command_line("new timer seconds=12") == "ok"
    controller.refresh()
    device = hardware.display.device
    before = hardware.display.frames_sent
    idle_frame = frame_bytes(device)

    tap(hardware, clock, config["buttons"]["next"])

    state = controller.app.to_json(controller.state, controller.now())
    assert state["timer"]["state"] == "running"
    assert hardware.display.frames_sent > before
    assert frame_bytes(device) != idle_frame
    assert isinstance(hardware.display.last_frame, Image.Image)


def test_e2e_passive_buzzer_plays_the_warning_tones(box):
    controller, hardware, clock, config = box
    controller.command_line("new timer seconds=12")
    tap(hardware, clock, config["buttons"]["next"])
    started = controller.now()
    buzzer_pin = pin(hardware, config["buzzer"]["pin"])

    controller.advance(2.0 - (controller.now() - started))  # exactly the 10 s mark
    assert buzzer_pin.frequency == pytest.approx(3136.0)  # warning-10: its own tune
    controller.advance(12.0 - (controller.now() - started))  # to the alarm

    recorded = controller.buzzer.frequencies
    # a click for new, the flight-start tune, then each mark's own tune (10 s: one beep, 5 s:
    # two, 3 s: three, 2 s: two higher, 1 s: one highest), the alarm.
    assert recorded == pytest.approx(
        [2637.0, 1047.0, 1568.0, 3136.0, 3520.0, 3520.0, 3951.0, 3951.0, 3951.0,
         4186.0, 4186.0, 4435.0, 4000.0])
    assert controller.played[-1] == "alarm"


def test_e2e_holding_next_on_the_pin_pauses_the_timer(box):
    controller, hardware, clock, config = box
    controller.command_line("new timer seconds=30")
    tap(hardware, clock, config["buttons"]["next"])
    next_pin = pin(hardware, config["buttons"]["next"])
    next_pin.drive_low()
    controller.advance(1.0)  # the long press fires at 0.8 s while held
    next_pin.drive_high()
    state = controller.app.to_json(controller.state, controller.now())
    assert state["timer"]["state"] == "paused"


def test_e2e_bouncing_contacts_give_one_press(box):
    controller, hardware, clock, config = box
    controller.command_line("new timer seconds=30")
    next_pin = pin(hardware, config["buttons"]["next"])
    for index in range(10):  # ten edges within 5 ms
        (next_pin.drive_low if index % 2 == 0 else next_pin.drive_high)()
        clock.advance(0.0005)
    controller.advance(1.0)
    assert controller.app.to_json(controller.state, controller.now())["rounds"] == 1


def test_e2e_passive_buzzer_volume_is_the_pwm_duty_of_its_tones(box):
    _, hardware, _, config = box
    buzzer_pin = pin(hardware, config["buzzer"]["pin"])
    assert hardware.buzzer.duty == 0.12  # the default volume, 3 of 5, applied at start-up
    hardware.buzzer.tone(1760.0)
    assert buzzer_pin.frequency == pytest.approx(1760.0)
    assert buzzer_pin.state == pytest.approx(0.12)
    hardware.buzzer.set_volume(0.5)  # louder while the note sounds: at once
    assert buzzer_pin.state == pytest.approx(0.5)
    hardware.buzzer.tone(None)
    assert buzzer_pin.state == 0
    with pytest.raises(ValueError, match="duty"):
        hardware.buzzer.set_volume(0.0)


def test_e2e_up_down_pins_together_mute_and_the_file_remembers(box, tmp_path):
    controller, hardware, clock, config = box
    up, down = pin(hardware, config["buttons"]["up"]), pin(hardware, config["buttons"]["down"])
    up.drive_low()
    clock.advance(0.05)
    down.drive_low()
    clock.advance(0.3)
    up.drive_high()
    down.drive_high()
    body = controller.app.to_json(controller.state, controller.now())
    assert body["sound"]["muted"] is True and body["menu"]["cursor"] == 0
    assert (tmp_path / "settings.json").read_text() == '{"volume": 3, "muted": true}\n'
