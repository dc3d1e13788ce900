"""emails.txt lists the active users' emails, sorted."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, require, text, unchanged  # noqa: E402

EXPECTED = ["ana@example.org", "mia@example.org", "tom@example.org"]


def check(workspace: Path, summary: str, original: Path) -> None:
    lines = [line.strip() for line in text(workspace, "emails.txt").splitlines() if line.strip()]
    require(lines == EXPECTED, f"emails.txt holds {lines}, expected {EXPECTED}")
    unchanged(workspace, original, ["users.json"])


main(check)
