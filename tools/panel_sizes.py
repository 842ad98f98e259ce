#!/usr/bin/env python3
"""Draw docs/screens/panels.png: one screen on each recommended panel, at true relative size.

The three 128x64 panels of hardware/README.md differ only in pixel pitch (the active area's
width / 128): the same frame is drawn with each panel's pitch at 8 picture pixels per mm,
side by side on a grey table, each labelled, so the README shows how much larger the
2.42-inch SSD1309 reads than the 0.96-inch SSD1306.

Promises: the picture depends only on the scene and the table below (``--check`` compares a
fresh drawing with the committed file, exit 1 when it is stale).

Usage: python3 tools/panel_sizes.py [--scene NAME] [--output FILE] [--check]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image, ImageDraw

from companion.scenes import render_scene
from companion.ui.render import font

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "screens" / "panels.png"

PANELS = (
    # label, active area width x height in mm (hardware/README.md)
    ("0.96 in SSD1306", 21.74, 10.86),
    ("1.3 in SH1106", 29.42, 14.70),
    ("2.42 in SSD1309 (recommended)", 55.01, 27.49),
)
PIXELS_PER_MM = 8
MARGIN = 12
LABEL_HEIGHT = 14
TABLE, BEZEL, LIT, LABEL = (96, 96, 96), (20, 20, 20), (140, 210, 255), (255, 255, 255)


def draw(scene: str) -> Image.Image:
    frame = render_scene(scene).convert("L")
    sizes = [(round(width * PIXELS_PER_MM), round(height * PIXELS_PER_MM))
             for _, width, height in PANELS]
    total_width = sum(width for width, _ in sizes) + MARGIN * (len(sizes) + 1) + 8 * len(sizes)
    tallest = max(height for _, height in sizes)
    picture = Image.new("RGB", (total_width, tallest + 8 + LABEL_HEIGHT + 2 * MARGIN), TABLE)
    pen = ImageDraw.Draw(picture)
    left = MARGIN
    for (label, _, _), (width, height) in zip(PANELS, sizes, strict=True):
        top = MARGIN + tallest - height
        pen.rectangle((left, top, left + width + 7, top + height + 7), fill=BEZEL)
        # Nearest-neighbour scaling keeps each panel pixel a sharp square.
        lit = frame.resize((width, height), Image.Resampling.NEAREST)
        colour = Image.new("RGB", lit.size, LIT)
        picture.paste(colour, (left + 4, top + 4), lit)
        pen.text((left, MARGIN + tallest + 10), label, font=font("6x12"), fill=LABEL)
        left += width + 8 + MARGIN
    return picture


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", default="menu-option", help="the scene to show")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    picture = draw(args.scene)
    if args.check:
        if not args.output.exists():
            print(f"{args.output} is missing", file=sys.stderr)
            return 1
        current = Image.open(args.output).convert("RGB")
        if current.size != picture.size or current.tobytes() != picture.tobytes():
            print(f"{args.output} is stale: run python3 tools/panel_sizes.py", file=sys.stderr)
            return 1
        return 0
    picture.save(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
