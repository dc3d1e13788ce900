"""What a phase's rounds need from the engine that runs them.

``PhaseRounds`` (``phase.rounds``) works through this protocol, and
``PhaseTaskExecutor`` provides it: the rounds sit one level below the engine.
"""

from __future__ import annotations

from typing import Any, Protocol

from core.config import Settings
from core.engine.assists import Assists
from core.engine.authoring.stage import AuthoringStage
from core.engine.execution.offered import OfferedTools
from core.engine.execution.task_runner import TaskRunner
from core.engine.phase.stall import Done
from core.engine.stages.caller import Accounting, StageCaller
from core.engine.summary import RunTally
from core.engine.verification.state import VerificationState
from core.shapes.reading import Reading
from core.events import Event
from core.llm.base import Message
from core.tools.base import RunState


class PhaseHost(Protocol):
    settings: Settings
    tools: OfferedTools
    accounting: Accounting
    caller: StageCaller
    runner: TaskRunner
    authoring: AuthoringStage | None
    assists: Assists
    changes_forbidden: str  # the request's words forbidding changes ("" when none)
    changed_files: list[str]
    base_messages: list[Message]
    context_window: int
    reanalysed: bool
    run_state: RunState
    file_changes: int
    reading: Reading  # what the request asks, checked (its ``words`` are the person's)
    tally: RunTally  # what the engine counted (``changes_requested`` among it)
    language: str  # the person's: stage instructions ask for its text for them in it
    actions: dict[str, Done]  # every call the run executed, by action (see ``stall``)

    @property
    def writes_wanted(self) -> bool: ...  # the request asks for changes and allows them

    def emit(self, event: Event) -> None: ...

    def witness_draft(self, wrote: bool) -> None: ...

    def release_tools(self, names: tuple[str, ...]) -> None: ...

    async def current_state(self, last_phase: bool = True) -> VerificationState: ...

    def check_arguments(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]: ...

    def tool_parameters(self) -> dict[str, dict[str, Any]]: ...
