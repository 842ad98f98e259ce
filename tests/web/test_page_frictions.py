"""The page's last frictions (issue #27, "The page", items 1 to 7 and 9), at 360 x 740 and
740 x 360 in Debian's Chromium, against a real `companion run --web` process.

Every wait is for what the test then reads (Playwright's ``expect``), never a fixed time."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.web.page_support import (
    LANDSCAPE,
    PORTRAIT,
    SMALL,
    VIEWPORTS,
    axe_violations,
    fits,
    settle,
    tap,
    tap_until,
    to_the_flight,
)

# -- item 1: a flight ended early is "Flight ended", never "time is up" ------------------------

@VIEWPORTS
def test_a_flight_ended_early_is_flight_ended_with_a_short_buzz(running_box, phone, viewport):
    page = phone(viewport, recorders=("cues",))
    box = running_box
    assert box.line("new now-boarding players=3 timer=120") == "ok"
    to_the_flight(page, box)
    settle(page, box)
    expect(page.locator("#timer-primary")).to_have_text("End flight")
    assert tap(page, "#timer-primary") == "ok"
    assert box.state()["flights"][-1]["ended"] == "next"
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "between")
    expect(page.locator("#timer-polite")).to_have_text("Flight ended")
    expect(page.locator("#timer-assertive")).not_to_have_text(re.compile("time is up", re.I))
    cues = page.evaluate("window.__cues")
    assert ["vibrate", "[80]"] in cues
    assert ["vibrate", "[400,150,400]"] not in cues
    assert "TIME IS UP" not in page.locator("body").inner_text().upper()
    assert page.errors == []


# -- item 2: the Settings panel inside the screen, every control reachable ---------------------

SETTINGS_CONTROLS = ("#sound-on", "#sound-volume", "#sound-mute", "#cue-vibrate", "#cue-speak",
                     "#wake-on")


def settings_reach(page):
    """The panel's box, and for each control whether it lies inside the screen and a tap at
    its centre lands on it (or on its own label), as the page lies now, unscrolled."""
    return page.evaluate("""(ids) => {
        const inside = (box) => box.left >= 0 && box.top >= 0
            && box.right <= innerWidth && box.bottom <= innerHeight;
        const panel = document.querySelector('.settings-body').getBoundingClientRect();
        const controls = {};
        for (const id of ids) {
            const node = document.querySelector(id);
            const box = node.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2,
                                                  box.top + box.height / 2);
            controls[id] = {inside: inside(box), hit: hit === node
                || (hit !== null && hit.closest('label') === node.closest('label')
                    && node.closest('label') !== null),
                box: [box.left, box.top, box.right, box.bottom].map(Math.round)};
        }
        return {panel: inside(panel), box: [panel.left, panel.top, panel.right, panel.bottom]
                .map(Math.round), width: innerWidth, height: innerHeight, controls};
    }""", list(SETTINGS_CONTROLS))


@pytest.mark.parametrize("view", ["timer", "box"])
@pytest.mark.parametrize("viewport", [PORTRAIT, LANDSCAPE, SMALL],
                         ids=["portrait", "landscape", "small"])
def test_the_settings_panel_is_inside_the_screen_and_every_control_reachable(
        running_box, phone, shoot, viewport, view):
    page = phone(viewport, view)
    assert running_box.line("new now-boarding players=3") == "ok"  # a game in play
    page.locator("#settings summary").tap()
    expect(page.locator("#wake-status")).to_be_visible()
    reach = settings_reach(page)
    assert reach["panel"], reach
    for control, found in reach["controls"].items():
        assert found["inside"] and found["hit"], (control, reach)
    if viewport is LANDSCAPE and view == "timer":
        shoot(page, "settings-landscape")
    # Reachable is usable: each switch changes when tapped, where it is.
    for control in ("#sound-mute", "#cue-vibrate", "#cue-speak", "#wake-on"):
        before = page.locator(control).is_checked()
        page.locator(control).tap()
        expect(page.locator(control)).to_be_checked(checked=not before)
    page.locator("#sound-on").tap()
    expect(page.locator("#sound-on")).to_have_attribute("aria-pressed", "true")
    # The panel closes again from its own button, which it never covers.
    page.locator("#settings summary").tap()
    expect(page.locator("#wake-status")).to_be_hidden()
    assert page.errors == []


# -- item 6: the Score tab opens on the game just played, or in play ---------------------------

@VIEWPORTS
@pytest.mark.parametrize("game", ["now-boarding", "now-boarding-v3", "planes"])
def test_the_score_tab_opens_on_the_game_in_play(running_box, phone, viewport, game):
    page = phone(viewport, "box")
    assert running_box.line(f"new {game} players=3") == "ok"
    expect(page.locator("#box-heading")).not_to_have_text("Choose a game")
    page.locator("#tab-score").tap()
    expect(page.locator("#score-game")).to_have_value(game)
    expect(page.locator("#score-form > *").first).to_be_attached()
    # A game the player picks here stays picked, whatever the box plays.
    page.locator("#score-game").select_option("overbooked")
    page.locator("#tab-box").tap()
    page.locator("#tab-score").tap()
    expect(page.locator("#score-game")).to_have_value("overbooked")
    assert page.errors == []


def test_the_score_tab_opens_on_the_game_just_played(running_box, phone):
    """A Now Boarding game played to its end stays the box's game: the Score tab opens on its
    final count, not on the first form of the list."""
    page = phone(PORTRAIT, "box")
    box = running_box
    assert box.line("new now-boarding players=2") == "ok"
    for _ in range(400):
        if box.state()["result"] is not None:
            break
        assert box.line("press next") == "ok"
    assert box.state()["result"] is not None
    page.locator("#tab-score").tap()
    expect(page.locator("#score-game")).to_have_value("now-boarding")
    expect(page.locator("#score-source")).to_be_attached()
    assert page.errors == []


# -- item 7: axe clean on every view and state the browser tests reach -------------------------

def axe_clean(page, where, found):
    """Run axe now; note ``where`` with what it found (the test asserts them all at once)."""
    violations = axe_violations(page)
    if violations:
        found[where] = violations


@VIEWPORTS
def test_axe_finds_nothing_on_any_view_or_state(running_box, phone, viewport):
    box = running_box
    page = phone(viewport, bypass_csp=True)  # axe is injected
    found = {}
    expect(page.locator("#view-timer")).to_have_attribute("data-mode", "menu")
    axe_clean(page, "timer: the games page", found)
    with page.expect_response(lambda r: r.url.endswith("/api/line")):
        page.locator("#timer-menu .menu-row", has_text=re.compile("^Now Boarding$")).tap()
    expect(page.locator("#timer-options")).to_be_visible()
    axe_clean(page, "timer: the options page", found)
    assert box.line("new now-boarding players=3 timer=10") == "ok"
    expect(page.locator("#view-timer")).not_to_have_attribute("data-mode", "menu")
    axe_clean(page, "timer: setup", found)
    tap_until(page, box, "ready")
    axe_clean(page, "timer: ready", found)
    assert tap(page, "#timer-primary") == "ok"
    view = page.locator("#view-timer")
    expect(view).to_have_class(re.compile(r"\blast-seconds\b"))
    axe_clean(page, "timer: the last 10 s", found)
    expect(view).to_have_attribute("data-mode", "between", timeout=30_000)
    axe_clean(page, "timer: maintenance", found)
    for _ in range(400):
        if box.state()["result"] is not None:
            break
        assert box.line("press next") == "ok"
    expect(view).to_have_attribute("data-mode", "over")
    axe_clean(page, "timer: the game over", found)
    page.locator("#settings summary").tap()
    expect(page.locator("#wake-status")).to_be_visible()
    axe_clean(page, "settings", found)
    page.locator("#settings summary").tap()
    for tab in ("box", "score", "bank", "history"):
        page.locator(f"#tab-{tab}").tap()
        expect(page.locator(f"#view-{tab}")).to_be_visible()
        if tab == "score":
            expect(page.locator("#score-form > *").first).to_be_attached()
        if tab == "history":
            game = page.locator("details.history-game").first
            expect(game).to_be_visible()
            expect(page.locator("#history-message")).to_have_text("")
            game.locator("summary").tap()
            expect(game.locator(".table-scroll")).to_be_visible()
        axe_clean(page, tab, found)
    page.locator("#tab-score").tap()
    page.locator("#score-game").select_option("overbooked")
    expect(page.locator("button.seat").first).to_be_visible()
    axe_clean(page, "score: overbooked", found)
    assert found == {}, json.dumps(found, indent=1)


# -- item 3: the menu and a game's options as the page's own controls, remembered --------------

KEY_HINTS = re.compile(r"UP/D|NEXT (ok|go|start)|option \d+ of \d+|fixed here")


def sentence(text):
    text = text.strip()
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else f"{text}."


def expect_the_options_form(page, options, values):
    """Each option of the box's definitions is a labelled group of choices with its sentence,
    the choice ``values`` names checked."""
    for option in options:
        if len(option["choices"]) < 2:  # a choice of one (the seed) is not asked on the page
            continue
        group = page.locator(f'#timer-options fieldset[data-option="{option["key"]}"]')
        expect(group.locator("legend")).to_have_text(option["label"])
        expect(group.locator("input[type=radio]")).to_have_count(len(option["choices"]))
        if option["explain"]:
            expect(group.locator(".explain")).to_have_text(sentence(option["explain"]))
        checked = group.locator(f'input[value="{values[option["key"]]}"]')
        expect(checked).to_be_checked()


@VIEWPORTS
def test_the_menu_and_a_games_options_are_the_pages_controls_and_remembered(
        running_box, phone, shoot, viewport):
    page = phone(viewport)
    box = running_box
    name = "portrait" if viewport is PORTRAIT else "landscape"
    # The games page whole: every row of the box's menu, a button each.
    rows = box.request("GET", "/api/screen").json["choices"]
    assert len(rows) > 3
    expect(page.locator("#timer-menu .menu-row")).to_have_text(rows)
    assert not KEY_HINTS.search(page.locator("#view-timer").inner_text())
    shoot(page, f"menu-games-{name}")
    with page.expect_response(lambda r: r.url.endswith("/api/line")):
        page.locator("#timer-menu .menu-row", has_text=re.compile("^Now Boarding$")).tap()
    expect(page.locator("#timer-options")).to_be_visible()
    menu = box.state()["menu"]
    assert menu["page"] == "options" and menu["game"] == "now-boarding"
    options = menu["options"]
    expect_the_options_form(page, options, menu["values"])
    assert not KEY_HINTS.search(page.locator("#view-timer").inner_text())
    shoot(page, f"menu-options-{name}")

    # The questions first; the rest under "More options" (issue #35), opened here.
    page.locator("#timer-options details.more-options > summary").tap()
    # Choose the last choice of every option the menu offers, and start.
    chosen = {option["key"]: option["choices"][-1] for option in options
              if len(option["choices"]) > 1 and option["shown_when"] is None}
    for key, value in chosen.items():
        page.locator(f'#timer-options input[name="option-{key}"][value="{value}"]').tap()
    expect(page.locator("#timer-primary")).to_have_text("Start game")
    assert tap(page, "#timer-primary") == "ok"
    state = box.state()
    assert state["game"] == "now-boarding"
    assert {key: state["options"][key] for key in chosen} == chosen

    # The next game starts from them: in the box's own menu and on the page.
    assert box.line("press back") == "ok"  # the menu, over the game
    expect(page.locator("#timer-menu .menu-row.chosen")).to_have_text("Back to game")
    with page.expect_response(lambda r: r.url.endswith("/api/line")):
        page.locator("#timer-menu .menu-row", has_text=re.compile("^Now Boarding$")).tap()
    expect(page.locator("#timer-primary")).to_have_text("Yes, replace it")
    assert tap(page, "#timer-primary") == "ok"
    expect(page.locator("#timer-options")).to_be_visible()
    menu = box.state()["menu"]
    assert {key: menu["values"][key] for key in chosen} == chosen
    expect_the_options_form(page, options, menu["values"])
    # Back leaves the options whole, to the games list.
    page.locator("#timer-back").tap()
    expect(page.locator("#timer-menu")).to_be_visible()
    assert box.state()["menu"]["page"] == "games"
    assert page.errors == []


# -- item 5: words, after a WIN and on the Score tab -------------------------------------------

RAW_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")


@VIEWPORTS
def test_a_win_with_two_complaints_is_no_warning_and_the_score_tab_speaks_words(
        running_box, phone, viewport):
    page = phone(viewport)
    box = running_box
    assert box.line("new now-boarding players=3") == "ok"
    for _ in range(600):
        state = box.state()
        if state["result"] is not None:
            break
        keys = box.request("GET", "/api/screen").json["keys"]
        filing = state["step"] == "anger" and keys.get("next", "").startswith("No complaint")
        assert box.line("press up" if filing and state["complaints"] < 2 else "press next") \
            == "ok"
    assert (state["result"], state["complaints"]) == ("win", 2)
    expect(page.locator("#timer-verdict")).to_have_text("WIN")
    complaints = page.locator("#timer-complaints")
    expect(complaints).to_have_text("Complaints 2 of 3")
    expect(complaints).not_to_have_class(re.compile(r"\bdanger\b"))

    # The Score tab: its labels and its verdict in words, never a field's name.
    page.locator("#tab-score").tap()
    expect(page.locator("#score-game")).to_have_value("now-boarding")
    expect(page.locator("#score-source")).to_contain_text("Loaded from")
    page.locator("#score-send").tap()
    expect(page.locator("#score-result .verdict")).to_contain_text("WIN: 2 complaints in all")
    text = page.locator("#view-score").inner_text()
    assert not RAW_NAME.search(text), RAW_NAME.search(text)
    for label in page.locator("#view-score label, #view-score th, #view-score li").all():
        words = label.inner_text()
        assert not re.search(r"\b[a-z]+-[a-z]+s?\b:", words), words
    # Planes' result table: its categories in words too.
    page.locator("#score-game").select_option("planes")
    expect(page.locator("#score-form fieldset.player").first).to_be_visible()
    page.locator("#score-send").tap()
    headers = page.locator("#score-result th[scope=col]")
    expect(headers.first).to_be_visible()
    for header in headers.all_inner_texts():
        assert header == "#" or (not re.search(r"[-_]", header)
                                 and header[:1] != header[:1].lower()), header
    assert page.errors == []


# -- item 4: upgrades say how the table pays, what the money is, and their buttons fit ---------

@VIEWPORTS
def test_upgrades_say_how_to_pay_and_their_buttons_fit(running_box, phone, viewport):
    page = phone(viewport)
    box = running_box
    assert box.line("new now-boarding players=3") == "ok"
    tap_until(page, box, "upgrades")
    say = page.locator("#timer-say")
    expect(say).to_contain_text("discarding delivered passenger cards")
    expect(say).to_contain_text("ticket prices add up")
    rows = page.locator("#timer-choices li")
    expect(rows).to_have_count(5)
    for row in rows.all_inner_texts():
        assert re.search(r"\$\d+|none left|holds it|the most", row), row
        assert re.search(r"left|in supply|holds it|the most", row), row
    fits(page)
    # Every button of the view on screen, its label on one line (two at most for the big one).
    sizes = page.evaluate("""() => [...document.querySelectorAll('#timer-controls button')]
        .filter((b) => !b.hidden).map((b) => {
            const box = b.getBoundingClientRect(), style = getComputedStyle(b);
            const lines = Math.round((b.clientHeight - parseFloat(style.paddingTop)
                - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight));
            const text = document.createRange(); text.selectNodeContents(b);
            const rects = [...text.getClientRects()].map((r) => Math.round(r.top));
            return {id: b.id, text: b.textContent, lines: new Set(rects).size,
                    right: box.right, bottom: box.bottom, width: innerWidth, height: innerHeight};
        })""")
    for button in sizes:
        assert button["right"] <= button["width"] and button["bottom"] <= button["height"], button
        assert button["lines"] <= (2 if button["id"] == "timer-primary" else 1), button
    expect(page.locator("#timer-pause")).to_have_text(re.compile(r"^Buy .+ for \$\d+$"))
    assert tap(page, "#timer-pause") == "ok"
    expect(page.locator("#timer-done")).to_contain_text(re.compile(r"in the supply\.$"))
    assert page.errors == []


# -- item 9: a tap on a stepper always counts ------------------------------------------------

def synthetic_tap(page, selector, *, on_root, click):
    """A touch tap at the centre of ``selector`` as the browser may deliver it: to the page's
    root (a touch that began while the page scrolled goes to the scroller) or to the button
    itself, with or without the click that follows (Chromium swallows the click of a tap that
    ends a scroll)."""
    page.evaluate("""([selector, onRoot, click]) => {
        const node = document.querySelector(selector);
        const box = node.getBoundingClientRect();
        const at = {clientX: box.left + box.width / 2, clientY: box.top + box.height / 2,
                    pointerId: 41, pointerType: "touch", isPrimary: true, bubbles: true,
                    composed: true};
        const target = onRoot ? document.documentElement : node;
        target.dispatchEvent(new PointerEvent("pointerdown", at));
        target.dispatchEvent(new PointerEvent("pointerup", at));
        if (click) target.dispatchEvent(new MouseEvent("click", {...at, detail: 1}));
    }""", [selector, on_root, click])


@pytest.mark.parametrize(("on_root", "click"), [(False, False), (True, False), (False, True)],
                         ids=["click-swallowed", "delivered-to-the-scroller", "plain"])
def test_a_tap_on_a_stepper_always_counts_once(running_box, phone, on_root, click):
    page = phone(PORTRAIT, "score")
    page.locator("#score-game").select_option("overbooked")
    plus = '.stepper[data-field="vouchers"][data-player="0"] button[aria-label$="more"]'
    expect(page.locator(plus)).to_be_visible()
    page.locator(plus).scroll_into_view_if_needed()
    vouchers = page.locator("#score-0-vouchers")
    expect(vouchers).to_have_value("0")
    synthetic_tap(page, plus, on_root=on_root, click=click)
    expect(vouchers).to_have_value("1")
    synthetic_tap(page, plus, on_root=on_root, click=click)
    expect(vouchers).to_have_value("2")
    # A real finger, and the keyboard: each counts once, never twice.
    page.locator(plus).tap()
    expect(vouchers).to_have_value("3")
    page.locator(plus).focus()
    page.keyboard.press("Enter")
    expect(vouchers).to_have_value("4")
    # A touch that moved (a scroll of its own) is no tap.
    page.evaluate("""(selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        const x = box.left + box.width / 2, y = box.top + box.height / 2;
        const root = document.documentElement;
        const at = (dy) => ({clientX: x, clientY: y + dy, pointerId: 42, pointerType: "touch",
                             bubbles: true});
        root.dispatchEvent(new PointerEvent("pointerdown", at(60)));
        root.dispatchEvent(new PointerEvent("pointerup", at(0)));
    }""", plus)
    page.locator(plus).tap()
    expect(vouchers).to_have_value("5")
    assert page.errors == []
