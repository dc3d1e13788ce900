"""report.txt names beta.txt and its size; data/ is untouched."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, require, text, unchanged  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    size = (original / "data" / "beta.txt").stat().st_size
    lines = [line.strip() for line in text(workspace, "report.txt").strip().splitlines()]
    require(len(lines) == 2, f"report.txt has {len(lines)} lines, expected 2")
    require(lines[0] in ("beta.txt", "data/beta.txt"), f"the largest file is not {lines[0]!r}")
    written = lines[1].replace(",", "").removesuffix("bytes").strip()
    require(written == str(size), f"size {lines[1]!r}, expected {size}")
    unchanged(workspace, original, [f"data/{p.name}" for p in (original / "data").iterdir()])


main(check)
