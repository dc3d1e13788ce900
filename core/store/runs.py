"""Starting a recorded run: what both front ends (the window, the terminal) do first.

A run is recorded before its engine exists. Its conversation is continued, or created on
a first request and titled from it. What a follow-up request remembers is read before the
new run is recorded, so it holds earlier runs only: the semantic history window
(``memory_window``: the most recent runs plus the milestones) and, when the last run ended
asking for clarification, the analysis the answer continues. Then the run is recorded
``running`` with its engine, provider, model and settings, and its ``Recorder`` stores
every event the engine streams.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from core.config import Settings
from core.store.history import Recorder, Store

TITLE_CHARS = 60


@dataclass(frozen=True)
class RunStart:
    """A recorded run about to start: where it is stored and what it remembers."""

    conversation_id: int
    run_id: str
    recorder: Recorder
    memory: list[dict[str, Any]]
    pending_analysis: dict[str, Any] | None


def conversation_title(request: str) -> str:
    """A conversation's title from its first request: one line, at most 60 characters."""
    line = " ".join(request.split())
    return line if len(line) <= TITLE_CHARS else line[:TITLE_CHARS - 1] + "…"


def start_recorded_run(store: Store, settings: Settings, request: str, provider: str,
                       model: str, conversation_id: int | None = None) -> RunStart:
    """Record a new run of ``request`` in the conversation (a new one when ``None``) on the
    model named ``model`` of ``provider``; raises ``KeyError`` when the history holds no
    such conversation."""
    memory: list[dict[str, Any]] = []
    pending: dict[str, Any] | None = None
    if conversation_id is None:
        conversation_id = store.create_conversation(conversation_title(request))
    elif store.conversation(conversation_id) is None:
        raise KeyError(f"no conversation {conversation_id} in the history")
    else:
        memory, pending = memory_window(store, conversation_id, settings.history_runs)
    engine = "phase" if settings.use_phase_task else "classic"
    run_id = store.start_run(conversation_id, request, engine, provider, model,
                             dataclasses.asdict(settings))
    return RunStart(conversation_id, run_id, Recorder(store, run_id), memory, pending)


def memory_window(store: Store, conversation_id: int, recent: int
                  ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The semantic history window of a conversation, and the analysis awaiting an answer.

    The window holds the most recent ``recent`` runs plus older milestone runs (a
    clarification that was answered, a run that changed files, a run the person marked
    "Keep in memory"), each as its structured goal, status, final summary and why it is a
    milestone (``core.engine.memory.format_memory`` writes them for the prompt), never its
    raw request. The second value is the analysis of the last run when it ended asking for
    clarification.
    """
    runs = store.runs(conversation_id)
    window: list[dict[str, Any]] = []
    pending: dict[str, Any] | None = None
    for position, run in enumerate(runs):
        events = store.events(run["id"])
        goal = next((e["core_goal"] for e in events if e["kind"] == "request_analysed"), "")
        summary = next((e["final_summary"] for e in events if e["kind"] == "summary"), "")
        is_last = position == len(runs) - 1
        milestone = ""
        if run["status"] == "clarification_needed" and not is_last:
            milestone = "clarification answered"
        elif run.get("changed_files"):
            milestone = "changed files"
        elif run.get("marked"):
            milestone = "marked by the person"
        if is_last and run["status"] == "clarification_needed":
            pending = next((e["analysis"] for e in events if e["kind"] == "clarification"), None)
        if position >= len(runs) - recent or milestone:
            window.append({"goal": goal or "(not analysed)", "status": run["status"],
                           "summary": summary, "milestone": milestone})
    return window, pending
