"""Convert the Spleen PCF bitmap fonts into Pillow's .pil/.pbm format for companion/ui/fonts.

Run once, on purpose, when the shipped fonts change:
    apt-get download fonts-spleen && dpkg -x fonts-spleen_*.deb spleen
    python tools/make_fonts.py spleen/usr/share/fonts/X11/misc
The output is committed, so a frame looks the same on every machine.
"""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path

from PIL import PcfFontFile

SIZES = ("5x8", "6x12", "8x16", "12x24", "16x32")


def main(source_dir: str) -> None:
    out = Path(__file__).resolve().parent.parent / "companion" / "ui" / "fonts"
    for size in SIZES:
        compressed = (Path(source_dir) / f"spleen-{size}.pcf.gz").read_bytes()
        pcf = io.BytesIO(gzip.decompress(compressed))
        PcfFontFile.PcfFontFile(pcf, charset_encoding="iso8859-1").save(
            str(out / f"spleen-{size}"))
        print(f"wrote spleen-{size}.pil/.pbm")


if __name__ == "__main__":
    main(sys.argv[1])
