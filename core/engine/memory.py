"""Conversation memory: what a follow-up request sees of earlier runs (never their raw text)."""

from __future__ import annotations

from typing import Any

MEMORY_CHAR_CAP = 4000


def format_memory(runs: list[dict[str, Any]], cap: int = MEMORY_CHAR_CAP) -> str:
    """Earlier runs as compact lines: their structured goal, status and final summary.

    ``runs`` items carry ``goal``, ``status``, ``summary`` and optionally ``milestone``
    (why the run was kept). Newest runs are kept first when the text exceeds ``cap``.
    """
    blocks: list[str] = []
    used = 0
    for run in reversed(runs):
        label = f" [milestone: {run['milestone']}]" if run.get("milestone") else ""
        summary = " ".join(str(run.get("summary", "")).split())[:800]
        block = f"- Earlier run{label}: goal «{run.get('goal', '')}» ended {run.get('status', '')}." \
                f" Summary: {summary}"
        if used + len(block) > cap:
            break
        blocks.append(block)
        used += len(block)
    return "\n".join(reversed(blocks))


def memory_from_store(store: Any, conversation_id: int, recent: int
                      ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The semantic history window of a conversation, and the analysis awaiting an answer.

    The window holds the most recent ``recent`` runs plus older milestone runs (a
    clarification that was answered, a run that changed files, a run the person marked).
    Only each run's structured goal and final summary are used, never its raw request.
    The second value is the analysis of the last run when it ended asking for clarification.
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
