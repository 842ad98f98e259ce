"""The project's own docs describe what the program does, and a clone has all of them.

Every ```console block in docs/*.md that runs `companion score` or `companion simulate` is run
here and its output compared with the page (JSON outputs as JSON); every example file in
docs/examples/ is shown on a page; every relative link in the README and docs/ resolves; the
README sends nobody to a folder that a clone does not have.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
BLOCK = re.compile(r"```console\n\$ (companion (?:score|simulate)[^\n]*)\n(.*?)```", re.S)
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


def console_blocks() -> list[tuple[str, str, str]]:
    """(page, command line, expected output) of every runnable block."""
    return [(page.name, command, output) for page in PAGES
            for command, output in BLOCK.findall(page.read_text(encoding="utf-8"))]


def run_command(command: str) -> subprocess.CompletedProcess[str]:
    words = shlex.split(command)
    stdin = ""
    if "<" in words:
        at = words.index("<")
        stdin = (ROOT / words[at + 1]).read_text(encoding="utf-8")
        words = words[:at] + words[at + 2:]
    assert words[0] == "companion"
    return subprocess.run([sys.executable, "-m", "companion", *words[1:]], input=stdin,
                          cwd=ROOT, text=True, capture_output=True, timeout=120, check=False)


def test_docs_have_runnable_examples() -> None:
    pages = {page for page, _, _ in console_blocks()}
    assert {"scoring.md", "protocol.md"} <= pages


@pytest.mark.parametrize(("page", "command", "expected"), console_blocks(),
                         ids=[f"{page}: {command}" for page, command, _ in console_blocks()])
def test_docs_console_block_is_what_the_program_prints(page: str, command: str,
                                                       expected: str) -> None:
    result = run_command(command)
    assert result.returncode == 0, result.stderr
    if command.endswith("--json"):
        assert json.loads(expected) == json.loads(result.stdout)
    else:
        assert result.stdout == expected, f"{page}: {command}"


def test_docs_every_example_file_is_shown() -> None:
    shown = "\n".join(command for _, command, _ in console_blocks())
    examples = [path for path in (DOCS / "examples").rglob("*")
                if path.is_file() and path.parent.name != "guides"]
    assert examples
    for path in examples:
        assert str(path.relative_to(ROOT)) in shown, f"{path.name} is on no page"


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation but hyphens dropped,
    spaces made hyphens."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("page", [ROOT / "README.md", *PAGES], ids=lambda path: path.name)
def test_docs_links_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target, anchor in LINK.findall(text):
        if "://" in target:
            continue
        assert (page.parent / target).exists(), f"{page.name}: broken link {target}"
        if anchor:
            assert anchor[1:] in anchors(page.parent / target), \
                f"{page.name}: no heading for {target}{anchor}"


def test_readme_sends_nobody_to_shared() -> None:
    """A clone from GitHub has no shared/ folder: the README links the project's docs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "shared/" not in readme and "CLARIFICATIONS.md" not in readme
    for page in ("docs/protocol.md", "docs/scoring.md", "docs/rules.md"):
        assert f"]({page})" in readme
