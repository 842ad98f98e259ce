"""Every tab of the table page at phone size (issue #20, item 9, and its done-when).

On a 360 x 740 touch phone, with a game in play and one in history, for each of the five
tabs: axe-core (vendored under tests/web/vendor, injected by the test, never served by the
page) finds no serious or critical violation; nothing overflows sideways; every piece of
text is at least 16 px. The page has a favicon. The ids of the tabs are the page's own
(app.js's stable hooks).
"""

from pathlib import Path

import pytest
from playwright.sync_api import expect

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
TABS = ("box", "timer", "score", "bank", "history")
PHONE = {"width": 360, "height": 740}


UPGRADES = ("new now-boarding players=3 seed=1", *("press next",) * 14, "press next",
            "press next", "press next", "press next")


@pytest.fixture
def phone_page(browser, running_box):
    """The page on a touch phone, a Now Boarding game in upgrades and one game in history."""
    box = running_box
    assert box.line("new timer seconds=30") == "ok"
    for line in UPGRADES:
        assert box.line(line) == "ok"
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                  has_touch=True, bypass_csp=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(box.url)
    expect(page.locator("#link-status")).to_have_text("Live")
    expect(page.locator("#box-choices li")).to_have_count(5)
    yield page
    context.close()


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
    page.evaluate("document.fonts.ready.then(() => true)")


def serious_violations(page):
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ["violations"]});
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => ({id: v.id, impact: v.impact,
                          nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}));
    }""")
    return found


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
