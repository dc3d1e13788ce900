"""What the model sees of a task result, and how a round is turned into protocol messages."""

from __future__ import annotations

from core.engine.execution.task_runner import MODEL_RESULT_CAP, execution_messages, for_model
from core.shapes import Task


def finished(tid: int, ok: bool, result: str, error: str = "") -> Task:
    task = Task(id=tid, title="t", description="", tool="read_file", arguments={"path": "a"},
                round=2)
    task.move("running")
    task.finish(ok, result, error)
    return task


def test_long_results_keep_their_head_and_their_closing_note() -> None:
    note = "[truncated at 64 KiB — ask for lines 1200-2400]"
    task = finished(1, True, "x" * 60_000 + "\n" + note)
    shown = for_model(task)
    assert len(shown) < MODEL_RESULT_CAP + 200
    assert shown.startswith("xxxx") and shown.endswith(note)
    assert "characters omitted here" in shown


def test_failures_lead_with_status_and_error() -> None:
    assert for_model(finished(1, False, "", "no such file")) == "FAILED: no such file"
    assert for_model(finished(1, True, "")) == "(no output)"


def test_execution_messages_pair_every_task() -> None:
    tasks = [finished(1, True, "one"), finished(2, False, "", "boom")]
    messages = execution_messages(tasks, 3, 2)
    ids = [c["id"] for c in messages[0]["tool_calls"]]
    assert ids == ["task_3_2_1", "task_3_2_2"]
    assert [m["tool_call_id"] for m in messages[1:]] == ids
    assert messages[2]["content"] == "FAILED: boom"
