"""Writing tools: write_file and edit_file.

Both ask ``ctx.approve("write", ...)`` first, record the file's original state in the run's
checkpoint, replace the file atomically (temp file + rename in the same folder) and emit a
``FileChanged`` event with the write's diff (and, when the run wrote the file before, the
whole run's diff of it; ``core.tools.diffs`` bounds both). The checkpoint, the write and the
record of what was written happen together in one worker thread, so a cancelled task never
leaves the checkpoint behind. Python that does not parse is refused (unless the file did not
parse before either), and the result ends with the facts of the write (``code_checks``): it
parses, definitions it lost, content it shrank to. An existing file the run's gate keeps out
of view or holds back as a secret is not changed: the result would quote what it holds.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Annotated, Iterable, Literal

from core.events import FileChanged
from core.tools import paths
from core.tools.base import DENIED, ToolContext, ToolError
from core.tools.checkpoint import Checkpoint, atomic_write
from core.tools.code_checks import parse_refusal, write_facts
from core.tools.diffs import Diff, Side, bounded, file_diff, read_side
from core.tools.registry import Limit, PathArg, tool

log = logging.getLogger(__name__)

EDIT_CAP = 10 * 1024 * 1024
SHOWN_WHOLE_LINES = 40  # a failed edit of a file this short shows the whole file
SHOWN_CHARS = 3_000
SCAN_LINES = 5_000  # lines of a long file compared with old_text, each cut to 200 characters
NEAR_RATIO = 0.5
Change = Literal["created", "modified"]


@dataclass(frozen=True)
class _Written:
    """What a write did: the kind of change, this write's diff, and the run's diff of the
    file when the run wrote it before (None: ``diff`` is the run's too)."""

    change: Change
    diff: Diff
    run_diff: Diff | None


@tool(writes="path")
async def write_file(ctx: ToolContext, path: PathArg,
                     content: Annotated[str, Limit(max_length=200_000)],
                     overwrite: bool = False) -> str:
    """Create or replace a text file with the given content; parent folders are created.

    An existing file is only replaced if it was read in this run or overwrite is true.

    Args:
        path: File to write, relative to the workspace root.
        content: The complete new content of the file.
        overwrite: Replace an existing file even if it was not read in this run.
    """
    target = paths.resolve(ctx.run.workspace, path)
    if target.is_dir:
        raise ToolError(f"{target.rel} is a folder, not a file")
    if target.exists:
        ctx.run.gate.refuse_ignored(target.rel)
    if target.exists and target.rel not in ctx.run.read_paths and not overwrite:
        raise ToolError(f"{target.rel} already exists and was not read in this run; "
                        "read it first, or pass overwrite=true to replace it")
    data = content.encode("utf-8")
    original = await asyncio.to_thread(_read_existing, target) if target.exists else None
    if original is not None:
        _refuse_held_back(ctx, target.rel, original)
    _refuse_broken_python(target.rel, original, data)
    change = await _commit(ctx, target, data)
    return f"wrote {target.rel} ({len(data):,} bytes, {change})" + _facts(target.rel, original,
                                                                          data)


@tool(writes="path")
async def edit_file(ctx: ToolContext, path: PathArg,
                    old_text: Annotated[str, Limit(max_length=100_000)],
                    new_text: Annotated[str, Limit(max_length=100_000)]) -> str:
    """Replace one exact occurrence of old_text in a file with new_text.

    old_text must match exactly once, including whitespace and indentation.

    Args:
        path: File to edit, relative to the workspace root.
        old_text: The exact text to replace; include enough context to make it unique.
        new_text: The text to put in its place.
    """
    if not old_text:
        raise ToolError("old_text is empty; give the exact text to replace")
    target = paths.require_file(ctx.run.workspace, path)
    ctx.run.gate.refuse_ignored(target.rel)
    original = await asyncio.to_thread(_read_for_edit, target)
    _refuse_held_back(ctx, target.rel, original)
    text = original.decode("utf-8", errors="surrogateescape")
    starts = _occurrences(text, old_text)
    if old_text in new_text and starts:  # e.g. port → listen_port: never apply it twice
        fresh = [start for start in starts if not _within_new(text, start, old_text, new_text)]
        if not fresh:
            raise ToolError(f"the change is already made: every match of old_text in "
                            f"{target.rel} is already part of new_text")
        starts = fresh
    if not starts:
        raise ToolError(await asyncio.to_thread(_not_found, text, target.rel, old_text))
    if len(starts) > 1:
        lines = ", ".join(str(_line_of(text, start)) for start in starts[:20])
        raise ToolError(f"old_text matches {len(starts)} times in {target.rel} (at lines "
                        f"{lines}); include more surrounding text so it matches exactly once")
    if old_text == new_text:
        raise ToolError("old_text and new_text are the same; nothing would change")
    start = starts[0]
    updated = text[:start] + new_text + text[start + len(old_text):]
    data = updated.encode("utf-8", errors="surrogateescape")
    _refuse_broken_python(target.rel, original, data)
    await _commit(ctx, target, data, expected=original)
    first = _line_of(text, start)
    return (f"edited {target.rel}: replaced lines {first}–{first + old_text.count(chr(10))} "
            f"({len(data):,} bytes now)\n" + _excerpt(updated, first, new_text.count("\n"))
            + _facts(target.rel, original, data))


def _refuse_held_back(ctx: ToolContext, rel: str, original: bytes) -> None:
    """Refuse to change a file the gate holds back: the reply would quote what it holds."""
    gate = ctx.run.gate
    why = gate.secret(rel, original.decode("utf-8", errors="replace"))
    if why:
        raise ToolError(gate.held_entry(rel, why) + ": it is not changed without being shown; "
                        "the person can allow it by naming the file in the request")


def _decoded(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", errors="replace")


def _refuse_broken_python(rel: str, original: bytes | None, data: bytes) -> None:
    problem = parse_refusal(rel, _decoded(original), data.decode("utf-8", errors="replace"))
    if problem:
        raise ToolError(problem)


def _facts(rel: str, original: bytes | None, data: bytes) -> str:
    facts = write_facts(rel, _decoded(original), _decoded(data))
    return "\nFacts: " + "; ".join(facts) if facts else ""


def _not_found(text: str, rel: str, old_text: str) -> str:
    """Why nothing matched, with what the file holds to copy from: the whole file when it is
    short, else the lines most like old_text with a line either side (a small model guesses
    old_text without reading the file, then guesses again; the text beside the error ends
    that)."""
    head = f"old_text was not found in {rel} (0 matches); copy old_text exactly from the file"
    lines = text.removesuffix("\n").split("\n")
    if len(lines) <= SHOWN_WHOLE_LINES and len(text) <= SHOWN_CHARS:
        return f"{head} as it is now:\n" + _numbered(lines, range(1, len(lines) + 1))
    wanted = next((line.strip() for line in old_text.split("\n") if line.strip()), "").lower()
    scored = sorted(((_likeness(wanted, line), n)
                     for n, line in enumerate(lines[:SCAN_LINES], start=1) if line.strip()),
                    reverse=True)
    near = [n for ratio, n in scored[:3] if ratio >= NEAR_RATIO]
    if not near:
        return f"{head} (read_file shows it), including whitespace"
    shown = sorted({m for n in near for m in range(n - 1, n + 2) if 1 <= m <= len(lines)})
    return f"{head}; the lines most like it:\n" + _numbered(lines, shown)[:SHOWN_CHARS]


def _likeness(wanted: str, line: str) -> float:
    return SequenceMatcher(None, wanted[:200], line.strip().lower()[:200]).ratio()


def _numbered(lines: list[str], numbers: Iterable[int]) -> str:
    """Lines as read_file numbers them, '…' where numbers skip."""
    out: list[str] = []
    last = 0
    for n in numbers:
        if out and n != last + 1:
            out.append("     …")
        out.append(f"{n:>6}\t{lines[n - 1]}")
        last = n
    return "\n".join(line.encode("utf-8", errors="replace").decode("utf-8") for line in out)


def _read_for_edit(target: paths.Resolved) -> bytes:
    fd = paths.open_regular(target)
    with os.fdopen(fd, "rb") as handle:
        if os.fstat(handle.fileno()).st_size > EDIT_CAP:
            raise ToolError(f"{target.rel} is larger than {EDIT_CAP // 1024 // 1024} MiB; "
                            "edit_file refuses files that large")
        data = handle.read()
    if b"\x00" in data[:8192]:
        raise ToolError(f"{target.rel} is a binary file; edit_file only changes text")
    return data


def _read_existing(target: paths.Resolved) -> bytes | None:
    """What a file about to be replaced holds, for the facts (None if binary or too large)."""
    try:
        return _read_for_edit(target)
    except (ToolError, OSError):
        return None


def _occurrences(text: str, needle: str) -> list[int]:
    found: list[int] = []
    at = text.find(needle)
    while at != -1:
        found.append(at)
        at = text.find(needle, at + 1)
    return found


def _within_new(text: str, start: int, old_text: str, new_text: str) -> bool:
    """Whether the match of ``old_text`` at ``start`` lies inside an occurrence of
    ``new_text`` (the edit was applied there already)."""
    return any(text.startswith(new_text, start - offset)
               for offset in _occurrences(new_text, old_text) if start - offset >= 0)


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _excerpt(text: str, first: int, extra_lines: int) -> str:
    lines = text.split("\n")
    low = max(first - 3, 0)
    high = min(first + min(extra_lines, 20) + 2, len(lines))
    return _numbered(lines, range(low + 1, high + 1))


async def _commit(ctx: ToolContext, target: paths.Resolved, data: bytes,
                  expected: bytes | None = None) -> Change:
    """Ask, checkpoint, write atomically, record, emit; returns what kind of change it was.

    With ``expected``, the file must still hold exactly those bytes when it is written (an
    edit must not overwrite what someone changed while the person was being asked).
    """
    if not await ctx.approve("write", f"{target.rel} ({len(data)} bytes)",
                             diff=await asyncio.to_thread(_pending_diff, target, data)):
        raise ToolError(DENIED)
    checkpoint = Checkpoint.of(ctx.run)
    try:
        written = await asyncio.to_thread(_write, checkpoint, target, data, expected)
    except OSError as exc:  # a full disk, a read-only folder: a failed task, not a crash
        raise ToolError(f"could not write {target.rel}: {exc.strerror or exc}") from None
    ctx.run.read_paths.add(target.rel)
    run = written.run_diff
    ctx.emit(FileChanged(path=target.rel, change=written.change, bytes=len(data),
                         task_id=ctx.task_id, phase_id=ctx.phase_id, added=written.diff.added,
                         removed=written.diff.removed, diff=written.diff.text,
                         run_added=run.added if run else 0,
                         run_removed=run.removed if run else 0,
                         run_diff=run.text if run else ""))
    return written.change


def _pending_diff(target: paths.Resolved, data: bytes) -> str:
    """The diff a write of ``data`` would make, for its approval card ("" when it cannot be
    made)."""
    try:
        return file_diff(target.rel, read_side(target.real if target.exists else None),
                         data).text
    except (OSError, ValueError):
        return ""


def _write(checkpoint: Checkpoint, target: paths.Resolved, data: bytes,
           expected: bytes | None) -> _Written:
    """Write under the checkpoint's lock, then work out the diffs (a diff that cannot be
    made is logged and left empty: the write itself succeeded)."""
    with checkpoint.writing:
        again = checkpoint.wrote(target.rel)
        change, before = _write_recorded(checkpoint, target, data, expected)
        original = read_side(checkpoint.original_path(target.rel)) if again else None
    try:
        diff = file_diff(target.rel, before, data)
        return _Written(change, diff, file_diff(target.rel, original, data) if again else None)
    except (OSError, ValueError) as exc:
        log.warning("no diff of %s: %s", target.rel, exc)
        return _Written(change, Diff(0, 0, ""), None)


def _write_recorded(checkpoint: Checkpoint, target: paths.Resolved, data: bytes,
                    expected: bytes | None) -> tuple[Change, Side]:
    """Record, write, record; returns the kind of change and the file's content before."""
    fresh = paths.resolve(target.root, target.rel)
    if fresh.real != target.real or fresh.is_dir:
        raise ToolError(f"{target.rel} changed kind while being written; nothing was written")
    if expected is not None and (not fresh.exists or fresh.real.read_bytes() != expected):
        raise ToolError(f"{target.rel} changed while waiting for approval; nothing was "
                        "written; read it again and redo the edit")
    before = bounded(expected) if expected is not None else read_side(
        fresh.real if fresh.exists else None)
    created = _missing_parents(fresh)
    checkpoint.before_write(fresh)
    os.makedirs(fresh.real.parent, exist_ok=True)
    if created:
        checkpoint.created_dirs(created)
    mode = fresh.real.stat().st_mode & 0o7777 if fresh.exists else None
    atomic_write(fresh.real, data, mode)
    checkpoint.after_write(fresh, data)
    return ("modified" if fresh.exists else "created"), before


def _missing_parents(target: paths.Resolved) -> list[str]:
    missing: list[str] = []
    parent = target.real.parent
    while parent != target.root and not parent.exists():
        missing.append(os.path.relpath(parent, target.root).replace(os.sep, "/"))
        parent = parent.parent
    return missing
