"""The text of some workspace files at one moment, read through the path confinement.

The Execute step of a phase round snapshots the files its tasks will write before and
after the round, so the judge is told what really changed (``core/engine/phase/
judge_facts.py``). A path that cannot be read as text within ``READ_CAP`` — missing, a
folder, outside the workspace, too big — is ``None``.
"""

from __future__ import annotations

import os
from pathlib import Path

from core.tools import paths
from core.tools.base import ToolError

READ_CAP = 256 * 1024

Snapshot = dict[str, str | None]


def snapshot(workspace: Path, rels: set[str]) -> Snapshot:
    """The text of each path (None when it does not exist or cannot be read)."""
    return {rel: _text(workspace, rel) for rel in sorted(rels)}


def _text(workspace: Path, rel: str) -> str | None:
    try:
        target = paths.resolve(workspace, rel)
        if not target.is_file:
            return None
        fd = paths.open_regular(target)
    except ToolError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            if os.fstat(handle.fileno()).st_size > READ_CAP:
                return None
            data = handle.read()
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as text mode reads it
