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
