"""Files stay small enough to read whole (issue #18): no module of companion/ runs over 450
lines. One was once let through (the controller, before its effects and replays moved to
runtime/effects.py and runtime/resuming.py); an allowance of one only invites the next module
to grow into the gap, and a module that outgrows the limit is one that has found a second
job, which belongs in a room of its own."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
LIMIT = 450


def test_file_sizes_no_module_over_the_limit() -> None:
    sizes = {path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8")
                                                       .splitlines())
             for path in PACKAGE.rglob("*.py")}
    over = sorted(name for name, lines in sizes.items() if lines > LIMIT)
    assert over == [], {name: sizes[name] for name in over}


def test_file_sizes_the_http_handler_class_only_gathers_and_writes() -> None:
    """The web's plumbing stays thin (issue #18): the handler class is at most 150 lines;
    rules live in web/policy.py, routes in web/routes.py, bounded reads in
    web/bounded_reading.py."""
    tree = ast.parse((PACKAGE / "web" / "http_handler.py").read_text(encoding="utf-8"))
    handler = next(node for node in tree.body
                   if isinstance(node, ast.ClassDef) and node.name == "HttpHandler")
    assert handler.end_lineno is not None
    assert handler.end_lineno - handler.lineno + 1 <= 150
