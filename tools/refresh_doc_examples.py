#!/usr/bin/env python3
"""Rewrite the output of every runnable ```console block in README.md and docs/*.md from the
program itself.

tests/e2e/test_docs.py fails when a page's example output differs from what `companion`
prints; run this on purpose, after a change that is meant to alter that output, then read the
diff before committing it. JSON blocks (commands ending in --json) are compared as JSON by the
test and are rewritten too, one object per line as the program prints them.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import test_docs  # noqa: E402  (the test's own parser and runner, so both read pages alike)


def main() -> int:
    failed = False
    for page in test_docs.PAGES:
        text = page.read_text(encoding="utf-8")

        def refreshed(match: object, page: Path = page) -> str:
            nonlocal failed
            command = match.group(1)  # type: ignore[attr-defined]
            result = test_docs.run_command(command)
            if result.returncode not in (0, 2):
                print(f"{page.name}: {command}: exit {result.returncode}: {result.stderr}",
                      file=sys.stderr)
                failed = True
                return str(match.group(0))  # type: ignore[attr-defined]
            return f"```console\n$ {command}\n{test_docs.printed(result)}```"

        new = test_docs.BLOCK.sub(refreshed, text)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"updated {page.relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
