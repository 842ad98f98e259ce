"""Files stay small enough to read whole (issue #18): at most one module of companion/ runs
over 450 lines."""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
LIMIT = 450


def test_file_sizes_at_most_one_module_over_the_limit() -> None:
    sizes = {path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8")
                                                       .splitlines())
             for path in PACKAGE.rglob("*.py")}
    over = sorted(name for name, lines in sizes.items() if lines > LIMIT)
    assert len(over) <= 1, over
