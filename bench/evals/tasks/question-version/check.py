"""The summary says 2.7.1 (and not the changelog's older versions); no file changed."""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, require, unchanged  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    require(re.search(r"(?<![\d.])2\.7\.1(?![\d])", summary), "the summary does not say 2.7.1")
    unchanged(workspace, original)


main(check)
