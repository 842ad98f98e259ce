"""What a table that plays every week tripped on (issue #36, items 2, 5, 7 and 9), on a phone
at 360 x 740 and 740 x 360, in Debian's Chromium against a real `companion run --web`.

No page the menu reaches shows the panel's key hints; a fresh box's Score tab asks which game;
History's table speaks words and fits the phone; the Ready screen of an untimed game shows no
clock; a long brisk card is read whole; Done says it loses; the Which-VIP rows are tapped on
the page; the result card splits the complaints. Each page is axe clean and its text inside
the viewport. Every wait is for what the test then reads (Playwright's ``expect``).
"""

import json
import re

from playwright.sync_api import expect

from tests.web.page_support import (
    PORTRAIT,
    VIEWPORTS,
    axe_violations,
    no_time_up,
    settle,
    tap,
    tap_until,
)

#: The panel's key hints, never in the page's own words.
KEY_HINTS = re.compile(r"NEXT (yes|ok|go|start|it|adds|ends)|BACK no|NEXT:|UP/D|hold NEXT|"
                       r"option \d+ of \d+|fixed here")


def card_text(page):
    """The words the page says of the box's screen: the Timer view and the Box tab's card
    (the Box tab's mirror of the panel is the panel, hints and all)."""
    return page.locator("#view-timer").inner_text() + " " + page.evaluate(
        "document.querySelector('#box-card').textContent")


def text_inside(page, selector):
    """Every visible text block under ``selector`` lies inside the viewport sideways, and the
    page itself never scrolls sideways."""
    outside = page.evaluate("""(selector) => [...document.querySelectorAll(
            `${selector} p, ${selector} li, ${selector} h2, ${selector} button`)]
        .filter((node) => node.offsetParent !== null && node.textContent.trim())
        .map((node) => ({text: node.textContent.trim().slice(0, 40),
                         box: node.getBoundingClientRect()}))
        .filter(({box}) => box.left < -1 || box.right > innerWidth + 1)
        .map(({text}) => text)""", selector)
    assert outside == []
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width


def axe_clean(page, where, found):
    violations = axe_violations(page)
    if violations:
        found[where] = violations


def menu_row(box, title):
    """The index of ``title`` among the games page's rows (the box's menu showing)."""
    rows = box.request("GET", "/api/screen").json["choices"]
    return rows.index(title)


def open_menu_row(box, title):
    """From the games page, move to ``title`` and choose it (as the box's buttons would)."""
    for _ in range(menu_row(box, title)):
        assert box.line("press down") == "ok"
    assert box.line("press next") == "ok"


# -- item 7: no key hints on any page the menu reaches -----------------------------------------

@VIEWPORTS
def test_no_page_the_menu_reaches_shows_the_panels_key_hints(running_box, phone, viewport):
    box = running_box
    page = phone(viewport, bypass_csp=True)
    found = {}
    assert box.line("new now-boarding players=3") == "ok"
    assert box.line("press back") == "ok"  # the games page, over the game in play
    pages = {}
    for title, menu_page in (("Now Boarding", "replace"), ("Power off", "power-off"),
                             ("Table page", "table-page")):
        assert box.state()["menu"]["page"] == "games"
        for _ in range(box.request("GET", "/api/screen").json["chosen"]):
            assert box.line("press up") == "ok"  # to the first row
        open_menu_row(box, title)
        assert box.state()["menu"]["page"] == menu_page
        screen = settle(page, box)
        assert screen["say"], screen
        text = card_text(page)
        assert not KEY_HINTS.search(text), (menu_page, KEY_HINTS.search(text))
        text_inside(page, "#view-timer")
        axe_clean(page, menu_page, found)
        pages[menu_page] = screen["say"]
        assert box.line("press back") == "ok"  # no, keep it; back to the games page
    settle(page, box)
    assert not KEY_HINTS.search(card_text(page))
    axe_clean(page, "games", found)
    assert set(pages) == {"replace", "power-off", "table-page"}
    assert found == {}, json.dumps(found, indent=1)
    assert page.errors == []


# -- item 7: a fresh box's Score tab asks which game -------------------------------------------

@VIEWPORTS
def test_a_fresh_boxs_score_tab_asks_which_game(running_box, phone, viewport):
    page = phone(viewport, "score", bypass_csp=True)
    picks = page.locator("#score-form .score-pick button")
    expect(picks.first).to_be_visible()
    expect(page.locator("#score-game")).to_have_value("")
    expect(page.locator("#score-send")).to_be_hidden()
    titles = picks.all_inner_texts()
    assert len(titles) == 4 and "Overbooked" in titles, titles
    text_inside(page, "#view-score")
    assert axe_violations(page) == []
    # A tap on a game draws its form, and the tab keeps it.
    picks.filter(has_text=re.compile("^Planes$")).tap()
    expect(page.locator("#score-game")).to_have_value("planes")
    expect(page.locator("#score-form fieldset.player").first).to_be_visible()
    expect(page.locator("#score-send")).to_be_visible()
    assert page.errors == []


# -- item 7: History's table in words, and it fits the phone -----------------------------------

@VIEWPORTS
def test_historys_table_speaks_words_and_fits_the_phone(running_box, phone, viewport):
    box = running_box
    assert box.line("new now-boarding players=2 timer=off") == "ok"
    while box.state()["round"] < 4:
        assert box.line("press next") == "ok"
    page = phone(viewport, "history", bypass_csp=True)
    game = page.locator("details.history-game").first
    expect(game).to_be_visible()
    game.locator("summary").tap()
    scroller = game.locator(".table-scroll")
    expect(scroller).to_be_visible()
    headings = game.locator("th[scope=col]").all_inner_texts()
    assert headings == ["Round", "Time used (s)", "Complaints", "In all"], headings
    for heading in headings:
        assert not re.search(r"[_]|\b[a-z]+-[a-z]+\b", heading), heading
    widths = scroller.evaluate("(node) => [node.scrollWidth, node.clientWidth]")
    cells = scroller.evaluate("(node) => [...node.querySelectorAll('thead th, tbody tr:first-child"
                              " td')].map((c) => [c.textContent, Math.round(c.offsetWidth)])")
    assert widths[0] <= widths[1], (widths, cells)  # no sideways scroll
    text_inside(page, "#view-history")
    assert axe_violations(page) == []
    assert page.errors == []


# -- item 7: no clock before an untimed flight ---------------------------------------------------

@VIEWPORTS
def test_the_ready_screen_of_an_untimed_game_shows_no_clock(running_box, phone, viewport):
    box = running_box
    page = phone(viewport, bypass_csp=True)
    assert box.line("new now-boarding players=3 timer=off") == "ok"
    tap_until(page, box, "ready")
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "ready")
    expect(page.locator("#timer-clock")).to_be_hidden()
    no_time_up(page)
    text_inside(page, "#view-timer")
    assert axe_violations(page) == []
    assert page.errors == []


# -- items 2 and 7: the long brisk card is read whole; Done says it loses ---------------------

def to_a_long_brisk_card(box):
    """4 players, brisk, digital weather, VIPs on and never served, two complaints filed: to
    the card where the Morning deck runs out with its VIPs unserved (the Afternoon begins:
    its weather routes, the VIP complaints, the coach's warning)."""
    assert box.line("new now-boarding players=4 pace=brisk vip=on timer=off weather=digital "
                    "seed=2") == "ok"
    for _ in range(300):
        state = box.state()
        plan = state.get("turnaround")
        if plan and plan["unserved_vips"] and plan["new_stage"]:
            return state
        if state["step"] == "turnaround" and state["complaints"] + state["pending"] < 2:
            assert box.line("press up") == "ok"  # two complaints: the coach warns too
            continue
        press = "press down" if state["step"] == "vip" and state["ask"] == "serve?" \
            else "press next"
        assert box.line(press) == "ok"
    raise AssertionError("no such card")


def last_line_readable(page):
    """The card's last line is inside the step's area and not under the buttons; or the area
    scrolls and says so (a mark that more lies below)."""
    return page.evaluate("""() => {
        const main = document.querySelector('.timer-main');
        const last = [...document.querySelectorAll('#timer-card > *')]
            .filter((node) => !node.hidden && node.offsetParent !== null
                    && node.textContent.trim()).pop();
        const controls = document.querySelector('#timer-controls').getBoundingClientRect();
        const box = last.getBoundingClientRect(), area = main.getBoundingClientRect();
        const under = box.right > controls.left && box.left < controls.right
            && box.bottom > controls.top && box.top < controls.bottom;
        return {text: last.textContent.slice(0, 40), bottom: box.bottom, area: area.bottom,
                under, height: innerHeight, say: document.querySelector('#timer-say')
                .textContent,
                scrolls: main.scrollHeight > main.clientHeight + 1,
                marked: main.classList.contains('more-below')};
    }""")


@VIEWPORTS
def test_a_long_brisk_card_is_read_whole_and_done_says_it_loses(running_box, phone, viewport,
                                                                 shoot):
    box = running_box
    page = phone(viewport, bypass_csp=True)
    to_a_long_brisk_card(box)
    settle(page, box)
    seen = last_line_readable(page)
    if viewport is PORTRAIT:
        shoot(page, "timer-brisk-long-card")
    if seen["scrolls"]:  # a card longer than the phone says it scrolls...
        assert seen["marked"], seen
        page.locator(".timer-main").evaluate("(node) => node.scrollTo(0, node.scrollHeight)")
        expect(page.locator(".timer-main")).not_to_have_class(re.compile(r"\bmore-below\b"))
        seen = last_line_readable(page)
    # ...and its last line, scrolled to, is inside the step's area, never under the buttons.
    assert seen["bottom"] <= min(seen["area"], seen["height"]) + 1 and not seen["under"], seen
    text_inside(page, "#view-timer")
    assert axe_violations(page) == []
    # The third complaint set on the card: the big button and the coach say the tap loses.
    while box.state()["complaints"] + box.state()["pending"] < 3:
        assert tap(page, "#timer-up") == "ok"
        settle(page, box)
    expect(page.locator("#timer-primary")).to_have_text("Done: lose the game")
    expect(page.locator("#timer-coach")).to_contain_text("Done loses the game")
    expect(page.locator("#timer-pause")).to_be_hidden()  # no Buy in a losing round
    assert tap(page, "#timer-primary") == "ok"
    assert box.state()["result"] == "lose"
    assert page.errors == []


# -- items 5 and 9: the Which-VIP rows are tapped; the result card splits the complaints ------

@VIEWPORTS
def test_which_vip_rows_are_tapped_and_the_result_card_splits_the_complaints(
        running_box, phone, viewport):
    box = running_box
    page = phone(viewport, bypass_csp=True)
    assert box.line("new now-boarding players=3 vip=on timer=off seed=1") == "ok"
    while box.state()["step"] != "vip":
        assert box.line("press next") == "ok"
    assert box.line("press next") == "ok"  # yes: which card?
    settle(page, box)
    rows = page.locator("#timer-choices .choice-row")
    expect(rows).to_have_count(3)
    # No card is chosen for the table (issue #36, item 5): no row chosen, the big button says
    # to tap the card, and a hurried tap on it is refused, never a card served.
    expect(page.locator("#timer-choices li.chosen")).to_have_count(0)
    expect(page.locator("#timer-choices [aria-current]")).to_have_count(0)
    assert box.state()["vip_offer"] is None
    expect(page.locator("#timer-primary")).to_have_text("Tap the card")
    text_inside(page, "#view-timer")
    assert tap(page, "#timer-primary").startswith("err not-allowed")
    expect(page.locator("#timer-reply")).to_contain_text("The box refused: which VIP card?")
    assert box.state()["vips_served"] == [] and box.state()["ask"] == "which"
    rows.nth(2).tap()  # the row itself, not UP / DOWN: from none, one UP reaches the last
    expect(page.locator("#timer-choices li").nth(2)).to_have_class("chosen")
    card = box.state()["vip_choices"][2]
    assert box.state()["vip_offer"] == card
    expect(page.locator("#timer-primary")).to_have_text(f"It is {card}")
    text_inside(page, "#view-timer")
    assert axe_violations(page) == []
    assert tap(page, "#timer-primary") == "ok"  # the big button confirms the row tapped
    assert box.state()["vips_served"][0]["card"] == card
    # To the end with one complaint filed: the result card says where it came from.
    filed = False
    for _ in range(600):
        state = box.state()
        if state["result"] is not None:
            break
        if state["step"] == "anger" and state["ask"] == "count" and not filed:
            assert box.line("press up") == "ok"
            filed = True
        press = "press down" if state["step"] == "vip" and state["ask"] == "serve?" \
            else "press next"
        assert box.line(press) == "ok"
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "over")
    split = box.state()
    expect(page.locator("#timer-score")).to_contain_text(re.compile(
        r"Complaints \d+: waiting passengers \d+, unserved VIPs \d+, undelivered at the end \d+"))
    assert split["complaints"] >= 1
    text_inside(page, "#view-timer")
    assert axe_violations(page) == []
    assert page.errors == []


# -- item 7: the free-tile page offers only the other tile -------------------------------------

@VIEWPORTS
def test_the_free_tile_page_offers_only_the_other_tile(running_box, phone, viewport):
    box = running_box
    page = phone(viewport, bypass_csp=True)
    # The free-tile page is the full flow's (a game journaled before issue #35's short flow,
    # whose "planes" page holds every player's tile at once).
    assert box.line("new now-boarding players=3 pace=steps flow=full") == "ok"
    while box.state()["setup_page"]["key"] != "free-0":
        assert box.line("press next") == "ok"
    settle(page, box)
    expect(page.locator("#timer-down")).to_have_text("Speed tile instead")
    expect(page.locator("#timer-up")).to_be_hidden()  # the seat is already chosen
    assert tap(page, "#timer-down") == "ok"
    settle(page, box)
    expect(page.locator("#timer-up")).to_have_text("Seat tile instead")
    expect(page.locator("#timer-down")).to_be_hidden()
    expect(page.locator("#timer-primary")).to_have_text("P1 takes the speed tile")
    text_inside(page, "#view-timer")
    assert axe_violations(page) == []
    assert page.errors == []
