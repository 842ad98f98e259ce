"""docs/architecture.md shows every room: each folder of companion/ is named in it (#18)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"


def test_architecture_doc_names_every_folder_of_the_package() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    folders = sorted(path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*")
                     if path.is_dir() and path.name != "__pycache__")
    assert len(folders) >= 15
    assert [folder for folder in folders if f"{folder.rsplit('/', 1)[-1]}/" not in text] == []


def test_architecture_doc_names_every_top_level_module() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    modules = sorted(path.name for path in PACKAGE.glob("*.py")
                     if path.name not in ("__init__.py", "__main__.py"))
    assert [module for module in modules if module not in text] == []
