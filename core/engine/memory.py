"""Conversation memory: what a follow-up request sees of earlier runs (never their raw text)."""

from __future__ import annotations

from typing import Any

MEMORY_CHAR_CAP = 4000
UNMARKED_SUMMARY_CHARS = 800


def _block(run: dict[str, Any]) -> str:
    """One run as a line: a milestone's summary in full, any other run's cut."""
    milestone = run.get("milestone")
    summary = " ".join(str(run.get("summary", "")).split())
    if not milestone and len(summary) > UNMARKED_SUMMARY_CHARS:
        summary = summary[:UNMARKED_SUMMARY_CHARS - 1] + "…"
    label = f" [milestone: {milestone}]" if milestone else ""
    return (f"- Earlier run{label}: goal «{run.get('goal', '')}» ended {run.get('status', '')}."
            f" Summary: {summary}")


def format_memory(runs: list[dict[str, Any]], cap: int = MEMORY_CHAR_CAP) -> str:
    """Earlier runs (oldest first) as compact lines: their structured goal, status and final
    summary.

    ``runs`` items carry ``goal``, ``status``, ``summary`` and optionally ``milestone``
    (why the run was kept: marked "Keep in memory", changed files, a clarification
    answered). A milestone keeps its summary in full, any other run's is cut to
    ``UNMARKED_SUMMARY_CHARS``. When the text exceeds ``cap``, unmarked runs are dropped
    oldest first, then, only if the milestones alone exceed it, the oldest milestones; the
    newest run goes last (a follow-up is most often about it).
    """
    blocks = [_block(run) for run in runs]
    newest = len(runs) - 1
    unmarked = [i for i, run in enumerate(runs) if not run.get("milestone") and i != newest]
    marked = [i for i, run in enumerate(runs) if run.get("milestone") and i != newest]
    kept = set(range(len(runs)))
    used = sum(len(block) + 1 for block in blocks)
    for index in unmarked + marked + [newest]:
        if used <= cap + 1:
            break
        kept.discard(index)
        used -= len(blocks[index]) + 1
    return "\n".join(blocks[i] for i in sorted(kept))


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
