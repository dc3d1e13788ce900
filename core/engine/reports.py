"""Phase reports at three levels, and the size-driven degradation the summarizer uses.

L1: verdict and blockers (under 10 lines). L2: L1 plus key changes and evidence: the
judge's comments on tasks it did not find done, the errors of tasks that failed (under 50
lines). L3: every task with a result excerpt. Later phases are planned with L1 of
earlier ones, retries get L2 of the failed round, the summarizer gets L3 of every
phase, degraded oldest-first (L3 → L2, then L2 → L1) when over budget, never touching
the last phase's full report.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.llm.base import estimate_tokens
from core.shapes.phase import Phase
from core.shapes.task import Task


@dataclass
class PhaseRecord:
    """A phase and what it changed on disk, as reports need them."""

    phase: Phase
    changed_files: list[str] = field(default_factory=list)


def _line(text: str, most: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= most else text[: most - 1] + "…"


def _verdict(phase: Phase) -> str:
    done = sum(t.status == "done" for t in phase.tasks)
    return (f"Phase {phase.id} ({phase.name}): {phase.status}; {phase.rounds} round(s), "
            f"{done}/{len(phase.tasks)} task(s) done")


def _blockers(tasks: list[Task], most: int) -> list[str]:
    failed = [t for t in tasks if t.status in ("failed", "blocked")]
    lines = [f"- blocker: task {t.id} {_line(t.title, 60)} — {_line(t.error, 90)}"
             for t in failed[:most]]
    if len(failed) > most:
        lines.append(f"- … and {len(failed) - most} more failed task(s)")
    return lines


def level1(record: PhaseRecord) -> str:
    phase = record.phase
    lines = [_verdict(phase)]
    if phase.user_summary:
        lines.append(f"Summary: {_line(phase.user_summary, 300)}")
    if phase.failed_reason:
        lines.append(f"Reason: {_line(phase.failed_reason, 200)}")
    lines += _blockers(phase.tasks, 5)
    return "\n".join(lines[:9])


def level2(record: PhaseRecord, tasks: list[Task] | None = None) -> str:
    """L1 plus key changes and evidence; ``tasks`` narrows the evidence to one round."""
    phase = record.phase
    lines = level1(record).split("\n")
    if record.changed_files:
        shown = record.changed_files[:10]
        lines.append("Changed files: " + ", ".join(shown)
                     + (f" (+{len(record.changed_files) - 10} more)"
                        if len(record.changed_files) > 10 else ""))
    for judgement in phase.judgements[-3:]:
        for verdict in judgement.task_evaluation[:8]:
            if verdict.comment and verdict.status != "done":
                lines.append(f"- judge on task {verdict.task_id} ({verdict.status}, "
                             f"{verdict.quality_score:g}/10): {_line(verdict.comment, 120)}")
    for task in (tasks if tasks is not None else phase.tasks)[-12:]:
        if task.status != "done":
            lines.append(f"- evidence task {task.id} {task.tool}: {_line(task.error, 140)}")
    return "\n".join(lines[:49])


def level3(record: PhaseRecord, known_goal: str = "") -> str:
    """L2 plus the goal (unless it is ``known_goal``, the request's) and every task."""
    phase = record.phase
    lines = [level2(record)] + ([f"Goal: {phase.goal}"] if phase.goal != known_goal else [])
    lines.append("Tasks:")
    for task in phase.tasks:
        excerpt = task.result if task.status == "done" else task.error
        title = task.title if task.title.startswith(task.tool) else f"{task.tool} {task.title}"
        lines.append(f"- round {task.round} task {task.id} [{task.status}] "
                     f"{_line(title, 80)}: {_line(excerpt, 300)}")
    return "\n".join(lines)


LEVELS = {1: level1, 2: level2, 3: level3}


def degraded_reports(records: list[PhaseRecord], budget_tokens: int, known_goal: str = ""
                     ) -> tuple[str, list[int]]:
    """All phase reports within ``budget_tokens`` if possible, and the level each ended at;
    a phase goal that is ``known_goal`` (the request's, which the reader has) is not
    repeated."""
    if not records:
        return "(no phase ran)", []
    levels = [3] * len(records)

    def render() -> str:
        return "\n\n".join(level3(rec, known_goal) if lv == 3 else LEVELS[lv](rec)
                           for lv, rec in zip(levels, records))

    text = render()
    for target in (2, 1):
        for i in range(len(records) - 1):
            if estimate_tokens(text) <= budget_tokens:
                return text, levels
            if levels[i] > target:
                levels[i] = target
                text = render()
    return text, levels


RELATED_CHARS = 4_000
RELATED_EACH = 2_000
WRITES = ("write_file", "edit_file")


def related_results(tasks: list[Task], wanted: set[int], cap: int = RELATED_CHARS) -> str:
    """Results a write builds on: those of ``wanted`` tasks first, then the other finished
    reads, searches and commands, newest first, within ``cap`` characters."""
    first = [t for t in tasks if t.id in wanted and t.status == "done"]
    rest = [t for t in reversed(tasks) if t.id not in wanted and t.status == "done"
            and t.tool not in WRITES]
    parts: list[str] = []
    used = 0
    for task in first + rest:
        arguments = " ".join(f"{k}={str(v)[:80]}" for k, v in task.arguments.items())
        text = f"- {task.tool} {arguments}:\n{task.result.strip()}"[:RELATED_EACH]
        if used + len(text) > cap:
            break
        parts.append(text)
        used += len(text)
    return "\n".join(parts)
