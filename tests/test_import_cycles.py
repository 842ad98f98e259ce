"""No import circle between the files of companion/ (issue #18).

Every import counts, wherever it stands: at the top, inside a function (a lazy import is still
a dependency) and under ``if TYPE_CHECKING:``. Only a package's ``__init__.py`` importing its
own modules (a re-export) is left out. The walk reads the source with :mod:`ast`; nothing is
imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "companion"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def resolve(name: str, known: dict[str, Path]) -> str | None:
    """The file a dotted name lives in: itself, or the nearest package or module above it."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" for alias in node.names] or [base]
            targets.append(base)
        for target in targets:
            resolved = resolve(target, known)
            if resolved is None or resolved == name:
                continue
            if is_package and resolved.startswith(name + "."):
                continue  # a package's __init__ re-exporting its own modules
            found.add(resolved)
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(tuple(sorted(component)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_import_cycles_none_between_files_of_companion() -> None:
    found = circles(import_graph())
    assert found == []


def test_import_cycles_the_walk_finds_a_circle_it_is_shown() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [("a", "b", "c")]


def test_import_cycles_type_checking_and_lazy_imports_count(tmp_path: Path) -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
              "    from companion.cli import main\n"
              "def f():\n    from companion import exits\n")
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    known = {"companion.m": path, "companion.cli": path, "companion.exits": path,
             "companion": path}
    assert imports_of("companion.m", path, known) == {"companion.cli", "companion.exits",
                                                      "companion"}
