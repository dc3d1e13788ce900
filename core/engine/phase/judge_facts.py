"""What the engine knows about a round, told to the judge so that "done" is checked.

Before a round runs, the files its tasks will write are read; afterwards they are read
again (``core/tools/snapshots.py``). The judge gets the tasks that errored or were not
run, each changed file with a short diff, whether a Python file still parses and what it
no longer defines, a warning when a write replaced an existing file with much less content
(a file overwritten with a stub is the classic silent failure of small models), and what
the round's test commands said.
"""

from __future__ import annotations

import difflib

from core.shapes.task import Task
from core.tools.code_checks import write_facts
from core.tools.workspace_tests import is_tests_command, tests_outcome
from core.tools.snapshots import Snapshot

DIFF_LINES = 6
LINE_CHARS = 120


def _diff(before: str, after: str) -> list[str]:
    lines = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                   lineterm="", n=0)
             if not line.startswith(("---", "+++", "@@"))]
    shown = ["    " + line[:LINE_CHARS] for line in lines[:DIFF_LINES]]
    if len(lines) > DIFF_LINES:
        shown.append(f"    … {len(lines) - DIFF_LINES} more changed line(s)")
    return shown


def file_facts(before: Snapshot, after: Snapshot) -> list[str]:
    lines: list[str] = []
    for path, old in before.items():
        new = after.get(path)
        if old == new:
            continue
        if new is None:
            lines.append(f"- {path}: deleted")
            continue
        if old is None:
            lines.append(f"- {path}: created ({len(new):,} characters)")
            continue
        lines.append(f"- {path}: modified ({len(old):,} → {len(new):,} characters)")
        lines += _diff(old, new)
    for path, old in before.items():
        lines += [f"- {fact}" for fact in write_facts(path, old, after.get(path))]
    return lines


def tests_facts(tasks: list[Task]) -> list[str]:
    """What each test command of the round said (counts of passed and failed tests)."""
    lines = []
    for task in tasks:
        command = str(task.arguments.get("command", "")) if task.tool == "run_command" else ""
        if command and is_tests_command(command) and task.status in ("done", "failed"):
            said = tests_outcome(task.result or task.error, task.status == "done")
            if said:
                lines.append(f"- task {task.id} ran the tests: {said}")
    return lines


def round_facts(tasks: list[Task], before: Snapshot, after: Snapshot) -> str:
    """The facts for the judge, or "" when every task simply succeeded without writing."""
    lines = []
    for status in ("failed", "blocked", "skipped"):
        ids = [str(t.id) for t in tasks if t.status == status]
        if ids:
            lines.append(f"- {status}: task{'s' if len(ids) > 1 else ''} {', '.join(ids)}"
                         + (" (already done earlier)" if status == "skipped" else ""))
    lines += file_facts(before, after) + tests_facts(tasks)
    if not lines:
        return ""
    return "Facts recorded by the engine (check your verdict against them):\n" + "\n".join(lines)
