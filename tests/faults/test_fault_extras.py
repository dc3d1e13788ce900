"""The extra cells: what a hostile plan, an odd request or a changing world must lead to."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.faults.cells import CellResult
from tests.faults.extras import BIG_REQUEST, EXTRAS
from tests.integration.test_openai_protocol import assert_pairs_intact

ENGINES = ("phase", "classic")


def ended(result: CellResult) -> tuple:
    assert result.crash == "", result.crash
    assert result.summarised, result.kinds
    for sent in result.requests:
        assert_pairs_intact(sent["body"]["messages"])
    return result.events[-2], result.events[-1]


def of(result: CellResult, kind: str) -> list:
    return [e for e in result.events if e.kind == kind]


def test_more_than_eight_tasks_are_refused_and_the_next_plan_runs(tmp_path: Path) -> None:
    result = EXTRAS["phase-nine_tasks"](tmp_path / "ws")
    summary, finished = ended(result)
    assert "at most 8 tasks per round, got 9" in result.texts()
    assert [(e.task_id, e.tool, e.status) for e in of(result, "task_finished")] == [
        (1, "read_file", "done")]
    assert finished.status == "completed" and summary.generated_by == "model"


def test_a_task_dependency_cycle_is_broken_and_every_task_runs(tmp_path: Path) -> None:
    result = EXTRAS["phase-task_cycle"](tmp_path / "ws")
    ended(result)
    assert "task dependency cycle 1 → 2 → 1: task 1 no longer waits for task 2" in \
        result.texts()
    planned = of(result, "tasks_planned")[0].tasks
    assert [t["dependencies"] for t in planned] == [[], [1], []]
    outcome = {e.task_id: e.status for e in of(result, "task_finished")}
    assert outcome == {1: "done", 2: "done", 3: "done"}


def test_a_phase_dependency_cycle_is_broken_and_both_phases_run(tmp_path: Path) -> None:
    result = EXTRAS["phase-phase_cycle"](tmp_path / "ws")
    _, finished = ended(result)
    assert "phase dependency cycle 1 → 2 → 1: phase 1 no longer waits for phase 2" in \
        result.texts()
    assert [(p["name"], p["dependencies"]) for p in of(result, "phases_planned")[0].phases] == [
        ("A", []), ("B", [1])]
    assert finished.status == "completed"


def test_duplicate_task_ids_are_renumbered_and_both_tasks_run(tmp_path: Path) -> None:
    result = EXTRAS["phase-duplicate_task_ids"](tmp_path / "ws")
    ended(result)
    assert "task id 1 was used twice; the second is task 2" in result.texts()
    assert [[t["id"] for t in e.tasks] for e in of(result, "tasks_planned")] == [[1, 2]]
    assert [e.status for e in of(result, "task_finished")] == ["done", "done"]


def test_estimated_rounds_of_ten_to_the_fifteen_are_clamped(tmp_path: Path) -> None:
    result = EXTRAS["phase-rounds_1e15"](tmp_path / "ws")
    _, finished = ended(result)
    assert of(result, "phases_planned")[0].phases[0]["estimated_rounds"] == 5
    assert of(result, "phase_started")[0].max_rounds == 5
    assert finished.status == "completed" and finished.llm_calls == 6  # the draft's among them


@pytest.mark.parametrize("engine", ENGINES)
def test_a_100_kb_request_is_sent_whole_once(engine: str, tmp_path: Path) -> None:
    result = EXTRAS[f"{engine}-request_100kb"](tmp_path / "ws")
    _, finished = ended(result)
    assert finished.status == "completed"
    assert of(result, "run_started")[0].request == BIG_REQUEST
    carried = [BIG_REQUEST in str(r["body"]["messages"]) for r in result.requests]
    if engine == "phase":  # the raw text only reaches the analyser
        assert carried == [True] + [False] * (len(carried) - 1)
    else:
        assert all(carried)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_empty_request_is_refused_before_any_model_call(engine: str, tmp_path: Path) -> None:
    result = EXTRAS[f"{engine}-empty_request"](tmp_path / "ws")
    summary, finished = ended(result)
    assert result.requests == []
    assert result.kinds == ["run_started", "notice", "summary", "run_finished"]
    notice = of(result, "notice")[0]
    assert notice.level == "error" and "The request is empty" in notice.message
    assert finished.status == "failed" and finished.llm_calls == 0
    assert summary.generated_by == "fallback" and "the request is empty" in summary.final_summary


@pytest.mark.parametrize("engine", ENGINES)
def test_a_workspace_deleted_mid_run_fails_its_tasks_and_is_not_recreated(
        engine: str, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    result = EXTRAS[f"{engine}-workspace_deleted"](ws)
    summary, _ = ended(result)
    assert not ws.exists()
    later = [e for e in of(result, "task_finished") if e.tool != "read_file"]
    assert [e.status for e in later] == ["failed", "failed"]
    assert all("the workspace folder does not exist" in e.error for e in later)
    assert of(result, "file_changed") == []
    assert summary.generated_by == "model"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_full_disk_fails_the_writes_and_leaves_every_file_whole(
        engine: str, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    result = EXTRAS[f"{engine}-disk_full"](ws)
    summary, _ = ended(result)
    writes = [e for e in of(result, "task_finished") if e.tool in ("write_file", "edit_file")]
    assert [e.status for e in writes] == ["failed", "failed"]
    for event in writes:
        assert "No space left on device" in event.error
        assert "unexpectedly" not in event.error
    assert sorted(p.name for p in ws.iterdir()) == ["README.md"]  # no NOTES.md, no temp file
    assert (ws / "README.md").read_text(encoding="utf-8") == "# hello\n"
    assert of(result, "file_changed") == []
    assert summary.generated_by == "model"


@pytest.mark.parametrize("engine", ENGINES)
def test_an_endpoint_that_is_down_ends_the_run_saying_so(engine: str, tmp_path: Path) -> None:
    result = EXTRAS[f"{engine}-endpoint_down"](tmp_path / "ws")
    summary, finished = ended(result)
    assert result.requests == []
    calls = of(result, "llm_call")
    assert len(calls) == 1 and not calls[0].ok
    assert "could not be reached" in calls[0].error
    assert finished.status == "failed" and summary.generated_by == "fallback"
    assert "The summary was written without the model: a model call failed, so none was tried " \
        "for the summary (the model could not be reached" in summary.final_summary
    assert result.to_summary_s is not None and result.to_summary_s < 5
