#!/usr/bin/env python3
"""Render the printable case (hardware/case/companion_case.scad) to STL, and its preview.

    tools/case                       every variant of VARIANTS into build/case/
    tools/case --board zero2 --panel ssd1306 --buttons 12    one variant of your own
    tools/case --preview             also redraw hardware/case/preview.png (committed)
    tools/case --readme              also write each variant's PLA and print time into
                                     hardware/README.md (an estimate from the STL's volume)

Promises:
- OpenSCAD runs headless (`openscad -o FILE.stl`, Debian's package), one process per part,
  an argument list with a timeout, never a shell. The STL files are build output (build/ is
  git-ignored): print them, do not commit them.
- Each variant gives `<board>-<panel>-<buttons>mm-box.stl` and `...-lid.stl`, and the hole
  table the .scad echoes (`read_table`), which tests/deploy/test_case.py checks against the pin
  map, the Raspberry Pi drawings and the display sizes.
- The preview is drawn from the rendered STL with Pillow (flat-shaded, painter's order), so
  it needs no OpenGL: the same bytes on every machine for the same STL.
"""

from __future__ import annotations

import argparse
import itertools
import math
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCAD = ROOT / "hardware" / "case" / "companion_case.scad"
OUT = ROOT / "build" / "case"
PREVIEW = ROOT / "hardware" / "case" / "preview.png"
BOARDS = ("pi4", "pi5", "zero2")
PANELS = ("ssd1309", "sh1106", "ssd1306")
BUTTONS = (16, 12)

# The variants rendered by default (and by the test): every board with every panel and both
# button sizes (18), the recommended build (Pi 5, 2.42 in SSD1309, 16 mm buttons) first.
RECOMMENDED = ("pi5", "ssd1309", 16)
VARIANTS: tuple[tuple[str, str, int], ...] = (RECOMMENDED, *(
    variant for variant in itertools.product(BOARDS, PANELS, BUTTONS) if variant != RECOMMENDED))
TIMEOUT_S = 600


class CaseError(RuntimeError):
    """OpenSCAD is missing or refused the model."""


@dataclass(frozen=True)
class Rendered:
    """One variant: its STL files and the echoed table (each line's fields, as text)."""

    name: str
    box: Path
    lid: Path
    table: tuple[tuple[str, ...], ...]


def openscad() -> str:
    found = shutil.which("openscad")
    if found is None:
        raise CaseError("openscad is not installed: sudo apt install openscad "
                        "(tools/test installs it when run as root)")
    return found


def variant_name(board: str, panel: str, buttons: int) -> str:
    return f"{board}-{panel}-{buttons}mm"


def _render(board: str, panel: str, buttons: int, part: str, out: Path) -> str:
    done = subprocess.run(  # noqa: S603 (an argument list, no shell)
        [openscad(), "-o", str(out), "--export-format", "asciistl",
         "-D", f'board="{board}"', "-D", f'panel="{panel}"', "-D", f"button_d={buttons}",
         "-D", f'part="{part}"', str(SCAD)],
        capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    if done.returncode != 0 or not out.exists() or out.stat().st_size == 0:
        raise CaseError(f"openscad failed for {board} {panel} {buttons} mm {part}: "
                        f"{done.stderr.strip()[-800:]}")
    return done.stderr


def read_table(echo: str) -> tuple[tuple[str, ...], ...]:
    """The `ECHO: "hole", "button", "NEXT", 100.4, 15.4, 16.3` lines as field tuples."""
    rows = []
    for line in echo.splitlines():
        if not line.startswith("ECHO: "):
            continue
        fields = [f.strip() for f in line.removeprefix("ECHO: ").split(",")]
        rows.append(tuple(f.strip('"').split(" = ")[-1].strip('"') for f in fields))
    return tuple(rows)


def render(board: str, panel: str, buttons: int, out_dir: Path = OUT) -> Rendered:
    """Render one variant's tray and lid to STL; answer the files and the hole table."""
    out_dir.mkdir(parents=True, exist_ok=True)
    name = variant_name(board, panel, buttons)
    box, lid = out_dir / f"{name}-box.stl", out_dir / f"{name}-lid.stl"
    echo = _render(board, panel, buttons, "box", box)
    _render(board, panel, buttons, "lid", lid)
    return Rendered(name, box, lid, read_table(echo))


def render_all(variants: Iterable[tuple[str, str, int]], out_dir: Path = OUT,
               jobs: int = 2) -> list[Rendered]:
    """Render several variants, `jobs` OpenSCAD processes at a time."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda v: render(v[0], v[1], v[2], out_dir), variants))


def read_stl(path: Path) -> list[tuple[tuple[float, float, float], ...]]:
    """The triangles of an ASCII STL file."""
    triangles, corners = [], []
    for line in path.read_text(encoding="ascii").splitlines():
        words = line.split()
        if words and words[0] == "vertex":
            corners.append((float(words[1]), float(words[2]), float(words[3])))
            if len(corners) == 3:
                triangles.append(tuple(corners))
                corners = []
    return triangles


def bounding_box(path: Path) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """(min corner, max corner) of an STL file's vertices."""
    points = [p for triangle in read_stl(path) for p in triangle]
    if not points:
        raise CaseError(f"{path}: no triangles")
    low = tuple(min(p[i] for p in points) for i in range(3))
    high = tuple(max(p[i] for p in points) for i in range(3))
    return (low[0], low[1], low[2]), (high[0], high[1], high[2])


def volume_mm3(path: Path) -> float:
    """The volume enclosed by an STL file's triangles (the divergence theorem: the sum of the
    signed tetrahedra each triangle makes with the origin), in cubic millimetres."""
    total = 0.0
    for (ax, ay, az), (bx, by, bz), (cx, cy, cz) in read_stl(path):
        total += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx)
                  + az * (bx * cy - by * cx)) / 6.0
    return abs(total)


# What a print of a part costs, estimated from its volume (no slicer here): PLA at
# 1.24 g/cm3 (the usual datasheet density), 90 % of the volume laid down (the walls are
# 2.4 mm, six perimeters of a 0.4 mm nozzle, so nearly solid; the posts get infill), at an
# average 4 mm3/s over the whole print (a stock 0.4 mm nozzle printer at 0.2 mm layers,
# travel and perimeters included). A slicer's figure for your printer is the one to trust.
PLA_G_PER_CM3 = 1.24
LAID_DOWN = 0.9
AVERAGE_MM3_PER_S = 4.0


def print_estimate(parts: Iterable[Path]) -> tuple[float, float]:
    """(grams of PLA, hours) to print the given STL parts, by the estimate above."""
    laid = sum(volume_mm3(path) for path in parts) * LAID_DOWN
    return laid / 1000 * PLA_G_PER_CM3, laid / AVERAGE_MM3_PER_S / 3600


README = ROOT / "hardware" / "README.md"
PRINT_BEGIN = "<!-- print: written by tools/case --readme from the rendered STL; do not edit -->"
PRINT_END = "<!-- print: end -->"


def print_table(done: Sequence[Rendered]) -> str:
    """The README block: each variant's outside size, filament and print time."""
    rows = [PRINT_BEGIN, "", "| variant (board, panel, buttons) | outside, lid on (mm) | PLA | "
            "print time |", "|---|---|---|---|"]
    for rendered in done:
        outer = next(row for row in rendered.table if row[0] == "outer")
        grams, hours = print_estimate((rendered.box, rendered.lid))
        size = " x ".join(f"{float(v):.1f}" for v in outer[1:4])
        rows.append(f"| {rendered.name} | {size} | {grams:.0f} g | "
                    f"{int(hours)} h {round(hours % 1 * 60):02d} min |")
    return "\n".join([*rows, "", PRINT_END])


def readme_with_print_table(readme: str, table: str) -> str:
    start, end = readme.find(PRINT_BEGIN), readme.find(PRINT_END)
    if start < 0 or end < start:
        raise CaseError(f"{README.name} has no {PRINT_BEGIN!r} ... {PRINT_END!r} block")
    return readme[:start] + table + readme[end + len(PRINT_END):]


def draw_preview(parts: Sequence[tuple[Path, float, tuple[int, int, int]]], size: int = 900,
                 scale: int = 2) -> object:
    """A flat-shaded view from the front left and above of the STL files (each lifted by
    its z offset, in its colour), as a Pillow image."""
    from PIL import Image, ImageDraw  # the venv's Pillow (tools/case runs with it)

    yaw, pitch = math.radians(-35), math.radians(30)
    light = (-0.4, -0.7, 0.6)
    norm = math.sqrt(sum(c * c for c in light))
    light = (light[0] / norm, light[1] / norm, light[2] / norm)

    def view(p: tuple[float, float, float]) -> tuple[float, float, float]:
        x = p[0] * math.cos(yaw) - p[1] * math.sin(yaw)
        y = p[0] * math.sin(yaw) + p[1] * math.cos(yaw)
        up = p[2] * math.cos(pitch) + y * math.sin(pitch)
        return x, up, y * math.cos(pitch) - p[2] * math.sin(pitch)

    faces = []
    for path, lift, colour in parts:
        for triangle in read_stl(path):
            a, b, c = ((p[0], p[1], p[2] + lift) for p in triangle)
            u = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
            v = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
            n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
            length = math.sqrt(sum(k * k for k in n)) or 1.0
            shade = 0.35 + 0.65 * max(0.0, sum(n[i] / length * light[i] for i in range(3)))
            projected = [view(p) for p in (a, b, c)]
            (x0, y0, _), (x1, y1, _), (x2, y2, _) = projected
            if (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0) <= 0:
                continue  # a face turned away from the viewer (the solids are closed)
            depth = sum(p[2] for p in projected) / 3
            lit = (int(colour[0] * shade), int(colour[1] * shade), int(colour[2] * shade))
            faces.append((depth, projected, lit))
    faces.sort(key=lambda face: -face[0])
    xs = [p[0] for _, pts, _ in faces for p in pts]
    ys = [p[1] for _, pts, _ in faces for p in pts]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    k = (size * scale * 0.9) / span
    ox = (size * scale - (max(xs) - min(xs)) * k) / 2
    oy = (size * scale - (max(ys) - min(ys)) * k) / 2
    image = Image.new("RGB", (size * scale, size * scale), (250, 250, 247))
    pen = ImageDraw.Draw(image)
    for _, pts, colour in faces:
        pen.polygon([(ox + (p[0] - min(xs)) * k, size * scale - oy - (p[1] - min(ys)) * k)
                     for p in pts], fill=colour)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", choices=BOARDS)
    parser.add_argument("--panel", choices=PANELS)
    parser.add_argument("--buttons", type=int, choices=BUTTONS)
    parser.add_argument("--out-dir", type=Path, default=OUT)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--preview", action="store_true",
                        help=f"redraw {PREVIEW.relative_to(ROOT)} from the first variant")
    parser.add_argument("--readme", action="store_true",
                        help="write every variant's filament and print time into "
                             "hardware/README.md (renders all of them)")
    args = parser.parse_args(argv)
    one = (args.board, args.panel, args.buttons)
    if any(one) and not all(one):
        parser.error("--board, --panel and --buttons go together")
    if args.readme and any(one):
        parser.error("--readme renders every variant: leave out --board, --panel, --buttons")
    variants = [one] if all(one) else list(VARIANTS)
    try:
        done = render_all(variants, args.out_dir, args.jobs)
    except (CaseError, OSError, subprocess.SubprocessError) as exc:
        print(f"tools/case: {exc}", file=sys.stderr)
        return 1
    for rendered in done:
        outer = next(row for row in rendered.table if row[0] == "outer")
        print(f"{rendered.name}: {rendered.box.name}, {rendered.lid.name} "
              f"(outside {outer[1]} x {outer[2]} x {outer[3]} mm)")
    if args.readme:
        README.write_text(readme_with_print_table(README.read_text(encoding="utf-8"),
                                                  print_table(done)), encoding="utf-8")
        print(f"wrote {README} (its print table)")
    if args.preview:
        first = done[0]
        height = float(next(row for row in first.table if row[0] == "outer")[3])
        picture = draw_preview([(first.box, 0.0, (120, 160, 200)),
                                (first.lid, height + 30.0, (235, 235, 225))])
        picture.save(PREVIEW)  # type: ignore[attr-defined]
        print(f"wrote {PREVIEW}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
