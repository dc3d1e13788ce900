"""The window's own messages to the page (``ui_*`` kinds) that several widgets send or replay."""

from __future__ import annotations

import json
from typing import Any

from core.tools.checkpoint import UndoReport, checkpoint_dir


def mark_message(run_id: str, status: str, marked: bool | None = None,
                 message: str = "") -> dict[str, Any]:
    """The ``ui_mark`` message for the page (``marked`` is None when nothing is known)."""
    return {"kind": "ui_mark", "run_id": run_id, "status": status, "marked": marked,
            "message": message}


def was_undone(run_id: str) -> bool:
    """The run's checkpoint records a finished undo (``manifest.json``'s ``undone``)."""
    try:
        manifest = checkpoint_dir(run_id) / "manifest.json"
        return json.loads(manifest.read_text(encoding="utf-8")).get("undone") is True
    except (OSError, ValueError, AttributeError):
        return False


def undo_message(run_id: str, status: str, message: str = "",
                 report: UndoReport | None = None, *, path: str = "",
                 run_undone: bool = False) -> dict[str, Any]:
    """The ``ui_undo`` message for the page: for the whole run, or for the one file ``path``
    (``run_undone``: that was the run's last changed file, so the run counts as undone)."""
    data = {"kind": "ui_undo", "run_id": run_id, "status": status, "message": message,
            "restored": list(report.restored) if report else [],
            "deleted": list(report.deleted) if report else []}
    if path:
        data.update(path=path, run_undone=run_undone)
    return data
