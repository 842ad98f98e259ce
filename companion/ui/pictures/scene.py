"""A picture as data: shapes and labels in a small unit space, before any pixel (pure).

A :class:`Scene` is a width and height in units and a tuple of shapes drawn in order:
:class:`Rect` (a tile, a card, a deck: optionally dashed, for a place where something goes),
:class:`Circle` (a token, an airport), :class:`Line` (a route, a pointer) and :class:`Label`
(text, top-left at ``x, y``, or centred on ``x`` with ``anchor="middle"``). Colours are
roles (:data:`ROLES`), never hex: each renderer maps them to its own palette, so the page's
SVG and the golden PNG say the same thing in their own medium.

Text sizes are the shipped Spleen fonts' cells at one unit a pixel: ``normal`` is 6 x 12
(:data:`CHAR`), ``small`` 5 x 8 (:data:`SMALL_CHAR`). :func:`text_width` is a label's width
in units; :func:`scene_problems` names every label that runs past the scene's edge, so a
test can hold every picture to it. A label may carry ``fact``, the key of the physical fact
it says (companion/games/now_boarding/setup_facts.py): :func:`fact_labels` lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Role = Literal["ground", "paper", "line", "ink", "muted", "accent", "go", "alarm",
               "atl", "dfw", "lax", "ord", "sea"]
ROLES: Final[tuple[Role, ...]] = ("ground", "paper", "line", "ink", "muted", "accent", "go",
                                  "alarm", "atl", "dfw", "lax", "ord", "sea")
Size = Literal["normal", "small"]
Anchor = Literal["start", "middle"]

CHAR: Final = (6, 12)
"""A ``normal`` character's cell in units: width, line height (Spleen 6x12)."""
SMALL_CHAR: Final = (5, 8)
"""A ``small`` character's cell in units (Spleen 5x8)."""


@dataclass(frozen=True)
class Rect:
    """A rectangle; ``fill`` None is see-through, ``dashed`` marks a place to put something."""

    x: int
    y: int
    w: int
    h: int
    stroke: Role | None = "line"
    fill: Role | None = None
    dashed: bool = False


@dataclass(frozen=True)
class Circle:
    """A circle centred on ``cx, cy``."""

    cx: int
    cy: int
    r: int
    stroke: Role | None = "line"
    fill: Role | None = None


@dataclass(frozen=True)
class Line:
    """A straight line, ``width`` units wide."""

    x1: int
    y1: int
    x2: int
    y2: int
    stroke: Role = "line"
    width: int = 1


@dataclass(frozen=True)
class Label:
    """One line of text: top-left at ``x, y`` (``start``) or centred on ``x`` (``middle``).
    ``fact``: the key of the physical fact the label says, if it says one."""

    x: int
    y: int
    text: str
    size: Size = "normal"
    colour: Role = "ink"
    anchor: Anchor = "start"
    fact: str | None = None


Shape = Rect | Circle | Line | Label


@dataclass(frozen=True)
class Scene:
    """A whole picture: its size in units, its title, a sentence for a reader who cannot see
    it (``alt``), and its shapes, drawn in order."""

    width: int
    height: int
    title: str
    alt: str
    shapes: tuple[Shape, ...]

    def labels(self) -> tuple[Label, ...]:
        """Every label, in drawing order."""
        return tuple(shape for shape in self.shapes if isinstance(shape, Label))


def text_width(text: str, size: Size = "normal") -> int:
    """A label's width in units."""
    return len(text) * (CHAR if size == "normal" else SMALL_CHAR)[0]


def text_height(size: Size = "normal") -> int:
    """A label's line height in units."""
    return (CHAR if size == "normal" else SMALL_CHAR)[1]


def label_box(label: Label) -> tuple[int, int, int, int]:
    """The box a label's text covers: left, top, right, bottom (exclusive)."""
    width = text_width(label.text, label.size)
    left = label.x - width // 2 if label.anchor == "middle" else label.x
    return left, label.y, left + width, label.y + text_height(label.size)


def scene_problems(scene: Scene) -> list[str]:
    """Every label or shape that leaves the scene, in words; [] for a scene that fits."""
    problems = []
    for shape in scene.shapes:
        if isinstance(shape, Label):
            left, top, right, bottom = label_box(shape)
        elif isinstance(shape, Rect):
            left, top, right, bottom = shape.x, shape.y, shape.x + shape.w, shape.y + shape.h
        elif isinstance(shape, Circle):
            left, top = shape.cx - shape.r, shape.cy - shape.r
            right, bottom = shape.cx + shape.r, shape.cy + shape.r
        else:
            left, right = min(shape.x1, shape.x2), max(shape.x1, shape.x2)
            top, bottom = min(shape.y1, shape.y2), max(shape.y1, shape.y2)
        if left < 0 or top < 0 or right > scene.width or bottom > scene.height:
            problems.append(f"{shape!r} leaves the {scene.width}x{scene.height} scene")
    return problems


def fact_labels(scene: Scene) -> dict[str, str]:
    """The physical facts the scene's labels say: fact key -> the label's text."""
    return {label.fact: label.text for label in scene.labels() if label.fact is not None}
