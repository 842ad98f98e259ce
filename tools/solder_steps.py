#!/usr/bin/env python3
"""Draw hardware/solder/<step>.svg: the "solder these joints" pictures of the soldered build.

Each picture shows one step of hardware/README.md's soldered path as it lies on the bench: the
parts photo-style on a cutting mat, every joint of the step as a numbered marker (a silver
blob: solder it; a black plug: push it on, no solder), each Dupont lead from its joint to its
plug, and the Pi's header with the step's pins filled. Under the picture, one line per joint.

Promises:
- One source of truth. The wires (part, terminal, header pin, the series resistor), the parts'
  notes and names, the panels' terminal order and their module-side links all come from
  hardware/pinmap.toml through tools/wiring_diagram.py (its header table, its checks, its text
  measure): a pin map it refuses is refused here too (exit 2). This tool only lays them out.
- Every wire end of the pin map is in some step: its part end is a joint, its header end a
  plug labelled with the pin; every module-side link (`local`) is a joint. Each build (a panel,
  and the buzzer driven directly or through the NPN stage) draws each joint exactly once.
- Pictures you can copy (`problems` checks each one; `--check` fails on any): no two joint
  markers overlap, no wire runs through a joint it does not end at or through any text, no two
  leads run side by side, every text stays inside the picture and is wrapped, never cut.
- The same pin map always gives the same bytes (`--check` compares with the committed SVGs).

The work is in three modules beside this one: tools/solder_picture.py (a picture and its drawn
parts), tools/solder_parts.py (each part's step), tools/solder_layout.py (the steps, each whole
picture, its checks); this one writes the files, the README's lead plan and the command line.

Usage: python3 tools/solder_steps.py [--pinmap FILE] [--out-dir DIR] [--check] [--png DIR]
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wiring_diagram as wd  # the tools are scripts beside each other

# The pieces live in modules of their own; their names are re-exported here for the tests,
# which know this tool by this name.
from solder_layout import StepSpec, picture, pictures, problems, render_svg, steps
from solder_picture import WIDTH, Joint, Picture, Run, bands

__all__ = ["DEFAULT_OUT_DIR", "README", "WIDTH", "Joint", "Picture", "Run", "StepSpec", "bands",
           "lead_ends", "lead_plan", "main", "picture", "pictures", "problems",
           "readme_with_leads", "render_svg", "steps", "wd"]

ROOT = wd.ROOT
DEFAULT_OUT_DIR = ROOT / "hardware" / "solder"
README = ROOT / "hardware" / "README.md"


LEADS_BEGIN = "<!-- leads: written by tools/solder_steps.py from the pin map; do not edit -->"


LEADS_END = "<!-- leads: end -->"


def lead_ends(pic: Picture) -> tuple[list[int], list[int]]:
    """A picture's leads by what happens at the part's end: (whole: a plug pushed on there,
    so the lead keeps both its female ends; half: a bare end soldered), as header pins."""
    kinds = {joint.key: joint.kind for joint in pic.joints}
    whole: list[int] = []
    half: list[int] = []
    for run in sorted((r for r in pic.runs if r.kind == "lead"), key=lambda r: r.pin):
        (start,) = run.joints
        (whole if kinds[start] == "plug" else half).append(run.pin)
    return whole, half


def lead_plan(pinmap: Mapping[str, Any]) -> str:
    """The Markdown of step 1 (indented into its list item): how many leads to keep whole
    before anything is cut, and each step's leads, whole or half, by header pin (which is also
    each lead's label)."""
    specs = steps(pinmap)
    pics = {spec.name: picture(pinmap, spec) for spec in specs}
    ends = {name: lead_ends(pic) for name, pic in pics.items()}
    display = max(len(ends[s.name][0]) for s in specs if s.panel)
    others = sum(len(ends[s.name][0]) for s in specs if not s.panel)
    half = (sum(len(ends[s.name][1]) for s in specs if s.buzzer != "direct" and not s.panel)
            + max(len(ends[s.name][1]) for s in specs if s.panel))
    spi = next(s for s in specs if s.panel and len(ends[s.name][0]) == display)
    rows = ["| picture | for | keep whole (plug at both ends): pins | half (bare end "
            "soldered): pins |", "|---|---|---|---|"]
    for spec in specs:
        whole, cut = ends[spec.name]
        rows.append(f"| `solder/{spec.name}.svg` | {spec.title} | "
                    f"{', '.join(map(str, whole)) or '-'} | {', '.join(map(str, cut)) or '-'} |")
    words = (f"**Before you cut anything, peel {display + others} leads off the ribbon and keep "
             f"them whole** (female at both ends): {display} for the display (the most any panel "
             f"takes: {dict(wd.panels(pinmap))[spi.panel]['title']}) and {others} for the serial "
             f"line. Then cut the rest of the ribbon in half: a build solders at most {half} half "
             "leads. Every lead is labelled with its header pin as soon as its part end is done.")
    body = ["", *wd.wrap_markdown(words, 93), "", *rows, "", LEADS_END]
    return "\n".join([LEADS_BEGIN, *(f"   {line}" if line else "" for line in body)])


def readme_with_leads(readme: str, plan: str) -> str:
    """`readme` with its leads block replaced by `plan` (ValueError if it has no block)."""
    start, end = readme.find(LEADS_BEGIN), readme.find(LEADS_END)
    if start < 0 or end < start:
        raise ValueError(f"{README.name} has no {LEADS_BEGIN!r} ... {LEADS_END!r} block")
    return readme[:start] + plan + readme[end + len(LEADS_END):]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write (or with --check, compare and check) the step pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pinmap", type=Path, default=wd.DEFAULT_PINMAP)
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT_DIR)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a picture is stale or misleading (write nothing)")
    parser.add_argument("--png", type=Path, metavar="DIR",
                        help="also render each picture to DIR/<name>.png (needs chromium)")
    args = parser.parse_args(argv)
    try:
        found = pictures(wd.load_pinmap(args.pinmap))
    except (OSError, tomllib.TOMLDecodeError, wd.PinmapError, KeyError, TypeError) as exc:
        print(f"solder_steps: {args.pinmap}: {exc}", file=sys.stderr)
        return 2
    status = 0
    if not args.check:
        args.out_dir.mkdir(parents=True, exist_ok=True)
    if args.pinmap == wd.DEFAULT_PINMAP:  # step 1 of the project's own README
        current = README.read_text(encoding="utf-8")
        wanted = readme_with_leads(current, lead_plan(wd.load_pinmap(args.pinmap)))
        if wanted != current and args.check:
            print(f"solder_steps: {README}'s leads block is out of date; run python3 "
                  "tools/solder_steps.py", file=sys.stderr)
            status = 1
        elif wanted != current:
            README.write_text(wanted, encoding="utf-8")
            print(f"wrote {README} (its leads block)")
    for name, pic in found.items():
        for problem in problems(pic):
            print(f"solder_steps: {name}: {problem}", file=sys.stderr)
            status = 1
        target = args.out_dir / name
        svg = render_svg(pic)
        if args.check:
            current = target.read_text(encoding="utf-8") if target.exists() else ""
            if current != svg:
                print(f"solder_steps: {target} is out of date with {args.pinmap}; "
                      "run python3 tools/solder_steps.py", file=sys.stderr)
                status = 1
            continue
        target.write_text(svg, encoding="utf-8")
        print(f"wrote {target}")
        if args.png is not None:
            args.png.mkdir(parents=True, exist_ok=True)
            wd.to_png(target, args.png / f"{target.stem}.png", (WIDTH, pic.height))
    return status


if __name__ == "__main__":
    sys.exit(main())
