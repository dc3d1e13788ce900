"""What a phase's rounds need from the engine that runs them.

``PhaseRounds`` (``phase.rounds``) works through this protocol, and
``PhaseEngine`` provides it: the rounds sit one level below the engine.
"""

from __future__ import annotations

from typing import Any, Protocol

from core.config import Settings
from core.engine.authoring_tools import AuthoringTools
from core.engine.task_executor import TaskExecutor
from core.engine.stage_caller import Accounting, StageCaller
from core.engine.phase.stall import Done
from core.engine.summary import RunTally
from core.events import Event
from core.llm.base import Message
from core.tools.base import RunState


class PhaseHost(Protocol):
    settings: Settings
    tools: AuthoringTools
    accounting: Accounting
    caller: StageCaller
    executor: TaskExecutor
    base_messages: list[Message]
    context_window: int
    reanalysed: bool
    run_state: RunState
    file_changes: int
    request: str  # the person's words
    tally: RunTally  # what the engine counted (``changes_requested`` among it)
    language: str  # the person's: stage instructions ask for its text for them in it
    actions: dict[str, Done]  # every call the run executed, by action (see ``stall``)

    def emit(self, event: Event) -> None: ...

    def check_arguments(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]: ...

    def tool_parameters(self) -> dict[str, dict[str, Any]]: ...
