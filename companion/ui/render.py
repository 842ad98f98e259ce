"""Screen model -> 1-bit PIL image of the panel's size, with the fonts shipped in the package
(companion/ui/spleen.py: the same pixels on every machine) and the panel's pictures
(companion/ui/pictures/raster.py).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.ui.screen import (
    BIG_WIDTH,
    LINE_WIDTH,
    MATRIX_LINE_WIDTH,
    MATRIX_TITLE_WIDTH,
    SMALL_LINE_WIDTH,
    STATUS_WIDTH,
    TITLE_WIDTH,
    Screen,
    fit,
)
from companion.ui.spleen import Font, font

__all__ = ["HEIGHT", "OFF", "ON", "WIDTH", "Font", "font", "render"]

WIDTH = 128
HEIGHT = 64
TITLE_HEIGHT = 12
STATUS_TOP = 56

# Pixel values of a mode "1" image: a lit OLED pixel is 255.
ON, OFF = 255, 0


def render(screen: Screen, width: int = WIDTH, height: int = HEIGHT) -> Image.Image:
    """Draw ``screen`` as a mode "1" image (white pixels lit)."""
    image = Image.new("1", (width, height), OFF)
    draw = ImageDraw.Draw(image)
    rows: Rows = []
    if screen.matrix:
        _draw_matrix(draw, screen, width, height)
    elif screen.picture is not None:
        _draw_picture(image, draw, screen, width)
    else:
        rows = _draw_text(draw, screen, width)
    if screen.alert:
        top = height - 9 * len(screen.alert) - 1
        # A body row the box would cut through goes entirely: no stray half-glyphs (or the
        # top of a selection frame) are left above the box.
        cut = [row_top for row_top, row_bottom in rows if row_top < top <= row_bottom]
        if cut:
            draw.rectangle((0, min(cut), width - 1, top - 1), fill=OFF)
        draw.rectangle((0, top, width - 1, height - 1), fill=ON)
        for index, line in enumerate(screen.alert):
            draw.text((1, top + 1 + 9 * index), fit(line, SMALL_LINE_WIDTH), font=font("5x8"),
                      fill=OFF)
    return image


def _draw_text(draw: ImageDraw.ImageDraw, screen: Screen, width: int) -> Rows:
    """The title bar, the body (lines or big text) and the status bar; the body's rows."""
    draw.rectangle((0, 0, width - 1, TITLE_HEIGHT - 1), fill=ON)
    title_width = TITLE_WIDTH - (len(screen.mark) + 1 if screen.mark else 0)
    draw.text((2, 0), fit(screen.title, title_width), font=font("6x12"), fill=OFF)
    _draw_mark(draw, screen.mark, width)
    if screen.big is not None:
        rows = _draw_big(draw, screen, width)
    else:
        rows = _draw_lines(draw, screen, width)
    _draw_status(draw, screen.status)
    return rows


def _draw_mark(draw: ImageDraw.ImageDraw, mark: str, width: int) -> None:
    """A lasting fault's mark at the right end of the (lit) title bar, in a dark box."""
    if mark:
        mark_left = width - 6 * len(mark) - 3
        draw.rectangle((mark_left - 2, 1, width - 2, TITLE_HEIGHT - 2), fill=OFF)
        draw.text((mark_left, 0), mark, font=font("6x12"), fill=ON)


def _draw_status(draw: ImageDraw.ImageDraw, status: str) -> None:
    if status:
        draw.text((0, STATUS_TOP), fit(status, STATUS_WIDTH), font=font("5x8"), fill=ON)


def _draw_picture(image: Image.Image, draw: ImageDraw.ImageDraw, screen: Screen,
                  width: int) -> None:
    """The panel picture (its own title row), the mark in its title row, and the status
    bar over its bottom rows."""
    # Loaded with the first picture (a few setup pages show one), not at the box's start.
    from companion.ui.pictures.raster import scene_panel

    assert screen.picture is not None
    image.paste(scene_panel(screen.picture), (0, 0))
    _draw_mark(draw, screen.mark, width)
    if screen.status:  # over the picture's bottom rows: cleared first
        draw.rectangle((0, STATUS_TOP - 2, width - 1, image.height - 1), fill=OFF)
        _draw_status(draw, screen.status)


Rows = list[tuple[int, int]]
"""The pixel rows (top, bottom) that each drawn body row covers."""


def _draw_big(draw: ImageDraw.ImageDraw, screen: Screen, width: int) -> Rows:
    text = fit(screen.big or "", BIG_WIDTH)
    big = font("16x32")
    left = max(0, (width - 16 * len(text)) // 2)
    draw.text((left, TITLE_HEIGHT + 1), text, font=big, fill=ON)
    rows = [(TITLE_HEIGHT + 1, TITLE_HEIGHT + 32)]
    if screen.caption:
        caption = fit(screen.caption, SMALL_LINE_WIDTH)
        draw.text(((width - 5 * len(caption)) // 2, TITLE_HEIGHT + 34), caption,
                  font=font("5x8"), fill=ON)
        rows.append((TITLE_HEIGHT + 34, TITLE_HEIGHT + 41))
    return rows


def _draw_lines(draw: ImageDraw.ImageDraw, screen: Screen, width: int) -> Rows:
    small = screen.small_lines
    # Five small lines fit only without a status bar: they then reach the bottom edge.
    line_font, pitch, chars = ((font("5x8"), 8 if len(screen.lines) == 5 else 9,
                                SMALL_LINE_WIDTH) if small
                               else (font("6x12"), 14, LINE_WIDTH))
    top = TITLE_HEIGHT + 2
    spans: Rows = []
    if screen.main:
        draw.text((1, top - 1), fit(screen.main, LINE_WIDTH), font=font("6x12"), fill=ON)
        spans.append((top - 1, top + 10))
        top += 13
    rows = [top + index * pitch for index in range(len(screen.lines))]
    glyph = 8 if small else 12
    spans += [(y - 1, y + glyph) for y in rows]
    for index, (y, line) in enumerate(zip(rows, screen.lines, strict=True)):
        selected = index == screen.selected
        if selected:
            # A frame, not a filled bar: the title bar is the filled one. From one pixel
            # above the glyphs to one below their last row (8 rows small, 12 large); the
            # framed text moves one pixel right to clear the frame.
            draw.rectangle((0, y - 1, width - 1, y + (8 if small else 12)), outline=ON)
        draw.text((2 if selected else 1, y), fit(line, chars), font=line_font, fill=ON)
    if screen.more_above and rows:
        _arrow(draw, width - 4, rows[0] + 1, down=False)
    if screen.more_below and rows:
        _arrow(draw, width - 4, rows[-1] + glyph - 4, down=True)
    return spans


def _arrow(draw: ImageDraw.ImageDraw, centre: int, top: int, down: bool) -> None:
    """A 5-pixel-wide triangle: more entries lie below (``down``) or above the list."""
    rows = range(2, -1, -1) if down else range(3)
    for offset, half in zip(range(3), rows, strict=True):
        draw.line((centre - half, top + offset, centre + half, top + offset), fill=ON)


MODULE = 2
"""Pixels a side of one QR module: 29 modules (version 3) and a quiet zone fit in 64 px."""


def _draw_matrix(draw: ImageDraw.ImageDraw, screen: Screen, width: int, height: int) -> None:
    """The QR code dark on a lit square (the polarity every phone reads; the lit margin is
    its quiet zone), the title and lines beside it."""
    side = height
    draw.rectangle((0, 0, side - 1, side - 1), fill=ON)
    offset = (side - MODULE * len(screen.matrix)) // 2
    for row, modules in enumerate(screen.matrix):
        for column, dark in enumerate(modules):
            if dark:
                x, y = offset + MODULE * column, offset + MODULE * row
                draw.rectangle((x, y, x + MODULE - 1, y + MODULE - 1), fill=OFF)
    left = side + 2
    draw.rectangle((left, 0, width - 1, TITLE_HEIGHT - 1), fill=ON)
    draw.text((left + 1, 0), fit(screen.title, MATRIX_TITLE_WIDTH), font=font("6x12"),
              fill=OFF)
    for index, line in enumerate(screen.lines):
        draw.text((left, TITLE_HEIGHT + 2 + 9 * index), fit(line, MATRIX_LINE_WIDTH),
                  font=font("5x8"), fill=ON)
