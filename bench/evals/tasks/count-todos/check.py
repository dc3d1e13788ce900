"""todo_count.txt holds 6 (the lines with TODO); the other files are untouched."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, require, text, unchanged  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    value = text(workspace, "todo_count.txt").strip()
    require(value == "6", f"todo_count.txt holds {value!r}, expected 6")
    unchanged(workspace, original, ["src/app.py", "src/db.py", "docs/notes.md", "setup.cfg"])


main(check)
