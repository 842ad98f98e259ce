"""A scene as pixels, with Pillow and the shipped Spleen fonts (pure: no file but the fonts).

- :func:`scene_image`: an RGB image at ``scale`` pixels a unit, in the page's colours (the
  SVG's palette), for the golden PNGs and the README. At scale 2 the text is Spleen 12x24
  (``normal``) and 8x16 (``small``); at scale 1, 6x12 and 5x8. Bitmap fonts and integer
  coordinates: the same scene gives the same pixels on every machine.
- :func:`scene_panel`: a mode "1" image of the panel's 128 x 64 pixels (white lit), for a
  scene made for the panel (companion/ui/pictures/now_boarding.py's
  :func:`~companion.ui.pictures.now_boarding.table_panel_scene`): the ground and the
  ``paper`` fill are dark, every other colour lit.
"""

from __future__ import annotations

from typing import Final

from PIL import Image, ImageDraw

from companion.ui.pictures.scene import Circle, Label, Line, Rect, Role, Scene, Shape
from companion.ui.pictures.svg import PALETTE
from companion.ui.spleen import font

FONTS: Final = {(1, "normal"): "6x12", (1, "small"): "5x8", (2, "normal"): "12x24",
                (2, "small"): "8x16"}
"""The Spleen font for a label's size at each scale."""

Paint = int | str


def _rgb(role: Role | None) -> str | None:
    return None if role is None else PALETTE[role]


def _lit(role: Role | None) -> int | None:
    return None if role is None else (0 if role in ("ground", "paper") else 255)


def scene_image(scene: Scene, scale: int = 2) -> Image.Image:
    """The scene in colour at ``scale`` (1 or 2) pixels a unit."""
    if (scale, "normal") not in FONTS:
        raise ValueError(f"scale: 1 or 2, got {scale}")
    image = Image.new("RGB", (scene.width * scale, scene.height * scale), PALETTE["ground"])
    _draw(ImageDraw.Draw(image), scene.shapes, scale, _rgb)
    return image


def scene_panel(scene: Scene) -> Image.Image:
    """The scene on the panel: mode "1", one pixel a unit (see the module docstring)."""
    if (scene.width, scene.height) != (128, 64):
        raise ValueError(f"a panel scene is 128x64 units, not {scene.width}x{scene.height}")
    image = Image.new("1", (128, 64), 0)
    _draw(ImageDraw.Draw(image), scene.shapes, 1, _lit)
    return image


def _draw(draw: ImageDraw.ImageDraw, shapes: tuple[Shape, ...], scale: int,
          paint: object) -> None:
    colour = paint  # a function of a role: an RGB string or a 1-bit value
    for shape in shapes:
        if isinstance(shape, Rect):
            box = (shape.x * scale, shape.y * scale, (shape.x + shape.w) * scale - 1,
                   (shape.y + shape.h) * scale - 1)
            fill = colour(shape.fill)  # type: ignore[operator]
            if fill is not None:
                draw.rectangle(box, fill=fill)
            stroke = colour(shape.stroke)  # type: ignore[operator]
            if stroke is not None:
                if shape.dashed:
                    _dashed(draw, box, stroke, scale)
                else:
                    draw.rectangle(box, outline=stroke, width=scale)
        elif isinstance(shape, Circle):
            box = ((shape.cx - shape.r) * scale, (shape.cy - shape.r) * scale,
                   (shape.cx + shape.r) * scale, (shape.cy + shape.r) * scale)
            draw.ellipse(box, fill=colour(shape.fill),  # type: ignore[operator]
                         outline=colour(shape.stroke), width=scale)  # type: ignore[operator]
        elif isinstance(shape, Line):
            draw.line((shape.x1 * scale, shape.y1 * scale, shape.x2 * scale, shape.y2 * scale),
                      fill=colour(shape.stroke), width=shape.width * scale)  # type: ignore[operator]
        else:
            _text(draw, shape, scale, colour(shape.colour))  # type: ignore[operator]


def _text(draw: ImageDraw.ImageDraw, label: Label, scale: int, fill: Paint) -> None:
    face = font(FONTS[(scale, label.size)])
    x = label.x * scale
    if label.anchor == "middle":
        x -= round(face.getlength(label.text)) // 2
    draw.text((x, label.y * scale), label.text, font=face, fill=fill)


def _dashed(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: Paint,
            scale: int) -> None:
    left, top, right, bottom = box
    dash, gap = 3 * scale, 2 * scale
    for start in range(left, right + 1, dash + gap):
        end = min(start + dash - 1, right)
        draw.rectangle((start, top, end, top + scale - 1), fill=fill)
        draw.rectangle((start, bottom - scale + 1, end, bottom), fill=fill)
    for start in range(top, bottom + 1, dash + gap):
        end = min(start + dash - 1, bottom)
        draw.rectangle((left, start, left + scale - 1, end), fill=fill)
        draw.rectangle((right - scale + 1, start, right, end), fill=fill)
