"""The History view splits a Now Boarding game's complaints by source (issue #26, item 6).

On a 360 x 740 phone: a game played on the box (one waiting passenger complained in round 2,
two passengers were left undelivered at the end: one complaint) and one scored from its final
count (three undelivered, one unserved VIP). Each entry says its complaints in all and by
source: waiting passengers, unserved VIPs, undelivered at the end; the chart's legend names
the three sources.
"""

import json

import pytest
from playwright.sync_api import expect

from tests.web.page_support import PORTRAIT


def play_two_player_game(box):
    """A 2-player game with no timer, NEXT at every step: one complaint at round 2's anger
    step, two passengers undelivered at the exit. The finished game's state."""
    assert box.line("new now-boarding players=2 timer=off seed=5") == "ok"
    complained = False
    for _ in range(600):
        state = box.state()
        if state["phase"] == "over":
            return state
        if state["step"] == "anger" and state["round"] == 2 and not complained:
            assert box.line("press up") == "ok"
            complained = True
        elif state["step"] == "exit" and state["pending"] == 0:
            assert box.line("press up") == "ok"
            assert box.line("press up") == "ok"
        assert box.line("press next") == "ok"
    pytest.fail("the game does not end")


@pytest.fixture
def history_page(running_box, phone):
    played = play_two_player_game(running_box)
    assert (played["result"], played["complaints"], played["undelivered"]) == ("win", 2, 2)
    scored = {"players": 3, "complaints": 0, "undelivered": 3, "unserved_vips": 1}
    reply = running_box.line(f"score now-boarding {json.dumps(scored)}")
    assert reply.startswith("ok ")
    page = phone(PORTRAIT, "history")
    expect(page.locator("details.history-game")).to_have_count(2)
    return page


@pytest.mark.parametrize(("entry", "split", "words"), [
    (1, {"anger": "1", "vip": "0", "exit": "1"},
     "Complaints: 2 — waiting passengers 1, unserved VIPs 0, undelivered at the end 1."),
    (0, {"anger": "0", "vip": "1", "exit": "1"},
     "Complaints: 2 — waiting passengers 0, unserved VIPs 1, undelivered at the end 1."),
], ids=["played", "scored"])
def test_history_entry_splits_its_complaints_by_source(history_page, entry, split, words):
    game = history_page.locator("details.history-game").nth(entry)
    game.locator("summary").tap()
    line = game.locator("p.complaint-split")
    expect(line).to_be_visible()
    expect(line).to_have_text(words)
    for source, count in split.items():
        expect(line).to_have_attribute(f"data-{source}", count)


def test_history_chart_legend_names_the_three_sources_within_the_chart(history_page, shoot):
    game = history_page.locator("details.history-game").nth(1)   # the played game
    game.locator("summary").tap()
    chart = game.locator("svg.chart")
    expect(chart).to_be_visible()
    legend = chart.locator("text.legend").evaluate_all("(nodes) => nodes.map((n) => n.textContent)")
    assert legend == [
        "waiting passengers", "unserved VIPs", "undelivered at the end", "total so far"]
    # Every legend entry lies inside the chart's own width (the legend wraps).
    width = float(chart.get_attribute("viewBox").split()[2])
    ends = chart.locator("text.legend").evaluate_all(
        "(nodes) => nodes.map((n) => n.getBBox().x + n.getBBox().width)")
    assert max(ends) <= width
    game.scroll_into_view_if_needed()
    shoot(history_page, "history-split")
