"""The files a request only reads: when all it asks to change are new files, the workspace
files it names only as what it reads ("users.json holds a list of users. Write emails.txt
with ..."; ``requested_files.read_only``) stay as they are, whatever writes the run plans; and
every file that was there before the run when each of its sentences asks or reads ("Which file
in the data folder is the largest? Write a report.txt …"; ``requested_files.reads_workspace``:
on the embedded runtime the draft for that request rewrote four of the five data files it
was to measure).

The draft is the model alone, and on both runtimes the 1.5B Qwen's draft for that request
wrote users.json back without one of its users (the one-shot reply the same): a person asking
for a list of emails lost a record. The draft's blocks for such files are not taken, and any
later write to one is refused with the reason.
"""

from __future__ import annotations

from pathlib import Path

from core.engine.verification.requested_files import outputs_only, read_only, reads_workspace
from core.tools.base import RunState, ToolError
from core.tools.checkpoint import Checkpoint
from core.tools.paths import resolve


def kept_refusal(path: str, outputs: tuple[str, ...]) -> str:
    """A refused write's error: ``path`` is an input of a request that writes ``outputs``."""
    return (f"not run: the request asks only for {', '.join(outputs[:4])} to be written; "
            f"{path} is a file it reads, and stays as it is")


class KeptInputs:
    """Which writes would change a file the request only reads (none until both are set)."""

    def __init__(self, run: RunState) -> None:
        self.run = run
        self.outputs: tuple[str, ...] = ()  # the new files the request asks for
        self.files: tuple[str, ...] = ()  # the workspace files it only reads
        self.every = False  # it reads every file that was there before the run

    def read(self, request: str, root: Path) -> None:
        """What ``request`` only reads in ``root``, when all it asks to change is new files."""
        self.outputs = outputs_only(request, root)
        self.files = read_only(request, root, self.outputs)
        self.every = reads_workspace(request, self.outputs)

    def kept(self, path: str) -> bool:
        """Whether ``path`` (as a call names it) is one of the files the request only reads."""
        if not self.files and not self.every:
            return False
        try:
            target = resolve(self.run.workspace, path)
        except ToolError:
            return False  # the write tool refuses it itself, with its own reason
        if target.rel in self.files:
            return True
        if not self.every or not target.is_file or target.rel in self.outputs:
            return False
        checkpoint = self.run.checkpoint  # a file this run created is its own to change
        return not (isinstance(checkpoint, Checkpoint) and checkpoint.wrote(target.rel)
                    and checkpoint.original_path(target.rel) is None)

    def refused(self, paths: set[str]) -> str:
        """The error for a call that writes ``paths`` when one is kept, else ""."""
        for path in sorted(paths):
            if self.kept(path):
                return kept_refusal(path, self.outputs)
        return ""
