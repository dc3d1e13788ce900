"""The Execute step of a phase round: repeats held back, the rest run, the facts gathered.

Calls the run already made (see ``stall``) end ``skipped`` or ``failed`` without running;
the others run in dependency order. The files the round writes are read before and after,
so the judge gets what really changed (``judge_facts``).
"""

from __future__ import annotations

from core.engine.phase.judge_facts import round_facts
from core.engine.phase.host import PhaseHost
from core.engine.phase.stall import StallGuard, action_key
from core.events import TaskFinished
from core.shapes.task import Task
from core.tools.snapshots import snapshot


async def execute_round(engine: PhaseHost, guard: StallGuard, tasks: list[Task], phase_id: int,
                        round_no: int) -> str:
    """Run the round's tasks; returns the facts for the judge ("" when there are none)."""
    changes = engine.file_changes
    keys = [(action_key(t.tool, t.arguments), t) for t in tasks]
    for task, reason, done in guard.hold_back(tasks, changes):
        task.error = reason
        if done.ok:
            task.result = done.text
        task.move("skipped" if done.ok else "failed")
        engine.emit(TaskFinished(phase_id=phase_id, task_id=task.id, tool=task.tool,
                                 status=task.status, error=reason, round=task.round,
                                 result=task.result))
    written: set[str] = set()
    for task in tasks:
        written |= engine.tools.written_paths(task.tool, task.arguments)
    workspace = engine.run_state.workspace
    before = snapshot(workspace, written)
    await engine.runner.execute(tasks, phase_id)
    guard.record(keys, phase_id, round_no, changes)
    return round_facts(tasks, before, snapshot(workspace, written))
