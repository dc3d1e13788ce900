"""stats.total sums every number; the tests pass and are unchanged."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import expect, main, tests_pass, unchanged  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    unchanged(workspace, original, ["test_stats.py"])
    tests_pass(workspace)
    expect(workspace, "stats", {"stats.total([])": 0, "stats.total([4, -1, 10])": 13,
                                "stats.mean([1, 2, 3, 4])": 2.5})


main(check)
