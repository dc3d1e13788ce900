"""The workspace's own tests: whether it has any, how to run them, what a run of them said.

A workspace with ``test_*.py`` / ``*_test.py`` files or a ``tests/`` folder has tests; the
planner is told the command that runs them, and the outcome of a test command that ran is a
fact for the judge. They run with the runner they are written for (``test_runner``): the
``test_command`` setting when it is set; pytest when pytest can run (the workspace's own
``.venv`` or ``venv`` with pytest in it, else this Python's); unittest for tests written for
it when pytest cannot; and no runner, with the reason, for pytest-style tests without pytest.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from core.tools.gate import Gate

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


def _entries(workspace: Path) -> Iterator[os.DirEntry[str]]:
    """The workspace's entries, folders before what they hold, within ``SCAN_LIMIT`` (the
    tools' skipped folders and what the ignore files exclude left out)."""
    gate = Gate(workspace)
    seen = 0
    folders = [gate.root]
    while folders and seen < SCAN_LIMIT:
        for entry in gate.entries(folders.pop()):
            seen += 1
            yield entry
            if entry.is_dir(follow_symlinks=False):
                folders.append(Path(entry.path))


def has_tests(workspace: Path) -> bool:
    """Whether the workspace holds Python tests (a bounded scan that skips the tools'
    skipped folders and what the ignore files exclude)."""
    return any(entry.name == "tests" if entry.is_dir(follow_symlinks=False)
               else bool(TEST_FILE.match(entry.name)) for entry in _entries(workspace))


@dataclass(frozen=True)
class Runner:
    """How the workspace's tests run: the shell ``command`` ("" when none can), the runner's
    ``name`` as a person reads it, and why none can (``problem``)."""

    command: str
    name: str
    problem: str = ""
    uses: tuple[Path, ...] = ()  # folders outside the workspace copy it runs from (a venv)


VENVS = (".venv", "venv")
PYTEST_STYLE = re.compile(r"^(?:import pytest|from pytest |def test_\w*\()", re.MULTILINE)


def _venv_python(workspace: Path) -> str:
    """The workspace's own virtualenv's Python when pytest is installed in it, else ""."""
    for name in VENVS:
        python = workspace / name / "bin" / "python"
        if python.is_file() and any((workspace / name).glob("lib/python3*/site-packages/pytest")):
            return str(python)
    return ""


def _pytest_style(workspace: Path) -> bool:
    """Whether a test module of the workspace is written for pytest (plain test functions or
    an import of pytest), not only unittest's classes."""
    root = Gate(workspace).root
    for entry in _entries(workspace):
        if entry.is_dir(follow_symlinks=False) or not is_test_file(
                Path(entry.path).relative_to(root).as_posix()):
            continue
        try:
            text = Path(entry.path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if PYTEST_STYLE.search(text[:200_000]):
            return True
    return False


def test_runner(workspace: Path, command: str = "") -> Runner:
    """The runner of the workspace's tests (see the module's docstring); ``command``: the
    ``test_command`` setting."""
    if command.strip():
        return Runner(command.strip(), f"`{command.strip()[:60]}`")
    frozen = getattr(sys, "frozen", False)
    own = _venv_python(workspace)
    if own:
        return Runner(f"{shlex.quote(own)} -m pytest -q", "pytest (the workspace's virtualenv)",
                      uses=(Path(own).parent.parent,))
    python = "python3" if frozen else shlex.quote(sys.executable)
    if not frozen and importlib.util.find_spec("pytest") is not None:
        return Runner(f"{python} -m pytest -q", "pytest")
    if _pytest_style(workspace):
        return Runner("", "pytest", "the workspace's tests are written for pytest, and pytest "
                                    "is installed neither here nor in a .venv of the workspace")
    return Runner(f"{python} -m unittest discover -q", "unittest")


def tests_command(workspace: Path | None = None, command: str = "") -> str:
    """The command that runs the workspace's tests ("" when none can)."""
    if workspace is None:
        return test_runner(Path("."), command).command
    return test_runner(workspace, command).command


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
    runner = test_runner(workspace)
    if not runner.command:
        return f"The workspace has tests, but they cannot run here: {runner.problem}."
    return (f"The workspace has tests: run them with run_command `{runner.command}` after "
            "changing code; what they say is checked.")
