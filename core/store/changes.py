"""A run's file changes folded per file, from its ``file_changed`` events (as stored).

Each file is listed once, in the order the run first wrote it, with the run's whole change
to it: the last write's ``run_diff`` when the run wrote the file more than once, else that
write's ``diff`` (``core.events.FileChanged`` says which is which). Runs recorded before
diffs were kept have files without a diff.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FileChange:
    path: str
    change: str  # created | modified | deleted: the run's change, first write to last
    bytes: int
    added: int
    removed: int
    diff: str
    writes: int


def net_changes(events: list[dict[str, Any]]) -> list[FileChange]:
    """One ``FileChange`` per path among ``events`` (other kinds are skipped)."""
    by_path: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        if event.get("kind") == "file_changed":
            by_path.setdefault(str(event["path"]), []).append(event)
    folded = []
    for raw, writes in by_path.items():
        path = " ".join(raw.splitlines())
        first, last = writes[0], writes[-1]
        whole = bool(last.get("run_diff"))
        change = "deleted" if last["change"] == "deleted" else first["change"]
        folded.append(FileChange(
            path=path, change=change, bytes=int(last.get("bytes", 0)),
            added=int(last.get("run_added" if whole else "added", 0)),
            removed=int(last.get("run_removed" if whole else "removed", 0)),
            diff=str(last.get("run_diff" if whole else "diff", "")), writes=len(writes)))
    return folded


def markdown_lines(changes: list[FileChange]) -> list[str]:
    """The changes for a Markdown export: a list of files, then each file's diff."""
    lines = ["## Files changed", ""]
    for item in changes:
        if item.diff:
            lines.append(f"- `{item.path}` {item.change} (+{item.added} −{item.removed})")
        else:
            lines.append(f"- `{item.path}` {item.change} ({item.bytes} bytes)")
    for item in changes:
        if item.diff:
            fence = "`" * max(3, 1 + max((len(run) for run in re.findall("`+", item.diff)),
                                         default=0))
            lines += ["", f"### `{item.path}`", "", f"{fence}diff", item.diff, fence]
    return lines
