"""What one write is described by: the context it builds on (``WriteContext``), the stage's
proposal (``Candidate``), and one file's writes in the run (``FileRecord``)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from core.engine.authoring.evidence import Evidence


@dataclass(frozen=True)
class WriteContext:
    """What the engine knows around one write: the person's words and language, and the
    results the write builds on (bounded text)."""

    words: str
    language: str = ""
    related: str = ""


@dataclass(frozen=True)
class Candidate:
    """The stage's proposal for one write: ``content`` to write (None: nothing, ``problem``
    says why), the file as it is (``before``), where it came from (draft, authored, repair),
    ``kept`` when the file stays as it is (no candidate did better), the evidence, and notes
    for the write's result (what an assist changed, the program that computed it)."""

    path: str
    content: str | None
    problem: str = ""
    before: str | None = None
    source: str = "authored"
    kept: bool = False
    evidence: Evidence = field(default_factory=Evidence)
    notes: tuple[str, ...] = ()
    program: str = ""
    tried: tuple[dict[str, object], ...] = ()  # the versions weighed (``candidates``), if any

    def diff(self) -> str:
        """The unified diff from the file as it is to the candidate."""
        old = (self.before or "").splitlines(keepends=True)
        new = (self.content or "").splitlines(keepends=True)
        return "".join(difflib.unified_diff(old, new, f"a/{self.path}", f"b/{self.path}"))

    def facts(self) -> str:
        return self.evidence.facts()


@dataclass
class FileRecord:
    """One file's writes in this run: the content the run last wrote and its evidence (the
    floor), and why tries failed."""

    original: str | None = None
    drafted: bool = False
    written: str | None = None
    evidence: Evidence | None = None
    failures: list[str] = field(default_factory=list)
