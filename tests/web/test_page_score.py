"""The Score tab on a phone (issue #20 items 4 and 5), in Debian's Chromium at 360x740 with
touch, against a real ``companion run --backend fake --web`` process.

- A fixed full Overbooked plane (50 seats, the 1-3-player side) is entered in at most 30
  gestures: a colour picked, then taps and touch drags across seats (pointer events from
  real touch input), a row filled by its number; the second player's plane is a copy. Every
  gesture is counted. The score equals ``companion score`` on the JSON the page sent; every
  seat and row button is at least 44 px and nothing in the Score tab reaches past the
  phone's right edge (the header above it is the Timer work's, issue #20 item 9).
- What the page scores is kept in history: ``/api/history`` lists it with a BG Stats link
  whose decoded play has the documented push format; the page offers the link, and where no
  app takes it, says so and shows the link as text and as a QR code.
- The Now Boarding form's defaults come from the game the box just played: after a game with
  2 complaints filed, "Score it" with the defaults says 2 complaints.

With ``pytest --regen-golden`` the Score tab's screenshot goes to
docs/screens/score-overbooked.png (look at it); otherwise to a temporary folder.
"""

import contextlib
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.web.page_support import PORTRAIT, WAIT_MS, is_line

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
MAX_TAPS = 30
BGSTATS_PREFIX = "bgstats://app.bgstatsapp.com/createPlay.html?data="

# The fixed full plane (1-3-player side: 3 | 4 | 3 seats in each of 5 rows).
PLANE = ["BBB|BBRR|GGG",
         "BBB|WWRR|GGG",
         "YYY|WWRR|GGG",
         "YYY|BBBB|WRR",
         "YYY|BBBB|WRR"]
# The gestures: (brush, [rows to fill]) or (brush, [[(row, column), ...] per drag or tap]).
STROKES = [
    ("B", "fill", [1, 2, 3, 4, 5]),
    ("R", "drag", [[(1, 7), (1, 8)], [(2, 7), (2, 8)], [(3, 7), (3, 8)],
                   [(4, 11), (4, 12)], [(5, 11), (5, 12)]]),
    ("G", "drag", [[(1, 10), (1, 11), (1, 12)], [(2, 10), (2, 11), (2, 12)],
                   [(3, 10), (3, 11), (3, 12)]]),
    ("W", "drag", [[(2, 5), (2, 6)], [(3, 5), (3, 6)], [(4, 10)], [(5, 10)]]),
    ("Y", "drag", [[(3, 1), (3, 2), (3, 3)], [(4, 1), (4, 2), (4, 3)], [(5, 1), (5, 2), (5, 3)]]),
]


@pytest.fixture
def phone_page(phone, request, tmp_path):
    """The page on a 360x740 touch phone (conftest's, on the page's own view), live; its
    screenshot folder."""
    page = phone(PORTRAIT, view=None)
    page.shots = SCREENS if request.config.getoption("--regen-golden") else tmp_path
    return page


class Finger:
    """Touch input through the browser's own touch pipeline (CDP), counting every gesture."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.gestures = 0

    def centre(self, locator):
        box = locator.bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    @staticmethod
    def into_view(locator):
        """To the middle of the screen: never under the page's sticky header."""
        locator.evaluate("(node) => node.scrollIntoView({block: 'center'})")

    def tap(self, locator):
        expect(locator).to_be_visible()  # a panel the last tap opens is drawn after that tap
        self.into_view(locator)
        self.page.touchscreen.tap(*self.centre(locator))
        self.gestures += 1

    def drag(self, locators):
        """One finger down on the first, through every one in turn (in small steps), up."""
        expect(locators[0]).to_be_visible()
        self.into_view(locators[0])
        points = [self.centre(locator) for locator in locators]
        self._touch("touchStart", *points[0])
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            for step in range(1, 5):
                self._touch("touchMove", x0 + (x1 - x0) * step / 4, y0 + (y1 - y0) * step / 4)
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.gestures += 1

    def _touch(self, kind, x, y):
        self.cdp.send("Input.dispatchTouchEvent",
                      {"type": kind, "touchPoints": [{"x": x, "y": y, "id": 1}]})


def seat(page, player, row, column):
    return page.locator(f"button.seat[data-player='{player}'][data-row='{row}']"
                        f"[data-column='{column}']")


SEATS_JS = """(player) => [...document.querySelectorAll(`#ob-player-${player} .plane-row`)]
    .map((line) => [...line.children].slice(1)
      .map((cell) => cell.classList.contains('aisle') ? '|' : cell.dataset.seat)
      .join(''))"""


def seats_of(page, player):
    """The player's plane as the page shows it now, a row of text per plane row."""
    return page.evaluate(SEATS_JS, player)


def settled_seats(page, player, want):
    """The player's plane once it is what ``want`` says (every row, as a list; or some rows,
    as {row index: text}), waited for as ``expect`` waits; as it is then, if it never got
    there (the caller's assertion says how it differs). The page paints on touch input, which
    Chromium may hand to the page after the touch command returned (a finger's moves wait for
    the next frame), so a read straight after a tap or a drag can see the plane before it."""
    rows = dict(enumerate(want)) if isinstance(want, list) else want
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            f"""([player, rows]) => {{
                const seats = ({SEATS_JS})(player);
                return Object.entries(rows).every(([index, text]) => seats[index] === text);
            }}""", arg=[player, {str(index): text for index, text in rows.items()}],
            timeout=WAIT_MS)
    return seats_of(page, player)


def painted(page, player, seats, brush):
    """Wait until each of ``seats`` ((row, column), counted from 1) shows ``brush``."""
    for row, column in seats:
        expect(seat(page, player, row, column)).to_have_attribute("data-seat", brush)


def overflow(page, root="#view-score"):
    """How far anything in ``root`` reaches past the phone's right edge (px; 0: nothing), and
    what reaches furthest. What a scroll box holds (a wide score table scrolls in its own
    box) does not count."""
    return page.evaluate(
        """([root, width]) => {
             const scrolls = (node) =>
               ["auto", "scroll"].includes(getComputedStyle(node).overflowX);
             const inScrollBox = (node) => {
               for (let up = node.parentElement; up && up !== document.body;
                    up = up.parentElement) {
                 if (scrolls(up)) return true;
               }
               return false;
             };
             const reach = [...document.querySelectorAll(`${root} *`)]
               .filter((node) => node.getClientRects().length && !inScrollBox(node))
               .map((node) => [node.getBoundingClientRect().right - width,
                               node.tagName + "." + node.className]);
             reach.sort((a, b) => b[0] - a[0]);
             return reach[0] && reach[0][0] > 0 ? reach[0] : [0, ""];
           }""", [root, PORTRAIT["width"]])


def decoded(url):
    assert url.startswith(BGSTATS_PREFIX)
    return json.loads(unquote(url.removeprefix(BGSTATS_PREFIX)))


def assert_documented_play(play):
    """BG Stats' push format: playDate, the game's name and flags, a boolean winner on every
    player (and a numeric bggId where one is given)."""
    assert {"sourceName", "sourcePlayId", "playDate", "game", "players"} <= set(play)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert {"name", "sourceGameId", "highestWins", "noPoints"} <= set(play["game"])
    assert "bggId" not in play["game"] or type(play["game"]["bggId"]) is int
    assert play["players"] and all(type(p["winner"]) is bool and p["name"]
                                   for p in play["players"])


def newest_game(running_box):
    answer = running_box.request("GET", "/api/history")
    assert answer.status == 200
    return answer.json["games"][0]


def test_a_full_overbooked_plane_in_at_most_30_taps_scores_as_the_cli(running_box, phone_page,
                                                                       tmp_path):
    page = phone_page
    page.click("#tab-score")
    page.select_option("#score-game", "overbooked")
    expect(page.locator("#ob-player-0 .plane")).to_be_visible()
    finger = Finger(page)
    for brush, how, strokes in STROKES:
        finger.tap(page.locator(f".palette .brush[data-brush='{brush}']"))
        expect(page.locator(f".palette .brush[data-brush='{brush}']")).to_have_attribute(
            "aria-checked", "true")
        for stroke in strokes:
            # Each stroke is painted before the next one scrolls the plane: a finger's moves
            # still waiting for their frame would land on other seats after the scroll.
            if how == "fill":
                finger.tap(page.locator(f"#ob-player-0 .fill-row[data-row='{stroke}']"))
                row = PLANE[stroke - 1]
                painted(page, 0, [(stroke, column) for column, letter
                                  in enumerate(row, start=1) if letter != "|"], brush)
            else:
                finger.drag([seat(page, 0, row, column) for row, column in stroke])
                painted(page, 0, stroke, brush)
    assert settled_seats(page, 0, PLANE) == PLANE
    entered_in = finger.gestures
    assert entered_in <= MAX_TAPS
    finger.tap(page.locator("#ob-tab-1"))
    finger.tap(page.locator("#ob-copy-1"))
    assert settled_seats(page, 1, PLANE) == PLANE
    print(f"\nOverbooked: a full 50-seat plane in {entered_in} taps and drags; "
          f"the second plane copied in 2 more")

    sizes = page.evaluate("""() => [...document.querySelectorAll(
        '#ob-player-1 .seat, #ob-player-1 .fill-row, .palette .brush')]
        .map((b) => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])""")
    assert sizes and min(min(w, h) for w, h in sizes) >= 44
    reach, what = overflow(page)
    assert reach <= 0, what
    page.evaluate("""() => {   // the palette, the tabs and the plane under the sticky header
        const header = document.querySelector(".top").getBoundingClientRect().height;
        const palette = document.querySelector(".brush-bar").getBoundingClientRect().top;
        window.scrollTo(0, palette + window.scrollY - header - 8);
    }""")
    page.screenshot(path=str(page.shots / "score-overbooked.png"), full_page=False)

    with page.expect_response(is_line) as answer:
        page.click("#score-send")
    game, sent = answer.value.request.post_data.removeprefix("score ").split(" ", 1)
    sent = json.loads(sent)
    assert game == "overbooked"
    assert [player["seats"] for player in sent["players"]] == [PLANE, PLANE]
    reply = json.loads(answer.value.json()["reply"].removeprefix("ok "))
    score_file = tmp_path / "plane.json"
    score_file.write_text(json.dumps(sent), encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "companion", "score", "overbooked",
                          str(score_file), "--json"], capture_output=True, text=True,
                         timeout=60, check=True)
    assert reply == json.loads(cli.stdout)
    for player in reply["players"]:
        row = page.locator("#score-result tbody tr",
                           has=page.locator(f"th:text-is('{player['name']}')"))
        expect(row.locator("td.total")).to_have_text(str(player["total"]))

    # Kept in history, with a BG Stats link in the documented format.
    expect(page.locator("#score-kept")).to_be_visible()
    kept = newest_game(running_box)
    assert kept["game"] == "overbooked" and kept["result"] == reply
    assert kept["options"]["entered"] == "score"
    expect(page.locator("#score-kept")).to_have_attribute("data-game-id", str(kept["id"]))
    play = decoded(kept["bgstats"])
    assert_documented_play(play)
    assert [p["score"] for p in play["players"]] == [p["total"] for p in reply["players"]]

    # No BG Stats app in this browser: the page says so and offers the text and a QR code.
    link = page.locator("#score-result a.bgstats")
    expect(link).to_have_attribute("href", kept["bgstats"])
    link.click()
    expect(page.locator("#score-result .bgstats-note")).to_contain_text("did not open")
    expect(page.locator("#score-result .bgstats-text code")).to_have_text(kept["bgstats"])
    qr = page.locator("#score-result img.bgstats-qr")
    expect(qr).to_be_visible()
    # Shown is not loaded: the picture arrives from the box after the panel opens.
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0",
                           arg=qr.element_handle(), timeout=WAIT_MS)
    reach, what = overflow(page)
    assert reach <= 0, what

    page.goto(f"{running_box.url}?view=history")
    entry = page.locator(f"details.history-game[data-game-id='{kept['id']}']")
    expect(entry).to_be_visible()
    expect(entry.locator("a.bgstats")).to_have_attribute("href", kept["bgstats"])


def test_seat_tools_copy_clear_and_the_keyboard(running_box, phone_page):
    page = phone_page
    page.click("#tab-score")
    page.select_option("#score-game", "overbooked")
    page.click(".palette .brush[data-brush='G']")
    page.click("#ob-player-0 .fill-row[data-row='2']")
    assert settled_seats(page, 0, {1: "GGG|GGGG|GGG"})[1] == "GGG|GGGG|GGG"
    first = seats_of(page, 0)
    page.click("#ob-tab-1")
    page.click("#ob-copy-1")
    assert settled_seats(page, 1, first) == first
    seat(page, 1, 2, 1).focus()
    page.keyboard.press("Enter")       # a keyboard press paints too: G on a G seat empties it
    assert settled_seats(page, 1, {1: ".GG|GGGG|GGG"})[1] == ".GG|GGGG|GGG"
    page.click("#ob-clear-1")
    empty = [re.sub(r"[^|]", ".", row) for row in first]
    assert set("".join(settled_seats(page, 1, empty))) <= {".", "|"}
    assert seats_of(page, 0)[1] == "GGG|GGGG|GGG"   # the other plane is untouched


def play_to_the_end_with_two_complaints(running_box):
    assert running_box.line("new now-boarding players=3 seed=5") == "ok"
    complained = False
    for _ in range(600):
        state = running_box.state()
        if state["phase"] == "over":
            return state
        if state["step"] == "anger" and not complained:
            assert running_box.line("press up") == "ok"
            assert running_box.line("press up") == "ok"
            complained = True
        assert running_box.line("press next") == "ok"
    raise AssertionError("the game does not end")


def test_now_boarding_score_it_defaults_to_the_game_just_played(running_box, phone_page):
    over = play_to_the_end_with_two_complaints(running_box)
    assert over["complaints"] == 2 and over["result"] == "win"
    page = phone_page
    page.click("#tab-score")
    page.select_option("#score-game", "now-boarding")
    expect(page.locator("#score-complaints")).to_have_value("2")
    expect(page.locator("#score-players")).to_have_value("3")
    expect(page.locator("#score-source")).to_contain_text("the game on the box")
    with page.expect_response(is_line):
        page.click("#score-send")
    expect(page.locator("#score-result .verdict")).to_have_text("WIN: 2 complaints in all")
    expect(page.locator("#score-kept")).to_be_visible()
    kept = newest_game(running_box)
    assert kept["game"] == "now-boarding" and kept["result"]["complaints_total"] == 2
    play = decoded(kept["bgstats"])
    assert_documented_play(play)
    assert play["game"]["bggId"] == 231567
    assert [p["winner"] for p in play["players"]] == [True, True, True]


def test_a_form_that_waits_for_the_box_never_replaces_the_one_chosen_since(running_box, phone_page):
    """Now Boarding's form waits for the box (the last game's count) before it is drawn; a
    player who picks Overbooked meanwhile keeps the Overbooked form when that answer comes.
    The box's answer is held back in the page (its fetch waits on a gate the script opens
    once the Overbooked form is drawn), so the late answer always comes last."""
    page = phone_page
    page.click("#tab-score")
    page.select_option("#score-game", "overbooked")
    expect(page.locator("#ob-player-0 .plane")).to_be_visible()
    drawn = page.evaluate("""async () => {
        const score = await import("/static/score.js");  // the page's own module
        const fetched = window.fetch;
        let open, asked;
        const gate = new Promise((resolve) => { open = resolve; });
        const waiting = new Promise((resolve) => { asked = resolve; });
        window.fetch = async (...request) => {
            const held = String(request[0]).startsWith("/api/state");
            if (held) asked();
            const answer = await fetched(...request);
            if (held) await gate;
            return answer;
        };
        try {
            const choice = document.querySelector("#score-game");
            choice.value = "now-boarding";
            const late = score.buildScoreForm();
            await waiting;  // it chose Now Boarding and asks the box
            choice.value = "overbooked";
            await score.buildScoreForm();
            open();
            await late;
        } finally {
            window.fetch = fetched;
        }
        return {chosen: document.querySelector("#score-game").value,
                plane: document.querySelectorAll("#ob-player-0 .seat").length,
                complaints: document.querySelectorAll("#score-complaints").length};
    }""")
    assert drawn["chosen"] == "overbooked"
    assert drawn["complaints"] == 0, drawn  # no Now Boarding form under the Overbooked choice
    assert drawn["plane"] > 0, drawn
