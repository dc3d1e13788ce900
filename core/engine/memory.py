"""Conversation memory: what a follow-up request sees of earlier runs (never their raw text).

Which runs it sees is read from the history (``core.store.runs.memory_window``); here they
are written for the prompt."""

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
