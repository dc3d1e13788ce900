"""A plan checked against the request's target files before it runs.

The files the request's reading says to change or create are the run's targets. A plan that
creates files the request never mentions while a target is still untouched is not run as it
is: those writes are refused with the reason, and the write of the target is planned in their
place (the draft of it is what the model alone would write). Seen with a 1.5B model: for "the Hamming distance
in hamming.py" the analysis added "read the strands from the input files", and the plans
created ``dna_strands/distance.txt`` while ``hamming.py`` stayed the stub.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from core.engine.execution.offered import WRITE
from core.shapes.reading import Reading
from core.shapes.stage_results import TaskSpec

Writes = Callable[[str, dict[str, Any]], set[str]]


@dataclass(frozen=True)
class Review:
    """The tasks to run, and what was refused and why ("" when the plan stands)."""

    tasks: tuple[TaskSpec, ...]
    note: str = ""


def reviewed(specs: tuple[TaskSpec, ...], reading: Reading, workspace: Path, written: list[str],
             writes: Writes) -> Review:
    """``specs`` as they may run (see the module's docstring)."""
    targets = [path for path in reading.targets() if path not in written]
    asked = set(reading.targets()) | set(reading.named)
    if not targets:
        return Review(specs)
    strays = {spec.id: sorted(writes(spec.tool, spec.arguments)) for spec in specs}
    strays = {tid: paths for tid, paths in strays.items() if paths and all(
        path not in asked and not (workspace / path).exists() for path in paths)}
    if not strays:
        return Review(specs)
    kept = [replace(s, dependencies=[d for d in s.dependencies if d not in strays])
            for s in specs if s.id not in strays]
    target = targets[0]
    planned = any(target in writes(s.tool, s.arguments) for s in kept)
    if not planned:
        kept.append(TaskSpec(id=max((s.id for s in specs), default=0) + 1, tool=WRITE,
                             arguments={"path": target, "instruction":
                                        f"Make the change the request asks for in {target}."},
                             title=f"write {target}",
                             description="planned by the engine: the request asks to "
                                         "change this file"))
    created = ", ".join(path for paths in strays.values() for path in paths)
    return Review(tuple(kept), (
        f"the plan would create {created}, which the request does not mention, while "
        f"{target}, which it names, is untouched; those writes are not run"
        + ("" if planned else f" and the write of {target} is planned instead")))


def tools_before_writes(specs: tuple[TaskSpec, ...], needed: list[str], writes: Writes
                        ) -> Review:
    """``specs`` with the request's ``needed`` tools (not run yet) before any write: the writes
    of a plan that calls none of them are not run; in a plan that calls them, each write
    waits for those calls."""
    if not needed:
        return Review(specs)
    calls = [s.id for s in specs if s.tool in needed]
    writing = [s for s in specs if writes(s.tool, s.arguments)]
    if not writing:
        return Review(specs)
    if not calls:
        kept = tuple(s for s in specs if s not in writing)
        return Review(kept, f"the request needs {', '.join(needed)} run before anything is "
                            f"written; the plan's writes of "
                            f"{', '.join(sorted(p for s in writing for p in writes(s.tool, s.arguments)))}"
                            " are not run until it has")
    return Review(tuple(replace(s, dependencies=sorted({*s.dependencies, *calls}))
                        if s in writing else s for s in specs))
