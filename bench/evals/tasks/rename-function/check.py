"""add_numbers is called add everywhere; main.py prints the same; tests pass."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import expect, main, require, run_python, tests_pass, text  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    for name in ("calc.py", "main.py", "test_calc.py"):
        require("add_numbers" not in text(workspace, name), f"{name} still names add_numbers")
    expect(workspace, "calc", {"calc.add(2, 5)": 7, "calc.double(3)": 6})
    done = run_python(workspace, "main.py")
    require(done.stdout.strip() == "5 8", f"python main.py printed {done.stdout.strip()!r}")
    tests_pass(workspace)


main(check)
