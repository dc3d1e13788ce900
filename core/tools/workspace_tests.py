"""The workspace's own tests: whether it has any, how to run them, what a run of them said.

A workspace with ``test_*.py`` / ``*_test.py`` files or a ``tests/`` folder has tests; the
planner is told the command that runs them, and the outcome of a test command that ran is a
fact for the judge.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import sys
from pathlib import Path

from core.tools.files import listed

SCAN_LIMIT = 2_000
TEST_FILE = re.compile(r"^(test_.+|.+_test)\.py$")
COMMAND_WORDS = re.compile(r"\b(pytest|unittest)\b")
PYTEST_COUNTS = re.compile(r"(\d+) (passed|failed|errors?|skipped)")
UNITTEST_RAN = re.compile(r"^Ran (\d+) tests?", re.MULTILINE)
UNITTEST_FAILED = re.compile(r"^FAILED \((?:failures=(\d+))?(?:, )?(?:errors=(\d+))?\)",
                             re.MULTILINE)


def is_test_file(path: str) -> bool:
    """Whether ``path`` (relative) is a test module: ``test_*.py``, ``*_test.py``, or a
    Python file in a ``tests`` folder."""
    parts = path.replace("\\", "/").split("/")
    return bool(TEST_FILE.match(parts[-1])) or (parts[-1].endswith(".py") and "tests" in parts[:-1])


def has_tests(workspace: Path) -> bool:
    """Whether the workspace holds Python tests (a bounded scan that skips the tools'
    skipped folders)."""
    seen = 0
    folders = [workspace]
    while folders and seen < SCAN_LIMIT:
        for entry in listed(folders.pop()):
            seen += 1
            if entry.is_dir(follow_symlinks=False):
                if entry.name == "tests":
                    return True
                folders.append(Path(entry.path))
            elif TEST_FILE.match(entry.name):
                return True
    return False


def tests_command() -> str:
    """The command that runs the workspace's tests with this Python (pytest when it is
    installed, else unittest's discovery)."""
    python = "python3" if getattr(sys, "frozen", False) else shlex.quote(sys.executable)
    if not getattr(sys, "frozen", False) and importlib.util.find_spec("pytest") is not None:
        return f"{python} -m pytest -q"
    return f"{python} -m unittest discover -q"


def is_tests_command(command: str) -> bool:
    return bool(COMMAND_WORDS.search(command))


def tests_outcome(output: str, ok: bool) -> str:
    """What a test run said, in one line ("" when its output shows no counts)."""
    counts = {kind.rstrip("s"): int(n) for n, kind in PYTEST_COUNTS.findall(output[-4000:])}
    if counts:
        shown = ", ".join(f"{n} {kind}" for kind, n in counts.items())
        return f"tests: {shown}" + ("" if ok else " (the command failed)")
    ran = UNITTEST_RAN.search(output)
    if ran:
        failed = UNITTEST_FAILED.search(output)
        bad = sum(int(g) for g in failed.groups() if g) if failed else 0
        return f"tests: {ran.group(1)} ran, {bad} failed" + ("" if ok else " (the command failed)")
    return "" if ok else "tests: the test command failed" + (
        f" ({os.linesep.join(output.strip().splitlines()[-1:])[:160]})" if output.strip() else "")


def tests_hint(workspace: Path) -> str:
    """A line for the model when the workspace has tests ("" when it has none)."""
    if not has_tests(workspace):
        return ""
    return (f"The workspace has tests: run them with run_command `{tests_command()}` after "
            "changing code; what they say is checked.")
