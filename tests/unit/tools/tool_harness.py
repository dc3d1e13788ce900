"""The test harness of the tool tests: a real workspace and a visible ToolContext."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.events import Event
from core.tools import ToolRegistry
from core.tools.base import ApprovalAction, RunState, ToolContext, ToolResult


@dataclass
class Harness:
    workspace: Path
    run: RunState
    registry: ToolRegistry
    events: list[Event] = field(default_factory=list)
    approvals: list[tuple[ApprovalAction, str]] = field(default_factory=list)
    answer: bool = True

    async def approve(self, action: ApprovalAction, detail: str, scope: str = "",
                      diff: str = "") -> bool:
        self.approvals.append((action, detail))
        return self.answer

    def ctx(self, task_id: int = 7) -> ToolContext:
        return ToolContext(run=self.run, emit=self.events.append, approve=self.approve,
                           phase_id=1, task_id=task_id)

    def call(self, name: str, **arguments: Any) -> ToolResult:
        return asyncio.run(self.registry.execute(name, arguments, self.ctx()))

    def new_run(self, run_id: str) -> None:
        self.run = RunState(workspace=self.workspace, run_id=run_id)

