"""The task's own tests (tests/, kept outside the workspace) pass against its schedule.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import hidden_tests, main  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    hidden_tests(workspace, Path(__file__).resolve().parent / "tests")


main(check)
