"""Files that commands change: what a run wrote includes what its shell commands (and MCP
tools) wrote, not only write_file and edit_file.

``WatchedTools`` wraps a run's tools. Around every call of a tool that may change files
without saying so (anything but the reading and the writing tools), the workspace's files
are fingerprinted (size and modification time, bounded like the overview), and each file
created, modified or deleted meanwhile is reported as a ``FileChanged`` with
``source="command"``: no diff and no undo, since nothing recorded it before, but counted
among the run's changes. A file a writing tool wrote during that call is not reported twice.
"""

from __future__ import annotations

import asyncio
import os
from collections import deque
from pathlib import Path
from typing import Any

from core.events import FileChanged
from core.tools.base import ToolContext, ToolManager, ToolResult, WrappedTools
from core.tools.gate import Gate

SCAN_LIMIT = 5_000
READING = frozenset({"list_files", "read_file", "search_code"})
WRITING = frozenset({"write_file", "edit_file"})
Fingerprint = dict[str, tuple[int, int]]


def fingerprint(gate: Gate, limit: int = SCAN_LIMIT) -> Fingerprint:
    """Each regular file's (size, mtime in ns), by workspace-relative posix path; the tools'
    skipped folders, what the ignore files exclude and symlinks are left out."""
    root = gate.root
    found: Fingerprint = {}
    folders: deque[Path] = deque([root])
    while folders and len(found) < limit:
        for entry in gate.entries(folders.popleft()):
            if entry.is_dir(follow_symlinks=False):
                folders.append(Path(entry.path))
            elif entry.is_file(follow_symlinks=False):
                stat = entry.stat(follow_symlinks=False)
                rel = os.path.relpath(entry.path, root).replace(os.sep, "/")
                found[rel] = (stat.st_size, stat.st_mtime_ns)
    return found


def changed(before: Fingerprint, after: Fingerprint) -> list[tuple[str, str, int]]:
    """(path, created|modified|deleted, size now) for every file that differs."""
    out = [(path, "created" if path not in before else "modified", after[path][0])
           for path in sorted(after) if before.get(path) != after[path]]
    out += [(path, "deleted", 0) for path in sorted(set(before) - set(after))]
    return out


class WatchedTools(WrappedTools):
    """A ``ToolManager`` that reports the files other tools than the writing ones changed."""

    def __init__(self, inner: ToolManager) -> None:
        super().__init__(inner)
        self._watching: list[set[str]] = []  # paths written meanwhile, per running call

    async def execute(self, name: str, arguments: dict[str, Any], ctx: ToolContext) -> ToolResult:
        if name in READING:
            return await self.inner.execute(name, arguments, ctx)
        if name in WRITING:
            for watching in self._watching:
                watching.update(self.inner.written_paths(name, arguments))
            return await self.inner.execute(name, arguments, ctx)
        gate = ctx.run.gate
        before = await asyncio.to_thread(fingerprint, gate)
        written: set[str] = set()
        self._watching.append(written)
        try:
            result = await self.inner.execute(name, arguments, ctx)
        finally:
            self._watching.remove(written)
        after = await asyncio.to_thread(fingerprint, gate)
        for path, change, size in changed(before, after):
            if path not in written:
                ctx.emit(FileChanged(path=path, change=change, bytes=size,  # type: ignore[arg-type]
                                     task_id=ctx.task_id, phase_id=ctx.phase_id,
                                     source="command"))
        return result
