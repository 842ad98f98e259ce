"""The screen model and its drawing (ui/screen.py, ui/render.py)."""

import pytest

from companion.ui.render import render
from companion.ui.screen import Screen, alert_lines, choice_line, fit
from companion.ui.views.menu import window


def lit(image, box):
    return image.crop(box).getbbox() is not None


def test_render_title_bar_is_inverted_and_body_is_dark_elsewhere():
    image = render(Screen("Title"))
    assert image.size == (128, 64) and image.mode == "1"
    assert image.getpixel((127, 0)) == 255  # title bar lit to the edge
    assert not lit(image, (0, 14, 128, 64))


def test_render_big_digits_fill_the_middle():
    image = render(Screen("T", big="1:30"))
    assert lit(image, (40, 14, 88, 44))


def test_render_alert_box_covers_the_bottom_two_lines():
    image = render(Screen("T", big="1:30", alert=alert_lines("nothing to undo")))
    assert image.getpixel((127, 63)) == 255


@pytest.mark.parametrize(("text", "width", "expected"), [
    ("short", 10, "short"),
    ("exactly-10", 10, "exactly-10"),
    ("much too long", 8, "much to~"),
])
def test_render_fit_cuts_with_a_mark(text, width, expected):
    assert fit(text, width) == expected


def test_render_alert_wraps_a_short_message_into_two_lines():
    lines = alert_lines("the duration changes only before the timer starts")
    assert len(lines) == 2 and all(len(line) <= 25 for line in lines)


@pytest.mark.parametrize("message", [
    "none of P1's starting routes is in the route guide: use start=quick or fix the guide",
    "the duration changes only before the timer starts and never after",
])
def test_render_alert_shows_a_long_refusal_whole(message):
    lines = alert_lines(message)
    assert " ".join(lines) == message and all(len(line) <= 25 for line in lines)
    assert 2 < len(lines) <= 5


def test_render_alert_box_leaves_no_stray_pixels_of_a_row_it_covers():
    # Three large rows, the last one framed: the two-line box starts inside that row.
    screen = Screen("P1 $750M round 1", ("Win check", "Lift region limit", "End turn"),
                    selected=2, alert=alert_lines("P1 must buy a starting route first"))
    image = render(screen)
    box_top = 64 - 9 * 2 - 1
    above = image.crop((0, 41, 128, box_top))  # the framed row's top, above the box
    assert not any(above.tobytes())
    assert all(image.getpixel((x, box_top)) for x in range(128))  # the box itself


def test_render_choice_line_right_aligns_the_value():
    assert choice_line("Seconds", "60") == "Seconds          <60>"
    assert len(choice_line("A very long label indeed", "official")) == 21


def test_render_screen_refuses_lines_and_big_together():
    with pytest.raises(ValueError):
        Screen("T", lines=("a",), big="1:00")


@pytest.mark.parametrize(("count", "cursor", "shown"), [
    (2, 0, range(0, 2)), (5, 0, range(0, 3)), (5, 2, range(1, 4)), (5, 4, range(2, 5)),
])
def test_render_menu_window_keeps_the_cursor_visible(count, cursor, shown):
    assert window(count, cursor) == shown


def test_render_selected_row_is_framed_not_filled_like_the_title():
    image = render(Screen("Choose a game", ("Now Boarding", "Planes", "Round timer"),
                          selected=0))
    title_row = [image.getpixel((x, 6)) for x in range(128)]
    selected_row = [image.getpixel((x, 20)) for x in range(128)]
    assert sum(1 for pixel in title_row if pixel) > 100  # the title bar is a filled bar
    assert selected_row[0] and selected_row[127]         # the frame's sides
    assert sum(1 for pixel in selected_row if pixel) < 40  # but the row is not filled


@pytest.mark.parametrize(("above", "below"), [(False, True), (True, False), (True, True)])
def test_render_scroll_arrows_show_where_more_entries_lie(above, below):
    lines = ("Overbooked score", "Flight Plan bank", "Round timer")
    plain = render(Screen("Choose a game", lines))
    marked = render(Screen("Choose a game", lines, more_above=above, more_below=below))
    changed = {y for y in range(64) for x in range(120, 128)
               if plain.getpixel((x, y)) != marked.getpixel((x, y))}
    assert bool(changed & set(range(12, 30))) == above   # beside the first row
    assert bool(changed & set(range(42, 56))) == below   # beside the last row


def test_menu_games_page_marks_more_entries_below():
    from companion.core.app import App, AppState
    from companion.games.registry import playable_games
    from companion.ui.views.menu import menu_screen

    screen = menu_screen(App(playable_games()), AppState())
    assert screen.more_below and not screen.more_above
