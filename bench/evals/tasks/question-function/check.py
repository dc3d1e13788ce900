"""The summary names withdraw in its own words (not only inside the files it shows back); no
file changed."""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, prose, require, unchanged  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    require(re.search(r"\bwithdraw\b", prose(summary)),
            "the summary does not name withdraw (outside the files it shows)")
    unchanged(workspace, original)


main(check)
