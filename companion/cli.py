"""The ``companion`` command line (CONTRACT.md section 1): argument parsing only.

Exit status: 0 success, 1 a failed check or game action, 2 bad usage or a bad input file
(with a one-line message that names the file, field or line).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion import __version__
from companion.config import Config, ConfigError
from companion.config import load as load_config
from companion.exits import EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`companion score --help | head`): end quietly, as other
        # command-line tools do, whether the help, a parse error or a command was writing.
        return _closed_pipe()
    except SystemExit as leaving:
        # argparse's --help, --version and usage errors exit here, and Python would flush
        # standard output once more on the way out: flush it now, while a closed pipe can
        # still end quietly.
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            return _closed_pipe()
        raise leaving from None


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        status = int(args.handler(args))
        sys.stdout.flush()  # a full disk or closed pipe shows here, not after main returns
        return status
    except (UsageError, ConfigError) as error:
        print(f"companion {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        raise
    except OSError as error:
        return _failed_output(args.command, error)


def _quiet_stdout() -> None:
    """Point standard output at /dev/null: Python flushes it again at exit, which would fail
    again with a traceback (the recipe of Python's signal documentation)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _closed_pipe() -> int:
    """Exit 1, saying nothing: whoever read the output has all they wanted of it."""
    _quiet_stdout()
    return EXIT_FAILED


def _failed_output(command: str, error: OSError) -> int:
    """Exit 1 with one line for a file or stream that failed (a full disk...)."""
    if error.errno == errno.ENOSPC:
        _quiet_stdout()
    what = error.strerror or str(error)
    where = f"{error.filename}: " if error.filename else "output: "
    with contextlib.suppress(OSError):
        print(f"companion {command}: {where}{what}", file=sys.stderr)
    return EXIT_FAILED


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The table companion: Now Boarding's flight timer and bookkeeping, "
                    "and scoring for four more airline games.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = commands.add_parser(
        "run", help="run the box (simulated hardware off a Pi)",
        description="Run the companion. With the fake backend in a terminal, the display is "
                    "drawn in the terminal and keys act as the buttons; off a Pi the table "
                    "page is served on this computer too (127.0.0.1, web=<url>; --no-web "
                    "leaves it out).")
    run.add_argument("--backend", choices=("auto", "pi", "fake"), default="auto",
                     help="pi: real GPIO and display; fake: simulated; auto (default): pi "
                          "when a Raspberry Pi GPIO chip is present, else fake")
    _common_options(run)
    run.add_argument("--serial", metavar="URL|pty|none",
                     help="the serial line: a device, a pyserial URL, 'pty' (prints "
                          "serial=<path>) or 'none' (default: from the config)")
    page = run.add_mutually_exclusive_group()
    page.add_argument("--web", nargs="?", const="", metavar="[HOST:]PORT",
                      help="serve the table page (docs/web.md) and print web=<url>; alone: "
                           "127.0.0.1:8080 with the fake backend, 0.0.0.0:8080 on a Pi (a busy "
                           "8080: a free port) (default: [web] listen in the config; if unset, "
                           "on at 127.0.0.1 with the fake backend, off on a Pi)")
    page.add_argument("--no-web", action="store_true",
                      help="no table page, even where it would be on by default")
    display = run.add_argument_group("display (luma.oled's own option names)")
    display.add_argument("--display", help="the panel driver: ssd1309 (2.42 in), sh1106 (1.3 in), "
                         "ssd1306 (0.96 in), or another luma.oled driver")
    display.add_argument("--interface", choices=("i2c", "spi"))
    display.add_argument("--i2c-port", type=int)
    display.add_argument("--i2c-address", help="e.g. 0x3C")
    display.add_argument("--width", type=int)
    display.add_argument("--height", type=int)
    display.add_argument("--rotate", type=int, choices=(0, 1, 2, 3))
    run.set_defaults(handler=_run)

    simulate = commands.add_parser(
        "simulate", help="run protocol lines against simulated hardware and a fake clock",
        description="Reads protocol lines from SCRIPT (or standard input) and writes one "
                    "reply line per command. The fake clock moves only on 'wait'.")
    simulate.add_argument("script", nargs="?", help="a file of protocol lines")
    _common_options(simulate)
    simulate.add_argument("--seed", type=int, default=1,
                          help="seed for games started without one (default 1)")
    simulate.set_defaults(handler=_simulate)

    render = commands.add_parser("render", help="write PNG images of the screens",
                                 description="Writes one PNG per screen scene.")
    render.add_argument("scenes", nargs="*", help="scene names (default: all)")
    render.add_argument("--out", default="screens", help="folder for the PNGs (./screens)")
    render.add_argument("--scale", type=int, default=1, help="pixel scale (default 1)")
    render.add_argument("--list", action="store_true", help="list the scenes and stop")
    render.set_defaults(handler=_render)

    score = commands.add_parser(
        "score", help="score a finished game from a JSON or TOML file", add_help=False,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Scores a finished game (CONTRACT.md section 4).")
    score.add_argument("-h", "--help", action=_ScoreHelp, nargs=0,
                       help="show this help, with the input format of GAME (or every game)")
    score.add_argument("game", help="now-boarding, now-boarding-v3, overbooked, planes, "
                                    "flight-plan")
    score.add_argument("file", nargs="?", default="-", help="a .json or .toml file, or - "
                                                            "for JSON on standard input")
    score.add_argument("--json", action="store_true", help="print one JSON object")
    score.add_argument("--example", action="store_true",
                       help="print a valid example input for GAME and stop")
    score.set_defaults(handler=_score, usage=score.format_usage())

    bench = commands.add_parser(
        "bench", help="measure timing, display bus, CPU, memory and start-up against targets",
        description="The performance bench (CONTRACT.md section 5). Exits 0 when it ran, "
                    "whether or not each target was met; 1 if the bench itself broke.")
    from companion.bench import add_arguments as bench_arguments

    bench_arguments(bench)
    bench.set_defaults(handler=_bench)

    history = commands.add_parser(
        "history", help="past games, newest first; --export writes JSON, CSV and a chart",
        description="Lists the games in the journal, newest first.")
    _common_options(history)
    history.add_argument("--export", type=Path, metavar="DIR",
                         help="write each game as JSON and CSV and a PNG chart into DIR")
    history.set_defaults(handler=_history)

    doctor = commands.add_parser(
        "doctor", help="check the display, GPIO, buzzer, serial port and config on a Pi",
        description="On a Raspberry Pi: checks each part and says what to fix. Off a Pi: "
                    "says what it would check and exits 0.")
    doctor.add_argument("--config", type=Path, help="the config file to check "
                                                    "(default: /etc/companion/companion.toml)")
    doctor.add_argument("--report", type=Path, metavar="FILE", nargs="?", const=_DEFAULT_REPORT,
                        help="after a build: also show a test picture on the panel, test each "
                             "button (it asks for each press), the buzzer and the LED (a "
                             "running service is stopped for them and started again: run it "
                             "with sudo), run the short bench, and write it all with the "
                             "board, OS, Python and kernel into FILE, to attach when you report "
                             "how the build went (default: companion-report.md on the SD "
                             "card's boot partition, which any computer reads)")
    doctor.add_argument("--backend", choices=("pi", "fake"), default="pi",
                        help="with --report: the pins to test (fake: gpiozero's mock pins)")
    doctor.set_defaults(handler=_doctor)
    return parser


def _common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="a TOML config file "
                                                    "(default: /etc/companion/companion.toml)")
    parser.add_argument("--state-dir", type=Path, help="where the journal lives")


# -- run -------------------------------------------------------------------------------------


def _run(args: argparse.Namespace) -> int:
    from companion.adapters.last_run import LastRunFile, ready_status

    config = _config_with_flags(args)
    state_dir = _state_dir(args, config)
    # How this run ends goes into the state dir, for the next start's STATUS= and the doctor.
    record = LastRunFile(state_dir)
    previous = record.begin()
    try:
        status = _run_box(args, config, state_dir, ready_status(previous))
    except Exception as error:
        record.crashed(error)  # one line there; the traceback still goes to the log
        raise
    except BaseException:  # Ctrl-C before the loop took the signals: stopped, not crashed
        record.stopped()
        raise
    record.stopped()
    return status


def _run_box(args: argparse.Namespace, config: Config, state_dir: Path,
             ready_status: str) -> int:
    from companion.run_command import run_box

    return run_box(args, config, state_dir, ready_status)


def _config_with_flags(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    display = config["display"]
    for flag, key in (("display", "driver"), ("interface", "interface"),
                      ("i2c_port", "i2c_port"), ("width", "width"), ("height", "height"),
                      ("rotate", "rotate")):
        value = getattr(args, flag, None)
        if value is not None:
            display[key] = value
    if getattr(args, "i2c_address", None) is not None:
        try:
            display["i2c_address"] = int(args.i2c_address, 0)
        except ValueError:
            raise UsageError(
                f"--i2c-address {args.i2c_address!r} is not a number like 0x3C") from None
    if getattr(args, "serial", None) is not None:
        config["serial"]["url"] = args.serial
    return config


def _state_dir(args: argparse.Namespace, config: Config) -> Path:
    if args.state_dir is not None:
        return Path(args.state_dir)
    # systemd's StateDirectory= sets STATE_DIRECTORY (colon-separated if several).
    from_systemd = os.environ.get("STATE_DIRECTORY")
    if from_systemd:
        return Path(from_systemd.split(":")[0])
    return Path(str(config["state"]["dir"])).expanduser()


# -- simulate --------------------------------------------------------------------------------


def _simulate(args: argparse.Namespace) -> int:
    import tempfile

    from companion.bootstrap import simulation_box
    from companion.runtime import simulate

    config = load_config(args.config)
    source: Any
    if args.script is not None:
        try:
            source = open(args.script, "rb")  # noqa: SIM115 - closed below
        except OSError as error:
            raise UsageError(f"{args.script}: {error.strerror}") from None
    else:
        source = sys.stdin.fileno()
    with tempfile.TemporaryDirectory(prefix="companion-simulate-") as temporary:
        state_dir = Path(args.state_dir) if args.state_dir is not None else Path(temporary)
        box = simulation_box(config, state_dir, args.seed)
        try:
            failed = simulate(box.controller, source, sys.stdout,
                              stop_on_error=args.script is not None)
        finally:
            if args.script is not None:
                source.close()
            box.close()
    if failed is not None:
        print(f"{args.script}:{failed}: the command got an error reply", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


# -- render ----------------------------------------------------------------------------------


def _render(args: argparse.Namespace) -> int:
    from companion.scenes import SCENES, render_scene

    if args.list:
        for name in SCENES:
            print(name)
        return EXIT_OK
    names = args.scenes or list(SCENES)
    unknown = [name for name in names if name not in SCENES]
    if unknown:
        raise UsageError(f"unknown scene {unknown[0]!r}; see 'companion render --list'")
    if args.scale < 1:
        raise UsageError("--scale must be at least 1")
    out = _output_folder(Path(args.out), "--out")
    for name in names:
        image = render_scene(name)
        if args.scale > 1:
            image = image.resize((image.width * args.scale, image.height * args.scale))
        path = out / f"{name}.png"
        image.save(path)
        print(path)
    return EXIT_OK


def _output_folder(folder: Path, flag: str) -> Path:
    """``folder``, made if missing; a file in the way or a path that cannot be made is bad
    usage (exit 2) named by its flag, before anything is written."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{flag} {folder}: exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{flag} {folder}: cannot make the folder: "
                         f"{error.strerror or error}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{flag} {folder}: the folder is not writable")
    return folder


# -- bench -----------------------------------------------------------------------------------


def _bench(args: argparse.Namespace) -> int:
    from companion.bench import main as bench_main

    return bench_main(args)


# -- history ---------------------------------------------------------------------------------


def _history(args: argparse.Namespace) -> int:
    from companion.adapters.journal import FILE_NAME, Journal
    from companion.adapters.journal_rows import JournalUnavailable
    from companion.bootstrap import owner_route_guide
    from companion.core.app import App
    from companion.games.registry import playable_games
    from companion.history import export, list_games

    config = load_config(args.config)
    state_dir = _state_dir(args, config)
    if not (state_dir / FILE_NAME).exists():
        raise UsageError(f"{state_dir / FILE_NAME}: no journal here (see --state-dir)")
    try:
        journal = Journal.in_directory(state_dir)
    except JournalUnavailable as error:  # the disk refused: a failed command, one line
        print(f"companion history: {state_dir / FILE_NAME}: {error}", file=sys.stderr)
        return EXIT_FAILED
    try:
        if args.export is not None:
            folder = _output_folder(args.export, "--export")
            # The owner's Flight Plan route guide, so that games played with it replay.
            games = playable_games(owner_route_guide(config))
            return export(journal, App(games), folder, sys.stdout)
        return list_games(journal, sys.stdout,
                          App(playable_games(owner_route_guide(config))))
    finally:
        journal.close()


# -- doctor ----------------------------------------------------------------------------------


def _doctor(args: argparse.Namespace) -> int:
    from companion.config import SYSTEM_CONFIG, defaults
    from companion.doctor import run_doctor

    try:
        config = load_config(args.config)
    except ConfigError:
        # The doctor reports a broken config file itself, with the fix; check the rest
        # against the packaged defaults meanwhile.
        config = defaults()
    config_path = str(args.config or SYSTEM_CONFIG)
    if args.report is not None:
        return _doctor_report(args, config, config_path)
    return run_doctor(config, sys.stdout, config_path=config_path)


_DEFAULT_REPORT = Path("<the boot partition>")


def _doctor_report(args: argparse.Namespace, config: Config, config_path: str) -> int:
    from companion.doctor.report import run_report
    from companion.doctor.report_file import ReportFileError

    try:
        return run_report(None if args.report is _DEFAULT_REPORT else args.report, config,
                          fake=args.backend == "fake", config_path=config_path)
    except ReportFileError as error:
        raise UsageError(f"--report: {error}") from None


# -- score -----------------------------------------------------------------------------------


class _ScoreHelp(argparse.Action):
    """``score --help``: the usual help, then the input format of the game named before it
    (``companion score planes --help``) or of every game, each with an example."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from companion.games.score_formats import help_text

        parser.print_help()
        print()
        print(help_text(getattr(namespace, "game", None)))
        parser.exit()


def _score(args: argparse.Namespace) -> int:
    from companion.score_command import score

    return score(args)


if __name__ == "__main__":
    sys.exit(main())
