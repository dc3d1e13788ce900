"""The Execute stage runs independent tasks at once but never two writers of one path."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from core.approval import ApprovalBroker
from core.config import Settings
from core.events import Event
from core.engine.execution.task_runner import TaskRunner
from core.shapes import Task
from core.tools import ToolRegistry, tool
from core.tools.base import RunState, ToolContext

active: Counter[str] = Counter()
peak: Counter[str] = Counter()
overall = {"now": 0, "peak": 0}


@tool(writes="path")
async def slow_write(ctx: ToolContext, path: str) -> str:
    """Pretend to write a file slowly.

    Args:
        path: The file.
    """
    active[path] += 1
    overall["now"] += 1
    peak[path] = max(peak[path], active[path])
    overall["peak"] = max(overall["peak"], overall["now"])
    await asyncio.sleep(0.05)
    active[path] -= 1
    overall["now"] -= 1
    return f"wrote {path}"


def test_same_path_writers_are_serialised_and_others_overlap(tmp_path: Path) -> None:
    events: list[Event] = []
    settings = Settings(max_parallel_tasks=4)
    executor = TaskRunner(ToolRegistry([slow_write]), RunState(workspace=tmp_path, run_id="r"),
                        ApprovalBroker(settings, events.append), events.append, 4)
    tasks = [Task(id=i, title="w", description="", tool="slow_write",
                  arguments={"path": "same.txt" if i <= 3 else f"other{i}.txt"}, round=1)
             for i in range(1, 6)]
    asyncio.run(executor.execute(tasks, 1))
    assert all(t.status == "done" for t in tasks)
    assert peak["same.txt"] == 1
    assert overall["peak"] >= 2
    assert sum(e.kind == "task_finished" for e in events) == 5
