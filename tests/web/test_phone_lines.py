"""Issue #38, 7: a phone's lines are a phone's. Over loopback with ``pair_loopback``
(127.0.0.3 stands in for the table's paired phone): its ``screen`` line has no pairing code,
and no press of its (the page's Box tab sends presses) opens pairing, or starts an open
window again, while the box's own channels still do both."""

from companion.core.menu import TABLE_PAGE_ITEM
from companion.protocol.lines import Line
from tests.web.test_guest_flood import PHONE, pair_phone, post_from_phone


def to_the_table_page(box):
    """The box's own buttons (its channel) go to the menu's Table page screen."""
    items = box.controller.app.menu_items(box.controller.state)
    for _ in range(items.index(TABLE_PAGE_ITEM)):
        assert box.service.channel.line(Line("press down")) == "ok"
    assert box.service.channel.line(Line("press next")) == "ok"


def phone_line(box, cookie, text):
    answer = box.line(text, headers={"Cookie": cookie}, source=PHONE)
    assert answer.status == 200, answer.body
    return answer.json["reply"]


def test_a_paired_phones_screen_line_shows_no_pairing_code(make_web_box):
    box = make_web_box(pair_loopback=True)
    cookie = pair_phone(box)
    box.open_pairing()
    post_from_phone(box, "/api/pair/start")
    code = box.pair_code()
    assert code and code in " ".join(box.service.channel.line(Line("screen"))[3:].split())
    reply = phone_line(box, cookie, "screen")
    assert reply.startswith("ok ") and code not in reply


def test_a_phones_press_cannot_open_pairing_the_boxs_can(make_web_box):
    box = make_web_box(pair_loopback=True)
    cookie = pair_phone(box)
    to_the_table_page(box)
    assert phone_line(box, cookie, "press next").startswith("err box-only ")
    assert not box.controller.state.pairing  # nothing opened
    assert phone_line(box, cookie, "hold next").startswith("err ")
    assert box.controller.state.pairing is None
    assert box.service.channel.line(Line("press next")) == "ok"  # the box's own button
    assert box.controller.state.pairing is not None


def test_a_phone_pressing_pair_a_phone_again_keeps_the_window_and_its_code(make_web_box):
    """Pressing "Pair a phone" every half second from a phone started the window again each
    time, its code dropped, and stopped anyone pairing."""
    box = make_web_box(pair_loopback=True)
    cookie = pair_phone(box)
    to_the_table_page(box)
    assert box.service.channel.line(Line("press next")) == "ok"
    post_from_phone(box, "/api/pair/start")
    window = box.controller.state.pairing
    for _ in range(5):
        assert phone_line(box, cookie, "press next").startswith("err box-only ")
    assert box.controller.state.pairing == window and window.code == box.pair_code()
