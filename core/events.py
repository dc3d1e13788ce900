"""The closed set of events an engine run emits, and their one JSON encoding.

Every event is a frozen dataclass with a ``kind`` class constant. Consumers (the
page, the terminal, the history store) switch on ``kind`` and never look at
engine internals. ``to_dict``/``from_dict`` are exact inverses for every kind.

``EVENT_TYPES`` are the events of a run's record (the history stores them); the progress
events of ``PROGRESS_TYPES`` (a model call under way, its reply as it is written) are only
for watching a run live: the history does not keep them, since the ``LlmCall`` that ends
each call and the stage's result say everything they said.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

RunStatus = Literal["completed", "budget_exhausted", "cancelled", "failed", "clarification_needed"]
TaskStatus = Literal["pending", "running", "done", "failed", "blocked", "skipped"]
NextAction = Literal["continue_phase", "end_phase", "retry_failed", "replan"]
# What the run achieved ("" only in runs recorded before outcomes existed).
RunOutcome = Literal["succeeded", "unverified", "partial", "failed", ""]
Verification = Literal["verified", "failing", "unverified", ""]


# How a shell command ran ("" for every other tool, and in runs recorded before the sandbox):
# in the sandbox, in the sandbox with the network allowed, or with the person's full rights.
SandboxMark = Literal["", "sandboxed", "sandboxed_network", "unsandboxed"]


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = "event"


@dataclass(frozen=True)
class RunStarted(Event):
    kind: ClassVar[str] = "run_started"
    run_id: str
    engine: Literal["phase", "classic"]
    request: str
    provider: str
    model: str
    workspace: str
    budget: int


@dataclass(frozen=True)
class LlmCall(Event):
    """One model call. ``reply`` is the reply in the scripted-model format (replayable);
    ``cached_tokens`` is the part of ``prompt_tokens`` the provider's prompt cache served;
    ``model`` is the model that served it ("name @ host", "(thinking)" after a call to the
    separate thinking model); ``files`` are the workspace files whose content its messages
    carried, ``held_back`` the notes of the files held back in them ("path (held back: …)")."""

    kind: ClassVar[str] = "llm_call"
    stage: str
    prompt_tokens: int
    completion_tokens: int
    counted_in_budget: bool
    calls_used: int
    budget: int
    context_tokens: int
    ok: bool
    error: str = ""
    reply: dict[str, Any] = field(default_factory=dict)
    usage_estimated: bool = False
    context: list[dict[str, Any]] = field(default_factory=list)
    cached_tokens: int = 0
    model: str = ""
    files: list[str] = field(default_factory=list)
    held_back: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class StageStarted(Event):
    """A model call begins (progress only). ``phase_id``/``round`` are 0 outside a phase's
    rounds; ``streams``: the reply will arrive as ``StageDelta`` events while it is written;
    ``detail``: what the call works on (the file an ``author`` call writes). The ``LlmCall``
    of the same stage ends it."""

    kind: ClassVar[str] = "stage_started"
    stage: str
    phase_id: int
    round: int
    model: str
    call: int
    streams: bool = False
    detail: str = ""


@dataclass(frozen=True)
class StageDelta(Event):
    """The reply of the running call as written so far (progress only): ``text`` is the whole
    of ``field`` up to now (``"text"`` for a text answer, else the stage's argument shown to
    the person, such as the summarizer's ``final_summary``). Not validated: the stage's result
    event replaces it."""

    kind: ClassVar[str] = "stage_delta"
    stage: str
    field: str
    text: str


@dataclass(frozen=True)
class RequestAnalysed(Event):
    kind: ClassVar[str] = "request_analysed"
    core_goal: str
    requirements: list[str]
    constraints: list[str]
    complexity: str
    estimated_phases: int
    language: str = ""  # the request's ("" in runs recorded before it was recorded)
    assumptions: list[str] = field(default_factory=list)  # requirements the person did not state
    reading: dict[str, Any] = field(default_factory=dict)  # the checked reading (Reading.as_json)


@dataclass(frozen=True)
class Clarification(Event):
    kind: ClassVar[str] = "clarification"
    questions: list[str]
    analysis: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PhasesPlanned(Event):
    kind: ClassVar[str] = "phases_planned"
    phases: list[dict[str, Any]]
    execution_strategy: str


@dataclass(frozen=True)
class PhaseStarted(Event):
    kind: ClassVar[str] = "phase_started"
    phase_id: int
    name: str
    goal: str
    index: int
    total: int
    max_rounds: int


@dataclass(frozen=True)
class TasksPlanned(Event):
    kind: ClassVar[str] = "tasks_planned"
    phase_id: int
    round: int
    max_rounds: int
    reasoning: str
    tasks: list[dict[str, Any]]
    mode: Literal["plan", "retry", "replan", "draft"] = "plan"  # draft: no Plan call


@dataclass(frozen=True)
class TaskStarted(Event):
    kind: ClassVar[str] = "task_started"
    phase_id: int
    round: int
    task_id: int
    tool: str


@dataclass(frozen=True)
class TaskFinished(Event):
    """``result`` is what the person sees (capped generously); the model saw less.
    ``sandbox`` says how a shell command ran (``SandboxMark``)."""

    kind: ClassVar[str] = "task_finished"
    phase_id: int
    task_id: int
    tool: str
    status: TaskStatus
    error: str = ""
    round: int = 0
    result: str = ""
    elapsed_s: float = 0.0
    sandbox: SandboxMark = ""
    # the versions a write weighed when its first one failed a check: each with its source
    # ("draft", "candidate 2"), path, line, passed and total checks, kept, and diff
    candidates: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Judged(Event):
    """The rates come from the tasks' statuses; ``quality_average`` is over the
    ``tasks_scored`` of ``tasks_total`` tasks the judge scored (None when it scored none; a
    verdict's ``quality`` is None for a task it did not score). Runs recorded before scores
    were counted have ``tasks_scored`` None."""

    kind: ClassVar[str] = "judged"
    phase_id: int
    round: int
    phase_completed: bool
    next_action: NextAction
    completion_rate: float
    success_rate: float
    quality_average: float | None
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    user_summary: str = ""
    failed_reason: str = ""
    problem_level: str = ""
    degraded: bool = False
    tasks_scored: int | None = None
    tasks_total: int | None = None
    by_engine: bool = False  # the engine's verdict from facts, no judge call


@dataclass(frozen=True)
class Thought(Event):
    kind: ClassVar[str] = "thought"
    phase_id: int
    round: int
    phase_completed: bool
    continue_phase: bool
    next_round_strategy: str = ""
    user_summary: str = ""
    degraded: bool = False


@dataclass(frozen=True)
class PhaseFinished(Event):
    kind: ClassVar[str] = "phase_finished"
    phase_id: int
    status: str
    rounds: int
    tasks_done: int
    tasks_total: int
    summary: str = ""


@dataclass(frozen=True)
class ApprovalRequested(Event):
    kind: ClassVar[str] = "approval_requested"
    request_id: str
    action: Literal["command", "write", "mcp", "read", "send"]
    detail: str
    task_id: int = 0
    phase_id: int = 0
    diff: str = ""  # a write's unified diff, shown before it is approved


@dataclass(frozen=True)
class ApprovalResolved(Event):
    kind: ClassVar[str] = "approval_resolved"
    request_id: str
    decision: Literal["once", "run", "deny"]


@dataclass(frozen=True)
class FileChanged(Event):
    """A write of task ``task_id`` (phase ``phase_id``) to ``path``. ``diff`` is the write's
    unified diff, bounded (a long one ends with a "\\ N more diff lines not shown" line),
    with ``added``/``removed`` counting all of it. When the run wrote the file before,
    ``run_diff`` (with ``run_added``/``run_removed``) is the run's whole change to it, from
    before the run; else it is "" and ``diff`` is that. Runs recorded before diffs were kept
    have none. ``source`` is "command" for a file a command (or an MCP tool) changed: seen
    by comparing the workspace before and after the call, without a diff or an undo."""

    kind: ClassVar[str] = "file_changed"
    path: str
    change: Literal["created", "modified", "deleted"]
    bytes: int
    task_id: int = 0
    phase_id: int = 0
    added: int = 0
    removed: int = 0
    diff: str = ""
    run_added: int = 0
    run_removed: int = 0
    run_diff: str = ""
    source: Literal["tool", "command"] = "tool"


@dataclass(frozen=True)
class ContextCompacted(Event):
    kind: ClassVar[str] = "context_compacted"
    stage: str
    before_tokens: int
    after_tokens: int


@dataclass(frozen=True)
class Notice(Event):
    """Something the person should know: a degraded stage, a refused reply, a retry."""

    kind: ClassVar[str] = "notice"
    level: Literal["info", "warning", "error"]
    message: str
    stage: str = ""
    assist: str = ""  # the model-specific helper that raised it (core.engine.assists)


@dataclass(frozen=True)
class McpServerStatus(Event):
    """An MCP server of the run: ``started`` (with its tools, as offered to the model),
    ``failed`` (it did not start, or died), ``stopped`` (with the run). ``stderr`` is the
    tail of what the server wrote to its standard error."""

    kind: ClassVar[str] = "mcp_server"
    name: str
    status: Literal["started", "failed", "stopped"]
    tools: list[str] = field(default_factory=list)
    pid: int = 0
    error: str = ""
    stderr: str = ""


@dataclass(frozen=True)
class Summary(Event):
    """``quality_average`` is over the ``tasks_scored`` tasks the judge scored in the whole
    run (None when it scored none)."""

    kind: ClassVar[str] = "summary"
    final_summary: str
    phases_completed: int
    total_tasks_executed: int
    total_rounds: int
    highlights: list[str]
    quality_assessment: str
    generated_by: Literal["model", "fallback"]
    status: str = "completed"
    outcome: RunOutcome = ""
    requirements: list[dict[str, Any]] = field(default_factory=list)
    requirements_note: str = ""
    quality_average: float | None = None
    tasks_scored: int = 0
    assumptions: list[str] = field(default_factory=list)
    verification: Verification = ""
    verification_line: str = ""
    verification_sentences: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RunFinished(Event):
    """``status`` says how the run ended; ``outcome`` what it achieved (``core.engine.outcome``)."""

    kind: ClassVar[str] = "run_finished"
    status: RunStatus
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    elapsed_s: float = 0.0
    outcome: RunOutcome = ""
    verification: Verification = ""  # verified | failing | unverified ("" before it existed)
    verification_line: str = ""  # "12 tests pass", "not verified"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        RunStarted, LlmCall, RequestAnalysed, Clarification, PhasesPlanned, PhaseStarted,
        TasksPlanned, TaskStarted, TaskFinished, Judged, Thought, PhaseFinished,
        ApprovalRequested, ApprovalResolved, FileChanged, ContextCompacted, Notice,
        McpServerStatus, Summary, RunFinished,
    )
}


PROGRESS_TYPES: dict[str, type[Event]] = {cls.kind: cls for cls in (StageStarted, StageDelta)}


def is_progress(event: Event) -> bool:
    """Whether ``event`` only shows a run live (not part of its record)."""
    return event.kind in PROGRESS_TYPES


def to_dict(event: Event) -> dict[str, Any]:
    """The event as a plain dict with its ``kind`` first."""
    return {"kind": event.kind, **dataclasses.asdict(event)}


def to_json(event: Event) -> str:
    return json.dumps(to_dict(event), ensure_ascii=False)


def from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from ``to_dict`` output; unknown kinds or fields raise ``ValueError``."""
    kind = data.get("kind")
    cls = (EVENT_TYPES.get(kind) or PROGRESS_TYPES.get(kind)) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown event kind: {kind!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    values = {k: v for k, v in data.items() if k != "kind"}
    unknown = set(values) - names
    if unknown:
        raise ValueError(f"unknown fields for {kind}: {sorted(unknown)}")
    return cls(**values)
