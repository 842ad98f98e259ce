"""Files stay small enough to read whole (issue #18): no module of companion/ runs over 450
lines. One was once let through (the controller, before its effects and replays moved to
runtime/effects.py and runtime/resuming.py); an allowance of one only invites the next module
to grow into the gap, and a module that outgrows the limit is one that has found a second
job, which belongs in a room of its own. The project's tools (tools/: the installer, the image
builder, the drawings, the case) are held to the same limit (issue #37): every file there,
Python or shell, is read by the maker who runs it."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"
TOOLS = ROOT / "tools"
LIMIT = 450


def test_file_sizes_no_module_over_the_limit() -> None:
    sizes = {path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8")
                                                       .splitlines())
             for path in PACKAGE.rglob("*.py")}
    over = sorted(name for name, lines in sizes.items() if lines > LIMIT)
    assert over == [], {name: sizes[name] for name in over}


def _tool_files() -> list[Path]:
    """Every text file under tools/ (scripts with or without a suffix), not caches."""
    return sorted(path for path in TOOLS.rglob("*")
                  if path.is_file() and "__pycache__" not in path.parts
                  and b"\0" not in path.read_bytes()[:4096])


def test_file_sizes_no_tool_over_the_limit() -> None:
    files = _tool_files()
    assert any(path.name == "solder_steps.py" for path in files)  # the walk finds the tools
    sizes = {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8")
                                                    .splitlines())
             for path in files}
    over = sorted(name for name, lines in sizes.items() if lines > LIMIT)
    assert over == [], {name: sizes[name] for name in over}


def test_file_sizes_each_python_tool_says_what_it_promises() -> None:
    """A tool module has one job and a docstring that says it (issue #37)."""
    silent = sorted(path.relative_to(ROOT).as_posix() for path in TOOLS.rglob("*.py")
                    if "__pycache__" not in path.parts
                    and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))))
    assert silent == []


def test_file_sizes_the_http_handler_class_only_gathers_and_writes() -> None:
    """The web's plumbing stays thin (issue #18): the handler class is at most 150 lines;
    rules live in web/policy.py, routes in web/routes.py, bounded reads in
    web/bounded_reading.py."""
    tree = ast.parse((PACKAGE / "web" / "http_handler.py").read_text(encoding="utf-8"))
    handler = next(node for node in tree.body
                   if isinstance(node, ast.ClassDef) and node.name == "HttpHandler")
    assert handler.end_lineno is not None
    assert handler.end_lineno - handler.lineno + 1 <= 150
