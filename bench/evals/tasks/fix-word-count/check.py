"""textstats.word_count counts words split by any whitespace; tests unchanged and passing."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import expect, main, tests_pass, unchanged  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    unchanged(workspace, original, ["test_textstats.py"])
    tests_pass(workspace)
    expect(workspace, "textstats", {"textstats.word_count('')": 0,
                                    "textstats.word_count('   ')": 0,
                                    "textstats.word_count(' a  b\\n\\nc\\td ')": 4,
                                    "textstats.line_count('x')": 1})


main(check)
