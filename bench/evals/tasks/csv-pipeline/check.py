"""totals.csv holds the per-region sums of sales.csv, sorted, with the header."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, require, text, unchanged  # noqa: E402

EXPECTED = ["region,total", "east,100", "north,200", "south,100", "west,200"]


def check(workspace: Path, summary: str, original: Path) -> None:
    lines = [line.strip().replace(" ", "") for line in text(workspace, "totals.csv").splitlines()
             if line.strip()]
    require(lines == EXPECTED, f"totals.csv holds {lines}, expected {EXPECTED}")
    unchanged(workspace, original, ["sales.csv"])


main(check)
