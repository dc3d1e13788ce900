"""Unified diffs of the files a run writes, bounded for the events that carry them.

A write's diff travels in its ``FileChanged`` event to the page, the history and the
exports, so it is bounded: a line longer than ``LINE_CHARS`` is cut, and past ``MAX_LINES``
lines or ``MAX_CHARS`` characters the diff ends with the marker line
``\\ N more diff lines not shown``. The +/- counts are always of the whole diff. Lines that
start with ``\\`` are notes, as in ``diff``'s own "\\ No newline at end of file".

Large changes stay cheap: the common head and tail are skipped before lines are matched
(``SequenceMatcher`` grows about quadratically: 0.14 s for 10,000 lines with a change every
100); a changed middle longer than ``MATCH_LINES`` is compared line by line at the same
positions when both sides have as many lines, else shown as removed, then added; a side
larger than ``COMPARE_BYTES`` is not read at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

MAX_LINES = 500
MAX_CHARS = 60_000
LINE_CHARS = 400
MATCH_LINES = 10_000
COMPARE_BYTES = 8 * 1024 * 1024
CONTEXT = 3

Opcode = tuple[str, int, int, int, int]


@dataclass(frozen=True)
class Oversize:
    """A side of a diff too large to compare (its size in bytes)."""

    size: int


Side = bytes | None | Oversize  # None: the file does not exist on that side


@dataclass(frozen=True)
class Diff:
    added: int
    removed: int
    text: str


def read_side(path: Path | None) -> Side:
    """A file's bytes for a diff: None when there is no file, ``Oversize`` when too large."""
    if path is None or not path.is_file():
        return None
    size = path.stat().st_size
    return Oversize(size) if size > COMPARE_BYTES else path.read_bytes()


def bounded(data: bytes | None) -> Side:
    """``data`` as a side of a diff (``Oversize`` past ``COMPARE_BYTES``)."""
    return Oversize(len(data)) if data is not None and len(data) > COMPARE_BYTES else data


def file_diff(path: str, before: Side, after: Side) -> Diff:
    """The unified diff of ``path`` from ``before`` to ``after`` (git's ``a/``, ``b/`` and
    ``/dev/null`` headers), bounded as the module says."""
    head = ["--- /dev/null" if before is None else f"--- a/{path}",
            "+++ /dev/null" if after is None else f"+++ b/{path}"]
    for side in (before, after):
        if isinstance(side, Oversize):
            return Diff(0, 0, "\n".join(head + [f"\\ too large to compare ({side.size:,} "
                                                "bytes); no line diff"]))
        if side is not None and b"\x00" in side[:8192]:
            return Diff(0, 0, "\n".join(head + ["\\ binary file; no line diff"]))
    old, new = _lines(before), _lines(after)
    opcodes = _opcodes(old, new)
    added = sum(j2 - j1 for tag, _, _, j1, j2 in opcodes if tag != "equal")
    removed = sum(i2 - i1 for tag, i1, i2, _, _ in opcodes if tag != "equal")
    if not added and not removed:
        if before == after:
            return Diff(0, 0, "")
        return Diff(0, 0, "\n".join(head + ["\\ only line endings or the final newline "
                                            "changed"]))
    return Diff(added, removed, _bounded(head + list(_hunks(old, new, opcodes))))


def _lines(side: bytes | None) -> list[str]:
    return [] if side is None else side.decode("utf-8", errors="replace").splitlines()


def _opcodes(old: list[str], new: list[str]) -> list[Opcode]:
    """Opcodes as ``SequenceMatcher`` gives them, matching only the changed middle."""
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_end, new_end = len(old) - tail, len(new) - tail
    ops: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    if max(old_end, new_end) - head > MATCH_LINES and old_end == new_end:
        ops += _positional(old, new, head, old_end)
    elif max(old_end, new_end) - head > MATCH_LINES or old_end == head or new_end == head:
        ops.append(("replace", head, old_end, head, new_end))
    else:
        matcher = SequenceMatcher(None, old[head:old_end], new[head:new_end])
        ops += [(tag, i1 + head, i2 + head, j1 + head, j2 + head)
                for tag, i1, i2, j1, j2 in matcher.get_opcodes()]
    if tail:
        ops.append(("equal", old_end, len(old), new_end, len(new)))
    return [op for op in ops if op[2] > op[1] or op[4] > op[3]]


def _positional(old: list[str], new: list[str], start: int, end: int) -> list[Opcode]:
    """Opcodes of two equally long runs of lines compared at the same positions."""
    ops: list[Opcode] = []
    run_start = start
    for index in range(start, end + 1):
        if index < end and index > run_start \
                and (old[index] == new[index]) == (old[run_start] == new[run_start]):
            continue
        if index > run_start:
            tag = "equal" if old[run_start] == new[run_start] else "replace"
            ops.append((tag, run_start, index, run_start, index))
            run_start = index
    return ops


def _groups(opcodes: list[Opcode]) -> list[list[Opcode]]:
    """The opcodes in hunks with ``CONTEXT`` equal lines around each change (as
    ``SequenceMatcher.get_grouped_opcodes``)."""
    groups: list[list[Opcode]] = []
    group: list[Opcode] = []
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag != "equal":
            group.append((tag, i1, i2, j1, j2))
            continue
        if index == 0:
            i1, j1 = max(i1, i2 - CONTEXT), max(j1, j2 - CONTEXT)
        elif index == len(opcodes) - 1:
            i2, j2 = min(i2, i1 + CONTEXT), min(j2, j1 + CONTEXT)
        elif i2 - i1 > 2 * CONTEXT:
            group.append((tag, i1, i1 + CONTEXT, j1, j1 + CONTEXT))
            groups.append(group)
            group = []
            i1, j1 = i2 - CONTEXT, j2 - CONTEXT
        group.append((tag, i1, i2, j1, j2))
    if group and any(op[0] != "equal" for op in group):
        groups.append(group)
    return groups


def _range(start: int, stop: int) -> str:
    length = stop - start
    first = start + 1 if length else start
    return f"{first}" if length == 1 else f"{first},{length}"


def _hunks(old: list[str], new: list[str], opcodes: list[Opcode]) -> list[str]:
    out: list[str] = []
    for group in _groups(opcodes):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + line for line in old[i1:i2]]
                continue
            out += ["-" + line for line in old[i1:i2]]
            out += ["+" + line for line in new[j1:j2]]
    return out


def _bounded(lines: list[str]) -> str:
    kept: list[str] = []
    chars = 0
    for line in lines:
        if len(line) > LINE_CHARS:
            line = line[:LINE_CHARS] + f"… [{len(line) - LINE_CHARS:,} more characters]"
        if len(kept) >= MAX_LINES or chars + len(line) > MAX_CHARS:
            break
        kept.append(line)
        chars += len(line) + 1
    if len(kept) < len(lines):
        kept.append(f"\\ {len(lines) - len(kept):,} more diff lines not shown")
    return "\n".join(kept)
