"""The table page in a real browser (issue #15): Debian's Chromium driven by Playwright against
a real `companion run --backend fake --web` process.

What they prove, by tapping the page as a player would:
- a whole 2-player Now Boarding game, started from the box's menu and played to its end with
  the page's four buttons (a hold included), loses and doubles nothing: the journal holds
  exactly the taps, and the same lines replayed on a simulated box end in the same state;
- a 4-player Overbooked game entered by tapping seats scores exactly as `companion score`
  does on the JSON the page sent;
- the security that only a browser shows: a phone on the LAN is asked to pair, its taps are
  refused and change nothing, five wrong codes lock pairing out, a foreign Origin is refused.

Every view is screenshot; with ``pytest --regen-golden`` into docs/screens/web-*.png for the
README (look at them: a picture of a page is not a golden to compare pixel by pixel).
"""

import http.server
import io
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from companion.adapters.qr import primary_address
from companion.scenes import SCENES, run_scene
from companion.testing.simulated import simulated_controller
from tests.web.page_support import is_line

ROOT = Path(__file__).resolve().parents[2]


def tap(page, button):
    """Tap a box button on the page; the box's reply line to that one tap."""
    with page.expect_response(is_line) as answer:
        page.click(f"#button-{button}")
    return answer.value.json()["reply"]


def hold(page, button):
    """Hold a box button until the page sends the long press; release; the reply."""
    page.hover(f"#button-{button}")
    with page.expect_response(is_line) as answer:
        page.mouse.down()
    page.mouse.up()
    return answer.value.json()["reply"]


def pair_code_on_display(box):
    """The six digits the box shows while pairing is open (its title bar)."""
    lines = json.loads(box.line("screen").removeprefix("ok "))["lines"]
    shown = [line.split()[1] for line in lines if re.fullmatch(r"Pair [0-9]+ [0-9:]+", line)]
    assert shown, lines
    return shown[0]


def show_view(page, view):
    page.click(f"#tab-{view}")
    expect(page.locator(f"#view-{view}")).to_be_visible()


# -- a whole Now Boarding game by tapping --------------------------------------------------------

# Now Boarding, pace steps (ok), players 3 -> 2, the other options as they are, start.
# Now Boarding, pace, players 3 -> 2, start (the rest folded under "More options", issue #35).
MENU_TO_TWO_PLAYERS = ["next", "next", "down", "next"]


# a whole game by tapping in Chromium
@pytest.mark.timeout(900)
def test_browser_plays_a_whole_two_player_now_boarding_game_by_tapping(running_box, page,
                                                                         shoot):
    taps = [(button, "press") for button in MENU_TO_TWO_PLAYERS]
    for button in MENU_TO_TWO_PLAYERS:
        assert tap(page, button) == "ok"
    state = running_box.state()
    assert (state["game"], state["players"], state["step"]) == ("now-boarding", 2, "setup")
    assert tap(page, "next") == "ok"
    assert hold(page, "back") == "ok"  # hold BACK: undo, through the same gesture path
    taps += [("next", "press"), ("back", "hold")]
    assert running_box.state()["setup_page"] == state["setup_page"]

    complained = shot_flight = False
    while (state := running_box.state())["phase"] != "over":
        assert len(taps) < 600, "the game does not end"
        if state["step"] == "flight" and not shot_flight:
            expect(page.locator("#screen-lines")).to_contain_text("R1")
            shoot(page, "box", full_page=True)
            show_view(page, "timer")
            expect(page.locator("#timer-digits")).not_to_have_text("–:––")
            shoot(page, "timer", full_page=True)
            show_view(page, "box")
            shot_flight = True
        if state["step"] == "anger" and state["round"] == 2 and not complained:
            assert tap(page, "up") == "ok"  # one complaint, from a phone
            taps.append(("up", "press"))
            complained = True
            continue
        assert tap(page, "next") == "ok"
        taps.append(("next", "press"))
    assert shot_flight and complained
    expect(page.locator("#screen-lines")).to_contain_text(
        "WIN!" if state["result"] == "win" else "LOSE")

    # Nothing lost, nothing doubled: the same lines on a simulated box give the same game.
    replayed = simulated_controller(running_box.state_dir / "replay")
    try:
        replayed.rng.seed(0)
        for button, kind in taps:
            assert replayed.command_line(f"{kind} {button}") == "ok"
        again = json.loads(replayed.command_line("state").removeprefix("ok "))
    finally:
        replayed.journal.close()
    for key in ("phase", "result", "round", "complaints"):
        assert again[key] == state[key], key

    show_view(page, "history")
    game = page.locator("details.history-game").first
    expect(game).to_be_visible()
    game.locator("summary").click()
    expect(game.locator("svg.chart").first).to_be_visible()
    expect(game.locator("a.download[data-kind=csv]")).to_be_visible()
    shoot(page, "history", full_page=True)


# -- the table page's own address, on the panel ------------------------------------------------

def test_browser_table_page_menu_entry_shows_the_address_and_a_readable_code(running_box,
                                                                          page, shoot):
    for button in ["up"] * 5 + ["next"]:  # up from the first row wraps to the bottom rows
        assert tap(page, button) == "ok"
    port = str(running_box.port)
    expect(page.locator("#screen-lines li").first).to_have_text("Table page")
    expect(page.locator("#screen-lines")).to_contain_text(f":{port}")
    frame = running_box.request("GET", "/api/frame.png")
    image = Image.open(io.BytesIO(frame.body))
    assert [found.text for found in zxingcpp.read_barcodes(image.convert("L"))] == [
        running_box.url.upper()]
    shoot(page, "table-page", full_page=True)



# -- Overbooked by tapping seats -----------------------------------------------------------------

SEAT_TAPS = {".": 0, "R": 1, "W": 2, "B": 3, "G": 4, "Y": 5}  # the page's cycle . R W B G Y
OVERBOOKED = {
    "Ann": ["RRBB|GGYY", "WBB.|GG..", "....|....", "....|....", "....|...."],
    "Bo": ["BBB.|RR..", "W...|YYY.", "GG..|....", "....|....", "....|...."],
    "Cy": ["GGGG|W...", "RR..|BB..", "....|....", "....|....", "....|...."],
    "Di": ["YYYY|RRW.", "B...|G...", "....|....", "....|....", "....|...."],
}


def test_browser_overbooked_by_tapping_seats_scores_as_the_cli(running_box, page, shoot,
                                                               tmp_path):
    show_view(page, "score")
    page.select_option("#score-game", "overbooked")
    page.select_option("#ob-players", "4")
    for index, (name, rows) in enumerate(OVERBOOKED.items()):
        page.click(f"#ob-tab-{index}")
        page.fill(f"#score-{index}-name", name)
        for row, text in enumerate(rows, start=1):
            for column, letter in enumerate(text, start=1):
                seat = page.locator(f"button.seat[data-player='{index}'][data-row='{row}']"
                                    f"[data-column='{column}']")
                for _ in range(SEAT_TAPS.get(letter, 0)):
                    seat.click()
                if letter != "|":
                    expect(seat).to_have_attribute("data-seat", letter)
    with page.expect_response(is_line) as answer:
        page.click("#score-send")
    sent = answer.value.request.post_data
    reply = answer.value.json()["reply"]
    game, entered = sent.removeprefix("score ").split(" ", 1)
    entered = json.loads(entered)
    assert game == "overbooked"
    assert {p["name"]: p["seats"] for p in entered["players"]} == OVERBOOKED

    score_file = tmp_path / "overbooked.json"
    score_file.write_text(json.dumps(entered), encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "companion", "score", "overbooked",
                          str(score_file), "--json"], capture_output=True, text=True,
                         timeout=60, check=True)
    expected = json.loads(cli.stdout)
    assert json.loads(reply.removeprefix("ok ")) == expected
    table = page.locator("#score-result table")
    expect(table).to_be_visible()
    for player in expected["players"]:
        row = table.locator("tbody tr", has=page.locator(f"th:text-is('{player['name']}')"))
        expect(row.locator("td.total")).to_have_text(str(player["total"]))
    shoot(page, "score", full_page=True)


# -- the Flight Plan bank ------------------------------------------------------------------------

def test_browser_shows_the_flight_plan_bank(running_box, page, shoot, tmp_path):
    """A scene's button presses, tapped on the page, give the scene's own screen; the bank
    shows every player's cash as the state has it."""
    first, *presses = SCENES["flight-plan-deactivate"]
    assert running_box.line(first) == "ok"
    for line in presses:
        kind, button = line.split()
        assert (hold(page, button) if kind == "hold" else tap(page, button)) == "ok"
    scene = run_scene(SCENES["flight-plan-deactivate"], tmp_path)
    expected_lines = scene.screen().text_lines()
    scene.journal.close()
    screen = json.loads(running_box.line("screen").removeprefix("ok "))
    assert screen["lines"] == expected_lines
    show_view(page, "bank")
    players = page.locator("article.bank-player")
    expect(players).to_have_count(3)
    state = running_box.state()
    for name in state["names"]:
        card = page.locator(f"article.bank-player[data-player='{name}']")
        expect(card.locator(".cash")).to_have_text(f"${state['cash'][name]}M")
    shoot(page, "bank", full_page=True)


# -- security, where the browser matters ---------------------------------------------------------

@pytest.fixture
def lan_box(start_box):
    """A box serving every interface, reached by the browser at the machine's LAN address,
    so the server sees a client that is not loopback."""
    address = primary_address()
    assert address is not None, "the machine has no LAN address to test a phone with"
    box = start_box("0.0.0.0:0")  # every interface: the phone must reach it from the LAN
    return box, f"http://{address}:{box.port}/"


def test_browser_lan_phone_must_pair_and_its_taps_change_nothing(lan_box, open_page, shoot):
    box, url = lan_box
    assert box.line("new timer seconds=60") == "ok"
    before = box.state()
    page = open_page(url)
    expect(page.locator("#pairing")).to_be_visible()
    # An unpaired page shows only what it can do: the pairing form (issue #20).
    expect(page.locator("#button-next")).to_be_hidden()
    expect(page.locator("#tabs")).to_be_hidden()
    expect(page.locator("#pair-state")).to_have_text("No code asked for yet.")
    assert box.line("pair open") == "ok"  # someone at the box opens pairing (issue #28)
    page.click("#pair-start")
    expect(page.locator("#pair-state")).to_have_attribute("data-state", "pending")
    with page.expect_response(is_line) as answer:  # a tap the page no longer offers
        page.evaluate("""() => fetch("/api/line", {method: "POST", body: "press next",
            headers: {"Content-Type": "text/plain"}})""")
    assert answer.value.status in (401, 403)
    assert box.state() == before
    expect(page.locator("#pairing")).to_be_visible()
    shoot(page, "pairing", full_page=True)

    # Three wrong codes: the code on the display plus 1 to 3.
    code = pair_code_on_display(box)
    wrong = [f"{(int(code) + step) % 10**6:06d}" for step in range(1, 4)]
    statuses = []
    for guess in wrong:
        page.fill("#pair-code", guess)
        with page.expect_response(lambda r: r.url.endswith("/api/pair")) as answer:
            page.click("#pair-send")
        statuses.append((answer.value.status, answer.value.json()["error"]))
    # The right code, once locked, is refused too (the page no longer offers to send it).
    statuses.append(tuple(page.evaluate("""async (code) => {
        const answer = await fetch("/api/pair", {method: "POST", body: JSON.stringify({code}),
            headers: {"Content-Type": "application/json"}});
        return [answer.status, (await answer.json()).error];
    }""", code)))
    assert statuses == [(403, "bad-code")] * 2 + [(429, "locked")] * 2
    expect(page.locator("#pair-send")).to_be_disabled()
    expect(page.locator("#pair-message")).to_contain_text("too many wrong codes")
    expect(page.locator("#pair-state")).to_have_attribute("data-state", "locked")
    expect(page.locator("#pair-state")).to_contain_text("locked for")
    expect(page.locator("#pair-start")).to_be_disabled()
    expect(page.locator("#pairing")).to_be_visible()
    assert box.state() == before


@pytest.fixture
def other_site():
    """Another web site on this machine (loopback, another port: another origin that
    Chromium lets reach the box, as a page on another LAN host would)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), OtherSite)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


class OtherSite(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        page = b"<!doctype html><title>another site</title><p>nothing to see"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, format, *args):
        pass


def test_browser_foreign_origin_is_refused(running_box, open_page, other_site):
    """A page from another site posting a line to the box (CSRF: a text/plain POST needs no
    preflight) is refused by the box; nothing changes."""
    assert running_box.line("new timer seconds=60") == "ok"
    before = running_box.state()
    page = open_page(other_site)
    with page.expect_response(is_line) as answer:
        page.evaluate("""(url) => fetch(url, {method: "POST", mode: "no-cors",
            body: "press next", headers: {"Content-Type": "text/plain"}}).catch(() => null)""",
            f"{running_box.url}api/line")
    assert answer.value.status == 403
    assert running_box.state() == before


def test_browser_big_timer_changes_colour_in_the_last_ten_seconds(running_box, page, shoot):
    """A 10 s flight is all last seconds (and long enough for the page to see it run on a
    loaded machine); the timer view is driven from the keyboard."""
    assert running_box.line("new now-boarding players=2 timer=10") == "ok"
    show_view(page, "timer")
    timer_view = page.locator("#view-timer")
    while (state := running_box.state())["step"] != "flight":
        # (A plain string would compare the whole class attribute, and always pass.)
        expect(timer_view).not_to_have_class(re.compile(r"\blast-seconds\b"))
        with page.expect_response(is_line) as answer:  # the keyboard's NEXT, as in the
            page.keyboard.press("n")                    # terminal simulator
        assert answer.value.json()["reply"] == "ok"
    expect(timer_view).to_have_class("view view-timer last-seconds")
    expect(page.locator("#timer-round")).to_contain_text(f"{state['round']}")
    shoot(page, "timer-last-seconds", full_page=True)
