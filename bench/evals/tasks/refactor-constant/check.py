"""settings.TAX_RATE == 0.21, used by invoice.py and quote.py; main.py prints the same."""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import expect, main, require, run_python, text, unchanged  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    expect(workspace, "settings", {"settings.TAX_RATE": 0.21})
    for name in ("invoice.py", "quote.py"):
        source = text(workspace, name)
        require("0.21" not in source, f"{name} still writes 0.21")
        require(re.search(r"^\s*(from settings import|import settings)", source, re.M),
                f"{name} does not import from settings")
    done = run_python(workspace, "main.py")
    require(done.stdout.split() == ["121.0", "desk:", "200", "+", "42.0", "tax"],
            f"python main.py printed {done.stdout.strip()!r} {done.stderr.strip()[-200:]}")
    unchanged(workspace, original, ["main.py"])


main(check)
