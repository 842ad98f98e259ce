"""The composition root: the one place that picks real or fake parts and wires them together.

``--backend pi`` builds gpiozero devices on the Pi's own pin factory chain and the luma
device named by the display config; ``--backend fake`` builds the same gpiozero devices on
``MockFactory`` pins and luma's ``dummy`` device; ``auto`` is ``pi`` on a Raspberry Pi and
``fake`` anywhere else. Hardware libraries are imported only here, lazily, and only for the
chosen backend.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from companion.adapters.journal import Journal
from companion.config import Config
from companion.core.app import App
from companion.core.buttons import Button, GestureTiming
from companion.games.registry import playable_games, scorers
from companion.runtime import Clock, Controller
from companion.testing.recording import RecordingBuzzer

EdgeSink = Callable[[Button, bool], None]


@dataclass
class Hardware:
    """Every device the controller uses, kept referenced (gpiozero stops calling back
    for a collected device) and closed together."""

    pin_factory: Any
    display: Any
    buzzer: Any
    buttons: Any = None
    led: Any = None

    def close(self) -> None:
        for device in (self.buttons, self.led, self.buzzer):
            if device is not None:
                device.close()
        if self.pin_factory is not None:
            self.pin_factory.close()


def resolve_backend(backend: str) -> str:
    if backend != "auto":
        return backend
    from companion.adapters import pi_probe

    return "pi" if pi_probe.is_raspberry_pi() else "fake"


def timing_from(config: Config) -> GestureTiming:
    buttons = config["buttons"]
    return GestureTiming(debounce=buttons["debounce_ms"] / 1000,
                         long_press=buttons["long_press_ms"] / 1000,
                         repeat_interval=buttons["repeat_interval_ms"] / 1000)


def build_hardware(config: Config, backend: str, *, on_edge: EdgeSink,
                   preview: TextIO | None = None, preview_footer: str = "") -> Hardware:
    """The devices for ``backend`` (``pi`` or ``fake``)."""
    from companion.adapters.gpio import GpioButtons, GpioBuzzer, GpioLed, mock_pin_factory
    from companion.adapters.oled import Display, TerminalPreview, dummy_device, real_device

    display_config = config["display"]
    if backend == "fake":
        pin_factory = mock_pin_factory()
        device = dummy_device(display_config["width"], display_config["height"])
    else:
        pin_factory = None  # gpiozero's own chain: lgpio on Bookworm and the Pi 5
        device = real_device({"display": display_config["driver"], **display_config})
    terminal = TerminalPreview(preview, preview_footer) if preview is not None else None
    buttons_config = config["buttons"]
    pins = {button: buttons_config[button.value] for button in Button}
    buzzer_config = config["buzzer"]
    hardware = Hardware(
        pin_factory=pin_factory,
        display=Display(device, terminal),
        buzzer=GpioBuzzer(buzzer_config["pin"], kind=buzzer_config["kind"],
                          pin_factory=pin_factory),
        buttons=GpioButtons(pins, pull_up=buttons_config["pull_up"], pin_factory=pin_factory,
                            on_edge=on_edge),
    )
    if config["led"]["pin"]:
        hardware.led = GpioLed(config["led"]["pin"], pin_factory=pin_factory)
    return hardware


def owner_route_guide(config: Config) -> Any:
    """The owner's Flight Plan route guide named in the config, parsed; None when unset.

    A guide that cannot be read or does not validate stops start-up like any bad config,
    naming the file, the line and the field."""
    name = config["flight_plan"]["guide"]
    if not name:
        return None
    from companion.config import ConfigError
    from companion.games.flight_plan import parse_guide
    from companion.games.scoring import ScoreInputError

    path = Path(name).expanduser()
    try:
        return parse_guide(path.read_text(encoding="utf-8"), str(path))
    except OSError as error:
        raise ConfigError(f"flight_plan.guide = {name!r}: cannot read it: "
                          f"{error.strerror}") from None
    except (ScoreInputError, UnicodeDecodeError) as error:
        raise ConfigError(f"flight_plan.guide: {error}") from None


def build_controller(config: Config, hardware: Hardware, *, clock: Clock, state_dir: Path,
                     rng: random.Random, simulated: bool = False) -> Controller:
    """The controller over ``hardware``, its journal in ``state_dir``."""
    journal = Journal.open_or_in_memory(state_dir)
    buzzer = RecordingBuzzer(hardware.buzzer, clock=clock.monotonic)
    games = playable_games(owner_route_guide(config))
    from companion.adapters.settings import SettingsFile

    controller = Controller(App(games), journal, clock, hardware.display, buzzer,
                            rng=rng, scorers=scorers(), timing=timing_from(config),
                            simulated=simulated, led=hardware.led,
                            settings=SettingsFile(state_dir))
    preview = getattr(hardware.display, "preview", None)
    if preview is not None:
        # The terminal simulator shows each tune by name (and rings the bell for the alarm).
        controller.tunes.listeners.append(preview.tune)
    return controller


def build_web(config: Config, controller: Controller, *, host: str, port: int,
              state_dir: Path) -> Any:
    """The table page's server bound to ``host:port`` (OSError if it cannot be), wired to
    the controller's tunes; its channel joins the loop's channels."""
    from companion.web import history_api
    from companion.web.server import WebSettings
    from companion.web.service import WebService

    web_config = config["web"]
    settings = WebSettings(host=host, port=port, pair_loopback=web_config["pair_loopback"],
                           public_mirror=web_config["public_mirror"])
    service = WebService(settings, state_dir=state_dir, clock=controller.clock.monotonic)
    controller.tunes.listeners.append(service.channel.tune)
    controller.app.phones = True  # the menu offers "Forget phones"
    controller.forget_phones_listeners.append(service.forget)
    # Past games for the page's history tab, read from the journal's file in the server's
    # own thread (see companion/web/history_api.py).
    service.context.routes.append(history_api.route(state_dir, controller.app))
    from companion.adapters.qr import table_page

    # The menu's "Table page" shows the address and its QR code (port 0: the one bound).
    bound_port = service.server.server_address[1]
    try:
        controller.set_table_page(table_page(host, bound_port))
    except ValueError as error:  # a host name too long for a panel-sized code
        logging.getLogger(__name__).warning("no table page in the menu: %s", error)
    return service
