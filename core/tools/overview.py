"""The workspace's files as the model first sees them, so plans name paths that exist.

Without it a small model guesses: the embedded Qwen searched ``phase_desk.py`` and read
``data/largest_file.txt`` in workspaces holding neither (Cline's environment details and
Aider's repository map give the model the same start). The overview lists paths breadth
first — the top of the tree before the depths — skipping the folders the tools skip and what
the ignore files exclude (the run's gate), and is written once, at the start of the run, into
the stable prompt prefix.
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path

from core.tools.gate import Gate

OVERVIEW_ENTRIES = 50
SCAN_LIMIT = 5_000


def overview(where: Path | Gate, limit: int = OVERVIEW_ENTRIES) -> str:
    """Up to ``limit`` workspace paths in view (folders end with '/'), with how many there
    are; ``where``: the workspace folder, or a run's gate."""
    gate = where if isinstance(where, Gate) else Gate(where)
    root = gate.root
    shown: list[str] = []
    seen = 0
    folders: deque[Path] = deque([root])
    while folders and seen < SCAN_LIMIT:
        for entry in gate.entries(folders.popleft()):
            seen += 1
            is_folder = entry.is_dir(follow_symlinks=False)
            if is_folder:
                folders.append(Path(entry.path))
            if len(shown) < limit:
                rel = os.path.relpath(entry.path, root).replace(os.sep, "/")
                shown.append(f"{rel}/" if is_folder else rel)
    if not shown:
        return "The workspace folder is empty."
    header = "Workspace files when the run started"
    if seen > len(shown):
        total = f"more than {seen}" if folders else str(seen)
        header += f" (the first {len(shown)} of {total}; list_files shows the rest)"
    return header + ":\n" + "\n".join(shown)
