"""Undo from the recorded checkpoints: a whole run, or one file of it.

Both are refused, changing nothing, when a file no longer holds what the run wrote
(``core.tools.checkpoint`` has the rules and the manifest's layout).
"""

from __future__ import annotations

import json

from core.tools.checkpoint import Checkpoint, UndoReport, checkpoint_dir


def undo_file(run_id: str, rel: str) -> UndoReport:
    """Undo run ``run_id``'s change to the one file ``rel``; the run's other files keep theirs."""
    try:
        folder = checkpoint_dir(run_id)
    except ValueError as exc:
        return UndoReport(run_id, False, str(exc))
    if not (folder / "manifest.json").exists():
        return UndoReport(run_id, False, f"no file changes were recorded for run {run_id}")
    try:
        return Checkpoint(run_id).undo_file(rel)
    except (OSError, ValueError) as exc:
        return UndoReport(run_id, False, f"cannot undo {rel}: {exc}")


def undone_files(run_id: str) -> list[str]:
    """The files of run ``run_id`` undone one by one (none when nothing is recorded)."""
    try:
        data = json.loads((checkpoint_dir(run_id) / "manifest.json").read_text(encoding="utf-8"))
        return [str(rel) for rel in data.get("undone_files", [])]
    except (OSError, ValueError, AttributeError, TypeError):
        return []


def was_undone(run_id: str) -> bool:
    """The run's checkpoint records a finished undo of the whole run."""
    try:
        data = json.loads((checkpoint_dir(run_id) / "manifest.json").read_text(encoding="utf-8"))
        return data.get("undone") is True
    except (OSError, ValueError, AttributeError):
        return False


def undo_run(run_id: str) -> UndoReport:
    """Undo every file change of run ``run_id``; all or nothing."""
    try:
        folder = checkpoint_dir(run_id)
    except ValueError as exc:
        return UndoReport(run_id, False, str(exc))
    if not (folder / "manifest.json").exists():
        return UndoReport(run_id, False, f"no file changes were recorded for run {run_id}")
    try:
        return Checkpoint(run_id).undo()
    except (OSError, ValueError) as exc:
        return UndoReport(run_id, False, f"cannot undo run {run_id}: {exc}")
