"""The panel's fonts: Spleen bitmap fonts (BSD-2-Clause, see fonts/LICENSE.spleen) converted to
Pillow's own format, so every machine draws the same pixels.

Reading them from the package is the only I/O here: package data, loaded once per process on
first use, with only the PNG reader their glyph images need (they are PNG data, though
Pillow's font tools name them ``.pbm``). ``ImageFont.load`` would go through ``Image.open``,
which first imports five image plugins, JPEG's and TIFF's among them: 11 ms on x86, a fifth
of a second on a Pi Zero, for nothing the box uses (issue #12). The screens
(companion/ui/render.py) and the pictures (companion/ui/pictures/raster.py) draw with them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from PIL import ImageFont, PngImagePlugin

Font = ImageFont.ImageFont


@cache
def font(size: str) -> Font:
    """A shipped Spleen font by size name: 5x8, 6x12, 8x16, 12x24 or 16x32."""
    folder = resources.files("companion.ui") / "fonts"
    loaded = ImageFont.ImageFont()
    with (folder / f"spleen-{size}.pil").open("rb") as metrics, \
            resources.as_file(folder / f"spleen-{size}.pbm") as glyphs_path, \
            PngImagePlugin.PngImageFile(glyphs_path) as glyphs:
        # What ImageFont.load does once Image.open has found the glyph image.
        loaded._load_pilfont_data(metrics, glyphs)
    return loaded
