"""The interface between an engine's Execute stage and the workspace tools."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Literal, Protocol

from core.events import Event, SandboxMark
from core.tools.errors import ToolError

if TYPE_CHECKING:
    from core.tools.gate import Gate

__all__ = ["DENIED", "ApprovalAction", "Approve", "RunState", "ToolContext", "ToolError",
           "ToolManager", "ToolResult", "WrappedTools"]

# "read": send a file that looks like a secret; "send": send the workspace's files to a model
# on another machine.
ApprovalAction = Literal["command", "write", "mcp", "read", "send"]


class Approve(Protocol):
    """Ask the person (per policy) before an action; ``scope`` is what "approve for this
    run" covers (default: every action of that kind); ``diff``: what a write would change,
    shown before it is approved."""

    def __call__(self, action: ApprovalAction, detail: str, scope: str = "",
                 diff: str = "") -> Awaitable[bool]:
        ...


@dataclass(frozen=True)
class ToolResult:
    """``output`` is the full text (for the person and the history); ``error`` says why it
    failed; ``sandbox`` how a shell command ran (empty for other tools)."""

    ok: bool
    output: str = ""
    error: str = ""
    sandbox: SandboxMark = ""


DENIED = "denied by user"  # the error of a call the person refused


@dataclass
class RunState:
    """Per-run state shared by every tool call of one run.

    ``command_sandbox`` and ``command_network`` are the run's settings of the same names;
    ``noticed`` holds what the run has already told the person once (see ``sandbox``);
    ``gate`` decides what of the workspace may be read and sent (``core/tools/gate.py``),
    honouring the ``.gitignore`` files unless ``honour_gitignore`` is off.
    """

    workspace: Path
    run_id: str
    read_paths: set[str] = field(default_factory=set)
    checkpoint: Any = None
    command_sandbox: str = "auto"
    command_network: bool = False
    noticed: set[str] = field(default_factory=set)
    honour_gitignore: bool = True
    gate: "Gate" = field(init=False, repr=False)

    def __post_init__(self) -> None:
        from core.tools.gate import Gate

        self.gate = Gate(self.workspace, self.honour_gitignore)


@dataclass(frozen=True)
class ToolContext:
    run: RunState
    emit: Callable[[Event], None]
    approve: Approve
    phase_id: int = 0
    task_id: int = 0


class ToolManager(Protocol):
    async def open(self, emit: Callable[[Event], None]) -> None:
        """Start what the tools need for a run (MCP servers). Never raises (but
        ``asyncio.CancelledError``); a part that fails is reported through ``emit``."""
        ...

    async def close(self) -> None:
        """Stop whatever ``open`` started; safe to call twice or without ``open``."""
        ...

    def names(self) -> list[str]: ...

    def schemas(self) -> list[dict[str, Any]]:
        """OpenAI ``tools`` entries: {"type": "function", "function": {name, description, parameters}}."""
        ...

    def parameters(self, name: str) -> dict[str, Any]:
        """The JSON schema of a tool's arguments (used to check plans before execution)."""
        ...

    def written_paths(self, name: str, arguments: dict[str, Any]) -> set[str]:
        """Workspace paths a call would write; calls sharing one never run at the same time."""
        ...

    async def execute(self, name: str, arguments: dict[str, Any], ctx: ToolContext) -> ToolResult:
        """Run one tool. Never raises (but ``asyncio.CancelledError``)."""
        ...


class WrappedTools:
    """A ``ToolManager`` that hands everything to ``inner``; subclasses change what they
    need (how a call runs)."""

    def __init__(self, inner: ToolManager) -> None:
        self.inner = inner

    async def open(self, emit: Callable[[Event], None]) -> None:
        await self.inner.open(emit)

    async def close(self) -> None:
        await self.inner.close()

    def names(self) -> list[str]:
        return self.inner.names()

    def schemas(self) -> list[dict[str, Any]]:
        return self.inner.schemas()

    def parameters(self, name: str) -> dict[str, Any]:
        return self.inner.parameters(name)

    def written_paths(self, name: str, arguments: dict[str, Any]) -> set[str]:
        return self.inner.written_paths(name, arguments)

    async def execute(self, name: str, arguments: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return await self.inner.execute(name, arguments, ctx)
