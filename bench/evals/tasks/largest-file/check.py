"""report.txt names beta.txt and its size; data/ is untouched."""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, require, text, unchanged  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    size = (original / "data" / "beta.txt").stat().st_size
    lines = [line.strip() for line in text(workspace, "report.txt").strip().splitlines()]
    require(len(lines) == 2, f"report.txt has {len(lines)} lines, expected 2")
    require(lines[0] in ("beta.txt", "data/beta.txt"), f"the largest file is not {lines[0]!r}")
    # the number, with or without a unit word after it in any language ("4100 bytes", "4100
    # octets", "4100字节", "4 100 байт")
    number = re.match(r"^\s*([\d ,.\u00a0\u202f]*\d)", lines[1])
    written = re.sub(r"[ ,.\u00a0\u202f]", "", number.group(1)) if number else lines[1]
    require(written == str(size), f"size {lines[1]!r}, expected {size}")
    unchanged(workspace, original, [f"data/{p.name}" for p in (original / "data").iterdir()])


main(check)
