"""A round that would only read back what the phase just wrote is not run (the ``look_back``
assist).

Seen in every evaluation of the embedded 1.5B model: after a round whose writes succeeded
(and passed the request's checks), the judge says "continue" without naming anything wrong,
the next round lists the workspace and reads or searches the file just written, and then the
judge ends the phase — two or three model calls (plan, judge, think) for what the write's
result and the engine's facts had already told the judge. A planned round made only of such
looks (``list_files``, and ``read_file`` or ``search_code`` of files this phase wrote) after a
round whose tasks all succeeded ends the phase instead, with a notice that says why:
completed when no check of the request's examples fails for the files it wrote; incomplete
when one does, since the write already spent its tries on those failures and reading the file
back tells the next plan nothing the write's result did not (seen: ex-mask-text's file failed
both examples after three tries, then a look round, a verdict and two repeated plans followed,
four calls for nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.shapes.stage_results import TaskSpec
from core.shapes.task import Task
from core.tools.paths import path_key

LOOKS = ("list_files", "read_file", "search_code")
Writes = Callable[[str, dict[str, Any]], set[str]]


@dataclass(frozen=True)
class LookBack:
    """The files a plan would only read back, and those of the phase's written files that
    checks of the request's examples still fail for."""

    files: list[str]
    failing: list[str]


def looked_back(specs: Sequence[TaskSpec], tasks: Sequence[Task], last_round: int,
                writes: Writes, checks_failing: Sequence[str]) -> LookBack | None:
    """What the planned ``specs`` would only read back of the files this phase wrote, or
    None when the plan does anything else (or the round before it failed or wrote nothing)."""
    last = [t for t in tasks if t.round == last_round]
    wrote = {path for t in last if t.status == "done" for path in writes(t.tool, t.arguments)}
    if not specs or not wrote or any(t.status != "done" for t in last):
        return None
    written = {path for t in tasks if t.status == "done" for path in writes(t.tool, t.arguments)}
    looked: set[str] = set()
    for spec in specs:
        if spec.tool not in LOOKS:
            return None
        if spec.tool == "list_files":
            continue
        path = path_key(spec.arguments.get("path"))
        if path not in written:
            return None
        looked.add(path)
    return LookBack(sorted(looked or wrote), sorted(written & set(checks_failing)))
