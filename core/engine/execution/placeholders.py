"""Task results as arguments of later tasks of the same plan (LLMCompiler-style ``$N``).

A plan cannot write a value it has not seen: a task whose argument is exactly ``"$N"``
(N the id of another task of the same plan) gets task N's result as that argument,
resolved just before it runs, and waits for task N. Only whole values are replaced, so
``$1`` inside a shell command (``awk '{print $1}'``) stays as written.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from core.shapes.stage_results import TaskSpec

PLACEHOLDER = re.compile(r"^\s*\$(\d{1,2})\s*$")
# a whole value that only names a value: {{result}}, {count}, $total, <number>
TEMPLATE = re.compile(r"^\s*(\{\{\s*[\w .\[\]-]{1,40}\s*\}\}|\{[\w .\[\]-]{1,40}\}"
                      r"|\$[A-Za-z_]\w{0,39}|\$\d{1,2}|<[A-Za-z_][\w -]{0,39}>)\s*$")


def _ref(value: Any, ids: set[int]) -> int | None:
    if not isinstance(value, str):
        return None
    match = PLACEHOLDER.match(value)
    if match is None or int(match.group(1)) not in ids:
        return None
    return int(match.group(1))


def references(arguments: dict[str, Any], ids: set[int]) -> list[int]:
    """The task ids whose results ``arguments`` use."""
    found = [_ref(v, ids) for v in arguments.values()]
    return sorted({ref for ref in found if ref is not None})


def add_dependencies(specs: Sequence[TaskSpec]) -> None:
    """Make every task wait for the tasks whose results its arguments use."""
    ids = {s.id for s in specs}
    for spec in specs:
        for ref in references(spec.arguments, ids - {spec.id}):
            if ref not in spec.dependencies:
                spec.dependencies.append(ref)


def resolve(arguments: dict[str, Any], results: dict[int, str]) -> dict[str, Any]:
    """``arguments`` with each ``"$N"`` replaced by task N's result (when it has one)."""
    resolved = {}
    for name, value in arguments.items():
        ref = _ref(value, set(results))
        resolved[name] = results[ref].strip() if ref is not None else value
    return resolved


def unfilled(arguments: dict[str, Any], written: set[str]) -> str:
    """The first argument of a write that is only a placeholder for a value the plan had not
    seen ("" when there is none); ``written`` are the paths the task writes, which may look
    like anything."""
    for name, value in arguments.items():
        if isinstance(value, str) and value not in written and TEMPLATE.match(value):
            return (f"{name} is the placeholder {value.strip()!r}, not a value: a plan cannot "
                    "write what it has not seen. Read or search first and write the value "
                    "you saw in the next round (or pass a task's whole result as \"$N\")")
    return ""
