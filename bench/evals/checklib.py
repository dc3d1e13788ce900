"""What the task checkers share: read the workspace, compare it with the untouched copy, run
its tests. A checker is ``tasks/NAME/check.py WORKSPACE SUMMARY_FILE``; it exits 0 when the
task is done and otherwise prints why not and exits 1."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

MAX_LISTED = 5
CheckFn = Callable[[Path, str, Path], None]  # (workspace, summary, original workspace)


class Failed(Exception):
    """The task is not done; the message says what is missing."""


def main(check: CheckFn) -> None:
    """Run ``check(workspace, summary, original)`` from a checker's command line."""
    if len(sys.argv) != 3:
        print("usage: check.py WORKSPACE SUMMARY_FILE", file=sys.stderr)
        sys.exit(2)
    workspace, summary_file = Path(sys.argv[1]), Path(sys.argv[2])
    original = Path(sys.modules["__main__"].__file__ or ".").resolve().parent / "workspace"
    summary = summary_file.read_text(encoding="utf-8") if summary_file.is_file() else ""
    try:
        check(workspace, summary, original)
    except Failed as failed:
        print(f"FAIL: {failed}")
        sys.exit(1)
    print("PASS")
    sys.exit(0)



def require(condition: object, message: str) -> None:
    if not condition:
        raise Failed(message)


def text(workspace: Path, name: str) -> str:
    path = workspace / name
    require(path.is_file(), f"{name} does not exist")
    return path.read_text(encoding="utf-8", errors="replace")


def digest(folder: Path) -> dict[str, str]:
    """Relative path → sha256 of every file under ``folder`` (caches left out)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}


def unchanged(workspace: Path, original: Path, names: Iterable[str] | None = None) -> None:
    """The named files (default: all) are exactly as in the original workspace."""
    now, before = digest(workspace), digest(original)
    if names is not None:
        wanted = set(names)
        now = {k: v for k, v in now.items() if k in wanted}
        before = {k: v for k, v in before.items() if k in wanted}
    changed = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    require(not changed, "files changed that must stay as they were: "
            + ", ".join(changed[:MAX_LISTED]))


def run_python(workspace: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=workspace, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def tests_pass(workspace: Path, pattern: str = "test_*.py") -> None:
    """The workspace's unittest/pytest-style tests all pass (run with unittest)."""
    done = run_python(workspace, "-m", "unittest", "discover", "-s", ".", "-p", pattern)
    tail = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()][-2:]
    require(done.returncode == 0, "the workspace's tests fail: " + " | ".join(tail))
    require(re.search(r"Ran [1-9]\d* test", done.stderr), "no test ran")


def call(workspace: Path, module: str, expression: str) -> str:
    """``repr`` of ``expression`` evaluated after ``import module`` inside the workspace."""
    code = f"import {module}\nprint(repr({expression}))"
    done = run_python(workspace, "-c", code)
    require(done.returncode == 0, f"{expression} failed: "
            + (done.stderr.strip().splitlines() or ["?"])[-1])
    return done.stdout.strip()


def expect(workspace: Path, module: str, cases: dict[str, object]) -> None:
    """Each expression evaluates (in the workspace) to the given value."""
    for expression, wanted in cases.items():
        got = call(workspace, module, expression)
        require(got == repr(wanted), f"{expression} gave {got}, expected {wanted!r}")
