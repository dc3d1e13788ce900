"""Phases that depend on phases that did not get their work done (seed 001: what depends on a
failed step is blocked, as tasks already are).

A phase is ``blocked``, not run, when a phase it depends on failed, was blocked, or ended
without a single task done: a Notice says why and its ``PhaseFinished`` carries the status,
so the page shows it greyed and the summary's requirements list its work as not attempted.
A phase that depends on an ``incomplete`` phase that did some of its work runs, and its
plan is told what is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core.events import Event, Notice, PhaseFinished
from core.shapes.phase import Phase

MISSING_TASKS = 5
ENDED = ("completed", "incomplete", "failed", "blocked", "stopped")


def _done(phase: Phase) -> int:
    return sum(t.status == "done" for t in phase.tasks)


def _named(phase: Phase) -> str:
    return f"phase {phase.id} ({phase.name})"


def blocked_by(phase: Phase, phases: Mapping[int, Phase]) -> str:
    """Why ``phase`` must not run ("" when it may): the first dependency that failed, was
    blocked, or ended without a single task done."""
    for dependency in (phases.get(pid) for pid in phase.dependencies):
        if dependency is None or dependency.status not in ENDED:
            continue
        if dependency.status == "failed":
            reason = f" ({dependency.failed_reason})" if dependency.failed_reason else ""
            return f"it depends on {_named(dependency)}, which failed{reason}"
        if dependency.status == "blocked":
            return f"it depends on {_named(dependency)}, which was blocked"
        if _done(dependency) == 0:
            return (f"it depends on {_named(dependency)}, which ended {dependency.status} "
                    "without a single task done")
    return ""


def block(phase: Phase, why: str, emit: Callable[[Event], None]) -> None:
    """Mark ``phase`` blocked without running it, and say so."""
    phase.status, phase.failed_reason = "blocked", why
    emit(Notice(level="warning", message=f"Phase {phase.id} ({phase.name}) is blocked and "
                                         f"was not run: {why}."))
    emit(PhaseFinished(phase_id=phase.id, status="blocked", rounds=0, tasks_done=0,
                       tasks_total=0, summary=f"Not run: {why}."))


def missing_work(phase: Phase, phases: Mapping[int, Phase]) -> str:
    """What the ``incomplete`` phases ``phase`` depends on left undone, for its plan ("" when
    nothing is missing)."""
    parts = []
    for dependency in (phases.get(pid) for pid in phase.dependencies):
        if dependency is None or dependency.status != "incomplete":
            continue
        reason = f"; {dependency.failed_reason}" if dependency.failed_reason else ""
        lines = [f"This phase depends on {_named(dependency)}, which ended incomplete: "
                 f"{_done(dependency)} of {len(dependency.tasks)} task(s) done{reason}."]
        done = {(t.tool, t.title) for t in dependency.tasks if t.status == "done"}
        undone = list({(t.tool, t.title): t for t in dependency.tasks
                       if t.status != "done" and (t.tool, t.title) not in done}.values())
        if undone:
            lines.append("Not done there:")
            lines += [f"- {t.title or t.tool} ({t.tool}, {t.status})"
                      + (f": {' '.join(t.error.split())[:160]}" if t.error else "")
                      for t in undone[-MISSING_TASKS:]]
        lines.append("Plan with that in mind: first do what this phase needs of the missing "
                     "work, or work around it.")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)
