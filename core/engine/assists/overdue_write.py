"""The write a stalled plan never makes (the ``overdue_write`` assist): a request asks for a
file to be changed, nothing is written yet, and the plan only repeats reads already made. The engine then plans the write
itself, once per phase, as an authoring task on the file the request names: the authoring
call shows the model the file and asks for it whole, the form a small model does best.

Seen with Qwen2.5-Coder-1.5B on an exercise ("Implement parse_query(text) and
build_query(params) in query.py"): rounds 1 and 2 listed and read query.py, Think said
"Implement the parse_query and build_query functions in query.py", and the next two plans
were the same list and read again; the phase ended stalled, the stub untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.engine.execution.offered import WRITE
from core.engine.requests import named_files
from core.shapes.phase import Phase
from core.shapes.stage_results import Plan, TaskSpec

Notify = Callable[[str, str, str, str], None]  # (assist, message, level, stage)

INSTRUCTION_CHARS = 1_000


def overdue_write(request: str, goal: str, strategy: str, root: Path) -> TaskSpec | None:
    """The authoring task for the first file the request (or else the phase goal) names, told
    what to do in the words of Think's strategy or the phase goal; None when neither names an
    existing file."""
    files = named_files(request, root) or named_files(goal, root)
    if not files:
        return None
    instruction = (strategy or goal or request).strip()[:INSTRUCTION_CHARS]
    if len(instruction) < 3:
        instruction = f"Make the changes the request asks for in {files[0]}."
    return TaskSpec(id=1, tool=WRITE, arguments={"path": files[0], "instruction": instruction},
                    title=f"write {files[0]}",
                    description="planned by the engine: the plans only repeated reads")


def overdue_plan(notice: Notify, engine: Any, phase: Phase, guard: Any,
                 specs: tuple[TaskSpec, ...]) -> Plan | None:
    """The engine's own plan in place of ``specs``, with a notice that says so, when the
    request asks for changes, nothing is written yet and ``specs`` only repeat earlier calls
    (none of them a write); None otherwise. The caller asks once per phase."""
    if engine.file_changes or not engine.tally.changes_requested \
            or engine.changes_forbidden or WRITE not in engine.tools.offered_names():
        return None
    if any(engine.tools.written_paths(s.tool, s.arguments) for s in specs) \
            or not guard.stale(specs, engine.file_changes):
        return None
    strategy = phase.thoughts[-1].next_round_strategy if phase.thoughts else ""
    spec = overdue_write(engine.request, phase.goal, strategy, engine.run_state.workspace)
    if spec is None:
        return None
    path = spec.arguments["path"]
    notice("overdue_write", (
        f"Phase {phase.id}, round {phase.rounds}: the plan only repeats earlier calls and "
        f"nothing is written yet, though the request asks for changes; the engine plans the "
        f"write of {path} itself."), "warning", "plan")
    return Plan(tasks=(spec,), reasoning=f"planned by the engine: write {path}")
