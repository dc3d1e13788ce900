"""A round that would only read back what the phase just wrote is not run.

Seen in every evaluation of the embedded 1.5B model: after a round whose writes succeeded
(and passed the request's checks), the judge says "continue" without naming anything wrong,
the next round lists the workspace and reads or searches the file just written, and then the
judge ends the phase — two or three model calls (plan, judge, think) for what the write's
result and the engine's facts had already told the judge. A planned round made only of such
looks (``list_files``, and ``read_file`` or ``search_code`` of files this phase wrote) after a
round whose tasks all succeeded and wrote files that no check fails for ends the phase
instead, completed, with a notice that says why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.models.stage_results import TaskSpec
from core.models.task import Task
from core.tools.paths import path_key

LOOKS = ("list_files", "read_file", "search_code")
Writes = Callable[[str, dict[str, Any]], set[str]]


def looked_back(specs: Sequence[TaskSpec], tasks: Sequence[Task], last_round: int,
                writes: Writes, checks_failing: Sequence[str]) -> list[str]:
    """The files this phase wrote that the planned ``specs`` would only read back, or []
    when the plan does anything else (or the round before it failed, wrote nothing, or left
    a file its checks fail for)."""
    last = [t for t in tasks if t.round == last_round]
    wrote = {path for t in last if t.status == "done" for path in writes(t.tool, t.arguments)}
    if not specs or not wrote or any(t.status != "done" for t in last):
        return []
    written = {path for t in tasks if t.status == "done" for path in writes(t.tool, t.arguments)}
    if written & set(checks_failing):
        return []
    looked: set[str] = set()
    for spec in specs:
        if spec.tool not in LOOKS:
            return []
        if spec.tool == "list_files":
            continue
        path = path_key(spec.arguments.get("path"))
        if path not in written:
            return []
        looked.add(path)
    return sorted(looked or wrote)

