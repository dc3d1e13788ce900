"""A realistic recorded run with every event kind, and an open store in the test's home."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from core import events as ev
from core.events import EVENT_TYPES, Event
from core.store.history import Store



def full_run(run_id: str = "engine-run") -> list[Event]:
    """One two-phase run: a failed task, an approval, a file write, a retry, a summary."""
    tasks_1 = [
        {"id": 1, "title": "List files", "description": "See what is there", "tool": "list_files",
         "arguments": {"path": "."}, "priority": 8, "dependencies": []},
        {"id": 2, "title": "Read | notes", "description": "Read notes.txt", "tool": "read_file",
         "arguments": {"path": "notes.txt"}, "priority": 5, "dependencies": [1]},
    ]
    tasks_2 = [{"id": 3, "title": "Write the report", "description": "Write report.md",
                "tool": "write_file", "arguments": {"path": "report.md", "content": "# Report"},
                "priority": 9, "dependencies": []}]
    return [
        ev.RunStarted(run_id, "phase", "Summarise my notes into report.md", "openai",
                      "test-model", "/tmp/ws", 30),
        ev.LlmCall("request_analyser", 410, 95, False, 0, 30, 505, True,
                   reply={"tool": "request_analyser", "arguments": {"core_goal": "summarise"}}),
        ev.McpServerStatus("time", "started", ["time__get_current_time"], pid=4242),
        ev.RequestAnalysed("Summarise the notes", ["read notes", "write report.md"],
                           ["keep it short"], "simple", 2),
        ev.Clarification(["Which notes?"], {"core_goal": "summarise"}),
        ev.LlmCall("phase_planner", 520, 140, True, 1, 30, 660, True,
                   reply={"tool": "phase_planner", "raw_arguments": "{\"phases\": []}"}),
        ev.PhasesPlanned([{"id": 1, "name": "Explore", "goal": "Find the notes"},
                          {"id": 2, "name": "Write", "goal": "Write report.md"}], "sequential"),
        ev.PhaseStarted(1, "Explore", "Find the notes", 1, 2, 3),
        ev.LlmCall("plan_tool_call", 700, 210, True, 2, 30, 910, True,
                   reply={"tool_calls": [{"tool": "plan_tool_call", "arguments": {"tasks": []}}]}),
        ev.TasksPlanned(1, 1, 3, "Look around first", tasks_1),
        ev.TaskStarted(1, 1, 1, "list_files"),
        ev.TaskFinished(1, 1, "list_files", "done", round=1, result="notes.txt\n", elapsed_s=0.01),
        ev.TaskStarted(1, 1, 2, "read_file"),
        ev.TaskFinished(1, 2, "read_file", "failed", "permission denied: notes.txt", 1),
        ev.LlmCall("judge_tasks", 800, 120, True, 3, 30, 920, False, "HTTP 500: upstream",
                   reply={"error": {"status": 500, "message": "upstream"}}),
        ev.Notice("warning", "The judge failed; retrying once", "judge_tasks"),
        ev.LlmCall("judge_tasks", 800, 130, True, 4, 30, 930, True,
                   reply={"text": "not a tool call"}, usage_estimated=True),
        ev.Judged(1, 1, False, "retry_failed", 0.5, 0.5, 6.0,
                  [{"task_id": 1, "status": "done", "quality_score": 9},
                   {"task_id": 2, "status": "failed", "quality_score": 0,
                    "reason": "file not readable"}],
                  "Listed the files; reading the notes failed.", "permission", "execution"),
        ev.Thought(1, 1, False, True, "retry with sudo-free path", "Trying again"),
        ev.ContextCompacted("plan_tool_call", 9000, 3000),
        ev.PhaseFinished(1, "completed", 2, 2, 2, "Found and read the notes"),
        ev.PhaseStarted(2, "Write", "Write report.md", 2, 2, 2),
        ev.TasksPlanned(2, 1, 2, "Write it", tasks_2, "replan"),
        ev.ApprovalRequested("ap-1", "write", "write report.md (8 bytes)", 3, 2),
        ev.ApprovalResolved("ap-1", "once"),
        ev.TaskStarted(2, 1, 3, "write_file"),
        ev.FileChanged("report.md", "created", 8, 3),
        ev.FileChanged("report.md", "modified", 12, 3),
        ev.FileChanged("old.md", "deleted", 0, 3),
        ev.TaskFinished(2, 3, "write_file", "done", round=1, result="wrote 8 bytes"),
        ev.Judged(2, 1, True, "end_phase", 1.0, 1.0, 8.5,
                  [{"task_id": 3, "status": "done", "quality_score": 8.5}], "Report written."),
        ev.PhaseFinished(2, "completed", 1, 1, 1, "report.md written"),
        ev.McpServerStatus("time", "stopped", pid=4242, stderr="time server: bye"),
        ev.LlmCall("summarizer", 1200, 300, False, 5, 30, 1500, True,
                   reply={"tool": "summarizer", "arguments": {"final_summary": "Done."}}),
        ev.Summary("Your notes are summarised in **report.md**.", 2, 3, 3,
                   ["report.md created", "one read retried"], "good", "model"),
        ev.RunFinished("completed", 6, 4430, 995, 3.5),
    ]


@pytest.fixture
def run_events() -> list[Event]:
    events = full_run()
    assert {e.kind for e in events} == set(EVENT_TYPES), "the sample must cover every kind"
    return events


@pytest.fixture
def settings() -> dict[str, Any]:
    return {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "test-model",
            "api_key": "", "max_iterations": 30, "use_phase_task": True}


@pytest.fixture
def store() -> Iterator[Store]:
    opened = Store()
    yield opened
    opened.close()
