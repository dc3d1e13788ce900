"""token.txt holds the token make_token.py prints; make_token.py is untouched."""

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, require, text, unchanged  # noqa: E402

TOKEN = hashlib.sha256(b"phasedesk-evals").hexdigest()[7:19]


def check(workspace: Path, summary: str, original: Path) -> None:
    value = text(workspace, "token.txt").strip().removeprefix("token:").strip()
    require(value == TOKEN, f"token.txt holds {value!r}, expected the printed token")
    unchanged(workspace, original, ["make_token.py"])


main(check)
