"""The project's own docs describe what the program does, and a clone has all of them.

Every ```console block in README.md and docs/*.md whose command is `companion score` or
`companion simulate` (a protocol session, `score ... --example`) is run here and its output
compared with the page, byte for byte (JSON outputs as JSON): a command may start with
`.venv/bin/` (as the README writes it), read a file with `<`, or take protocol lines from a
`printf '...' |`. Blocks are found wherever they are, so sections added later are covered as
they come. tools/refresh_doc_examples.py rewrites the outputs, on purpose only. Also: each
```json / ```toml block shown under a link to a docs/examples/ file is that file; every example
file is shown on a page; every relative link in the README and docs/ resolves; the README
sends nobody to a folder that a clone does not have.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
BLOCK = re.compile(r"```console\n\$ ((?:printf '[^'\n]*' \| )?(?:\.venv/bin/)?"
                   r"companion (?:score|simulate)[^\n]*)\n(.*?)```", re.S)
# A link to an examples/ file, then (before any other block) a json or toml block: the file.
SHOWN_FILE = re.compile(r"\[(examples/[^\]]+)\]\(examples/[^)]+\)(?:(?!```).)*?"
                        r"```(json|toml)\n(.*?)```", re.S)
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


def console_blocks() -> list[tuple[str, str, str]]:
    """(page, command line, expected output) of every runnable block."""
    return [(page.name, command, output) for page in PAGES
            for command, output in BLOCK.findall(page.read_text(encoding="utf-8"))]


def run_command(command: str) -> subprocess.CompletedProcess[str]:
    """Run a block's command as a shell would, without a shell: ``printf 'LINES' |`` becomes
    standard input (printf's ``\\n`` escapes only), ``< FILE`` too, and ``.venv/bin/companion``
    is this interpreter's companion."""
    stdin = ""
    printed = re.match(r"printf '([^']*)' \| ", command)
    if printed:
        stdin = printed.group(1).replace("\\n", "\n")
        command = command[printed.end():]
    words = shlex.split(command.removeprefix(".venv/bin/"))
    if "<" in words:
        at = words.index("<")
        stdin = (ROOT / words[at + 1]).read_text(encoding="utf-8")
        words = words[:at] + words[at + 2:]
    assert words[0] == "companion"
    return subprocess.run([sys.executable, "-m", "companion", *words[1:]], input=stdin,
                          cwd=ROOT, text=True, capture_output=True, timeout=120, check=False)


def printed(result: subprocess.CompletedProcess[str]) -> str:
    """What a block shows: standard output, and for a refusal (exit 2, bad input) the one
    line on standard error after it."""
    return result.stdout if result.returncode == 0 else result.stdout + result.stderr


def test_docs_have_runnable_examples() -> None:
    pages = {page for page, _, _ in console_blocks()}
    assert {"README.md", "scoring.md", "protocol.md"} <= pages
    commands = " ".join(command for _, command, _ in console_blocks())
    assert "printf '" in commands and "--example" in commands and " < " in commands


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.name)
def test_docs_every_example_with_output_is_a_block_this_test_runs(page: Path) -> None:
    """No example escapes the check: a ```console block is one the test can run, and a
    command shown with its output (a `$ companion` line in any other block) must be one."""
    text = page.read_text(encoding="utf-8")
    console = re.findall(r"^```console\n(.*)$", text, re.M)
    assert len(console) == len(BLOCK.findall(text)), \
        f"{page.name}: a ```console block whose command the test cannot run: {console}"
    other = [first for fence, first in re.findall(r"^```(\w*)\n(.*)$", text, re.M)
             if fence != "console" and first.startswith("$ companion")]
    assert not other, f"{page.name}: write these as ```console blocks: {other}"


@pytest.mark.parametrize(("page", "command", "expected"), console_blocks(),
                         ids=[f"{page}: {command}" for page, command, _ in console_blocks()])
def test_docs_console_block_is_what_the_program_prints(page: str, command: str,
                                                       expected: str) -> None:
    result = run_command(command)
    assert result.returncode in (0, 2), result.stderr
    if command.endswith("--json"):
        assert result.returncode == 0, result.stderr
        assert json.loads(expected) == json.loads(result.stdout)
    else:
        assert printed(result) == expected, f"{page}: {command}"


def shown_files() -> list[tuple[str, str, str, str]]:
    """(page, examples/ file, json or toml, the block's text) for every file a page shows."""
    return [(page.name, name, kind, text) for page in PAGES
            for name, kind, text in SHOWN_FILE.findall(page.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(("page", "name", "kind", "text"), shown_files(),
                         ids=[f"{page}: {name}" for page, name, _, _ in shown_files()])
def test_docs_a_shown_example_file_is_the_file(page: str, name: str, kind: str,
                                               text: str) -> None:
    file_text = (DOCS / name).read_text(encoding="utf-8")
    if kind == "json":
        assert json.loads(text) == json.loads(file_text), f"{page}: {name}"
    else:
        assert tomllib.loads(text) == tomllib.loads(file_text), f"{page}: {name}"


def test_docs_show_the_example_files() -> None:
    assert len(shown_files()) >= 8


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
