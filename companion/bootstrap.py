"""The composition root: the one place that picks real or fake parts and wires them together.

``--backend pi`` builds gpiozero devices on the Pi's own pin factory chain and the luma
device named by the display config; ``--backend fake`` builds the same gpiozero devices on
``MockFactory`` pins and luma's ``dummy`` device; ``auto`` is ``pi`` on a Raspberry Pi and
``fake`` anywhere else. Hardware libraries are imported only here, lazily, and only for the
chosen backend.

:func:`build_box` assembles the whole box: hardware -> the edges' way to the loop, the
controller, the channels (serial line, table page), the notifier, the keyboard, the clock.
``companion run``, ``companion simulate``, the bench and the tests all build it here; a
:class:`Box` runs with the signals (``run``) or without them on any thread
(``run_without_signals``), and closes everything it built. No test fake is wired here:
whoever wants to watch a part (the bench, a test) wraps it through ``instrument``.
"""

from __future__ import annotations

import errno
import io
import logging
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal, TextIO

from companion.adapters.journal import Journal
from companion.config import Config
from companion.core.app import App
from companion.core.buttons import Button, GestureTiming
from companion.core.idle import IdlePolicy
from companion.exits import UsageError
from companion.games.registry import playable_games, scorers
from companion.runtime import Clock, Controller, EventLoop, LineSource, Notifier

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
    shutdown: Any = None  # the shutdown button when the companion watches it

    def close(self) -> None:
        for device in (self.buttons, self.led, self.shutdown, self.buzzer):
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
    if config["led"]["pin"] and config["led"]["shows"] == "countdown":
        # "power-off": the kernel's gpio-poweroff overlay owns the pin, never the companion.
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


JournalOpener = Callable[[Path], Journal]


def build_controller(config: Config, hardware: Hardware, *, clock: Clock, state_dir: Path,
                     rng: random.Random, simulated: bool = False,
                     journal_opener: JournalOpener = Journal.open_or_in_memory) -> Controller:
    """The controller over ``hardware``, its journal in ``state_dir`` (opened by
    ``journal_opener``: the bench's modelled SD card and the tests' held write replace it)."""
    journal = journal_opener(state_dir)
    games = playable_games(owner_route_guide(config))
    from companion.adapters.settings import SettingsFile

    display = config["display"]  # idle dimming: never in simulate (its clock jumps)
    idle = None if simulated else IdlePolicy(display["dim_after_s"], display["saver_after_s"])
    controller = Controller(App(games), journal, clock, hardware.display, hardware.buzzer,
                            rng=rng, scorers=scorers(), timing=timing_from(config),
                            simulated=simulated, led=hardware.led,
                            settings=SettingsFile(state_dir), idle=idle,
                            sounder=config["buzzer"]["sounder"])
    preview = getattr(hardware.display, "preview", None)
    if preview is not None:
        # The terminal simulator shows each tune by name (and rings the bell for the alarm).
        controller.tunes.listeners.append(preview.tune)
    return controller


def build_web(config: Config, controller: Controller, *, host: str, port: int,
              state_dir: Path) -> Any:
    """The table page's server bound to ``host:port`` (OSError if it cannot be), wired to
    the controller's tunes; its channel joins the loop's channels."""
    from companion.adapters.qr import qr_matrix
    from companion.adapters.token_file import TokenFile
    from companion.web import history_api
    from companion.web.policy import WebSettings
    from companion.web.service import WebService

    web_config = config["web"]
    settings = WebSettings(host=host, port=port, pair_loopback=web_config["pair_loopback"],
                           public_mirror=web_config["public_mirror"])
    # Past games for the page's history tab, read from the journal's file in the server's
    # own thread (see companion/web/history_api.py): a read-only view opened per request.
    service = WebService(settings, clock=controller.clock.monotonic,
                         tokens=TokenFile(state_dir),
                         history=history_api.route(partial(Journal.reader, state_dir),
                                                   controller.app, qr_matrix))
    controller.tunes.listeners.append(service.channel.tune)
    controller.app.phones = True  # the menu offers "Forget phones"
    controller.forget_phones_listeners.append(service.forget)
    from companion.adapters.qr import table_page

    # The menu's "Table page" shows the address and its QR code (port 0: the one bound).
    bound_port = service.server.server_address[1]
    try:
        controller.set_table_page(table_page(host, bound_port))
    except ValueError as error:  # a host name too long for a panel-sized code
        logging.getLogger(__name__).warning("no table page in the menu: %s", error)
    return service


class EdgeRelay:
    """Where the buttons' edges go. gpiozero calls back from the moment a button exists,
    which is before the loop (or the controller) it feeds; the relay is built first and
    pointed at its target once that exists (edges before that are dropped, as no game
    could have seen them). The one late binding in the house, kept here."""

    def __init__(self) -> None:
        self.target: EdgeSink | None = None

    def forward(self, button: Button, pressed: bool) -> None:
        """The buttons' callback (a plain method: gpiozero inspects its callbacks)."""
        if self.target is not None:
            self.target(button, pressed)


@dataclass(frozen=True)
class WebAddress:
    """Where the table page listens, and which setting asked for it (for messages)."""

    host: str
    port: int
    source: str = "--web"
    #: No port was named (the default page, ``--web`` alone): a busy one falls back to a
    #: free port rather than stopping start-up.
    any_port: bool = False


Drive = Literal["loop", "inline"]


@dataclass
class Box:
    """The assembled box (see :func:`build_box`)."""

    hardware: Hardware
    controller: Controller
    loop: EventLoop | None
    channels: list[LineSource] = field(default_factory=list)
    web: Any = None
    keyboard: Any = None
    serial_path: str | None = None
    _closed: bool = False

    def _the_loop(self) -> EventLoop:
        if self.loop is None:
            raise RuntimeError("this box was built to be driven inline: it has no loop")
        return self.loop

    def run(self) -> int:
        """The loop on the main thread until SIGTERM / SIGINT; then everything is closed."""
        try:
            if self.keyboard is not None:
                self.keyboard.start()
            return self._the_loop().run()
        finally:
            self.close()

    def run_without_signals(self) -> int:
        """The loop on the calling thread (any thread) until ``box.loop.stop()``; the
        caller closes the box (tests, the bench). ``box.loop.ready`` tells other threads
        when it accepts input."""
        return self._the_loop().run_without_signals()

    def close(self) -> None:
        """Close everything built (idempotent): the keyboard, the table page, the terminal
        preview, the journal (checkpointed: after a clean stop no game lives only in the -wal
        file), the devices, the loop's pipe."""
        if self._closed:
            return
        self._closed = True
        if self.keyboard is not None:
            self.keyboard.close()
        if self.web is not None:  # the loop closed its channel if it ran; a box that never
            self.web.stop()       # ran still holds the listening socket
        preview = getattr(self.hardware.display, "preview", None)
        if preview is not None:
            preview.close()
        self.controller.journal.close()
        self.hardware.close()
        if self.loop is not None:
            self.loop.close()


def build_box(config: Config, *, backend: str, clock: Clock, state_dir: Path,
              rng: random.Random, drive: Drive = "loop", simulated: bool = False,
              out: TextIO | None = None, serial: bool = False, web: WebAddress | None = None,
              interactive: bool = False, notifier: Notifier | None = None,
              instrument: Callable[[Hardware], None] | None = None,
              journal_opener: JournalOpener = Journal.open_or_in_memory) -> Box:
    """The whole box on ``backend`` (``pi`` or ``fake``).

    ``drive="loop"``: button edges go to an event loop (``out`` gets its ``ready`` line);
    ``"inline"``: no loop, edges go straight to the controller on the caller's thread (mock
    pins call back inline): ``companion simulate`` and tests that drive the controller.
    ``serial`` opens the config's serial line as a channel (``box.serial_path`` is a pty's
    path); ``web`` serves the table page (UsageError if it cannot listen); ``interactive``
    draws the display in the terminal on ``out`` and takes keys as buttons.
    ``instrument(hardware)`` may wrap parts (record tones, time frames) before the
    controller is built over them; ``journal_opener`` opens the journal in ``state_dir``
    (the bench and the tests put a modelled card or a held write under it)."""
    relay = EdgeRelay()
    preview_out = out if interactive else None
    footer = ""
    if interactive:
        from companion.adapters.terminal import KEY_HELP

        footer = KEY_HELP
    hardware = build_hardware(config, backend, on_edge=relay.forward, preview=preview_out,
                              preview_footer=footer)
    if instrument is not None:
        instrument(hardware)
    controller = build_controller(config, hardware, clock=clock, state_dir=state_dir, rng=rng,
                                  simulated=simulated, journal_opener=journal_opener)
    if drive == "inline":
        relay.target = controller.edge
        return Box(hardware, controller, None)
    box = Box(hardware, controller, None)
    if serial:
        _add_serial(box, config)
    if web is not None:
        box.web = _serve_web(config, controller, web, state_dir)
        box.channels.append(box.web.channel)
    loop = EventLoop(controller, out=out if out is not None else io.StringIO(),
                     channels=box.channels, notifier=notifier)
    box.loop = loop
    relay.target = loop.post_edge
    from companion.adapters.power import power_off

    # The menu's "Power off": systemctl poweroff on a Pi, a clean stop on the fake backend.
    switch_off = partial(power_off, pi=backend == "pi", stop=loop.stop, out=loop.out)
    controller.power_off_listeners.append(switch_off)
    shutdown = config["shutdown"]
    if shutdown["handler"] == "companion" and shutdown["pin"]:
        # No gpio-shutdown overlay (the Debian card): the same path as the menu's, held.
        from companion.adapters.gpio import ShutdownButton

        box.hardware.shutdown = ShutdownButton(
            shutdown["pin"], pin_factory=box.hardware.pin_factory,
            hold_s=shutdown["hold_ms"] / 1000, on_held=switch_off)
    if interactive:
        from companion.adapters.terminal import Keyboard

        box.keyboard = Keyboard(sys.stdin.fileno(), loop.post_gesture, loop.stop)
    return box


def _add_serial(box: Box, config: Config) -> None:
    """The config's serial line as a channel; a device missing at start (or vanishing) is
    reopened with backoff (a pty cannot be); ``none`` adds nothing."""
    from companion.adapters.serial_link import PtyLink, open_device, open_link
    from companion.runtime import SerialChannel

    serial_url, baudrate = config["serial"]["url"], config["serial"]["baudrate"]
    try:
        link = open_link(serial_url, baudrate)
    except OSError as error:
        # A serial adapter not plugged in yet: play on, and keep trying to open it.
        logging.getLogger("companion").error("serial line %s: %s; retrying", serial_url, error)
        link = None
    if isinstance(link, PtyLink):
        box.serial_path = link.peer_path
        preview = getattr(box.hardware.display, "preview", None)
        if preview is not None:
            # The serial= line scrolls away; the simulator's status line keeps the path.
            preview.show_serial(link.peer_path)
    if serial_url != "none":
        reopen = None if serial_url == "pty" else partial(open_device, serial_url, baudrate)
        box.channels.append(SerialChannel(link, reopen=reopen))


def _serve_web(config: Config, controller: Controller, web: WebAddress, state_dir: Path) -> Any:
    """The page's server on ``web``; where no port was named, a busy one gives way to a free
    port (the kernel's choice) instead of stopping the box."""
    try:
        try:
            return build_web(config, controller, host=web.host, port=web.port,
                             state_dir=state_dir)
        except OSError as error:
            if not web.any_port or error.errno != errno.EADDRINUSE:
                raise
            logging.getLogger(__name__).info("port %d is busy: the page takes a free one",
                                             web.port)
            return build_web(config, controller, host=web.host, port=0, state_dir=state_dir)
    except OSError as error:
        raise UsageError(f"{web.source}: cannot listen on {web.host}:{web.port}: "
                         f"{error.strerror or error}") from None


def simulation_box(config: Config, state_dir: Path, seed: int) -> Box:
    """The box ``companion simulate`` drives: fake parts, a fake clock that moves only on
    ``wait``, no event loop (the lines drive the controller inline, one reply each)."""
    from companion.testing.clock import FakeClock

    return build_box(config, backend="fake", clock=FakeClock(), state_dir=state_dir,
                     rng=random.Random(seed), drive="inline", simulated=True)
