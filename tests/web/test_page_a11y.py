"""Every tab of the table page at phone size (issue #20, item 9, and its done-when).

On a 360 x 740 touch phone, with a game in play and one in history, for each of the six
tabs: axe-core (vendored under tests/web/vendor, injected by the test, never served by the
page) finds no serious or critical violation; nothing overflows sideways; every piece of
text is at least 16 px. The page has a favicon. The ids of the tabs are the page's own
(app.js's stable hooks).

The Rules tab (issue #26, rules.js): its search keeps and marks the sections that mention
every word typed; the address #rules/KEY opens it at that section, on load and from a link
anywhere on the page, and Back returns to the view the link was in.
"""

import pytest
from playwright.sync_api import expect

from tests.web.page_support import PORTRAIT, serious_violations

TABS = ("box", "timer", "score", "bank", "history", "rules")


# The table, the planes, the draw, the weather, start, end, the anger page, the draw.
UPGRADES = ("new now-boarding players=3 seed=1", *("press next",) * 8)


@pytest.fixture
def phone_page(running_box, phone):
    """The page on a touch phone, a Now Boarding game in upgrades and one game in history."""
    box = running_box
    assert box.line("new timer seconds=30") == "ok"
    for line in UPGRADES:
        assert box.line(line) == "ok"
    page = phone(PORTRAIT, view=None, bypass_csp=True)  # the page's own view; axe is injected
    expect(page.locator("#box-choices li")).to_have_count(5)
    return page


def open_tab(page, tab):
    """Open a tab and wait for what it fetches to be drawn (History: the games and the end of
    "Loading…"; Score: the chosen game's form), and for the page's fonts: axe, the sizes and
    the overflow are read from the tab as it will stay, not half drawn."""
    page.locator(f"#tab-{tab}").tap()
    expect(page.locator(f"#view-{tab}")).to_be_visible()
    if tab == "history":
        expect(page.locator("details.history-game").first).to_be_visible()
        expect(page.locator("#history-message")).to_have_text("")
    if tab == "score":
        expect(page.locator("#score-game option").first).to_be_attached()
        expect(page.locator("#score-form > *").first).to_be_attached()
    if tab == "rules":
        expect(page.locator("#rules-text section")).to_have_count(len(RULES))
    page.evaluate("document.fonts.ready.then(() => true)")


def small_text(page):
    """Visible elements whose own text is smaller than 16 px (what they say, and the size)."""
    return page.evaluate("""() => {
        const small = [];
        for (const node of document.querySelectorAll("body *")) {
            const own = [...node.childNodes].filter((c) => c.nodeType === 3)
                .map((c) => c.textContent.trim()).join(" ").trim();
            if (!own || !node.getClientRects().length) continue;
            const style = getComputedStyle(node);
            if (style.visibility === "hidden" || node.closest("[hidden], .visually-hidden, svg"))
                continue;
            const size = parseFloat(style.fontSize);
            if (size < 16 && size > 0) small.push(`${own.slice(0, 30)} (${size}px)`);
        }
        return small;
    }""")


def overflow(page):
    return page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const wide = [...document.querySelectorAll("body *")].filter((node) => {
            const box = node.getBoundingClientRect();
            return node.getClientRects().length && box.right > width + 1
                && !node.closest(".table-scroll, .plane, .tabs");
        }).map((node) => node.id ? `#${node.id}`
                                 : `${node.tagName.toLowerCase()}.${node.className}`);
        return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5)};
    }""")


@pytest.mark.parametrize("tab", TABS)
def test_every_tab_passes_axe_fits_360_px_and_reads_at_16_px(phone_page, shoot, tab):
    page = phone_page
    open_tab(page, tab)
    if tab == "box":
        shoot(page, "box-upgrades")
    assert serious_violations(page) == []
    sideways = overflow(page)
    assert sideways["scroll"] <= sideways["width"], sideways
    assert sideways["wide"] == [], sideways
    assert small_text(page) == []


def test_the_settings_and_the_pairing_form_pass_axe(phone_page, shoot):
    page = phone_page
    page.locator("#settings summary").tap()
    expect(page.locator("#wake-status")).to_be_visible()
    shoot(page, "settings")
    assert serious_violations(page) == []
    assert small_text(page) == []
    assert overflow(page)["wide"] == []


def test_the_page_has_a_favicon(running_box):
    page = running_box.request("GET", "/")
    assert b'rel="icon" href="/static/favicon.svg"' in page.body
    icon = running_box.request("GET", "/static/favicon.svg")
    assert icon.status == 200 and icon.body.startswith(b"<svg")


# -- the Rules view (issue #26) -------------------------------------------------------------------

RULES = ("goal", "setup", "round", "flight", "planes", "moving", "boarding", "delivering",
         "weather", "anger", "complaints", "passengers", "stages", "upgrades", "final-round",
         "end", "vip")


def section_on_screen(page, key):
    """Whether the section's heading is in view, below the page's sticky header."""
    return page.evaluate("""(key) => {
        const heading = document.querySelector(`#rules-${key} h3`).getBoundingClientRect();
        const header = document.querySelector("header.top").getBoundingClientRect();
        return heading.top >= header.bottom - 1 && heading.bottom <= window.innerHeight;
    }""", key)


def test_rules_view_has_every_section_a_lesson_links_to(phone_page):
    page = phone_page
    open_tab(page, "rules")
    ids = page.locator("#rules-text section").evaluate_all("(nodes) => nodes.map((n) => n.id)")
    assert ids == [f"rules-{key}" for key in RULES]
    page.locator(".rules-sections summary").tap()
    expect(page.locator("#rules-contents")).to_be_visible()
    links = page.locator("#rules-contents a").evaluate_all(
        "(nodes) => nodes.map((n) => n.getAttribute('href'))")
    assert links == [f"#rules/{key}" for key in RULES]


def test_rules_search_keeps_and_marks_the_sections_that_mention_every_word(phone_page, shoot):
    page = phone_page
    open_tab(page, "rules")
    page.locator("#rules-search").fill("storm")
    expect(page.locator("#rules-status")).to_contain_text("sections mention “storm”")
    shown = page.locator("#rules-text section:not([hidden])")
    assert 1 < shown.count() < len(RULES)
    for text in shown.all_inner_texts():
        assert "storm" in text.lower()
    expect(page.locator("#rules-weather")).to_be_visible()
    expect(page.locator("#rules-delivering")).to_be_hidden()
    expect(page.locator('#rules-contents li[data-rule="delivering"]')).to_be_hidden()
    marks = page.locator("#rules-weather mark").all_inner_texts()
    assert marks and {mark.lower() for mark in marks} == {"storm"}
    assert serious_violations(page) == []
    assert small_text(page) == []

    page.locator("#rules-search").fill("storm seat")      # every word, anywhere in a section
    expect(page.locator("#rules-status")).to_contain_text("“storm seat”")
    for text in page.locator("#rules-text section:not([hidden])").all_inner_texts():
        assert "storm" in text.lower() and "seat" in text.lower()
    page.locator("#rules-search").fill("zeppelin")
    expect(page.locator("#rules-status")).to_have_text("No section mentions “zeppelin”.")
    expect(page.locator("#rules-text section:not([hidden])")).to_have_count(0)
    page.locator("#rules-search").fill("complaint")
    expect(page.locator("#rules-goal mark").first).to_be_visible()
    shoot(page, "rules")
    page.locator("#rules-search").fill("")
    expect(page.locator("#rules-text section:not([hidden])")).to_have_count(len(RULES))
    expect(page.locator("#rules-text mark")).to_have_count(0)
    expect(page.locator("#rules-status")).to_have_text("")


def test_rules_address_opens_the_view_at_its_section_on_load(phone_page, running_box):
    page = phone_page
    page.goto(f"{running_box.url}#rules/weather")
    expect(page.locator("#view-rules")).to_be_visible()
    expect(page.locator("#tab-rules")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#rules-weather")).to_have_class("current")
    expect(page.locator("#rules-weather h3")).to_be_focused()
    assert section_on_screen(page, "weather")
    assert not section_on_screen(page, "goal")
    assert serious_violations(page) == []
    assert overflow(page)["wide"] == []


def test_rules_link_elsewhere_opens_its_section_and_back_returns(phone_page):
    """A link to #rules/KEY in another view (a lesson's "More") opens the Rules view there;
    the browser's Back returns to the view it was tapped in; another tab drops the address."""
    page = phone_page
    open_tab(page, "timer")
    page.evaluate("""() => document.querySelector("#view-timer").append(Object.assign(
        document.createElement("a"), {href: "#rules/vip", id: "more", textContent: "More"}))""")
    page.locator("#more").tap()
    expect(page.locator("#view-rules")).to_be_visible()
    expect(page.locator("#rules-vip")).to_have_class("current")
    assert section_on_screen(page, "vip")
    assert page.evaluate("location.hash") == "#rules/vip"
    page.locator(".rules-sections summary").tap()
    page.locator('#rules-contents a[href="#rules/anger"]').tap()
    expect(page.locator("#rules-anger")).to_have_class("current")
    assert section_on_screen(page, "anger")
    page.go_back()
    expect(page.locator("#rules-vip")).to_have_class("current")
    page.go_back()
    expect(page.locator("#view-timer")).to_be_visible()
    assert page.evaluate("location.hash") == ""
    page.evaluate("location.hash = '#rules/end'")     # an address typed or set by a script
    expect(page.locator("#rules-end")).to_have_class("current")
    open_tab(page, "box")
    assert page.evaluate("location.hash") == ""
