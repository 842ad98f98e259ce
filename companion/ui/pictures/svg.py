"""A scene as SVG text for the table page (pure).

:func:`scene_svg` writes one standalone SVG document: a ``viewBox`` of the scene's units (the
page scales it to its width), a ``<title>`` and ``<desc>`` (the scene's alt sentence), and
each shape in order. Colours are the page's own (companion/web/static/style.css), so the
picture sits on the page's dark ground. Text is monospaced at the Spleen cell's size and held
to the width the scene measured for it (``textLength``), so a device whose monospaced font is
wider or narrower still draws every label inside its place; every text is escaped. The same
scene gives the same bytes on every machine.
"""

from __future__ import annotations

from html import escape
from typing import Final

from companion.ui.pictures.scene import (
    CHAR,
    SMALL_CHAR,
    Circle,
    Label,
    Line,
    Rect,
    Role,
    Scene,
    Shape,
    text_width,
)

PALETTE: Final[dict[Role, str]] = {
    "ground": "#0d1117", "paper": "#161c26", "line": "#5a6678", "ink": "#f2f5f9",
    "muted": "#97a3b4", "accent": "#ffd166", "go": "#6ee7a8", "alarm": "#ff6b6b",
    "atl": "#ff8fa3", "dfw": "#7cc4ff", "lax": "#c9a0ff", "ord": "#ffb26b", "sea": "#5fd4c8"}
"""Each colour role on the page (the page's own colours, plus one a plane colour)."""

FONT: Final = "DejaVu Sans Mono,Menlo,Consolas,monospace"


def _paint(role: Role | None) -> str:
    return "none" if role is None else PALETTE[role]


def _shape(shape: Shape) -> str:
    if isinstance(shape, Rect):
        dash = ' stroke-dasharray="3 2"' if shape.dashed else ""
        return (f'<rect x="{shape.x}.5" y="{shape.y}.5" width="{shape.w - 1}" '
                f'height="{shape.h - 1}" rx="2" fill="{_paint(shape.fill)}" '
                f'stroke="{_paint(shape.stroke)}"{dash}/>')
    if isinstance(shape, Circle):
        return (f'<circle cx="{shape.cx}" cy="{shape.cy}" r="{shape.r}" '
                f'fill="{_paint(shape.fill)}" stroke="{_paint(shape.stroke)}"/>')
    if isinstance(shape, Line):
        return (f'<line x1="{shape.x1}" y1="{shape.y1}" x2="{shape.x2}" y2="{shape.y2}" '
                f'stroke="{_paint(shape.stroke)}" stroke-width="{shape.width}"/>')
    return _label(shape)


def _label(label: Label) -> str:
    width, height = CHAR if label.size == "normal" else SMALL_CHAR
    size = width / 0.6  # a monospaced font's advance is about 0.6 em
    baseline = label.y + round(height * 0.8)
    anchor = ' text-anchor="middle"' if label.anchor == "middle" else ""
    # The width the scene measured, whatever monospaced font the reader's device has.
    length = (f' textLength="{text_width(label.text, label.size)}" '
              'lengthAdjust="spacingAndGlyphs"' if label.text.strip() else "")
    return (f'<text x="{label.x}" y="{baseline}" font-size="{size:g}"{anchor}{length} '
            f'fill="{PALETTE[label.colour]}" xml:space="preserve">{escape(label.text)}</text>')


def scene_svg(scene: Scene) -> str:
    """The scene as one SVG document (see the module docstring)."""
    body = "\n".join(_shape(shape) for shape in scene.shapes)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {scene.width} '
            f'{scene.height}" width="{scene.width}" height="{scene.height}" role="img" '
            f'font-family="{FONT}">\n'
            f"<title>{escape(scene.title)}</title>\n<desc>{escape(scene.alt)}</desc>\n"
            f'<rect width="{scene.width}" height="{scene.height}" '
            f'fill="{PALETTE["ground"]}"/>\n{body}\n</svg>\n')
