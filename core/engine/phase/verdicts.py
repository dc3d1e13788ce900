"""The judge's verdict as the engine uses it: completed from the engine's own record.

The judge lists only the tasks that are not plainly done; every other task keeps the
status the engine recorded when it ran (done, failed, blocked) and no quality score: the
card says "not scored", and the round's average quality is over the tasks the judge
scored. Rates are always computed from the tasks' statuses, never asked of the model.
A phase called complete while a write failed that no task of the phase made good is not
complete (``unwritten_writes``).
"""

from __future__ import annotations

from core.engine.phase.host import PhaseHost
from core.events import Judged, Notice
from core.shapes.phase import Phase, completion_rate, quality_average, scored, success_rate
from core.shapes.stage_results import Verdict
from core.shapes.task import Task
from core.tools.base import DENIED

JUDGED_BAD = ("failed", "partial")


def degraded_judge(problem: str) -> Verdict:
    """The verdict used when the judge's reply could not be used: the round is not completed."""
    return Verdict(user_summary=f"The judge's verdict could not be used ({problem}); this "
                                "round counts as not completed.",
                   next_action="continue_phase", phase_completed=False, quality_score=0.0,
                   failed_reason=problem)


def apply_verdict(phase: Phase, judge: Verdict, tasks: list[Task], degraded: bool) -> Judged:
    """Record the verdict on the phase and its tasks; returns the event to show it. A task
    that failed or was blocked keeps that status in the event whatever the judge called it
    (``judge_said`` then holds the judge's word)."""
    listed = {v.task_id: v for v in judge.task_evaluation}
    verdicts = []
    for task in tasks:
        verdict = listed.get(task.id)
        if verdict is not None:
            task.quality_score = verdict.quality_score
            overruled = task.status in ("failed", "blocked") and verdict.status != task.status
            verdicts.append({"task_id": task.id, "title": task.title,
                             "status": task.status if overruled else verdict.status,
                             "quality": verdict.quality_score, "comment": verdict.comment,
                             "actual": task.status,
                             **({"judge_said": verdict.status} if overruled else {})})
        elif not degraded:
            status = task.status if task.status in ("done", "skipped") else "failed"
            verdicts.append({"task_id": task.id, "title": task.title, "status": status,
                             "quality": None, "comment": "", "actual": task.status})
    phase.judgements.append(judge)
    phase.summaries.append(judge.user_summary)
    phase.problem_level = judge.problem_level
    return Judged(phase_id=phase.id, round=phase.rounds,
                  phase_completed=judge.phase_completed, next_action=judge.next_action,
                  completion_rate=completion_rate(tasks), success_rate=success_rate(tasks),
                  quality_average=quality_average(tasks), tasks_scored=scored(tasks),
                  tasks_total=len(tasks), verdicts=verdicts,
                  user_summary=judge.user_summary, failed_reason=judge.failed_reason,
                  problem_level=judge.problem_level, degraded=degraded)


def failed_tasks(judge: Verdict, tasks: list[Task]) -> list[Task]:
    """Tasks that did not run cleanly, or that the judge found failed or partial; a task
    skipped because the same call already succeeded is not failed."""
    bad = {v.task_id for v in judge.task_evaluation if v.status in JUDGED_BAD}
    return [t for t in tasks if t.status not in ("done", "skipped") or t.id in bad]


def verdict_is_open(judge: Verdict, tasks: list[Task]) -> bool:
    """Whether the verdict leaves the decision open, so that Think should settle it: it
    contradicts itself (a reached goal that is not ended, an end without the goal and
    without a reason) or the facts (a reached goal although tasks failed, a retry with
    nothing failed), or it goes on after failures without saying how (neither a retry, a
    replan nor the next tasks)."""
    completed, action = judge.phase_completed, judge.next_action
    failed = bool(failed_tasks(judge, tasks))
    if action == "retry_failed" and not failed and not judge.next_tasks:
        return True
    if completed:
        return action != "end_phase" or failed
    if action == "end_phase":
        return not judge.failed_reason
    return action == "continue_phase" and failed and not judge.next_tasks


def unwritten_writes(engine: PhaseHost, phase: Phase) -> list[Task]:
    """Failed writes of this phase of paths no task of the phase has written: then the
    phase is not complete, whatever the judge and Think say (the embedded Qwen called a
    phase done whose only write, todo_count.txt, had failed); the phase goes on with
    them. A write the person denied does not count, nor any of a run whose request
    forbids changes (each was refused)."""
    tools = engine.tools
    if engine.changes_forbidden:
        return []
    written = {path for t in phase.tasks if t.status == "done"
               for path in tools.written_paths(t.tool, t.arguments)}
    missing = [(t, sorted(tools.written_paths(t.tool, t.arguments) - written))
               for t in phase.tasks if t.status == "failed" and t.error != DENIED]
    missing = [(t, paths) for t, paths in missing if paths]
    if missing:
        where: dict[str, list[str]] = {}
        for t, paths in missing:
            for path in paths:
                where.setdefault(path, []).append(f"round {t.round} task {t.id}")
        named = ", ".join(f"{path} ({', '.join(tries)})" for path, tries in where.items())
        engine.emit(Notice(level="warning", stage="judge", message=(
            f"Phase {phase.id}, round {phase.rounds}: the phase was called "
            f"complete, but the write of {named} failed and no task of the phase wrote it; "
            "the phase goes on with the failed writes.")))
    return [t for t, _ in missing]
