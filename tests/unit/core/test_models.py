"""Task status machine and phase metrics."""

from __future__ import annotations

import pytest

from core.shapes import IllegalTransition, Phase, Task
from core.shapes.phase import describe_quality, quality_average, scored


def make(tid: int, status: str = "pending", quality: float | None = None) -> Task:
    task = Task(id=tid, title=f"t{tid}", description="", tool="list_files", arguments={})
    if status in ("done", "failed"):
        task.move("running")
        task.finish(status == "done", "out", "" if status == "done" else "boom")
    elif status != "pending":
        task.move(status)  # type: ignore[arg-type]
    task.quality_score = quality
    return task


def test_task_has_seventeen_fields_and_phase_twenty() -> None:
    assert len(Task.__dataclass_fields__) == 17
    assert len(Phase.__dataclass_fields__) == 20


def test_a_new_task_has_changed_no_file() -> None:
    assert make(1).changed == [] and make(2, "done").changed == []


@pytest.mark.parametrize("path", [["running", "done"], ["running", "failed"], ["blocked"],
                                  ["skipped"], ["failed"]])
def test_legal_paths(path: list[str]) -> None:
    task = make(1)
    for status in path:
        task.move(status)  # type: ignore[arg-type]
    assert task.status == path[-1]
    assert task.finished


@pytest.mark.parametrize("path", [["done"], ["running", "blocked"], ["running", "done", "running"],
                                  ["blocked", "running"], ["running", "running"]])
def test_illegal_paths_raise(path: list[str]) -> None:
    task = make(1)
    with pytest.raises(IllegalTransition):
        for status in path:
            task.move(status)  # type: ignore[arg-type]


def test_elapsed_time_is_measured() -> None:
    task = make(1, "done")
    assert task.started_at is not None and task.finished_at is not None
    assert task.elapsed_s >= 0


def test_phase_metrics() -> None:
    phase = Phase(id=1, name="p", goal="g")
    phase.tasks = [make(1, "done", 9), make(2, "done", 7), make(3, "failed", 2), make(4, "blocked")]
    assert phase.completion_rate == 0.5
    assert phase.success_rate == round(2 / 3, 3)
    assert phase.quality_average == 6.0
    assert Phase(id=2, name="empty", goal="g").metrics() == {
        "completion_rate": 0.0, "success_rate": 0.0, "quality_average": None}


def test_the_average_quality_is_over_scored_tasks_only() -> None:
    tasks = [make(1, "done", 8), make(2, "done", 7), make(3, "done")]
    assert (quality_average(tasks), scored(tasks)) == (7.5, 2)
    assert describe_quality(quality_average(tasks), scored(tasks), len(tasks)) == \
        "7.5 avg · 2 of 3 scored"
    unscored = [make(1, "done"), make(2, "failed")]
    assert (quality_average(unscored), scored(unscored)) == (None, 0)
    assert describe_quality(None, 0, 2) == "none scored"
    assert describe_quality(8.0, None) == "8.0/10"  # recorded before scores were counted
