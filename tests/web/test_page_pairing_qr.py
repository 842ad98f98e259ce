"""The page opened from the box's QR code pairs by itself (issue #38, 6).

While pairing is open, the Table page's QR code holds ``http://<box>/P/<secret>``: the page
opened there takes the secret out of the address bar (``history.replaceState``) and pairs
with it, no code asked for or typed. The pairing form says both ways: scan the QR code on the
box, or type the code. A link from an earlier window is refused on the form, and typed codes
used up say to scan the QR code. The phone reads the link as a phone does, off the panel.
"""

from urllib.parse import urlsplit

from playwright.sync_api import expect

from companion.protocol.lines import Line
from companion.web.pairing import CLOSED_MESSAGE, SPENT_MESSAGE
from tests.web.page_support import PORTRAIT
from tests.web.test_pairing_secret import link_on_the_box, open_pairing_at_the_table_page


def page_at(box, path):
    return f"http://127.0.0.1:{box.port}{path}"


def test_a_page_opened_from_the_qr_code_pairs_and_forgets_the_secret(make_web_box,
                                                                     open_phone):
    box = make_web_box(pair_loopback=True)
    open_pairing_at_the_table_page(box)
    path = urlsplit(link_on_the_box(box)).path
    page = open_phone(page_at(box, path), PORTRAIT)
    expect(page.locator("body")).to_have_attribute("data-access", "paired")
    expect(page.locator("#link-status")).to_have_text("Live")
    expect(page.locator("#pairing")).to_be_hidden()
    assert urlsplit(page.url).path == "/"  # the secret left the address bar
    assert not box.service.channel.pairing_open  # the window ended with the pairing
    assert page.errors == [] and page.refused == []
    page.go_back()  # and no entry of the history holds it: before the page, nothing
    assert "/P/" not in page.url


def test_a_stale_link_is_refused_on_the_form_and_typed_codes_used_up_say_scan(make_web_box,
                                                                             open_phone):
    box = make_web_box(pair_loopback=True)
    open_pairing_at_the_table_page(box)
    stale = urlsplit(link_on_the_box(box)).path
    assert box.service.channel.line(Line("press back")) == "ok"  # BACK there closes it
    page = open_phone(page_at(box, stale), PORTRAIT)
    expect(page.locator("#pair-message")).to_have_text(CLOSED_MESSAGE)
    expect(page.locator("body")).to_have_attribute("data-access", "unpaired")
    expect(page.locator("#pairing")).to_contain_text(
        "scan the QR code on the box, or type the code")
    assert urlsplit(page.url).path == "/"

    box.open_pairing()
    assert box.post("/api/pair/start", source="127.0.0.9").status == 200
    code = box.pair_code()
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for number in range(19):  # guests spend the window's typed codes
        box.post("/api/pair", f'{{"code": "{wrong}"}}'.encode(),
                 source=f"127.0.0.{40 + number // 3}")
    page.locator("#pair-code").fill(code)
    page.locator("#pair-send").tap()
    expect(page.locator("#pair-message")).to_have_text(SPENT_MESSAGE)
    expect(page.locator("body")).to_have_attribute("data-access", "unpaired")
