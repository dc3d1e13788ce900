"""The summary names withdraw (and not deposit as the answer); no file changed."""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, require, unchanged  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    require(re.search(r"\bwithdraw\b", summary), "the summary does not name withdraw")
    unchanged(workspace, original)


main(check)
