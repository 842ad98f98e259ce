"""The table page's address and QR code on the panel (issue #15): reached from the menu,
drawn to its golden PNG, and readable by a QR decoder from the panel's own 128 x 64 pixels;
while pairing is open, the pairing link's QR code with the window's secret (issue #38, 6),
which the mirror never shows."""

from dataclasses import replace
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from companion.adapters.qr import pair_qr, table_page
from companion.core.table_page import MAX_MODULES, SECRET_LENGTH, pair_link
from companion.testing.simulated import simulated_controller
from companion.ui.render import render
from companion.ui.screen import Screen, screen_problems
from companion.ui.views import mirror_screen
from companion.ui.views.menu import address_lines, table_page_screen

GOLDEN = Path(__file__).parent / "golden" / "table-page.png"
EVERY_INTERFACE = "0.0.0.0"  # noqa: S104 (an address to describe, nothing binds it here)
HOST_PAGE = table_page(EVERY_INTERFACE, 8080, hostname="raspberrypi", address="192.168.1.20")


def decoded(image):
    return [found.text for found in zxingcpp.read_barcodes(image.convert("L"))]


def test_table_page_is_a_menu_entry_of_a_box_with_the_web_on(tmp_path, request):
    controller = simulated_controller(tmp_path)
    controller.set_table_page(HOST_PAGE)
    for line in ("press up", "press up", "press up", "press up", "press next"):
        assert controller.command_line(line) == "ok"
    screen = controller.screen()
    assert screen.text_lines() == ["Table page", "raspberrypi", ".local:8080", "192.168.1.20",
                                   ":8080", "NEXT: pair"]
    assert not screen_problems(screen)
    image = render(screen)
    if request.config.getoption("--regen-golden"):
        image.save(GOLDEN)
    expected = Image.open(GOLDEN).convert("1")
    assert image.tobytes() == expected.tobytes(), f"the table page differs from {GOLDEN}"
    assert controller.command_line("press back") == "ok"
    assert controller.screen().title == "Choose a game"
    controller.journal.close()


PAIRING_GOLDEN = Path(__file__).parent / "golden" / "table-page-pairing.png"


SECRET = "0123456789ABCDEF"  # noqa: S105 (a test window's secret)
LINK = "HTTP://RASPBERRYPI.LOCAL:8080/P/0123456789ABCDEF"


def pairing_at_the_box(tmp_path):
    """A simulated box with the table page on, pairing opened at its Table page (NEXT there),
    its window's secret fixed for the golden."""
    controller = simulated_controller(tmp_path)
    controller.set_table_page(HOST_PAGE)
    controller.draw_pair_secret = lambda: SECRET
    for line in ("press up", "press up", "press up", "press up", "press next", "press next"):
        assert controller.command_line(line) == "ok"
    return controller


def test_pair_a_phone_shows_the_pairing_links_qr_code_and_counts_down(tmp_path, request):
    """Issue #28: NEXT on the Table page ("Pair a phone") opens pairing for two minutes; the
    screen counts down, with the code once a phone asked for it. Issue #38, 6: the QR code
    beside it is the pairing link's, the window's secret in it, read from the panel's pixels."""
    controller = pairing_at_the_box(tmp_path)
    assert controller.state.pairing.secret == SECRET
    assert controller.screen().text_lines() == ["Table page", "Scan to pair", "2:00 left",
                                                "or ask for", "a code", "BACK: close"]
    assert controller.show_pair_code("123456")
    assert controller.command_line("wait 15") == "ok"
    screen = controller.screen()
    assert screen.text_lines() == ["Table page", "Scan to pair", "1:45 left", "Code:",
                                   "123456", "BACK: close"]
    assert not screen_problems(screen)
    assert len(screen.matrix) <= MAX_MODULES
    image = render(screen)
    assert decoded(image) == [LINK]
    if request.config.getoption("--regen-golden"):
        image.save(PAIRING_GOLDEN)
    expected = Image.open(PAIRING_GOLDEN).convert("1")
    assert image.tobytes() == expected.tobytes(), f"the screen differs from {PAIRING_GOLDEN}"
    assert controller.command_line("press back") == "ok"
    assert controller.state.pairing is None
    assert controller.screen().title == "Choose a game"
    controller.journal.close()


def test_the_mirror_and_the_screen_lines_never_hold_the_secret_or_the_code(tmp_path):
    controller = pairing_at_the_box(tmp_path)
    assert controller.show_pair_code("123456")
    shown = controller.screen()
    mirrored = mirror_screen(controller.app, controller.state, controller.now(), shown)
    assert decoded(render(mirrored)) == ["HTTP://RASPBERRYPI.LOCAL:8080/"]
    assert "123456" not in " ".join(mirrored.text_lines())
    for line in ("screen", "state"):
        assert SECRET not in controller.command_line(line)
    controller.journal.close()


def test_typed_codes_used_up_leave_the_qr_code_and_say_so(tmp_path):
    controller = pairing_at_the_box(tmp_path)
    assert controller.show_pair_code("123456")
    for number in range(19):
        controller.judge_pair_code(f"10.0.{number // 3}.1", "000000")
    assert controller.judge_pair_code("10.0.9.1", "123456") == "spent"
    screen = controller.screen()
    assert screen.text_lines() == ["Table page", "Scan to pair", "2:00 left", "Typed codes",
                                   "used up", "BACK: close"]
    assert decoded(render(screen)) == [LINK]
    assert controller.judge_pair_secret(SECRET) == "paired"
    controller.journal.close()


def test_each_window_draws_a_fresh_secret(tmp_path):
    controller = simulated_controller(tmp_path)
    controller.set_table_page(HOST_PAGE)
    secrets_seen = set()
    for _ in range(3):
        assert controller.command_line("pair open") == "ok"
        secret = controller.state.pairing.secret
        assert len(secret) == SECRET_LENGTH
        secrets_seen.add(secret)
    assert len(secrets_seen) == 3
    controller.journal.close()


@pytest.mark.parametrize(("hostname", "modules"), [
    ("raspberrypi", 29), ("x" * 24, 29), ("x" * 40, 29), ("x" * 41, 0)])
def test_a_pairing_link_fits_version_3_up_to_a_40_character_host_name(hostname, modules):
    """M where it fits, L up to 40 characters of host name, else none (the address's code
    and the typed code stay)."""
    link = pair_link(f"http://{hostname}.local:8080/", SECRET)
    matrix = pair_qr(link)
    assert len(matrix) == modules
    if matrix:
        screen = Screen("Table page", ("x",), matrix=matrix)
        assert decoded(render(screen)) == [link.upper()]


@pytest.mark.parametrize(("host", "expected"), [
    (EVERY_INTERFACE, "HTTP://RASPBERRYPI.LOCAL:8080/"),
    ("127.0.0.1", "HTTP://127.0.0.1:8080/"),
    ("192.168.1.20", "HTTP://192.168.1.20:8080/"),
])
def test_table_page_code_reads_back_from_the_panel_pixels(host, expected):
    page = table_page(host, 8080, hostname="raspberrypi", address="192.168.1.20")
    assert decoded(render(table_page_screen(page))) == [expected]


def test_table_page_long_host_name_still_reads_at_2_px_a_module():
    page = table_page(EVERY_INTERFACE, 65535, hostname="table-companion-kitchen",
                      address=None)
    assert len(page.qr) == 29
    assert decoded(render(table_page_screen(page))) == [
        "HTTP://TABLE-COMPANION-KITCHEN.LOCAL:65535/"]


@pytest.mark.parametrize(("url", "lines"), [
    ("http://raspberrypi.local:8080/", ["raspberrypi", ".local:8080"]),
    ("http://192.168.100.200:8080/", ["192.168.100", ".200:8080"]),
    ("http://box.local:80/", ["box.local:80"]),
    ("http://[fe80::1]:8080/", ["[fe80::1]", ":8080"]),
    ("http://averyveryverylongname.local:1/", ["averyveryver", "ylongname", ".local:1"]),
])
def test_table_page_address_breaks_at_dots_and_colons(url, lines):
    assert address_lines(url) == lines
    assert all(len(line) <= 12 for line in lines)


def test_table_page_screen_keeps_the_pair_hint_when_addresses_are_long():
    page = table_page(EVERY_INTERFACE, 8080, hostname="averyveryverylongname",
                      address="192.168.100.200")
    screen = table_page_screen(page)
    assert len(screen.lines) == 5
    assert screen.lines[-1] == "NEXT: pair"


def test_table_page_matrix_screen_refuses_a_status_bar():
    with pytest.raises(ValueError, match="matrix"):
        Screen("Table page", ("x",), status="no room", matrix=HOST_PAGE.qr)


PAIR_GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(("golden", "title"), [
    ("pair-code-flight.png", "Pair 123456 2:00"),
])
def test_pair_codes_take_the_title_bar_and_hide_nothing_of_the_game(tmp_path, request,
                                                                    golden, title):
    """Issue #19: the pairing code covered the game's bottom line (and any LAN client could
    keep it there). It now takes the title bar, with the window's countdown (issue #28): the
    main line, the body and an alert stay."""
    from companion.scenes import SCENES, run_scene

    controller = run_scene(SCENES["now-boarding-flight"], tmp_path)
    before = controller.screen()
    assert controller.command_line("pair open") == "ok"
    controller.state = replace(controller.state, notice=before.notice)
    assert controller.show_pair_code("123456")
    screen = controller.screen()
    assert screen.title == title
    assert (screen.main, screen.lines, screen.big, screen.caption, screen.status,
            screen.alert) == (before.main, before.lines, before.big, before.caption,
                              before.status, before.alert)
    assert not screen_problems(screen)
    image = render(screen)
    if request.config.getoption("--regen-golden"):
        image.save(PAIR_GOLDEN / golden)
    expected = Image.open(PAIR_GOLDEN / golden).convert("1")
    assert image.tobytes() == expected.tobytes(), f"the pair code differs from {golden}"
    controller.journal.close()
