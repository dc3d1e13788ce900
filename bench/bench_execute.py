"""Execute-stage figures: parallel rounds of a real 0.5 s command, and per-task overhead.

Prints one table. The parallel rows run real ``sleep 0.5`` subprocesses through the
engine's TaskRunner and the real tool registry; the overhead rows run an instant tool so
what is left is the engine's own cost per task (scheduling, status machine, events,
registry validation).

Run: .venv/bin/python bench/bench_execute.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)

from core.approval import ApprovalBroker  # noqa: E402
from core.config import Settings  # noqa: E402
from core.events import Event  # noqa: E402
from core.engine.execution.task_runner import TaskRunner  # noqa: E402
from core.shapes.task import Task  # noqa: E402
from core.tools import ToolRegistry, default_registry, tool  # noqa: E402
from core.tools.base import RunState, ToolContext  # noqa: E402


@tool
async def instant(ctx: ToolContext, value: int = 0) -> str:
    """Return at once.

    Args:
        value: Echoed back.
    """
    return str(value)


def tasks(count: int, name: str, **arguments: object) -> list[Task]:
    return [Task(id=i, title=f"t{i}", description="", tool=name, arguments=dict(arguments),
                 round=1) for i in range(1, count + 1)]


async def timed_round(registry: ToolRegistry, batch: list[Task], parallel: int,
                      workspace: Path) -> float:
    events: list[Event] = []
    settings = Settings(command_approval="auto", max_parallel_tasks=parallel)
    executor = TaskRunner(registry, RunState(workspace=workspace, run_id="bench"),
                        ApprovalBroker(settings, events.append), events.append, parallel)
    start = time.perf_counter()
    await executor.execute(batch, 1)
    elapsed = time.perf_counter() - start
    assert all(t.status == "done" for t in batch), [t.error for t in batch]
    return elapsed


def median_of(runs: int, make: callable) -> float:  # type: ignore[valid-type]
    return statistics.median(asyncio.run(make()) for _ in range(runs))


def main() -> None:
    registry = default_registry()
    fast = ToolRegistry([instant])
    with tempfile.TemporaryDirectory() as folder:
        ws = Path(folder)
        one = median_of(3, lambda: timed_round(registry, tasks(1, "run_command",
                                                                command="sleep 0.5"), 4, ws))
        rows = [("1 task × sleep 0.5", 1, one)]
        for parallel in (4, 8):
            t = median_of(3, lambda p=parallel: timed_round(
                registry, tasks(8, "run_command", command="sleep 0.5"), p, ws))
            rows.append((f"8 independent tasks, limit {parallel}", parallel, t))
        per_task = []
        for count in (1, 50, 200):
            t = median_of(5, lambda c=count: timed_round(fast, tasks(c, "instant"), 8, ws))
            per_task.append((count, t))
    print(f"{'round':34} {'parallel':>8} {'seconds':>8} {'× one task':>10}")
    for label, parallel, seconds in rows:
        print(f"{label:34} {parallel:>8} {seconds:>8.3f} {seconds / one:>10.2f}")
    print()
    print(f"{'instant tasks in a round':34} {'seconds':>8} {'ms / task':>10}")
    for count, seconds in per_task:
        print(f"{count:<34} {seconds:>8.4f} {seconds / count * 1000:>10.3f}")


if __name__ == "__main__":
    main()
