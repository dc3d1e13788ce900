"""Reading tools: list_files and read_file (writing tools are in ``core/tools/edits.py``).

Both go through the run's gate (``core/tools/gate.py``): what the ignore files exclude is not
listed and cannot be read; a file that looks like a secret is listed as held back, and
reading it gives the held-back note instead of its content.
"""

from __future__ import annotations

import asyncio
import codecs
import fnmatch
import os
from collections.abc import Iterator
from typing import Annotated, BinaryIO

from core.tools import paths
from core.tools.base import ToolContext, ToolError
from core.tools.gate import HELD, Gate
from core.tools.registry import Limit, PathArg, tool

READ_CAP = 64 * 1024
BINARY_SNIFF = 8192
SCAN_LIMIT = 50_000


@tool
async def list_files(ctx: ToolContext, path: PathArg = ".",
                     pattern: Annotated[str, Limit(max_length=200)] | None = None,
                     recursive: bool = False,
                     max_entries: Annotated[int, Limit(minimum=1, maximum=5000)] = 500) -> str:
    """List files and folders in the workspace; folder names end with '/'.

    .git, node_modules, .venv and __pycache__ are skipped.

    Args:
        path: Folder to list, relative to the workspace root.
        pattern: Glob matched against names, e.g. '*.py' (against the path when it
            contains '/').
        recursive: Also list the contents of sub-folders.
        max_entries: Stop after this many entries.
    """
    target = paths.resolve(ctx.run.workspace, path)
    gate = ctx.run.gate
    if not target.exists:
        raise paths.not_found(target, "folder")
    gate.refuse_ignored(target.rel, target.is_dir)
    if not target.is_dir:  # a file named where a folder was meant: say what it is
        size = await asyncio.to_thread(lambda: target.real.stat().st_size)
        return (f"{target.rel} ({size:,} bytes) is a file, not a folder; read_file shows its "
                "content")
    return await asyncio.to_thread(_list, gate, target, pattern, recursive, max_entries)


def _list(gate: Gate, target: paths.Resolved, pattern: str | None, recursive: bool,
          limit: int) -> str:
    shown: list[str] = []
    more = False
    visited = 0
    for rel, entry in gate.walk(target.rel, recursive):
        visited += 1
        if visited > SCAN_LIMIT:
            more = True
            break
        subject = rel if pattern and "/" in pattern else entry.name
        if pattern and not fnmatch.fnmatchcase(subject, pattern):
            continue
        if len(shown) == limit:
            more = True
            break
        shown.append(_describe(gate, rel, entry))
    where = target.rel if target.rel != "." else "the workspace root"
    if not shown:
        return f"no entries match {pattern!r} in {where}" if pattern else f"{where} is empty"
    if more:
        shown.append(f"… truncated after {len(shown)} entries; narrow the path or pattern, "
                     "or raise max_entries")
    return "\n".join(shown)


def _describe(gate: Gate, rel: str, entry: os.DirEntry[str]) -> str:
    try:
        if entry.is_symlink():
            return f"{rel} -> {os.readlink(entry.path)}"
        if entry.is_dir(follow_symlinks=False):
            return f"{rel}/"
        size = f"{entry.stat(follow_symlinks=False).st_size:,} bytes"
        held = gate.secret_name(rel)
        return f"{rel}  ({size}; {HELD} ({held}))" if held else f"{rel}  ({size})"
    except OSError:
        return rel


@tool
async def read_file(ctx: ToolContext, path: PathArg,
                    start_line: Annotated[int, Limit(minimum=1)] | None = None,
                    end_line: Annotated[int, Limit(minimum=1)] | None = None) -> str:
    """Read a text file with numbered lines.

    Output is cut at 64 KiB with a note saying which lines to ask for next.

    Args:
        path: File to read, relative to the workspace root.
        start_line: First line to show (1-based); default the first line.
        end_line: Last line to show (inclusive); default the end of the file.
    """
    target = paths.require_file(ctx.run.workspace, path)
    gate = ctx.run.gate
    gate.refuse_ignored(target.rel)
    if start_line is not None and end_line is not None and end_line < start_line:
        raise ToolError(f"end_line ({end_line}) is before start_line ({start_line})")
    text = await asyncio.to_thread(_read, target, start_line or 1, end_line)
    held = await asyncio.to_thread(gate.secret, target.rel, text)
    if held:
        raise ToolError(gate.held_entry(target.rel, held) + ": its content is not sent to the "
                        "model; the person can allow it by naming the file in the request")
    ctx.run.read_paths.add(target.rel)
    return gate.release(target.rel, text)


def _read(target: paths.Resolved, start: int, end: int | None) -> str:
    fd = paths.open_regular(target)
    with os.fdopen(fd, "rb") as handle:
        head = handle.read(BINARY_SNIFF)
        if b"\x00" in head:
            size = os.fstat(handle.fileno()).st_size
            raise ToolError(f"{target.rel} is a binary file ({size:,} bytes); "
                            "read_file only shows text")
        handle.seek(0)
        return _numbered(target.rel, handle, start, end)


def _numbered(rel: str, handle: BinaryIO, start: int, end: int | None) -> str:
    out: list[str] = []
    used = 0
    total = 0
    cut_at: int | None = None
    replaced = False
    long_lines: list[int] = []
    for number, data, complete in _lines(handle, READ_CAP):
        total = number
        if number < start or (end is not None and number > end) or cut_at is not None:
            continue
        text, bad = _decode(data, complete)
        replaced = replaced or bad
        line = f"{number:>6}\t{text}"
        size = len(line.encode("utf-8")) + 1
        if out and used + size > READ_CAP:
            cut_at = number
            continue
        if not complete:
            long_lines.append(number)
        out.append(line)
        used += size
    if total == 0:
        return f"{rel} is empty"
    if start > total:
        raise ToolError(f"start_line {start} is past the end of {rel} ({total} lines)")
    last = min(end or total, total)
    notes: list[str] = []
    if cut_at is not None:
        notes.append(f"[truncated — showing lines {start}–{cut_at - 1} of {total} "
                     f"(64 KiB limit); ask for lines {cut_at}–{last} "
                     f"with start_line={cut_at}]")
    if long_lines:
        shown = ", ".join(str(n) for n in long_lines[:5])
        notes.append(f"[line(s) {shown} longer than 64 KiB were cut]")
    if replaced:
        notes.append("[note: the file is not valid UTF-8; undecodable bytes are shown as �]")
    header = f"{rel} — lines {start}–{last if cut_at is None else cut_at - 1} of {total}"
    return "\n".join([header, *out, *notes])


def _lines(handle: BinaryIO, limit: int) -> Iterator[tuple[int, bytes, bool]]:
    """(number, content without the newline, complete?) per line; at most ``limit`` bytes kept."""
    number = 0
    while True:
        data = handle.readline(limit)
        if not data:
            return
        number += 1
        complete = data.endswith(b"\n") or len(data) < limit
        while not complete:
            rest = handle.readline(limit)
            if not rest or rest.endswith(b"\n"):
                break
        yield number, data.removesuffix(b"\n").removesuffix(b"\r"), complete


def _decode(data: bytes, complete: bool) -> tuple[str, bool]:
    """The text of one line and whether bytes had to be replaced."""
    try:
        if complete:
            return data.decode("utf-8"), False
        return codecs.getincrementaldecoder("utf-8")().decode(data, final=False), False
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), True
