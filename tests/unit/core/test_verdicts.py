"""The judge's verdict completed from the engine's record, and when it leaves Think a decision."""

from __future__ import annotations

from typing import Any

import pytest

from core.engine.stages.schemas import parse_judge
from core.engine.phase.verdicts import apply_verdict, failed_tasks, verdict_is_open
from core.shapes import Phase, Task


def ran(tid: int, ok: bool) -> Task:
    task = Task(id=tid, title=f"t{tid}", description="", tool="list_files", arguments={})
    task.move("running")
    task.finish(ok, "out" if ok else "", "" if ok else "boom")
    return task


def verdict(**fields: Any) -> dict[str, Any]:
    return parse_judge({"user_summary": "What the round did.", "phase_completed": False,
                        **fields}, ["list_files"], 8,
                       lambda _tool, args: args)


def test_unlisted_tasks_keep_the_engines_status_and_are_not_scored() -> None:
    phase = Phase(id=1, name="P", goal="g")
    tasks = [ran(1, True), ran(2, False), ran(3, True)]
    judged = apply_verdict(phase, verdict(next_action="retry_failed", quality_score=7,
                                          task_evaluation=[{"task_id": 3, "status": "partial",
                                                            "quality_score": 4,
                                                            "comment": "half of it"}]),
                           tasks, degraded=False)
    assert [(v["task_id"], v["status"], v["quality"], v["comment"]) for v in judged.verdicts] == [
        (1, "done", None, ""), (2, "failed", None, ""), (3, "partial", 4, "half of it")]
    assert [t.quality_score for t in tasks] == [None, None, 4]
    assert (judged.completion_rate, judged.success_rate) == (round(2 / 3, 3), round(2 / 3, 3))
    assert (judged.quality_average, judged.tasks_scored, judged.tasks_total) == (4.0, 1, 3)
    assert phase.summaries == ["What the round did."]
    failed = failed_tasks(phase.judgements[-1], tasks)
    assert [t.id for t in failed] == [2, 3]


@pytest.mark.parametrize("fields, ok, is_open", [
    ({"next_action": "end_phase", "phase_completed": True}, True, False),  # reached, none failed
    ({"next_action": "end_phase", "phase_completed": True}, False, True),  # although one failed
    ({"next_action": "continue_phase", "phase_completed": True}, True, True),
    ({"next_action": "end_phase", "phase_completed": False}, True, True),  # no reason given
    ({"next_action": "end_phase", "failed_reason": "out of ideas"}, False, False),
    ({"next_action": "continue_phase"}, True, False),  # more work, nothing failed
    ({"next_action": "continue_phase"}, False, True),  # failures, and no word on how
    ({"next_tasks": [{"tool": "list_files", "arguments": {}}]}, False, False),
    ({"next_action": "retry_failed"}, False, False),
    ({"next_action": "replan"}, False, False),
])
def test_think_is_wanted_only_when_the_verdict_leaves_the_decision_open(
        fields: dict[str, Any], ok: bool, is_open: bool) -> None:
    assert verdict_is_open(verdict(**fields), [ran(1, ok)]) is is_open


def test_two_of_three_scored_average_two_and_none_scored_has_no_average() -> None:
    tasks = [ran(1, True), ran(2, True), ran(3, True)]
    judged = apply_verdict(Phase(id=1, name="P", goal="g"), verdict(task_evaluation=[
        {"task_id": 1, "status": "done", "quality_score": 8, "comment": "clean"},
        {"task_id": 2, "status": "done", "quality_score": 7, "comment": "fine"}]),
        tasks, degraded=False)
    assert (judged.quality_average, judged.tasks_scored, judged.tasks_total) == (7.5, 2, 3)
    assert [v["quality"] for v in judged.verdicts] == [8, 7, None]
    assert (judged.completion_rate, judged.success_rate) == (1.0, 1.0)
    none = apply_verdict(Phase(id=2, name="Q", goal="g"), verdict(quality_score=9),
                         [ran(1, True)], degraded=False)
    assert (none.quality_average, none.tasks_scored, none.tasks_total) == (None, 0, 1)
    assert none.verdicts[0]["quality"] is None
