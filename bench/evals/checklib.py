"""What the task checkers share: read the workspace, compare it with the untouched copy, run
its tests, or the task's own tests kept outside it. A checker is ``tasks/NAME/check.py
WORKSPACE SUMMARY_FILE``; it exits 0 when the task is done and otherwise prints why not and
exits 1."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

MAX_LISTED = 5
HIDDEN_TIMEOUT_S = 120
FAILURES_SHOWN = 3
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


FENCED = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)


def prose(summary: str) -> str:
    """The summary's words outside fenced code blocks: a reply that only shows the files back
    (the line ``version = 2.7.1`` inside them) answers no question."""
    return FENCED.sub(" ", summary)


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


def hidden_tests(workspace: Path, tests: Path) -> None:
    """The task's tests (``tests/test_*.py`` in its folder, never in the workspace) pass
    against ``workspace``: they are copied next to a copy of its files in a temporary folder
    and run there with pytest (its plugins off). A failure names the first failing tests."""
    names = sorted(p.name for p in tests.glob("test_*.py"))
    require(names, f"no tests in {tests}")
    with tempfile.TemporaryDirectory(prefix="phasedesk-check-") as scratch:
        folder = Path(scratch) / "run"
        shutil.copytree(workspace, folder, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        for name in names:
            shutil.copyfile(tests / name, folder / name)
        env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
               "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "200"}
        try:
            done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfE", "--tb=short",
                                   "--no-header", "-p", "no:cacheprovider", *names],
                                  cwd=folder, capture_output=True, text=True, env=env,
                                  timeout=HIDDEN_TIMEOUT_S, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise Failed(f"the tests took longer than {HIDDEN_TIMEOUT_S} s") from None
    require(done.returncode == 0, "the task's tests fail: " + _failures(done.stdout
                                                                       + done.stderr))


def _failures(output: str) -> str:
    """The tally and the first failing tests of a pytest run, on one line; a test file that
    could not be imported (a syntax error, a missing name) is shown with the error."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    tally = next((line.strip("= ") for line in reversed(lines)
                  if re.search(r"\b(passed|failed|errors?|no tests ran)\b", line)), "")
    failed = [re.sub(r"^(FAILED|ERROR) \S*?::", "", line)[:160] for line in lines
              if line.startswith(("FAILED ", "ERROR "))]
    errors = [line.removeprefix("E").strip() for line in lines if line.startswith("E ")]
    if errors and any(" - " not in line for line in failed):
        where = next((re.sub(r'File ".*?([^/"]+)", line (\d+).*', r"\1, line \2", line)
                      for line in errors if line.startswith("File ")), "")
        failed = [f"{errors[-1]}{f' ({where})' if where else ''}"[:200]] + failed
    shown = " | ".join(failed[:FAILURES_SHOWN]) or (lines[-1][:300] if lines else "no output")
    more = f" | and {len(failed) - FAILURES_SHOWN} more" if len(failed) > FAILURES_SHOWN else ""
    return f"{tally}: {shown}{more}" if tally else shown + more
