#!/usr/bin/env python3
"""Render the printable case (hardware/case/companion_case.scad) to STL, and its preview.

    tools/case                       every variant of VARIANTS into build/case/
    tools/case --board zero2 --panel ssd1306 --buttons 12 --sounder piezo   one of your own
    tools/case --preview             also redraw hardware/case/preview.png (committed)
    tools/case --slice               also slice every part with PrusaSlicer at the committed
                                     profile and write the print times and filament into
                                     hardware/README.md (tools/case_print.py)

Promises:
- OpenSCAD runs headless (`openscad -o FILE.stl`, Debian's package), one process per part,
  an argument list with a timeout, never a shell. The STL files are build output (build/ is
  git-ignored): print them, do not commit them.
- Each variant (board, panel, button size, sounder) gives `<board>-<panel>-<buttons>mm-box.stl`
  (the tray: the same for both sounders, rendered once) and `<variant>-lid.stl`, and the hole
  table the .scad echoes (`read_table`), which tests/deploy/test_case.py checks against the pin
  map, the Raspberry Pi drawings and the display sizes.
- `speaker_clear` asks OpenSCAD for the intersection of the speaker's body with every other
  part of the closed box; it answers True only when OpenSCAD reports that intersection empty.
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
SOUNDERS = ("speaker", "piezo")  # the recommended speaker first; the piezo is the budget build

Variant = tuple[str, str, int, str]
# The variants rendered by default (and by the test): every board with every panel, both
# button sizes and both sounders (36), the recommended build (Pi 5, 2.42 in SSD1309, 16 mm
# buttons, the speaker) first.
RECOMMENDED: Variant = ("pi5", "ssd1309", 16, "speaker")
VARIANTS: tuple[Variant, ...] = (RECOMMENDED, *(
    variant for variant in itertools.product(BOARDS, PANELS, BUTTONS, SOUNDERS)
    if variant != RECOMMENDED))
TIMEOUT_S = 600
EMPTY = "Current top level object is empty."


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


def variant_name(board: str, panel: str, buttons: int, sounder: str) -> str:
    return f"{board}-{panel}-{buttons}mm-{sounder}"


def tray_name(board: str, panel: str, buttons: int) -> str:
    return f"{board}-{panel}-{buttons}mm"


def _run(variant: Variant, part: str, out: Path,
         extra: Sequence[str] = ()) -> subprocess.CompletedProcess[str]:
    board, panel, buttons, sounder = variant
    return subprocess.run(  # noqa: S603 (an argument list, no shell)
        [openscad(), "-o", str(out), "--export-format", "asciistl",
         "-D", f'board="{board}"', "-D", f'panel="{panel}"', "-D", f"button_d={buttons}",
         "-D", f'sounder="{sounder}"', "-D", f'part="{part}"', *extra, str(SCAD)],
        capture_output=True, text=True, timeout=TIMEOUT_S, check=False)


def _render(variant: Variant, part: str, out: Path) -> str:
    done = _run(variant, part, out)
    if done.returncode != 0 or not out.exists() or out.stat().st_size == 0:
        raise CaseError(f"openscad failed for {variant_name(*variant)} {part}: "
                        f"{done.stderr.strip()[-800:]}")
    return done.stderr


def speaker_clear(variant: Variant, out_dir: Path, shift: tuple[float, float] = (0, 0)) -> bool:
    """Whether the speaker's body (moved by `shift`, mm) clears every wall, post, boss, ring
    and part in the closed box: OpenSCAD renders their intersection and reports it empty."""
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{variant_name(*variant)}-clash-{shift[0]:g}-{shift[1]:g}.stl"
    done = _run(variant, "clash", out, ("-D", f"speaker_shift=[{shift[0]}, {shift[1]}]"))
    if EMPTY in done.stderr:
        return True
    if done.returncode == 0 and out.exists() and out.stat().st_size > 0:
        return False
    raise CaseError(f"openscad failed for {variant_name(*variant)} clash: "
                    f"{done.stderr.strip()[-800:]}")


def read_table(echo: str) -> tuple[tuple[str, ...], ...]:
    """The `ECHO: "hole", "button", "NEXT", 100.4, 15.4, 16.3` lines as field tuples."""
    rows = []
    for line in echo.splitlines():
        if not line.startswith("ECHO: "):
            continue
        fields = [f.strip() for f in line.removeprefix("ECHO: ").split(",")]
        rows.append(tuple(f.strip('"').split(" = ")[-1].strip('"') for f in fields))
    return tuple(rows)


def render_all(variants: Iterable[Variant], out_dir: Path = OUT,
               jobs: int = 2) -> list[Rendered]:
    """Render several variants, `jobs` OpenSCAD processes at a time: each variant's lid (its
    echo is the variant's table), and each tray once (the sounder does not change it)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    wanted = list(variants)
    trays: dict[str, Variant] = {}
    for variant in wanted:
        trays.setdefault(tray_name(*variant[:3]), variant)

    def box(item: tuple[str, Variant]) -> str:
        return _render(item[1], "box", out_dir / f"{item[0]}-box.stl")

    def lid(variant: Variant) -> str:
        return _render(variant, "lid", out_dir / f"{variant_name(*variant)}-lid.stl")

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(box, trays.items()))
        echoes = list(pool.map(lid, wanted))
    return [Rendered(variant_name(*variant), out_dir / f"{tray_name(*variant[:3])}-box.stl",
                     out_dir / f"{variant_name(*variant)}-lid.stl", read_table(echo))
            for variant, echo in zip(wanted, echoes, strict=True)]


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


def draw_preview(parts: Sequence[tuple[Path, float, tuple[int, int, int]]], size: int = 900,
                 scale: int = 2) -> object:
    """A flat-shaded view from the front left and above of the STL files (each lifted by
    its z offset, in its colour), as a Pillow image. The parts are drawn in the order given
    (the tray, then the lid above it); within the first, faces far to near by their mean
    depth; within a later one (a plate seen from above), by their nearest corner, so its big
    top faces cover what hangs under it."""
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
    for order, (path, lift, colour) in enumerate(parts):
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
            depth = (sum(p[2] for p in projected) / 3 if order == 0
                     else min(p[2] for p in projected))
            lit = (int(colour[0] * shade), int(colour[1] * shade), int(colour[2] * shade))
            faces.append((order, depth, projected, lit))
    faces.sort(key=lambda face: (face[0], -face[1]))
    xs = [p[0] for _, _, pts, _ in faces for p in pts]
    ys = [p[1] for _, _, pts, _ in faces for p in pts]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    k = (size * scale * 0.9) / span
    ox = (size * scale - (max(xs) - min(xs)) * k) / 2
    oy = (size * scale - (max(ys) - min(ys)) * k) / 2
    image = Image.new("RGB", (size * scale, size * scale), (250, 250, 247))
    pen = ImageDraw.Draw(image)
    for _, _, pts, colour in faces:
        pen.polygon([(ox + (p[0] - min(xs)) * k, size * scale - oy - (p[1] - min(ys)) * k)
                     for p in pts], fill=colour)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", choices=BOARDS)
    parser.add_argument("--panel", choices=PANELS)
    parser.add_argument("--buttons", type=int, choices=BUTTONS)
    parser.add_argument("--sounder", choices=SOUNDERS)
    parser.add_argument("--out-dir", type=Path, default=OUT)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--preview", action="store_true",
                        help=f"redraw {PREVIEW.relative_to(ROOT)} from the first variant")
    parser.add_argument("--slice", action="store_true",
                        help="slice every part with PrusaSlicer and write the print times and "
                             "filament into hardware/README.md (renders every variant)")
    args = parser.parse_args(argv)
    one = (args.board, args.panel, args.buttons, args.sounder)
    if any(one) and not all(one):
        parser.error("--board, --panel, --buttons and --sounder go together")
    if args.slice and any(one):
        parser.error("--slice renders every variant: leave out --board, --panel, --buttons, "
                     "--sounder")
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
    if args.slice:
        import case_print  # the slicer's half: a module beside this one

        try:
            case_print.write(case_print.slice_all(done, args.jobs))
        except (case_print.SliceError, CaseError, OSError, subprocess.SubprocessError) as exc:
            print(f"tools/case: {exc}", file=sys.stderr)
            return 1
        print(f"wrote {case_print.FIGURES} and {case_print.README} (its print table)")
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
