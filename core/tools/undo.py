"""Undo from the recorded checkpoints: a whole run, or one file of it.

Both are refused, changing nothing, when a file no longer holds what the run wrote
(``core.tools.checkpoint`` has the rules and the manifest's layout).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from core.tools.checkpoint import Checkpoint, UndoReport, checkpoint_dir


def undo_file(run_id: str, rel: str) -> UndoReport:
    """Undo run ``run_id``'s change to the one file ``rel``; the run's other files keep theirs."""
    return _with_checkpoint(run_id, lambda checkpoint: checkpoint.undo_file(rel),
                            f"cannot undo {rel}")


def undo_run(run_id: str) -> UndoReport:
    """Undo every file change of run ``run_id``; all or nothing."""
    return _with_checkpoint(run_id, lambda checkpoint: checkpoint.undo(),
                            f"cannot undo run {run_id}")


def _with_checkpoint(run_id: str, undo: Callable[[Checkpoint], UndoReport],
                     failed: str) -> UndoReport:
    try:
        folder = checkpoint_dir(run_id)
    except ValueError as exc:
        return UndoReport(run_id, False, str(exc))
    if not (folder / "manifest.json").exists():
        return UndoReport(run_id, False, f"no file changes were recorded for run {run_id}")
    try:
        return undo(Checkpoint(run_id))
    except (OSError, ValueError) as exc:
        return UndoReport(run_id, False, f"{failed}: {exc}")


def undone_files(run_id: str) -> list[str]:
    """The files of run ``run_id`` undone one by one (none when nothing is recorded)."""
    files = _manifest(run_id).get("undone_files", [])
    return [str(rel) for rel in files] if isinstance(files, list) else []


def was_undone(run_id: str) -> bool:
    """The run's checkpoint records a finished undo of the whole run."""
    return _manifest(run_id).get("undone") is True


def _manifest(run_id: str) -> dict[str, Any]:
    """The run's checkpoint manifest ({} when there is none or it cannot be read)."""
    try:
        data = json.loads((checkpoint_dir(run_id) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
