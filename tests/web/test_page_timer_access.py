"""What an unpaired page shows (issue #20, item 6): only what it can do.

- Without ``public_mirror``: the pairing form alone, no tabs, no dead buttons, no black
  panel, and no request the box refuses (so no console error either).
- With ``public_mirror``: the pairing form and the box's screen as a step card, read-only
  (no buttons, no tabs).
- After pairing: everything, and no error left on screen.
"""

from playwright.sync_api import expect

from companion.protocol.lines import Line
from companion.web.pairing import CLOSED_MESSAGE
from tests.web.page_support import PORTRAIT


def send(box, text):
    """A line to the box past the HTTP rules (the loop's own channel): its reply."""
    return box.service.channel.line(Line(text))


def url(box):
    return f"http://127.0.0.1:{box.port}/"


def ask_for_a_code(page):
    """Tap "Show a code on the box" and wait for the box's answer: only then does the box
    show the new code (a state the page already had, "pending", says nothing of it)."""
    with page.expect_response(lambda response: response.url.endswith("/api/pair/start")):
        page.locator("#pair-start").tap()


def pair_code(box):
    code = box.pair_code()
    assert code is not None, box.display_text()
    return code


def test_unpaired_page_shows_only_the_pairing_form_then_everything(make_web_box, open_phone,
                                                                   shoot):
    box = make_web_box(pair_loopback=True)
    assert send(box, "new now-boarding players=3") == "ok"
    page = open_phone(url(box), PORTRAIT)
    expect(page.locator("body")).to_have_attribute("data-access", "unpaired")
    expect(page.locator("#pairing")).to_be_visible()
    for hidden in ("#tabs", "#view-box", "#button-next", "#frame", "#settings"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(page.locator("#link-status")).to_have_text("Not paired yet")
    expect(page.locator("#pair-state")).to_have_text("No code asked for yet.")
    # Pairing is closed until someone at the box opens it: the page says how (issue #28).
    ask_for_a_code(page)
    expect(page.locator("#pair-message")).to_have_text(CLOSED_MESSAGE)
    shoot(page, "pairing-closed")
    box.open_pairing()
    # A wrong code first: the error shows, and goes when the right one pairs.
    ask_for_a_code(page)
    expect(page.locator("#pair-state")).to_contain_text("The box shows your code for")
    code = pair_code(box)
    page.fill("#pair-code", "0" * len(code) if code != "0" * len(code) else "1" * len(code))
    page.locator("#pair-send").tap()
    expect(page.locator("#pair-message")).to_have_text(
        "That is not the code the box shows: try again.")
    shoot(page, "pairing-wrong-code")
    expect(page.locator("#pair-state")).to_have_attribute("data-state", "pending")
    page.fill("#pair-code", pair_code(box))
    page.locator("#pair-send").tap()
    expect(page.locator("#pairing")).to_be_hidden()
    expect(page.locator("#pair-message")).to_have_text("")
    expect(page.locator("#link-status")).to_have_text("Live")
    expect(page.locator("#tabs")).to_be_visible()
    expect(page.locator("#button-next")).to_contain_text("Next page")
    # Until it paired, the page asked the box for nothing it would refuse but pairing.
    assert [status for status, url in page.refused
            if not url.endswith(("/api/pair", "/api/pair/start"))] == []
    assert [error for error in page.errors if "403" not in error] == []

    # "Forget phones" on the box: the page is back to the form, which says no code waits.
    assert send(box, "press back") == "ok"
    assert send(box, "press up") == "ok"  # up from the top wraps to the last row
    box.display_text()  # drawn
    shown = box.controller.last_screen
    assert shown.lines[shown.selected] == "Forget phones"
    assert send(box, "press next") == "ok"
    expect(page.locator("#pairing")).to_be_visible()
    expect(page.locator("#tabs")).to_be_hidden()
    expect(page.locator("#pair-state")).to_have_text("No code asked for yet.")
    expect(page.locator("#pair-message")).to_have_text("")


def test_unpaired_page_watches_read_only_where_the_mirror_is_public(make_web_box, open_phone,
                                                                    shoot):
    box = make_web_box(pair_loopback=True, public_mirror=True)
    assert send(box, "new now-boarding players=3") == "ok"
    page = open_phone(f"{url(box)}?view=timer", PORTRAIT)
    expect(page.locator("body")).to_have_attribute("data-access", "watching")
    expect(page.locator("#pairing")).to_be_visible()
    expect(page.locator("#view-box")).to_be_visible()
    expect(page.locator("#box-heading")).to_have_text("Setup 1 of 2: the table")
    expect(page.locator("#box-say")).to_contain_text("As in the picture: board 2-3 side up")
    for hidden in ("#tabs", "#box-buttons", "#view-timer", "#settings"):
        expect(page.locator(hidden)).to_be_hidden()
    assert page.refused == [] and page.errors == []
    shoot(page, "pairing-watching")
