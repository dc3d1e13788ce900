"""A file whose content a program computes: counts, sums, sorted or filtered lists of what the
workspace holds. A small model asked for such a file writes wrong numbers (the 1.5B Qwen
wrote 0 TODO lines after its search had listed 6, summed a column wrongly, and did not sort
what it was asked to sort), while the program that works them out is code it writes well.
The program runs in a sandboxed copy of the workspace (``scratch``); what it prints is the
file's content.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from core.tools import scratch

# Files whose content may be computed: data and text, never code (a program printing code
# would be code written twice over).
DATA_SUFFIXES = frozenset({"", ".txt", ".csv", ".tsv", ".json", ".md", ".rst", ".yaml",
                           ".yml", ".toml", ".ini", ".cfg", ".xml", ".log", ".out"})
PRINTS = re.compile(r"\bprint\s*\(|\bsys\.stdout\.write\s*\(")
WRITES = re.compile(r"\bopen\s*\(|\.write_text\s*\(")
TIMEOUT_S = 20
CONTENT_CAP = 1024 * 1024  # bytes a program may print as a file's content
SHOWN = 600  # characters of a failing program's error kept for the model


@dataclass(frozen=True)
class Computed:
    """The content the program printed, or ``problem`` saying why there is none."""

    content: str | None
    problem: str = ""


def computable(path: str) -> bool:
    """Whether ``path`` is a data or text file, whose content a program may print."""
    return PurePosixPath(path).suffix.lower() in DATA_SUFFIXES


def is_program(block: str, path: str) -> bool:
    """Whether ``block`` (Python) is a program for the file ``path`` rather than its content:
    it prints, or it opens the file by name (the 1.5B Qwen, asked to print a count, wrote
    it into the file itself)."""
    if PRINTS.search(block):
        return True
    name = PurePosixPath(path).name
    return bool(WRITES.search(block)) and name in block


async def compute(workspace: Path, program: str, path: str, sandbox_mode: str,
                  timeout_s: float = TIMEOUT_S) -> Computed:
    """Run ``program`` in a copy of ``workspace`` (as its working folder) and take what it
    wrote to ``path`` there, or else what it printed, as the file's content. It fails when
    the program cannot run here, raises, runs out of time, gives nothing, or prints more
    than ``CONTENT_CAP``."""
    missing = scratch.unavailable(sandbox_mode)
    if missing:
        return Computed(None, f"the program could not run: {missing}")
    with tempfile.TemporaryDirectory(prefix="phasedesk-program-") as folder:
        root = Path(folder) / "workspace"
        copied = await asyncio.to_thread(scratch.copy_workspace, workspace, root, {})
        if copied:
            return Computed(None, f"the program could not run: {copied}")
        before = _read(root, path)
        ran = await scratch.run_python(root, sandbox_mode, timeout_s, stdin=program,
                                       merge=False, cap=CONTENT_CAP)
        after = _read(root, path)
    if ran.timed_out:
        return Computed(None, f"the program did not finish within {timeout_s:g} s")
    if ran.overflowed:
        return Computed(None, f"the program printed more than {CONTENT_CAP // 1024} KiB")
    if ran.code != 0:
        error = ran.errors.strip()[-SHOWN:] or ran.output.strip()[-SHOWN:]
        return Computed(None, f"the program failed (exit code {ran.code})"
                              f"{': ' + error if error else ''}")
    if after is not None and after != before and after.strip():
        return Computed(after)
    if not ran.output.strip():
        return Computed(None, f"the program printed nothing and did not write {path}")
    return Computed(ran.output)


def _read(root: Path, path: str) -> str | None:
    """The text at ``path`` in the copy ``root`` (bounded), None when there is none or it
    leads out of the copy (a link the program made)."""
    file = root / path
    try:
        if file.is_symlink() or not file.resolve().is_relative_to(root.resolve()) \
                or not file.is_file() or file.stat().st_size > CONTENT_CAP:
            return None
        return file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
