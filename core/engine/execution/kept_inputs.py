"""The files a run keeps as they are: those the request only reads (its inputs) and those it
says not to touch, from the request's reading (``core.shapes.reading``). A folder keeps every
file under it; a pattern such as ``tests/*`` or ``test_*.py`` every file it matches.

The draft's blocks for such files are not taken, and any later write to one is refused with
the reason, whichever tool or engine asks for it.
"""

from __future__ import annotations

from fnmatch import fnmatch

from core.shapes.reading import EVERY_FILE, Reading
from core.tools.base import RunState, ToolError
from core.tools.paths import resolve


def kept_refusal(path: str, outputs: tuple[str, ...]) -> str:
    """A refused write's error: ``path`` is an input of a request that writes ``outputs``."""
    asked = f"the request asks for {', '.join(outputs[:4])} to be written; " if outputs else \
        "the request only reads it; "
    return f"not run: {asked}{path} is a file it reads, and stays as it is"


def forbidden_refusal(path: str, quote: str) -> str:
    """A refused write's error: the request says not to touch ``path``."""
    said = f" (\"{quote[:80]}\")" if quote else ""
    return f"not run: the request says not to change {path}{said}; it stays as it is"


def _covers(pattern: str, rel: str) -> bool:
    """Whether the kept path or pattern ``pattern`` covers the file ``rel``."""
    if rel == pattern or rel.startswith(pattern.rstrip("/") + "/"):
        return True
    return any(mark in pattern for mark in "*?[") and (
        fnmatch(rel, pattern) or fnmatch(rel.rsplit("/", 1)[-1], pattern))


class KeptInputs:
    """Which writes would change a file the request only reads or forbids (none until a
    reading is kept)."""

    def __init__(self, run: RunState) -> None:
        self.run = run
        self.outputs: tuple[str, ...] = ()  # the new files the request asks for
        self.files: tuple[str, ...] = ()  # the files or folders it only reads
        self.forbidden: tuple[str, ...] = ()  # the files, folders or patterns not to touch
        self.reading = Reading()

    def keep(self, reading: Reading) -> None:
        """Keep what ``reading`` only reads or forbids."""
        self.reading = reading
        self.outputs = reading.create
        self.files = reading.read
        self.forbidden = tuple(p for p in reading.forbid if p != EVERY_FILE)

    def _target(self, path: str) -> str | None:
        try:
            return resolve(self.run.workspace, path).rel
        except ToolError:
            return None  # the write tool refuses it itself, with its own reason

    def kept(self, path: str) -> bool:
        """Whether ``path`` (as a call names it) is one of the files kept as they are."""
        return bool(self.why(path))

    def why(self, path: str) -> str:
        """The refusal for a write of ``path`` ("" when it may be written)."""
        if not self.files and not self.forbidden:
            return ""
        rel = self._target(path)
        if rel is None or rel in self.outputs:
            return ""
        for pattern in self.forbidden:
            if _covers(pattern, rel):
                return forbidden_refusal(rel, self.reading.quote("forbid", pattern))
        if any(_covers(pattern, rel) for pattern in self.files):
            return kept_refusal(rel, self.outputs)
        return ""

    def refused(self, paths: set[str]) -> str:
        """The error for a call that writes ``paths`` when one is kept, else ""."""
        for path in sorted(paths):
            why = self.why(path)
            if why:
                return why
        return ""
